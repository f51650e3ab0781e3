#include "cli/ensemble_command.hpp"
#include "cli/plots.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "cli/output.hpp"
#include "geomint/ensemble/random.hpp"
#include "geomint/ensemble/threads.hpp"
#include "geomint/ensemble/trajectory.hpp"
#ifdef GEOMINT_WITH_MPI
#include "geomint/ensemble/mpi.hpp"
#endif

namespace geomint::cli {

namespace ens = geomint::ensemble;

// ---- MPI ----------------------------------------------------------------------------------------
namespace {
const char* env(const char* name) { return std::getenv(name); }
int env_int(const char* name, int otherwise) {
  const char* v = env(name);
  return v ? std::atoi(v) : otherwise;
}
}  // namespace

mpi_session::mpi_session(int& argc, char**& argv) {
  const bool launched = env("OMPI_COMM_WORLD_SIZE") || env("PMIX_RANK") || env("PMI_RANK");
  if (!launched) {
    // srun starting several tasks without an MPI process-management interface (no --mpi=pmix,
    // and no PMI plugin configured): each task would think it is alone and run, and write, the
    // whole ensemble.
    const int tasks = env_int("SLURM_STEP_NUM_TASKS", 1);
    if (tasks > 1) {
      rank_ = env_int("SLURM_PROCID", 0);
      size_ = tasks;
      problem_ = "started by srun as task " + std::to_string(rank_) + " of " + std::to_string(tasks) +
                 " without an MPI process-management interface (no PMIx or PMI variables), so every task "
                 "would run the whole ensemble; launch it with srun --mpi=pmix (or mpirun), or as one task "
                 "with --threads K";
    }
    return;
  }
#ifdef GEOMINT_WITH_MPI
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED)
    problem_ = "the MPI library does not provide MPI_THREAD_FUNNELED (needed: one thread communicates, others compute)";
#else
  (void)argc, (void)argv;
  rank_ = env_int("OMPI_COMM_WORLD_RANK", env_int("PMIX_RANK", env_int("PMI_RANK", 0)));
  size_ = env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", env_int("SLURM_NTASKS", 1)));
  if (size_ > 1)
    problem_ = "started as one of " + std::to_string(size_) +
               " MPI ranks, but this geomint was built without MPI (GEOMINT_WITH_MPI is OFF; install "
               "libopenmpi-dev and rebuild), so every rank would run the whole ensemble; run it without mpirun "
               "(it uses threads: --threads K)";
#endif
}

mpi_session::~mpi_session() {
#ifdef GEOMINT_WITH_MPI
  int finalized = 1;
  if (active_ && (MPI_Finalized(&finalized), !finalized)) MPI_Finalize();
#endif
}

void mpi_session::abort(int code) const {
#ifdef GEOMINT_WITH_MPI
  if (active_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
#else
  (void)code;
#endif
}

// ---- --vary -------------------------------------------------------------------------------------
namespace {
std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

std::vector<variation> parse_variations(const std::vector<std::string>& texts, const std::vector<parameter>& parameters,
                                        const std::vector<std::string>& sets) {
  std::vector<variation> out;
  std::set<std::string> set_names;
  for (const auto& s : sets) set_names.insert(trim(s.substr(0, s.find('='))));
  for (const auto& text : texts) {
    const std::size_t eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || colon == std::string::npos || eq == 0)
      throw usage_error("--vary expects name=lo:hi, got '" + text + "'");
    variation v;
    v.name = trim(text.substr(0, eq));
    const auto p = std::find_if(parameters.begin(), parameters.end(), [&](const parameter& x) { return x.name == v.name; });
    if (p == parameters.end()) {
      std::string valid;
      for (const auto& x : parameters) valid += (valid.empty() ? "" : ", ") + x.name;
      throw usage_error("--vary: the problem has no parameter '" + v.name + "'; valid: " +
                        (valid.empty() ? std::string("it has no parameters") : valid));
    }
    for (const auto& earlier : out)
      if (earlier.name == v.name) throw usage_error("--vary " + v.name + " is given twice");
    if (set_names.count(v.name)) throw usage_error("--vary " + v.name + ": the parameter is also fixed with --set");
    v.lo = parse_number("--vary " + v.name + " (lo)", trim(text.substr(eq + 1, colon - eq - 1)));
    v.hi = parse_number("--vary " + v.name + " (hi)", trim(text.substr(colon + 1)));
    if (v.lo > v.hi)
      throw usage_error("--vary " + v.name + ": lo = " + format_number(v.lo) + " is above hi = " + format_number(v.hi));
    if (!std::isfinite(v.hi - v.lo))
      throw usage_error("--vary " + v.name + ": the range " + format_number(v.lo) + " ... " + format_number(v.hi) +
                        " is wider than the largest double");
    v.integer = p->integer;
    if (v.integer && (v.lo != std::floor(v.lo) || v.hi != std::floor(v.hi)))
      throw usage_error("--vary " + v.name + ": a whole-number parameter needs whole lo and hi, got '" + text + "'");
    out.push_back(v);
  }
  return out;
}

namespace {

/// The varied values of trajectory i, drawn in --vary order from its own engine.
std::vector<double> draw(std::uint64_t seed, std::uint64_t i, const std::vector<variation>& vary) {
  std::mt19937_64 engine = ens::trajectory_engine(seed, i);
  std::vector<double> v;
  for (const auto& x : vary)
    v.push_back(x.integer ? ens::uniform_integer(engine, x.lo, x.hi) : ens::uniform(engine, x.lo, x.hi));
  return v;
}

/// A runner as an ensemble trajectory (its state packed on demand).
class runner_trajectory {
 public:
  explicit runner_trajectory(runner& r) : r_(r) {}
  void step(double t, double dt) { r_.step(t, dt); }
  const std::vector<double>& state() const {
    r_.state(x_);
    return x_;
  }

 private:
  runner& r_;
  mutable std::vector<double> x_;
};

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Finished trajectories on stderr: a bar on a terminal (after 2 s, at most ten redraws a
/// second); under MPI, where stderr reaches the user through mpirun (never a terminal), a line
/// every 10 s, for batch logs.
class trajectory_progress {
 public:
  explicit trajectory_progress(bool mpi) : start_(wall_seconds()), tty_(isatty(STDERR_FILENO) == 1), lines_(mpi && !tty_) {}
  ~trajectory_progress() { finish(); }
  void update(std::uint64_t done, std::uint64_t total) {
    const double now = wall_seconds();
    if (now - start_ < 2.0) return;
    if (tty_ && now - last_ >= 0.1) {
      const int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
      std::fprintf(stderr, "\rensemble [%s%s] %llu/%llu trajectories  %.0f s  (Ctrl-C stops)",
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(width - filled), '.').c_str(),
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), now - start_);
      std::fflush(stderr);
      drawn_ = true;
      last_ = now;
    } else if (lines_ && now - last_ >= 10.0) {
      std::fprintf(stderr, "geomint: %llu of %llu trajectories finished, %.0f s\n", static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total), now - start_);
      std::fflush(stderr);
      last_ = now;
    }
  }
  void finish() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r%*s\r", 90, "");
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  double start_, last_ = 0;
  bool tty_, lines_, drawn_ = false;
};

std::string cell(double v) { return exact_number(v); }

/// Every trajectory's section points, in trajectory order: <problem>_ensemble_section.csv
/// (trajectory, t, x, y), written as the records arrive, then a Poincaré map coloured by
/// trajectory.
class ensemble_section {
 public:
  ensemble_section(const ensemble_request& q, const section_definition& section)
      : q_(q), section_(section), out_(q.out + "/" + q.problem + "_ensemble_section.csv") {
    out_.comment("section " + section.name + ": " + section.definition);
    out_.header({"trajectory", "t", section.x_name, section.y_name});
  }
  void add(const ens::trajectory_record& r) {
    for (const auto& c : r.crossings) {
      out_.row({static_cast<double>(r.index), c.t, c.state.at(0), c.state.at(1)});
      ++points_;
    }
  }
  void finish() {
    out_.close();
    if (points_ == 0) {
      std::printf("section %s: 0 points -> %s\n", section_.name.c_str(), out_.path().c_str());
      std::fprintf(stderr, "geomint: note: no trajectory crossed section %s: no PNG\n", section_.name.c_str());
      return;
    }
    std::string message;
    const auto written = write_section_plot({q_.out, q_.problem, section_.name, section_.definition, section_.x_name,
                                             section_.y_name, q_.problem + "_ensemble_section.png", {}, true},
                                            message);
    std::printf("section %s: %ld points -> %s%s%s\n", section_.name.c_str(), points_, out_.path().c_str(),
                written.empty() ? "" : ", ", written.empty() ? "" : written.front().c_str());
    if (!message.empty()) std::fprintf(stderr, "geomint: note: %s\n", message.c_str());
  }

 private:
  const ensemble_request& q_;
  const section_definition& section_;
  csv_file out_;
  long points_ = 0;
};

/// A failed trajectory, for the messages after the run.
struct failure {
  std::uint64_t index;
  double t;
  std::string reason;
};

}  // namespace

int ensemble_command(const ensemble_request& q, const mpi_session& mpi) {
  if (!mpi.problem().empty()) throw usage_error(mpi.problem());
  const problem_descriptor& d = find_problem(q.problem);
  const method_descriptor& m = find_method(q.method, q.problem);
  const runner_factory& factory = m.problems.at(q.problem);
  const std::vector<variation> vary = parse_variations(q.varies, q.parameters, q.sets);
  const parameter_values base(q.parameters);
  const auto base_problem = d.make(base);  // invalid fixed parameters: a usage error, before any work
  const std::vector<invariant> invariants = base_problem->invariants();
  std::vector<bool> conserved;
  for (const auto& inv : invariants) conserved.push_back(is_conserved(inv.kind));
  const unsigned threads = q.threads ? q.threads : mpi.active() ? 1u : ens::default_thread_count();
  const section_definition* section = checked_section(d, q.section, {&m});

  ens::time_grid grid;
  grid.dt = q.plan.dt;
  grid.steps = q.plan.steps;
  grid.every = q.plan.every;

  // Rank 0 creates the output files before any work (an unwritable directory stops every rank).
  const bool writer = mpi.rank() == 0;
  std::unique_ptr<csv_file> csv;
  std::unique_ptr<ensemble_section> section_out;
  std::string setup_error;
  if (writer) {
    try {
      make_directory(q.out);
      csv = std::make_unique<csv_file>(q.out + "/" + q.problem + "_ensemble.csv");
      if (section) section_out = std::make_unique<ensemble_section>(q, *section);
    } catch (const io_error& e) {
      setup_error = e.what();
    }
  }
#ifdef GEOMINT_WITH_MPI
  if (mpi.active()) {
    int failed = setup_error.empty() ? 0 : 1;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed && !writer) return 3;
  }
#endif
  if (!setup_error.empty()) throw io_error(setup_error);

  std::string vary_text, execution_text;
  for (const auto& v : vary)
    vary_text += (vary_text.empty() ? "" : " ") + v.name + "=" + exact_number(v.lo) + ":" + exact_number(v.hi);
  execution_text = (mpi.active() ? std::to_string(mpi.size()) + (mpi.size() == 1 ? " rank x " : " ranks x ") : "") +
                   std::to_string(threads) + (threads == 1 ? " thread" : " threads") + (mpi.active() ? " each" : "");
  if (writer) {
    std::printf("%s: %llu trajectories, %s (%s), dt = %g, t-end = %g (%ld steps, observed every %ld); %s -> %s\n",
                q.problem.c_str(), static_cast<unsigned long long>(q.samples), m.properties.alias.c_str(),
                m.properties.id().c_str(), q.plan.dt, q.plan.t_end, q.plan.steps, q.plan.every, execution_text.c_str(),
                csv->path().c_str());
    std::fflush(stdout);
    csv_preamble{q.version, q.problem, q.parameters}.write(
        *csv, {{"method", m.properties.id() + " (" + m.properties.alias + ")"},
               {"dt", exact_number(q.plan.dt)},
               {"t_end", exact_number(q.plan.t_end)},
               {"steps", std::to_string(q.plan.steps)},
               {"every", std::to_string(q.plan.every)},
               {"samples", std::to_string(q.samples)},
               {"seed", std::to_string(q.seed)},
               {"vary", vary_text.empty() ? "(none)" : vary_text},
               {"sampling", "trajectory i draws each varied parameter in this order, uniformly in [lo, hi) (whole "
                            "numbers: lo ... hi), from std::mt19937_64 seeded with std::seed_seq{seed mod 2^32, "
                            "seed / 2^32, i mod 2^32, i / 2^32}, top 53 bits"},
               {"execution", execution_text}});
    std::vector<std::string> columns{"trajectory"};
    for (const auto& v : vary) columns.push_back(v.name);
    columns.push_back("status");
    for (const auto& inv : invariants)
      columns.push_back(is_conserved(inv.kind) ? "max_" + inv.name + "_error" : "final_" + inv.name + "_residual");
    for (const char* col : {"steps", "t_reached", "cpu_seconds", "reason"}) columns.push_back(col);
    csv->header(columns);
  }

  // Trajectory i: its parameters drawn from (seed, i), its own problem, stepper and observer.
  const ens::trajectory_work work = [&](std::uint64_t i, ens::trajectory_record& record, const std::atomic<bool>& stop) {
    parameter_values values = base;
    const std::vector<double> drawn = draw(q.seed, i, vary);
    for (std::size_t k = 0; k < vary.size(); ++k) values.set(vary[k].name, drawn[k], q.problem);
    std::unique_ptr<problem_instance> problem;
    try {
      problem = d.make(values);
    } catch (const std::exception& e) {
      record.status = ens::trajectory_status::failed;
      record.reason = std::string("invalid data: ") + e.what();
      return;
    }
    const std::unique_ptr<runner> r = factory(*problem);
    runner_trajectory trajectory(*r);
    auto observer = ens::make_invariant_observer(
        conserved, [&](const std::vector<double>& x, std::vector<double>& out) { problem->evaluate_invariants(x, out); });
    if (!section) {
      ens::integrate(trajectory, grid, observer, record, stop);
    } else {  // each step's section crossing as (x, y), located on the method's extension
      double g0 = section->g(trajectory.state());
      std::vector<double> scratch;
      auto hook = [&](runner_trajectory&, double t1, ens::trajectory_record& rec) {
        double t = 0;
        if (locate_section_crossing(*r, *section, t1 - grid.dt, t1, g0, scratch, t))
          rec.crossings.push_back({0, t, {section->x(scratch), section->y(scratch)}});
      };
      ens::integrate(trajectory, grid, observer, record, stop, hook);
    }
    record.final_state.clear();  // not written: kept off the gather
  };

  // ---- rank 0 writes each record as it arrives, in trajectory order (ens::record_sink) ----
  std::uint64_t ok = 0, failed = 0, stopped = 0, not_run = 0;
  std::vector<double> worst(invariants.size(), 0.0);
  std::vector<failure> failures;  // the first few, for stderr
  const std::size_t shown = 5;
  double cpu = 0;
  const ens::record_sink sink = [&](ens::trajectory_record&& r, int stop_code) {
    std::vector<std::string> cells{std::to_string(r.index)};
    for (double v : draw(q.seed, r.index, vary)) cells.push_back(cell(v));
    cells.push_back(ens::to_string(r.status));
    const bool measured = r.steps > 0 && r.max_error.size() == invariants.size();
    for (std::size_t k = 0; k < invariants.size(); ++k)
      cells.push_back(!measured ? "" : cell(is_conserved(invariants[k].kind) ? r.max_error[k] : r.final_error[k]));
    const bool ran = r.status != ens::trajectory_status::not_run;
    cells.push_back(ran ? std::to_string(r.steps) : "");
    cells.push_back(ran ? cell(r.t_reached) : "");
    cells.push_back(ran ? cell(r.cpu_seconds) : "");
    std::string reason = r.reason;
    if (r.status == ens::trajectory_status::interrupted) reason = "interrupted by " + signal_name(stop_code);
    cells.push_back(csv_cell(reason));
    csv->text_row(cells);
    if (section_out) section_out->add(r);
    cpu += r.cpu_seconds;
    switch (r.status) {
      case ens::trajectory_status::ok:
        ++ok;
        for (std::size_t k = 0; measured && k < invariants.size(); ++k)
          worst[k] = std::fmax(worst[k], is_conserved(invariants[k].kind) ? r.max_error[k] : r.final_error[k]);
        break;
      case ens::trajectory_status::failed:
        ++failed;
        if (failures.size() < shown) failures.push_back({r.index, r.t_reached, r.reason});
        break;
      case ens::trajectory_status::interrupted: ++stopped; break;
      case ens::trajectory_status::not_run: ++not_run; break;
    }
  };

  trajectory_progress progress(mpi.active());
  const auto show = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
  const auto stop = [] { return static_cast<int>(interrupted); };
  const double wall0 = wall_seconds();
  ens::run_result result;
#ifdef GEOMINT_WITH_MPI
  if (mpi.active())
    result = ens::run_indexed(q.samples, work,
                              ens::mpi_execution{MPI_COMM_WORLD, threads, show, stop, writer ? sink : ens::record_sink{}});
  else
#endif
    result = ens::run_indexed(q.samples, work, ens::execution{threads, show, stop, sink});
  const double wall = wall_seconds() - wall0;
  progress.finish();
  if (!writer) return 0;

  std::string status = result.stop_code ? "interrupted (" + signal_name(result.stop_code) + ")" : failed ? "FAILED" : "ok";
  status += ": " + std::to_string(ok + failed) + " of " + std::to_string(q.samples) + " trajectories finished (" +
            std::to_string(ok) + " ok, " + std::to_string(failed) + " FAILED)";
  if (stopped || not_run)
    status += ", " + std::to_string(stopped) + " interrupted, " + std::to_string(not_run) + " not run";
  csv->comment("status: " + status);
  csv->close();

  std::printf("%s; %.3f s wall, %.1f trajectories/s, %.3f CPU s in trajectories\n", status.c_str(), wall,
              wall > 0 ? static_cast<double>(ok + failed) / wall : 0.0, cpu);
  if (ok) {
    std::printf("largest over the ok trajectories:");
    for (std::size_t k = 0; k < invariants.size(); ++k)
      std::printf(" %s %.2e%s", (is_conserved(invariants[k].kind) ? "max_" + invariants[k].name + "_error"
                                                                  : "final_" + invariants[k].name + "_residual")
                                    .c_str(),
                  worst[k], k + 1 < invariants.size() ? "," : "");
    std::printf("\n");
  }
  std::printf("written: %s\n", csv->path().c_str());
  if (section_out) section_out->finish();
  std::fflush(stdout);
  for (const failure& f : failures)
    std::fprintf(stderr, "geomint: trajectory %llu failed at t = %g: %s\n", static_cast<unsigned long long>(f.index), f.t,
                 f.reason.c_str());
  if (failed > failures.size())
    std::fprintf(stderr, "geomint: %llu more trajectories failed (the reason column of %s says why)\n",
                 static_cast<unsigned long long>(failed - failures.size()), csv->path().c_str());
  if (result.stop_code) {
    std::fprintf(stderr, "geomint: stopped by %s; %s holds every finished trajectory\n",
                 signal_name(result.stop_code).c_str(), csv->path().c_str());
    return 128 + result.stop_code;
  }
  return failed ? 2 : 0;
}

}  // namespace geomint::cli
