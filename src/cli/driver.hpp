// Runs methods and references on a problem instance, samples their invariants, writes CSV, and
// summarizes. No stepper is instantiated here: everything goes through registry.hpp.
#pragma once

#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/registry.hpp"

namespace geomint::cli {

/// A file could not be written: exit code 3.
struct io_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A CSV file; every write is checked (io_error). Numbers are written exactly: the shortest
/// decimal that reads back to the same double (at most 17 significant digits), "nan" if not
/// finite. Lines starting with '#' are comments (the header describing the run, the status at
/// the end).
class csv_file {
 public:
  explicit csv_file(const std::string& path);
  void comment(const std::string& text);
  void header(const std::vector<std::string>& columns);
  void row(const std::vector<double>& values);
  void text_row(const std::vector<std::string>& cells);
  void close();
  const std::string& path() const { return path_; }

 private:
  void check();
  std::string path_;
  std::ofstream out_;
};

/// v as the shortest decimal that reads back to the same double ("0.1", "1e-20"), or "nan".
std::string exact_number(double v);
/// A CSV cell: quoted (with "" for ") if it holds a comma, quote or line break.
std::string csv_cell(const std::string& text);
/// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

/// A progress bar on stderr, drawn only when stderr is a terminal and the task has run for
/// more than 2 s; at most ten redraws a second.
class progress_bar {
 public:
  explicit progress_bar(std::string label);
  ~progress_bar() { finish(); }
  void update(double fraction);
  void finish();

 private:
  std::string label_;
  double start_, last_draw_ = 0;
  bool tty_, drawn_ = false;
};

/// One integration's outcome. Errors of conserved quantities are (X − X₀)/max(1, |X₀|); the
/// maxima are over the samples.
struct run_summary {
  std::string method, setting;  ///< e.g. "rattle", "dt=0.01" / "rtol=1e-08"
  bool ok = true;
  int interrupted = 0;  ///< the signal that stopped the run (SIGINT, SIGTERM), or 0
  std::string error;    ///< why it failed
  long steps = 0, samples = 0;
  double t_reached = 0, cpu_seconds = 0;
  double max_energy_error = 0, max_momentum_error = 0, max_casimir_error = 0;
  double final_constraint = 0, final_hidden_constraint = 0, max_constraint = 0;
  bool has_constraint = false, has_hidden_constraint = false, has_momentum = false, has_casimir = false;
  std::string status() const { return interrupted ? "interrupted" : ok ? "ok" : "FAILED"; }
  /// The errors were measured: there is a sample after the initial state.
  bool measured() const { return samples > 1; }
};

/// Turns states into invariant errors, keeps the summary, and writes rows
/// (t, [state], invariants…) to an optional CSV.
class sampler {
 public:
  sampler(const problem_instance& problem, run_summary& summary, csv_file* csv, bool with_state);
  void sample(double t, const std::vector<double>& state);
  /// CSV columns: t, state names (if with_state), invariant names (errors / residuals).
  std::vector<std::string> columns() const;

 private:
  const problem_instance& problem_;
  run_summary& summary_;
  csv_file* csv_;
  bool with_state_;
  std::vector<invariant> invariants_;
  std::vector<double> initial_, values_, row_;
};

struct step_plan {
  double dt = 0.01, t_end = 1;
  long steps = 0;  ///< round(t_end / dt)
  long every = 1;  ///< sample every `every` steps (and the last)
};

/// The Poincaré-section points of one run: after every step the sign of the section function
/// is compared with the previous step's; a crossing in the section's direction is located on
/// the method's continuous extension with Boost.Math's TOMS 748 (to 1e-13 of the step) and
/// written to `csv` as (t, x, y). The steps themselves are unchanged.
struct section_recorder {
  const section_definition* definition = nullptr;
  csv_file* csv = nullptr;
  long points = 0;
};

/// Whether the section was crossed in the last step [t0, t1] of r (g0: the section function at
/// t0, updated to its value at t1); if so t_cross and state are the crossing's, located on the
/// continuous extension with TOMS 748 to 1e-13 of the step. `state` is scratch otherwise.
bool locate_section_crossing(runner& r, const section_definition& def, double t0, double t1, double& g0,
                             std::vector<double>& state, double& t_cross);

/// Integrates with a fixed-step method, sampling at step 0, every plan.every steps and the
/// last. A geomint::step_error ends the run as failed (its message kept); SIGINT and SIGTERM
/// end it as interrupted. Either way the last good state is sampled, and the CSV ends with a
/// "# status: ..." line. CPU time counts the steps only.
run_summary run_method(const problem_instance& problem, const method_descriptor& method, const std::string& problem_name,
                       const step_plan& plan, csv_file* csv, bool with_state, bool show_progress,
                       section_recorder* section = nullptr);

/// Integrates with a reference solver at rtol = atol = tolerance, sampled at `sample_times`;
/// the CSV ends with a "# status: ..." line.
run_summary run_reference(const problem_instance& problem, const reference_descriptor& reference,
                          const std::string& problem_name, double t_end, double tolerance,
                          const std::vector<double>& sample_times, csv_file* csv, bool show_progress);

/// The summary table on stdout, one row at a time as runs finish (each flushed); a failed run's
/// reason goes to stderr (unless with_reason is false). Values not measured (no sample after
/// t = 0) or not applicable: "-".
void print_table_header();
void print_table_row(const run_summary& row, bool with_reason = true);

/// Summary CSV columns and one run's cells: not applicable or not measured values are empty,
/// `status` says ok / FAILED / interrupted and `reason` why.
std::vector<std::string> summary_columns();
std::vector<std::string> summary_cells(const run_summary& row);

/// CPU seconds of this process.
double cpu_seconds();

}  // namespace geomint::cli
