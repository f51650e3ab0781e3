// The geomint command, run as a user runs it: exit codes, messages naming the valid choices,
// and the CSV / PNG files it writes. Horizons are short so the whole suite takes seconds (also
// under the sanitizers).
#define BOOST_TEST_MODULE geomint_cli
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "geomint/config.hpp"

namespace {

struct result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Runs `geomint <args>` in a fresh directory under the build tree, capturing stdout, stderr
/// and the exit code.
std::string prepare(const std::string& dir) {
  const std::string work = std::string(GEOMINT_CLI_WORKDIR) + "/" + dir;
  BOOST_REQUIRE(std::system(("rm -rf '" + work + "' && mkdir -p '" + work + "'").c_str()) == 0);
  return work;
}

/// `launcher`, if given, goes before the command (`mpiexec -n 2`).
result geomint(const std::string& args, const std::string& dir, const std::string& launcher = "") {
  const std::string work = prepare(dir);
  const std::string cmd = "cd '" + work + "' && " + launcher + (launcher.empty() ? "" : " ") + std::string(GEOMINT_CLI) +
                          " " + args + " > stdout.txt 2> stderr.txt";
  const int status = std::system(cmd.c_str());
  result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(work + "/stdout.txt");
  r.err = slurp(work + "/stderr.txt");
  return r;
}

std::string path(const std::string& dir, const std::string& file) { return std::string(GEOMINT_CLI_WORKDIR) + "/" + dir + "/" + file; }

bool non_empty_file(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && st.st_size > 0;
}

struct csv {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<double> column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) {
        std::vector<double> c;
        for (const auto& r : rows) c.push_back(r.at(i));
        return c;
      }
    BOOST_FAIL("no column " + name);
    return {};
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) cells.push_back(cell);
  return cells;
}

/// A CSV file as geomint writes it: '#' comment lines, a header line, then numbers (an empty
/// cell is NaN). Every row must be complete.
csv read_csv(const std::string& p) {
  std::ifstream f(p);
  BOOST_REQUIRE_MESSAGE(f, "cannot read " + p);
  csv c;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("#", 0) == 0) continue;
    if (c.columns.empty()) {
      c.columns = split(line);
      continue;
    }
    std::vector<double> row;
    for (const auto& cell : split(line)) row.push_back(cell.empty() ? NAN : std::stod(cell));
    if (!line.empty() && line.back() == ',') row.push_back(NAN);
    BOOST_REQUIRE_EQUAL(row.size(), c.columns.size());
    c.rows.push_back(row);
  }
  return c;
}

/// The lines of a text file.
std::vector<std::string> lines_of(const std::string& p) {
  std::ifstream f(p);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(f, line)) lines.push_back(line);
  return lines;
}

/// The last line of a file.
std::string last_line(const std::string& p) {
  const auto lines = lines_of(p);
  return lines.empty() ? "" : lines.back();
}

/// The cells of a CSV line with quoted cells ("a, b" is one cell; "" inside is a quote).
std::vector<std::string> split_quoted(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') cells.back() += line[++i];
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

/// The row of a summary / work-precision CSV whose first two cells are (method, setting), as
/// cells; empty if there is none.
std::vector<std::string> summary_row(const std::string& p, const std::string& method, const std::string& setting) {
  for (const auto& line : lines_of(p)) {
    const auto cells = split_quoted(line);
    if (cells.size() >= 2 && cells[0] == method && cells[1] == setting) return cells;
  }
  return {};
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::fmax(m, std::fabs(x));
  return m;
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

std::string trim_copy(const std::string& s) {
  const std::size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

/// The words of the table row (stdout) of `method`: method, setting, status, max|dE|, final g,
/// final Gv, max|dJ|, max|dC|, steps, CPU s, steps/s.
std::vector<std::string> table_row(const std::string& out, const std::string& method) {
  std::stringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::stringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    if (!row.empty() && row[0] == method) return row;
  }
  return {};
}

bool have_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

}  // namespace

BOOST_AUTO_TEST_CASE(list_shows_problems_methods_and_properties) {
  const result r = geomint("list", "list");
  BOOST_TEST(r.code == 0);
  for (const char* name : {"double-spherical-pendulum", "spherical-pendulum", "pendulum-chain", "variable-mass-sphere",
                           "heavy-top", "particle-on-ellipsoid", "double-spherical-pendulum-s2", "heavy-top-so3",
                           "free-rigid-body", "heavy-top-se3", "rigid-body-so5", "sine-euler-su3", "rattle",
                           "constrained_rattle_2_2", "lobatto3", "constrained_lobatto_4_3", "shake", "leapfrog",
                           "lie_rkmk_rk4_exp_4_4", "discrete_gradient", "moser_veselov", "lie_discrete_gradient_gonzalez_exp_2_1",
                           "symplectic", "ida_ggl", "odeint_dopri5"})
    BOOST_TEST(contains(r.out, name), "list mentions " << name);
}

BOOST_AUTO_TEST_CASE(run_rattle_writes_a_csv_with_small_invariant_errors) {
  const result r = geomint("run double-spherical-pendulum --method rattle --dt 0.01 --t-end 10 --every 10 --out o", "run");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const csv c = read_csv(path("run", "o/double-spherical-pendulum_rattle.csv"));
  BOOST_TEST(c.columns.size() == 1u + 12u + 4u);  // t, q1..q6, p1..p6, energy, g, hidden, Lz
  BOOST_TEST(c.rows.size() == 101u);             // t = 0, 0.1, …, 10
  BOOST_TEST(c.column("t").back() == 10.0, boost::test_tools::tolerance(1e-12));
  // RATTLE is second order and symplectic: a bounded energy error ~ C h²; 7.6e-4 is measured
  // at h = 0.01 on this problem over [0, 200], so 2e-3 leaves room without admitting O(h).
  BOOST_TEST(max_abs(c.column("energy_error")) < 2e-3);
  BOOST_TEST(max_abs(c.column("energy_error")) > 1e-6);  // and it is a real, nonzero error
  // Constraints and the hidden constraint are solved to round-off (scaled residuals ~1e-16).
  BOOST_TEST(max_abs(c.column("constraint_residual")) < 1e-14);
  BOOST_TEST(max_abs(c.column("hidden_constraint_residual")) < 1e-14);
  // Lz is a linear symmetry's momentum: exact up to round-off accumulation (|Lz| ~ 100).
  BOOST_TEST(max_abs(c.column("Lz_error")) < 1e-12);
  BOOST_TEST(contains(r.out, "rattle"));
  BOOST_TEST(contains(r.out, "ok"));
}

BOOST_AUTO_TEST_CASE(run_set_overrides_parameters) {
  const result r = geomint("run pendulum-chain --method lobatto3 --dt 0.01 --t-end 0.5 --set links=3 --set mass=2 --out o",
                           "chain");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const csv c = read_csv(path("chain", "o/pendulum-chain_lobatto3.csv"));
  BOOST_TEST(c.columns.size() == 1u + 18u + 4u);  // 3 links: q, p ∈ ℝ⁹
  BOOST_TEST(max_abs(c.column("constraint_residual")) < 1e-14);
  // The changed mass shows in the state: p = m v with m = 2 against the default 1.
  const result d = geomint("run pendulum-chain --method lobatto3 --dt 0.01 --t-end 0.5 --set links=3 --out o", "chain1");
  BOOST_TEST_REQUIRE(d.code == 0, d.err);
  const csv c1 = read_csv(path("chain1", "o/pendulum-chain_lobatto3.csv"));
  BOOST_TEST(c.column("p2").front() == 2 * c1.column("p2").front(), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(compare_writes_csv_and_plots) {
  const result r = geomint("compare double-spherical-pendulum --methods rattle,lobatto3 --dt 0.02 --t-end 2 --ida 1e-6 "
                           "--dopri5 1e-6 --out c",
                           "compare");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  for (const char* f : {"summary", "series_rattle", "series_lobatto3", "series_ida_ggl", "series_odeint_dopri5",
                        "work_precision"})
    BOOST_TEST(non_empty_file(path("compare", std::string("c/double-spherical-pendulum_") + f + ".csv")), f);
  const std::string summary = slurp(path("compare", "c/double-spherical-pendulum_summary.csv"));
  for (const char* m : {"rattle,dt=0.02,ok", "lobatto3,dt=0.02,ok", "ida_ggl,rtol=1e-06,ok", "odeint_dopri5,rtol=1e-06,ok"})
    BOOST_TEST(contains(summary, m), m);
  // The work–precision file has five step sizes per method and four tolerances per reference.
  std::size_t wp_rows = 0;
  for (const auto& line : lines_of(path("compare", "c/double-spherical-pendulum_work_precision.csv")))
    wp_rows += line.rfind("#", 0) != 0 && line.rfind("method,", 0) != 0;
  BOOST_TEST(wp_rows == 2u * 5u + 2u * 4u);
  // The IDA reference keeps g to its tolerance, dopri5 on the index-1 ODE does not hold it exactly.
  const csv ida = read_csv(path("compare", "c/double-spherical-pendulum_series_ida_ggl.csv"));
  BOOST_TEST(max_abs(ida.column("constraint_residual")) < 1e-6);
  BOOST_TEST(ida.column("t").back() == 2.0, boost::test_tools::tolerance(1e-12));
  // The legends name each series' step or tolerance; titles are short enough to fit.
  const std::string script = slurp(path("compare", "c/double-spherical-pendulum_plots.gp"));
  for (const char* title : {"title 'rattle, h = 0.02'", "title 'lobatto3, h = 0.02'", "title 'ida_ggl, rtol = atol = 1e-06'",
                            "title 'rattle, h = 0.08 ... 0.005'", "title 'ida_ggl, rtol = 1e-4 ... 1e-10'"})
    BOOST_TEST(contains(script, title), title);
  for (const auto& line : lines_of(path("compare", "c/double-spherical-pendulum_plots.gp")))
    if (line.rfind("set title", 0) == 0) BOOST_TEST(line.size() <= 120u, line);
  if (have_gnuplot()) {
    for (const char* png : {"energy_error", "constraint_residual", "work_precision"})
      BOOST_TEST(non_empty_file(path("compare", std::string("c/double-spherical-pendulum_") + png + ".png")), png);
  } else {
    BOOST_TEST(contains(r.err, "gnuplot not found"));
  }
}

BOOST_AUTO_TEST_CASE(compare_continues_after_a_failing_method) {
  // dt = 3 is far beyond the pendulum's time scale: the stage Newton iteration diverges.
  const result r = geomint("compare spherical-pendulum --methods rattle --dt 3 --t-end 30 --ida 1e-6 --dopri5 1e-6 "
                           "--no-work-precision --out c",
                           "fail");
  BOOST_TEST(r.code == 2);
  // The reason is on stderr, the table (with the FAILED row) on stdout.
  BOOST_TEST(contains(r.err, "newton_diverged"), r.err);
  BOOST_TEST(!contains(r.out, "newton_diverged"), r.out);
  BOOST_TEST(contains(r.out, "FAILED"));
  const std::string summary = slurp(path("fail", "c/spherical-pendulum_summary.csv"));
  BOOST_TEST(contains(summary, "rattle,dt=3,FAILED"));
  BOOST_TEST(contains(summary, "ida_ggl,rtol=1e-06,ok"));
  BOOST_TEST(contains(summary, "odeint_dopri5,rtol=1e-06,ok"));
}

BOOST_AUTO_TEST_CASE(a_run_failing_at_its_first_step_shows_no_errors) {
  // Nothing was integrated: the errors are not 0, they do not exist. The table shows "-", the
  // summary CSV empty cells, with the status and the reason beside them.
  const result r = geomint("compare spherical-pendulum --methods rattle --dt 3 --t-end 30 --ida off --dopri5 off "
                           "--no-work-precision --out c",
                           "fail0");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(!contains(r.out, "0.00e+00"), r.out);
  const auto row = table_row(r.out, "rattle");
  BOOST_TEST_REQUIRE(row.size() == 11u, r.out);
  BOOST_TEST(row[2] == "FAILED");
  for (int i : {3, 4, 5, 6}) BOOST_TEST(row[i] == "-", i);  // max|dE|, final g, final Gv, max|dJ|
  BOOST_TEST(row[8] == "0");                                  // steps
  const auto cells = summary_row(path("fail0", "c/spherical-pendulum_summary.csv"), "rattle", "dt=3");
  BOOST_TEST_REQUIRE(cells.size() == 14u);
  BOOST_TEST(cells[2] == "FAILED");
  BOOST_TEST(cells[3] == "");  // max_energy_error
  BOOST_TEST(cells[4] == "");  // final_constraint_residual
  BOOST_TEST(cells[9] == "0");  // steps
  BOOST_TEST(contains(cells.back(), "newton_diverged"));
  // The series ends with the last good state (the initial one) and the reason.
  const auto lines = lines_of(path("fail0", "c/spherical-pendulum_series_rattle.csv"));
  BOOST_TEST_REQUIRE(lines.size() >= 2u);
  BOOST_TEST(lines[lines.size() - 2].rfind("0,", 0) == 0, lines[lines.size() - 2]);
  BOOST_TEST(contains(lines.back(), "# status: FAILED at t = 0: "), lines.back());
  BOOST_TEST(contains(lines.back(), "newton_diverged"), lines.back());
}

BOOST_AUTO_TEST_CASE(a_failed_runs_csv_ends_with_its_last_good_state_and_the_reason) {
  // SHAKE at dt = 0.28 on the spherical pendulum: its Newton iteration on the position equations
  // diverges at the step from t = 42 dt = 11.76 (measured; the same step for dt perturbed by
  // 1e-15 to 1e-7 relative, so not an accident of rounding). Samples are every 1000 steps, so
  // only t = 0 was sampled before: the file must add the state at t = 11.76 that the stepper kept.
  const result r = geomint("run spherical-pendulum --method shake --dt 0.28 --t-end 14 --every 1000 --out o", "fail_mid");
  BOOST_TEST_REQUIRE(r.code == 2, r.err);
  BOOST_TEST(contains(r.err, "failed at t = 11.76: "), r.err);
  const std::string file = path("fail_mid", "o/spherical-pendulum_shake.csv");
  const csv c = read_csv(file);
  BOOST_TEST_REQUIRE(c.rows.size() == 2u);
  BOOST_TEST(std::fabs(c.column("t").back() - 11.76) <= 1e-12);
  BOOST_TEST(max_abs(c.column("constraint_residual")) < 1e-12);  // a good state, on the manifold
  BOOST_TEST(contains(last_line(file), "# status: FAILED at t = 11.76"), last_line(file));
  BOOST_TEST(contains(last_line(file), "newton_diverged"), last_line(file));
  // The table row has the errors measured up to there.
  const auto row = table_row(r.out, "shake");
  BOOST_TEST_REQUIRE(row.size() == 11u, r.out);
  BOOST_TEST(row[2] == "FAILED");
  BOOST_TEST(row[3] != "-");  // max|dE|
  BOOST_TEST(row[8] == "42");  // steps
}

BOOST_AUTO_TEST_CASE(bad_input_gives_exit_code_and_names_the_valid_choices) {
  struct bad {
    const char* args;
    int code;
    const char* message;
  };
  const bad cases[] = {
      {"", 1, "no command"},
      {"frobnicate", 1, "valid commands: list, run, compare"},
      {"run no-such-problem --method rattle --dt 0.1 --t-end 1", 1, "valid problems: double-spherical-pendulum"},
      {"run spherical-pendulum --method no_such --dt 0.1 --t-end 1", 1, "valid methods for problem 'spherical-pendulum': rattle"},
      {"compare spherical-pendulum --methods rattle,nope", 1, "unknown method 'nope'"},
      {"run spherical-pendulum --method rattle --dt 0 --t-end 1", 1, "--dt must be > 0"},
      {"run spherical-pendulum --method rattle --dt -0.1 --t-end 1", 1, "--dt must be > 0"},
      {"run spherical-pendulum --method rattle --dt nan --t-end 1", 1, "--dt: must be finite"},
      {"run spherical-pendulum --method rattle --dt 0.1x --t-end 1", 1, "is not a number"},
      {"run spherical-pendulum --method rattle --dt 1e400 --t-end 1", 1, "--dt: must be finite, got '1e400' (beyond"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 0.04", 1, "--t-end (0.04) must be 0 or at least --dt/2 (0.05)"},
      {"run rigid-body-so5 --method rkmk_rk4_exp --dt 0.1 --t-end 1 --set x=1", 1, "has no parameter 'x'; it has no parameters"},
      {"--version extra", 1, "--version takes no arguments"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end -1", 1, "--t-end must be >= 0"},
      {"run spherical-pendulum --method rattle --dt 0.1", 1, "--t-end is required"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --every 0", 1, "--every must be"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --set bogus=1", 1, "valid: mass, length"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --set length=-1", 1, "must be > 0"},
      {"run pendulum-chain --method rattle --dt 0.1 --t-end 1 --set links=2.5", 1, "whole number"},
      {"run double-spherical-pendulum --method rattle --dt 0.1 --t-end 1 --set x1=9", 1, "non-finite"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --bogus 3", 1, "valid options: --method"},
      {"compare spherical-pendulum --methods rattle --ida 2", 1, "--ida must be a tolerance"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --out /dev/null/x", 3, "cannot create directory"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --out ''", 1, "--out: the output directory must not be empty"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --out=", 1, "--out: the output directory must not be empty"},
      {"compare spherical-pendulum --methods rattle --out ''", 1, "--out: the output directory must not be empty"},
      {"run spherical-pendulum --method --dt 0.1 --t-end 1", 1, "--method needs a value"},
      {"run spherical-pendulum --method rattle --dt 0.1 --t-end", 1, "--t-end needs a value"},
      {"compare spherical-pendulum --methods --dt 0.1", 1, "--methods needs a value"},
      {"compare spherical-pendulum --methods rattle,,lobatto3", 1, "empty method name"},
      {"run spherical-pendulum --method rattle --dt 0.1 --dt 0.2 --t-end 1", 1, "--dt is given twice"},
      {"compare spherical-pendulum --methods rattle --no-work-precision=1", 1, "takes no value"},
      {"help frobnicate", 1, "valid: list, run, compare"},
      {"list extra", 1, "list takes no arguments"},
      {"run heavy-top --method rattle --dt 0.01 --t-end 0.1 --set e0=1", 1, "must have |e| = 1"},
  };
  int i = 0;
  for (const bad& b : cases) {
    const result r = geomint(b.args, "bad" + std::to_string(i++));
    BOOST_TEST(r.code == b.code, "geomint " << b.args << ": exit " << r.code);
    BOOST_TEST(contains(r.err, b.message), "geomint " << b.args << ": stderr " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(sigint_stops_cleanly_keeping_what_was_written) {
  // A run of about a minute; SIGINT after 1 s. `timeout --preserve-status` passes on the exit
  // status; the summary line and the complete CSV show that the program stopped by itself.
  // timeout sends the signal twice (to the command, then to its process group): on a busy
  // machine the second came after the first had been handled and, when a second signal ended
  // the program at once, killed it mid-row (CI under the sanitizers); a repeat within 1 s is
  // now the same request.
  const std::string work = prepare("sigint");
  const int status = std::system(("cd '" + work + "' && timeout --preserve-status -s INT 1 " + std::string(GEOMINT_CLI) +
                                  " run pendulum-chain --set links=50 --method lobatto5 --dt 0.001 --t-end 1000 --every 1"
                                  " --out o > stdout.txt 2> stderr.txt")
                                     .c_str());
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 130);
  const std::string out = slurp(work + "/stdout.txt");
  BOOST_TEST(contains(out, "interrupted"), out);
  const csv c = read_csv(work + "/o/pendulum-chain_lobatto5.csv");  // every row complete
  BOOST_TEST(c.rows.size() >= 1u);
  BOOST_TEST(c.column("t").back() < 1000.0);
}

namespace {
/// (problem, methods) from `geomint list`: "  <problem>  [kind]" then "    methods: a b c".
std::vector<std::pair<std::string, std::vector<std::string>>> registered_pairs(const std::string& list) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  std::stringstream s(list);
  std::string line;
  while (std::getline(s, line)) {
    if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ' && contains(line, "  [")) {
      out.push_back({line.substr(2, line.find("  [") - 2), {}});
    } else if (!out.empty() && line.rfind("    methods:", 0) == 0) {
      std::stringstream m(line.substr(12));
      std::string id;
      while (m >> id) out.back().second.push_back(id);
    }
  }
  return out;
}
}  // namespace

BOOST_AUTO_TEST_CASE(every_registered_method_runs_on_its_problems) {
  const result list = geomint("list", "pairs");
  BOOST_TEST_REQUIRE(list.code == 0);
  const auto pairs = registered_pairs(list.out);
  BOOST_TEST_REQUIRE(pairs.size() >= 12u);
  int runs = 0;
  for (const auto& [problem, methods] : pairs) {
    BOOST_TEST(!methods.empty(), problem);
    for (const auto& m : methods) {
      const std::string dir = "pair" + std::to_string(runs++);
      const result r = geomint("run " + problem + " --method " + m + " --dt 0.01 --t-end 0.2 --out o", dir);
      BOOST_TEST_REQUIRE(r.code == 0, problem << " " << m << ": " << r.err);
      const csv c = read_csv(path(dir, "o/" + problem + "_" + m + ".csv"));
      BOOST_TEST(c.rows.size() == 21u, problem << " " << m);
      // Every method of the command keeps its space to near round-off and conserves the
      // momentum maps of its symmetries. Measured over these 20 steps: scaled residuals ≤ 1e-16
      // for most, 1.6e-13 for `reich` on the non-separable variable-mass-sphere (its Newton
      // stopping point); momentum errors ≤ 1e-14 for most, 4e-10 for
      // reich_symmetric_kahan_li8 on heavy-top (340 general-H Reich substeps, each conserving
      // the bilinear momentum to its Newton tolerance). Bounds 1e-12 and 1e-9 leave a decade
      // above those and still catch a method leaving the manifold (O(h^p) ≈ 1e-4 and worse).
      // The energy error after 20 steps of h = 0.01 is O(h) ≈ 1e-2 at worst (first order).
      for (std::size_t i = 0; i < c.columns.size(); ++i) {
        const std::string& col = c.columns[i];
        const double worst = max_abs(c.column(col));
        if (contains(col, "_residual")) BOOST_TEST(worst < 1e-12, problem << " " << m << " " << col);
        else if (col == "energy_error") BOOST_TEST(worst < 5e-2, problem << " " << m << " " << col);
        else if (contains(col, "_error")) BOOST_TEST(worst < 1e-9, problem << " " << m << " " << col);
      }
    }
  }
  BOOST_TEST(runs >= 80);
}

BOOST_AUTO_TEST_CASE(lie_poisson_runs_report_casimirs) {
  const result r = geomint("compare free-rigid-body --methods discrete_gradient,rkmk_rk4_exp --dt 0.1 --t-end 25 "
                           "--no-work-precision --out c",
                           "lie");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const csv dg = read_csv(path("lie", "c/free-rigid-body_series_discrete_gradient.csv"));
  // Engø–Faltinsen §6.1 setting (h = 0.1, T = 25): the discrete gradient conserves H and the
  // Casimir |y| up to round-off (~1e-15 measured; 1e-13 allows 250 steps of accumulation).
  BOOST_TEST(max_abs(dg.column("energy_error")) < 1e-13);
  BOOST_TEST(max_abs(dg.column("casimir1_error")) < 1e-13);
  // RKMK4 keeps the Casimir but not the energy (order 4: 2.2e-5 measured).
  const csv rk = read_csv(path("lie", "c/free-rigid-body_series_rkmk_rk4_exp.csv"));
  BOOST_TEST(max_abs(rk.column("casimir1_error")) < 1e-13);
  BOOST_TEST(max_abs(rk.column("energy_error")) > 1e-7);
  const csv dopri = read_csv(path("lie", "c/free-rigid-body_series_odeint_dopri5.csv"));
  BOOST_TEST(max_abs(dopri.column("casimir1_error")) > 1e-10);  // the plain ODE leaves the orbit
  if (have_gnuplot()) BOOST_TEST(non_empty_file(path("lie", "c/free-rigid-body_casimir_error.png")));
}

// ---------------------------------------------------------------------------------------------
// Signals, references, options, outputs.

namespace {
/// Runs `geomint <args>` like geomint(), and signals it once it has reached a given phase: when
/// `file` (relative to the run's directory) exists, waits `delay` seconds more and sends
/// `signal`. The command then has `budget` seconds to exit; if it has not, it is killed and
/// the exit code is 137 (128 + SIGKILL). The exit code of a command ended by a signal is
/// 128 + its number, as a shell reports it. With a `launcher` (mpiexec -n 2), the launcher is signalled.
result geomint_signalled(const std::string& args, const std::string& dir, const std::string& file, double delay,
                         int signal, double budget, const std::string& launcher = "") {
  const std::string work = prepare(dir);
  const std::string cmd = "exec " + launcher + (launcher.empty() ? "" : " ") + std::string(GEOMINT_CLI) + " " + args +
                          " > stdout.txt 2> stderr.txt";
  const pid_t pid = fork();
  BOOST_REQUIRE(pid >= 0);
  if (pid == 0) {
    if (chdir(work.c_str()) == 0) execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  const auto running = [&] { return waitpid(pid, &status, WNOHANG) == 0; };
  const auto pause = [](double seconds) { usleep(static_cast<useconds_t>(seconds * 1e6)); };
  struct stat st {};
  for (int i = 0; i < 1200 && running() && stat((work + "/" + file).c_str(), &st) != 0; ++i) pause(0.1);
  bool exited = !running();
  BOOST_TEST(!exited, "geomint " << args << " ended before " << file << " appeared");
  if (!exited) {
    pause(delay);
    kill(pid, signal);
    for (int i = 0; i < budget * 10 && !(exited = !running()); ++i) pause(0.1);
    if (!exited) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
  }
  result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  r.out = slurp(work + "/stdout.txt");
  r.err = slurp(work + "/stderr.txt");
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(sigterm_stops_like_sigint_with_exit_code_143) {
  // A run of about a minute; SIGTERM (what `timeout` and batch schedulers send) 1 s after it
  // has started.
  const result r = geomint_signalled("run pendulum-chain --set links=50 --method lobatto5 --dt 0.001 --t-end 1000 "
                                     "--every 1 --out o",
                                     "sigterm", "o/pendulum-chain_lobatto5.csv", 1, SIGTERM, 20);
  BOOST_TEST(r.code == 143);
  BOOST_TEST(contains(r.out, "interrupted"), r.out);
  BOOST_TEST(contains(r.err, "stopped by SIGTERM"), r.err);
  const std::string file = path("sigterm", "o/pendulum-chain_lobatto5.csv");
  const csv c = read_csv(file);  // every row complete
  BOOST_TEST(c.rows.size() >= 1u);
  BOOST_TEST(c.column("t").back() < 1000.0);
  BOOST_TEST(contains(last_line(file), "# status: interrupted at t = "), last_line(file));
  BOOST_TEST(contains(last_line(file), "(SIGTERM)"));
}

BOOST_AUTO_TEST_CASE(sigint_stops_the_ida_reference_promptly) {
  // IDA on the 50-link chain over [0, 100] runs for over a minute (64 s CPU measured). SIGINT
  // 1 s after it has started must stop it at once: the command has 20 s to finish.
  const result r = geomint_signalled("compare pendulum-chain --set links=50 --methods rattle --dt 0.01 --t-end 100 "
                                     "--dopri5 off --out c",
                                     "sigint_ida", "c/pendulum-chain_series_ida_ggl.csv", 1, SIGINT, 20);
  BOOST_TEST(r.code == 130, r.err);
  BOOST_TEST(contains(r.err, "stopped by SIGINT"), r.err);
  const std::string summary = path("sigint_ida", "c/pendulum-chain_summary.csv");
  BOOST_TEST(summary_row(summary, "rattle", "dt=0.01").at(2) == "ok");
  BOOST_TEST(summary_row(summary, "ida_ggl", "rtol=1e-08").at(2) == "interrupted");
  const std::string series = path("sigint_ida", "c/pendulum-chain_series_ida_ggl.csv");
  const csv ida = read_csv(series);  // the samples reached, every row complete
  BOOST_TEST(ida.rows.size() >= 1u);
  BOOST_TEST(ida.column("t").back() < 100.0);
  BOOST_TEST(contains(last_line(series), "# status: interrupted"), last_line(series));
  BOOST_TEST(!non_empty_file(path("sigint_ida", "c/pendulum-chain_work_precision.csv")));
}

BOOST_AUTO_TEST_CASE(references_show_progress_on_a_terminal) {
  // The progress bar is drawn on stderr when it is a terminal and the run has lasted 2 s:
  // `script` gives the command a pseudo-terminal and records what it shows. IDA and dopri5
  // (rtol 1e-10) on the 50-link chain over [0, 100] each run for over a minute. The RATTLE
  // steps before them take 0.3 s optimised but several seconds under the sanitizers, so the
  // driver waits for the reference's series file, lets it run 4 s, then sends SIGINT (exit 130).
  BOOST_TEST_REQUIRE(std::system("command -v script > /dev/null 2>&1") == 0, "script (util-linux) is needed");
  const std::pair<std::string, std::string> references[] = {{"ida_ggl rtol=1e-08", "ida_ggl"},
                                                            {"odeint_dopri5 rtol=1e-10", "odeint_dopri5"}};
  int i = 0;
  for (const auto& [reference, series] : references) {
    const std::string options = i == 0 ? "--dopri5 off" : "--ida off --dopri5 1e-10";
    const std::string work = prepare("progress" + std::to_string(i++));
    std::ofstream(work + "/drive.sh")
        << GEOMINT_CLI << " compare pendulum-chain --set links=50 --methods rattle --dt 0.01 --t-end 100 " << options
        << " --out c > stdout.txt &\n"
        << "pid=$!\n"
        << "for i in $(seq 1200); do [ -e c/pendulum-chain_series_" << series << ".csv ] && break; sleep 0.1; done\n"
        << "sleep 4\n"
        << "kill -INT $pid\n"
        << "wait $pid\n";
    const std::string cmd = "cd '" + work + "' && script -q -e -c 'sh drive.sh' terminal.txt > /dev/null";
    const int status = std::system(cmd.c_str());
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 130);
    const std::string terminal = slurp(work + "/terminal.txt");
    BOOST_TEST(contains(terminal, "\r" + reference), reference << ": " << terminal);
    BOOST_TEST(contains(terminal, "(Ctrl-C stops)"), terminal);
  }
}

BOOST_AUTO_TEST_CASE(table_rows_are_flushed_as_they_are_produced) {
  // stdout is a file here. SIGKILL (which no program can handle) during the IDA reference:
  // what was printed before it must already be in the file.
  const result r = geomint_signalled("compare pendulum-chain --set links=50 --methods rattle --dt 0.01 --t-end 100 "
                                     "--dopri5 off --out c",
                                     "flush", "c/pendulum-chain_series_ida_ggl.csv", 0.5, SIGKILL, 20);
  BOOST_TEST(r.code == 137);
  BOOST_TEST(contains(r.out, "output in c/"), r.out);
  const auto row = table_row(r.out, "rattle");
  BOOST_TEST_REQUIRE(row.size() == 11u, r.out);
  BOOST_TEST(row[1] == "dt=0.01");
  BOOST_TEST(row[2] == "ok");
  // And `run` names its file before it starts.
  const result run = geomint_signalled("run pendulum-chain --set links=50 --method lobatto5 --dt 0.001 --t-end 1000 "
                                       "--out o",
                                       "flush_run", "o/pendulum-chain_lobatto5.csv", 0.5, SIGKILL, 20);
  BOOST_TEST(run.code == 137);
  BOOST_TEST(contains(run.out, "-> o/pendulum-chain_lobatto5.csv"), run.out);
}

BOOST_AUTO_TEST_CASE(ida_and_dopri5_options_each_set_their_own_reference) {
  const std::string common = "compare spherical-pendulum --methods rattle --dt 0.01 --t-end 1 --no-work-precision --out c ";
  const auto rows = [](const std::string& dir) {
    std::map<std::string, std::string> settings;  // reference → setting
    for (const auto& line : lines_of(path(dir, "c/spherical-pendulum_summary.csv"))) {
      const auto cells = split(line);
      if (cells.size() > 2 && (cells[0] == "ida_ggl" || cells[0] == "odeint_dopri5")) settings[cells[0]] = cells[1];
    }
    return settings;
  };
  BOOST_TEST_REQUIRE(geomint(common + "--ida 1e-6", "refs_ida").code == 0);
  auto s = rows("refs_ida");
  BOOST_TEST(s["ida_ggl"] == "rtol=1e-06");
  BOOST_TEST(s["odeint_dopri5"] == "rtol=1e-08");
  BOOST_TEST_REQUIRE(geomint(common + "--dopri5 1e-5", "refs_dopri5").code == 0);
  s = rows("refs_dopri5");
  BOOST_TEST(s["ida_ggl"] == "rtol=1e-08");
  BOOST_TEST(s["odeint_dopri5"] == "rtol=1e-05");
  BOOST_TEST_REQUIRE(geomint(common + "--ida off", "refs_ida_off").code == 0);
  s = rows("refs_ida_off");
  BOOST_TEST(s.count("ida_ggl") == 0u);
  BOOST_TEST(s["odeint_dopri5"] == "rtol=1e-08");
  BOOST_TEST(non_empty_file(path("refs_ida_off", "c/spherical-pendulum_series_odeint_dopri5.csv")));
  BOOST_TEST_REQUIRE(geomint(common + "--dopri5 off", "refs_dopri5_off").code == 0);
  s = rows("refs_dopri5_off");
  BOOST_TEST(s["ida_ggl"] == "rtol=1e-08");
  BOOST_TEST(s.count("odeint_dopri5") == 0u);
}

BOOST_AUTO_TEST_CASE(a_reference_option_that_does_not_apply_says_so) {
  // Riemannian problems have no reference, Lie-Poisson problems no IDA.
  const std::string riemannian = "compare particle-on-ellipsoid --methods leapfrog --dt 0.01 --t-end 0.1 --out c ";
  result r = geomint(riemannian + "--ida 1e-6", "na_ida");
  BOOST_TEST(r.code == 1);
  BOOST_TEST(contains(r.err, "--ida does not apply: problem 'particle-on-ellipsoid' (riemannian) has no ida_ggl"), r.err);
  r = geomint(riemannian + "--dopri5 1e-6", "na_dopri5");
  BOOST_TEST(r.code == 1);
  BOOST_TEST(contains(r.err, "--dopri5 does not apply"), r.err);
  r = geomint(riemannian + "--ida off --no-work-precision", "na_off");  // asked for nothing: a note
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(contains(r.err, "note: --ida does not apply"), r.err);
  const std::string lie = "compare free-rigid-body --methods discrete_gradient --dt 0.1 --t-end 1 --no-work-precision --out c ";
  r = geomint(lie + "--ida 1e-6", "na_lie");
  BOOST_TEST(r.code == 1);
  BOOST_TEST(contains(r.err, "'free-rigid-body' (lie-poisson) has no ida_ggl reference"), r.err);
  r = geomint(lie + "--dopri5 1e-6", "na_lie_dopri5");
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(summary_row(path("na_lie_dopri5", "c/free-rigid-body_summary.csv"), "odeint_dopri5", "rtol=1e-06").size() > 2u);
}

BOOST_AUTO_TEST_CASE(version_and_help_per_verb) {
  result r = geomint("--version", "version");
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out == "geomint " GEOMINT_VERSION "\n");
  r = geomint("run --help", "help_run");
  BOOST_TEST(r.code == 0);
  BOOST_TEST(contains(r.out, "usage: geomint run PROBLEM"));
  BOOST_TEST(contains(r.out, "--every K"));
  BOOST_TEST(!contains(r.out, "--methods"));
  BOOST_TEST(geomint("help run", "help_run2").out == r.out);
  BOOST_TEST(geomint("run spherical-pendulum --method rattle -h", "help_run3").out == r.out);
  r = geomint("compare --help", "help_compare");
  BOOST_TEST(r.code == 0);
  BOOST_TEST(contains(r.out, "usage: geomint compare PROBLEM"));
  BOOST_TEST(contains(r.out, "--ida RTOL|off"));
  BOOST_TEST(!contains(r.out, "--every"));
  r = geomint("list --help", "help_list");
  BOOST_TEST(r.code == 0);
  BOOST_TEST(contains(r.out, "usage: geomint list"));
  r = geomint("help", "help");
  BOOST_TEST(r.code == 0);
  BOOST_TEST(contains(r.out, "143"));
  // A usage error of a verb shows that verb's help.
  r = geomint("compare spherical-pendulum", "help_on_error");
  BOOST_TEST(r.code == 1);
  BOOST_TEST(contains(r.err, "usage: geomint compare PROBLEM"));
}

BOOST_AUTO_TEST_CASE(options_accept_name_equals_value) {
  const result r = geomint("run spherical-pendulum --method=rattle --dt=0.1 --t-end=1 --every=5 --set=theta=0.5 --out=o", "eq");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const csv c = read_csv(path("eq", "o/spherical-pendulum_rattle.csv"));
  BOOST_TEST(c.rows.size() == 3u);  // t = 0, 0.5, 1
  BOOST_TEST(contains(slurp(path("eq", "o/spherical-pendulum_rattle.csv")), "theta=0.5"));
}

BOOST_AUTO_TEST_CASE(method_lists_allow_spaces_and_run_each_method_once) {
  const std::string common = "--dt 0.01 --t-end 0.1 --ida off --dopri5 off --no-work-precision --out c";
  for (const char* list : {"'rattle, lobatto3'", "rattle, lobatto3", "' rattle ,lobatto3 '"}) {
    const result r = geomint(std::string("compare spherical-pendulum --methods ") + list + " " + common, "spaces");
    BOOST_TEST_REQUIRE(r.code == 0, list << ": " << r.err);
    BOOST_TEST(non_empty_file(path("spaces", "c/spherical-pendulum_series_rattle.csv")), list);
    BOOST_TEST(non_empty_file(path("spaces", "c/spherical-pendulum_series_lobatto3.csv")), list);
  }
  const result r = geomint("compare spherical-pendulum --methods rattle,lobatto3,constrained_rattle_2_2,rattle " + common,
                           "dupes");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(contains(r.err, "--methods names rattle more than once; it runs once"), r.err);
  int rattle_rows = 0;
  for (const auto& line : lines_of(path("dupes", "c/spherical-pendulum_summary.csv"))) rattle_rows += line.rfind("rattle,", 0) == 0;
  BOOST_TEST(rattle_rows == 1);
}

BOOST_AUTO_TEST_CASE(numbers_in_messages_are_short) {
  struct bad {
    const char* set;
    const char* message;
  };
  for (const bad& b : {bad{"length=-1e300", "must be > 0, got -1e+300"}, bad{"length=-0", "must be > 0, got -0\n"},
                       bad{"length=-0.1", "must be > 0, got -0.1\n"}}) {
    const result r = geomint(std::string("run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --set ") + b.set, "numbers");
    BOOST_TEST(r.code == 1);
    BOOST_TEST(contains(r.err, b.message), r.err);
    BOOST_TEST(!contains(r.err, "00000"), r.err);
  }
  const result r = geomint("run pendulum-chain --method rattle --dt 0.1 --t-end 1 --set links=2.5", "numbers");
  BOOST_TEST(contains(r.err, "whole number, got 2.5\n"), r.err);
  const result many = geomint("run spherical-pendulum --method rattle --dt 1e-300 --t-end 1e300", "numbers");
  BOOST_TEST(many.code == 1);
  BOOST_TEST(contains(many.err, "--t-end / --dt = 1e+300 / 1e-300 asks for "), many.err);
  BOOST_TEST(!contains(many.err, "00000"), many.err);
}

BOOST_AUTO_TEST_CASE(heavy_top_quaternion_must_be_unit) {
  // Off |e| = 1: rejected, with the normalized values to use instead; nothing is written.
  const std::string run = "run heavy-top --method rattle --dt 0.01 --t-end 0.1 --out o ";
  const result off = geomint(run + "--set e0=1 --set e1=0 --set e2=0 --set e3=1", "top_off");
  BOOST_TEST(off.code == 1);
  BOOST_TEST(contains(off.err, "got |e| = 1.41421"), off.err);
  BOOST_TEST(!non_empty_file(path("top_off", "o/heavy-top_rattle.csv")));
  // The normalized values it suggests are accepted.
  const std::size_t at = off.err.find("normalized: ");
  BOOST_TEST_REQUIRE(at != std::string::npos, off.err);
  const std::string fix = off.err.substr(at + 12, off.err.find('\n', at) - at - 12);
  BOOST_TEST(contains(fix, "--set e0=0.70710678118654"), fix);
  const result fixed = geomint(run + fix, "top_fixed");
  BOOST_TEST(fixed.code == 0, fix << ": " << fixed.err);
  // A unit quaternion is taken as given.
  const result on = geomint("run heavy-top --method rattle --dt 0.01 --t-end 0.1 --set e0=0 --set e1=0.6 --set e2=0 "
                            "--set e3=0.8 --out o",
                            "top_on");
  BOOST_TEST_REQUIRE(on.code == 0, on.err);
  const csv c = read_csv(path("top_on", "o/heavy-top_rattle.csv"));
  BOOST_TEST(c.column("q1").front() == 0.0);
  BOOST_TEST(c.column("q2").front() == 0.6);
  BOOST_TEST(c.column("q4").front() == 0.8);
}

BOOST_AUTO_TEST_CASE(list_shows_every_parameters_meaning_and_unit) {
  const result r = geomint("list", "list_units");
  BOOST_TEST_REQUIRE(r.code == 0);
  // Parameter lines: "      name  default  meaning [unit]".
  int parameters = 0;
  std::stringstream s(r.out);
  std::string line;
  while (std::getline(s, line)) {
    if (line.rfind("      ", 0) != 0 || line.size() < 7 || line[6] == ' ') continue;
    ++parameters;
    std::stringstream words(line);
    std::string name, value;
    words >> name >> value;
    std::string meaning;
    std::getline(words, meaning);
    const std::size_t open = meaning.rfind(" [");
    BOOST_TEST_REQUIRE(open != std::string::npos, line);
    BOOST_TEST(trim_copy(meaning.substr(0, open)).size() > 3u, line);           // a meaning
    BOOST_TEST((meaning.size() > open + 3 && meaning.back() == ']'), line);  // a unit
  }
  BOOST_TEST(parameters > 60);
  BOOST_TEST(contains(r.out, " mass 1 [kg]\n"), r.out);
  BOOST_TEST(contains(r.out, " initial polar angle from the downward vertical [rad]\n"));
}

BOOST_AUTO_TEST_CASE(csv_files_describe_the_run_and_hold_exact_numbers) {
  const result r = geomint("run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --every 1 --set theta=0.3 --out o",
                           "header");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const std::string file = path("header", "o/spherical-pendulum_rattle.csv");
  const auto lines = lines_of(file);
  BOOST_TEST_REQUIRE(lines.size() > 8u);
  BOOST_TEST(lines[0] == "# geomint " GEOMINT_VERSION);
  BOOST_TEST(lines[1] == "# problem: spherical-pendulum");
  BOOST_TEST(lines[2] == "# parameters: mass=1 length=1 gravity=9.81 theta=0.3 omega=2");
  BOOST_TEST(lines[3] == "# method: constrained_rattle_2_2 (rattle)");
  BOOST_TEST(lines[4] == "# dt: 0.1");
  BOOST_TEST(lines[5] == "# t_end: 1");
  BOOST_TEST(contains(last_line(file), "# status: ok at t = 1"));
  // t = k dt exactly as the command computes it (0.30000000000000004 for k = 3): numbers are
  // written so that they read back to the same double.
  const csv c = read_csv(file);
  BOOST_TEST_REQUIRE(c.rows.size() == 11u);
  for (std::size_t k = 0; k < c.rows.size(); ++k) BOOST_TEST(c.column("t")[k] == static_cast<double>(k) * 0.1);
  // The summary and series of a compare carry the header too.
  const result cmp = geomint("compare spherical-pendulum --methods rattle --dt 0.1 --t-end 1 --no-work-precision --out c",
                             "header_compare");
  BOOST_TEST_REQUIRE(cmp.code == 0, cmp.err);
  for (const char* f : {"summary", "series_rattle", "series_ida_ggl", "series_odeint_dopri5"}) {
    const auto l = lines_of(path("header_compare", std::string("c/spherical-pendulum_") + f + ".csv"));
    BOOST_TEST_REQUIRE(l.size() > 3u, f);
    BOOST_TEST(l[0] == "# geomint " GEOMINT_VERSION, f);
    BOOST_TEST(l[1] == "# problem: spherical-pendulum", f);
  }
  BOOST_TEST(contains(slurp(path("header_compare", "c/spherical-pendulum_series_ida_ggl.csv")),
                      "# reference: ida_ggl\n# tolerance: 1e-08 (rtol = atol)\n# t_end: 1\n"));
}

// ---- geomint ensemble ---------------------------------------------------------------------------
namespace {

/// The rows of an ensemble CSV as cells by column name (text: status and reason are words).
struct ensemble_csv {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::string status_line;  ///< the last line, "# status: ..."
  std::string cell(std::size_t row, const std::string& column) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == column) return rows.at(row).at(i);
    BOOST_FAIL("no column " + column);
    return {};
  }
  double number(std::size_t row, const std::string& column) const { return std::stod(cell(row, column)); }
  std::size_t count(const std::string& status) const {
    std::size_t n = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) n += cell(r, "status") == status;
    return n;
  }
};

ensemble_csv read_ensemble(const std::string& p) {
  ensemble_csv c;
  for (const auto& line : lines_of(p)) {
    if (line.rfind("#", 0) == 0) {
      c.status_line = line;
      continue;
    }
    const auto cells = split_quoted(line);
    if (c.columns.empty()) c.columns = cells;
    else {
      BOOST_REQUIRE_EQUAL(cells.size(), c.columns.size());
      c.rows.push_back(cells);
    }
  }
  return c;
}

/// An ensemble CSV without what differs between executions of the same ensemble: the
/// `# execution:` line (threads and ranks) and the cpu_seconds cells.
std::string comparable(const std::string& p) {
  std::string out;
  std::size_t cpu = std::string::npos;
  for (const auto& line : lines_of(p)) {
    if (line.rfind("# execution:", 0) == 0) continue;
    if (line.rfind("#", 0) == 0) {
      out += line + "\n";
      continue;
    }
    auto cells = split_quoted(line);
    if (cpu == std::string::npos) cpu = static_cast<std::size_t>(std::find(cells.begin(), cells.end(), "cpu_seconds") - cells.begin());
    BOOST_REQUIRE(cpu < cells.size());
    cells.erase(cells.begin() + static_cast<long>(cpu));
    for (const auto& c : cells) out += c + ",";
    out += "\n";
  }
  return out;
}

/// Mass 2 is on its rod (|x2 - x1| < l2 = 3 at x2 = 5.085) for x1 > 2.085.
const std::string pendulum_ensemble =
    "ensemble double-spherical-pendulum --method lobatto3 --dt 0.01 --t-end 2 --samples 24 --vary x1=2.2:3 "
    "--vary vy2=8:12 --out o";

#ifdef GEOMINT_CLI_MPIEXEC
/// mpiexec -n <ranks>, allowed to put 2 ranks on a busy machine and (Open MPI) to run as root.
/// Under AddressSanitizer, Open MPI's own allocations that live until exit are not ours to report.
std::string mpiexec(int ranks) {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  return "env ASAN_OPTIONS=detect_leaks=0 " + std::string(GEOMINT_CLI_MPIEXEC) + " " + std::to_string(ranks) + " " + GEOMINT_CLI_MPIEXEC_FLAGS;
}
#endif

}  // namespace

BOOST_AUTO_TEST_CASE(ensemble_csvs_are_identical_for_1_2_and_4_threads) {
  const result one = geomint(pendulum_ensemble + " --seed 5 --threads 1", "ensemble_t1");
  BOOST_TEST_REQUIRE(one.code == 0, one.err);
  const std::string file = "o/double-spherical-pendulum_ensemble.csv";
  for (int threads : {2, 4}) {
    const std::string dir = "ensemble_t" + std::to_string(threads);
    const result r = geomint(pendulum_ensemble + " --seed 5 --threads " + std::to_string(threads), dir);
    BOOST_TEST_REQUIRE(r.code == 0, r.err);
    BOOST_TEST(comparable(path(dir, file)) == comparable(path("ensemble_t1", file)), threads << " threads");
    BOOST_TEST(contains(slurp(path(dir, file)), "# execution: " + std::to_string(threads) + " threads"));
  }
  const ensemble_csv c = read_ensemble(path("ensemble_t1", file));
  BOOST_TEST(c.columns == (std::vector<std::string>{"trajectory", "x1", "vy2", "status", "max_energy_error",
                                                    "final_constraint_residual", "final_hidden_constraint_residual",
                                                    "max_Lz_error", "steps", "t_reached", "cpu_seconds", "reason"}));
  BOOST_TEST_REQUIRE(c.rows.size() == 24u);
  std::set<std::string> x1;
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    BOOST_TEST(c.cell(i, "trajectory") == std::to_string(i));
    BOOST_TEST(c.cell(i, "status") == "ok");
    BOOST_TEST((c.number(i, "x1") >= 2.2 && c.number(i, "x1") < 3));
    BOOST_TEST((c.number(i, "vy2") >= 8 && c.number(i, "vy2") < 12));
    x1.insert(c.cell(i, "x1"));
    BOOST_TEST(c.number(i, "steps") == 200);
    BOOST_TEST(c.number(i, "t_reached") == 2.0, boost::test_tools::tolerance(1e-12));
    // Lobatto IIIA-IIIB with 3 stages is of order 4: 4.5e-8 is measured over [0, 1000] at h = 0.01
    // on the default data; 1e-5 admits the drawn data without admitting a second-order method.
    BOOST_TEST(c.number(i, "max_energy_error") < 1e-5);
    BOOST_TEST(c.number(i, "final_constraint_residual") < 1e-12);  // scaled: round-off ~1e-16
    BOOST_TEST(c.number(i, "final_hidden_constraint_residual") < 1e-12);
    BOOST_TEST(c.number(i, "max_Lz_error") < 1e-12);  // a linear symmetry's momentum: exact
  }
  BOOST_TEST(x1.size() == 24u, "every trajectory draws its own x1");
  BOOST_TEST(contains(c.status_line, "# status: ok: 24 of 24 trajectories finished (24 ok, 0 FAILED)"), c.status_line);
  BOOST_TEST(contains(one.out, "24 trajectories"), one.out);
  BOOST_TEST(contains(one.out, "written: o/double-spherical-pendulum_ensemble.csv"), one.out);

  // Another seed draws other parameters; the same seed the same ones.
  const result other = geomint(pendulum_ensemble + " --threads 2 --seed 6", "ensemble_seed6");
  BOOST_TEST_REQUIRE(other.code == 0, other.err);
  BOOST_TEST(read_ensemble(path("ensemble_seed6", file)).cell(0, "x1") != c.cell(0, "x1"));
}

// srun starting several tasks without PMIx or PMI: each task would take itself for the only one
// and run, and write, the whole ensemble. Every task refuses; the first says how to launch it.
BOOST_AUTO_TEST_CASE(srun_tasks_without_an_mpi_interface_are_refused) {
  for (int task : {0, 1}) {
    const std::string dir = "ensemble_srun" + std::to_string(task);
    const result r = geomint(pendulum_ensemble, dir, "env SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=" + std::to_string(task));
    BOOST_TEST(r.code == 1);
    if (task == 0) {
      BOOST_TEST(contains(r.err, "task 0 of 2"), r.err);
      BOOST_TEST(contains(r.err, "srun --mpi=pmix"), r.err);
    } else {
      BOOST_TEST(r.err.empty(), r.err);
    }
    BOOST_TEST(!non_empty_file(path(dir, "o/double-spherical-pendulum_ensemble.csv")));
  }
}

#ifdef GEOMINT_CLI_MPIEXEC
BOOST_AUTO_TEST_CASE(ensemble_csvs_are_identical_under_mpiexec_with_1_and_2_ranks) {
  const result threads = geomint(pendulum_ensemble + " --threads 1", "ensemble_mpi_t1");
  BOOST_TEST_REQUIRE(threads.code == 0, threads.err);
  const std::string file = "o/double-spherical-pendulum_ensemble.csv";
  const std::string reference = comparable(path("ensemble_mpi_t1", file));
  struct launch {
    int ranks, threads;
    std::string execution;
  };
  for (const launch& l : {launch{1, 1, "1 rank x 1 thread each"}, launch{2, 1, "2 ranks x 1 thread each"},
                          launch{2, 2, "2 ranks x 2 threads each"}}) {
    const std::string dir = "ensemble_mpi_n" + std::to_string(l.ranks) + "_t" + std::to_string(l.threads);
    const result r = geomint(pendulum_ensemble + " --threads " + std::to_string(l.threads), dir, mpiexec(l.ranks));
    BOOST_TEST_REQUIRE(r.code == 0, r.err);
    BOOST_TEST(comparable(path(dir, file)) == reference, l.execution);
    BOOST_TEST(contains(slurp(path(dir, file)), "# execution: " + l.execution));
    // Rank 0 alone writes: one first line, one table on stdout.
    BOOST_TEST(std::count(r.out.begin(), r.out.end(), '\n') == std::count(threads.out.begin(), threads.out.end(), '\n'),
               r.out);
  }
  // A usage error is reported once, by rank 0, and every rank exits with 1.
  const result bad = geomint("ensemble spherical-pendulum --method rattle --dt 0.1 --t-end 1 --samples 4 --vary phi=0:1",
                             "ensemble_mpi_bad", mpiexec(2));
  BOOST_TEST(bad.code == 1);
  std::size_t reports = 0;
  for (std::size_t at = bad.err.find("no parameter 'phi'"); at != std::string::npos; at = bad.err.find("no parameter 'phi'", at + 1))
    ++reports;
  BOOST_TEST(reports == 1u, bad.err);
}

BOOST_AUTO_TEST_CASE(ctrl_c_stops_every_rank_keeping_finished_trajectories) {
  // Ctrl-C reaches mpiexec, which sends SIGTERM to every rank (and SIGKILL 1 s later): rank 0
  // gathers the finished trajectories and writes the file within that second.
  const result r = geomint_signalled("ensemble double-spherical-pendulum --method lobatto3 --dt 0.001 --t-end 10 "
                                     "--samples 2000 --vary x1=2.2:3 --threads 1 --out o",
                                     "ensemble_mpi_sigint", "o/double-spherical-pendulum_ensemble.csv", 3, SIGINT, 20,
                                     mpiexec(2));
  const ensemble_csv c = read_ensemble(path("ensemble_mpi_sigint", "o/double-spherical-pendulum_ensemble.csv"));
  BOOST_TEST_REQUIRE(c.rows.size() == 2000u, r.err);
  BOOST_TEST(contains(c.status_line, "# status: interrupted (SIGTERM): "), c.status_line);
  BOOST_TEST(c.count("ok") >= 1u);
  BOOST_TEST(c.count("interrupted") <= 2u);  // one per rank at most
  BOOST_TEST(c.count("ok") + c.count("interrupted") + c.count("not_run") == 2000u);
}
#endif

BOOST_AUTO_TEST_CASE(an_ensemble_reports_failing_trajectories_and_completes_the_others) {
  // At h = 0.2 RATTLE steps the spherical pendulum at ω = 5 rad/s, not above about 7 rad/s
  // (1.4 rad per step: Newton finds no point on the sphere). ω is drawn in [1, 15).
  const std::string args =
      "ensemble spherical-pendulum --method rattle --dt 0.2 --t-end 10 --samples 16 --vary omega=1:15 --seed 3 --out o";
  const result r = geomint(args + " --threads 3", "ensemble_fail");
  BOOST_TEST(r.code == 2, r.err);
  const ensemble_csv c = read_ensemble(path("ensemble_fail", "o/spherical-pendulum_ensemble.csv"));
  BOOST_TEST_REQUIRE(c.rows.size() == 16u);
  BOOST_TEST(c.count("FAILED") >= 1u);
  BOOST_TEST(c.count("ok") >= 1u);
  BOOST_TEST(c.count("ok") + c.count("FAILED") == 16u);
  std::vector<std::size_t> failed;
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    if (c.cell(i, "status") == "FAILED") {
      BOOST_TEST(contains(c.cell(i, "reason"), "step failed"), c.cell(i, "reason"));
      BOOST_TEST(c.number(i, "steps") < 50);
      BOOST_TEST(c.number(i, "t_reached") == 0.2 * c.number(i, "steps"), boost::test_tools::tolerance(1e-12));
      BOOST_TEST(c.number(i, "omega") > 2.0);  // a slow pendulum does not fail at this step
      failed.push_back(i);
    } else {
      BOOST_TEST(c.number(i, "steps") == 50);
      BOOST_TEST(c.cell(i, "reason").empty());
    }
  }
  // stderr names the first five failures and counts the rest.
  for (std::size_t k = 0; k < failed.size() && k < 5; ++k)
    BOOST_TEST(contains(r.err, "trajectory " + std::to_string(failed[k]) + " failed at t = "), r.err);
  if (failed.size() > 5) BOOST_TEST(contains(r.err, std::to_string(failed.size() - 5) + " more trajectories failed"), r.err);
  BOOST_TEST(contains(c.status_line, "# status: FAILED: 16 of 16 trajectories finished"), c.status_line);
  // The same with one thread, bit for bit.
  const result one = geomint(args + " --threads 1", "ensemble_fail_t1");
  BOOST_TEST(one.code == 2);
  BOOST_TEST(comparable(path("ensemble_fail_t1", "o/spherical-pendulum_ensemble.csv")) ==
             comparable(path("ensemble_fail", "o/spherical-pendulum_ensemble.csv")));

  // Drawn initial data that cannot be completed onto the constraint (x1 beyond the rod, l1 = 4)
  // fail their trajectory as invalid data; the others run.
  const result invalid = geomint("ensemble double-spherical-pendulum --method rattle --dt 0.01 --t-end 0.1 --samples 12 "
                                 "--vary x1=3:5 --seed 1 --out o",
                                 "ensemble_invalid");
  BOOST_TEST(invalid.code == 2);
  const ensemble_csv v = read_ensemble(path("ensemble_invalid", "o/double-spherical-pendulum_ensemble.csv"));
  for (std::size_t i = 0; i < v.rows.size(); ++i) {
    // Mass 1 is off its rod when x1² + y1² > l1², y1 = 0.025: x1 > 3.99992.
    if (v.number(i, "x1") > 4.0) {
      BOOST_TEST(v.cell(i, "status") == "FAILED");
      BOOST_TEST(contains(v.cell(i, "reason"), "invalid data: "), v.cell(i, "reason"));
      BOOST_TEST(v.cell(i, "max_energy_error").empty());  // not measured
    } else if (v.number(i, "x1") < 3.999) {
      BOOST_TEST(v.cell(i, "status") == "ok");
    }
  }
  BOOST_TEST(v.count("FAILED") >= 1u);
  BOOST_TEST(v.count("ok") >= 1u);
}

BOOST_AUTO_TEST_CASE(ctrl_c_stops_an_ensemble_keeping_finished_trajectories) {
  // About 9 ms per trajectory, 20000 of them: SIGINT 2 s after the start.
  const result r = geomint_signalled("ensemble double-spherical-pendulum --method lobatto3 --dt 0.001 --t-end 10 "
                                     "--samples 20000 --vary x1=2.2:3 --threads 2 --out o",
                                     "ensemble_sigint", "o/double-spherical-pendulum_ensemble.csv", 2, SIGINT, 20);
  BOOST_TEST(r.code == 130, r.err);
  BOOST_TEST(contains(r.err, "stopped by SIGINT"), r.err);
  BOOST_TEST(contains(r.out, "interrupted (SIGINT)"), r.out);
  const ensemble_csv c = read_ensemble(path("ensemble_sigint", "o/double-spherical-pendulum_ensemble.csv"));
  BOOST_TEST_REQUIRE(c.rows.size() == 20000u);
  const std::size_t ok = c.count("ok"), stopped = c.count("interrupted"), not_run = c.count("not_run");
  BOOST_TEST(ok >= 1u);
  BOOST_TEST(stopped <= 2u);  // one per thread at most
  BOOST_TEST(ok + stopped + not_run == 20000u);
  BOOST_TEST(contains(c.status_line, "# status: interrupted (SIGINT): " + std::to_string(ok) + " of 20000"), c.status_line);
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    if (c.cell(i, "status") == "ok") BOOST_TEST(c.number(i, "steps") == 10000);
    if (c.cell(i, "status") == "interrupted") BOOST_TEST(c.cell(i, "reason") == "interrupted by SIGINT");
    if (c.cell(i, "status") == "not_run") BOOST_TEST(c.cell(i, "steps").empty());
  }
}

BOOST_AUTO_TEST_CASE(ensemble_bad_input_gives_exit_code_1_and_says_why) {
  const std::string base = "ensemble spherical-pendulum --method rattle --dt 0.1 --t-end 1 ";
  struct bad {
    std::string args, message;
  };
  const std::vector<bad> cases{
      {base, "--samples is required"},
      {base + "--samples 0", "--samples must be a whole number in 1 ... 100000000, got '0'"},
      {base + "--samples 2.5", "--samples must be a whole number"},
      {base + "--samples 4 --threads 0", "--threads must be a whole number in 1 ... 1024"},
      {base + "--samples 4 --seed -1", "--seed must be a whole number in 0 ... 18446744073709551615"},
      {base + "--samples 4 '--seed= -1'", "--seed must be a whole number in 0 ... 18446744073709551615, got ' -1'"},
      {base + "'--samples= 4'", "--samples must be a whole number in 1 ... 100000000, got ' 4'"},
      {base + "--samples 4 --vary omega", "--vary expects name=lo:hi, got 'omega'"},
      {base + "--samples 4 --vary omega=3:1", "--vary omega: lo = 3 is above hi = 1"},
      {base + "--samples 4 --vary omega=a:1", "--vary omega (lo): 'a' is not a number"},
      {base + "--samples 4 --vary theta=-1e308:1e308", "--vary theta: the range -1e+308 ... 1e+308 is wider than"},
      {base + "--samples 4 --vary phi=0:1", "no parameter 'phi'; valid: mass, length, gravity, theta, omega"},
      {base + "--samples 4 --vary omega=0:1 --vary omega=1:2", "--vary omega is given twice"},
      {base + "--samples 4 --vary omega=0:1 --set omega=2", "--vary omega: the parameter is also fixed with --set"},
      {base + "--samples 4 --set mass=-1", "--set mass: must be > 0"},
      {base + "--samples 4 --methods rattle", "unknown option '--methods' for ensemble"},
      {"ensemble pendulum-chain --method rattle --dt 0.1 --t-end 1 --samples 2 --vary links=1.5:3",
       "--vary links: a whole-number parameter needs whole lo and hi"},
  };
  for (const bad& b : cases) {
    const result r = geomint(b.args, "ensemble_bad");
    BOOST_TEST(r.code == 1, b.args);
    BOOST_TEST(contains(r.err, b.message), b.args << ": stderr " << r.err);
  }
  const result help = geomint("ensemble --help", "ensemble_help");
  BOOST_TEST(help.code == 0);
  BOOST_TEST(contains(help.out, "--samples M"), help.out);
}

BOOST_AUTO_TEST_CASE(ensemble_varies_whole_number_parameters_over_whole_numbers) {
  // The chain's link count drawn in 2 ... 4: each value is a whole number in range, and the
  // chain of each trajectory has that many links (its rows differ in energy).
  const result r = geomint("ensemble pendulum-chain --method rattle --dt 0.01 --t-end 0.2 --samples 12 "
                           "--vary links=2:4 --threads 2 --out o",
                           "ensemble_links");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const ensemble_csv c = read_ensemble(path("ensemble_links", "o/pendulum-chain_ensemble.csv"));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const double links = c.number(i, "links");
    BOOST_TEST((links == 2 || links == 3 || links == 4), links);
    seen.insert(c.cell(i, "links"));
  }
  BOOST_TEST(seen.size() == 3u, "12 draws from 3 values reach all three here");
}

// The README's method table is the catalogue's (geomint list --markdown), and every catalogued
// method runs under its id and its alias.
BOOST_AUTO_TEST_CASE(readme_method_table_is_the_catalogue) {
  const result r = geomint("list --markdown", "list");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::ifstream in(GEOMINT_README);
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- methods:begin (geomint list --markdown) -->\n", end = "<!-- methods:end -->";
  const auto a = readme.find(begin), b = readme.find(end);
  BOOST_TEST_REQUIRE((a != std::string::npos && b != std::string::npos), "README has no method-table markers");
  BOOST_TEST(readme.substr(a + begin.size(), b - a - begin.size()) == r.out,
             "README's method table differs from `geomint list --markdown`: regenerate it");
}

BOOST_AUTO_TEST_CASE(every_catalogued_method_runs_under_its_id_and_alias) {
  const result listing = geomint("list --markdown", "list");
  std::istringstream rows(listing.out);
  std::string row;
  int checked = 0;
  while (std::getline(rows, row)) {
    if (row.rfind("| `", 0) != 0) continue;
    const auto field = [&](int k) {
      std::size_t at = 0;
      for (int i = 0; i <= 2 * k; ++i) at = row.find('`', at) + 1;  // after the opening backtick of field k
      return row.substr(at, row.find('`', at) - at);
    };
    const std::string id = field(0), alias = field(1);
    const std::string family = id.substr(0, id.find('_'));
    // The isospectral midpoint applies to su(N) only.
    const std::string problem = id == "lie_isospectral_midpoint_2_1" ? "sine-euler-su3"
                                : family == "lie"                    ? "free-rigid-body"
                                : family == "riemannian"             ? "particle-on-ellipsoid"
                                                                     : "double-spherical-pendulum";
    for (const std::string& name : {id, alias}) {
      const result r = geomint("run " + problem + " --method " + name + " --dt 0.01 --t-end 0.05 --out m", "catalogue");
      BOOST_TEST(r.code == 0, name << ": " << r.err);
    }
    ++checked;
  }
  BOOST_TEST(checked >= 27);
}

// ---- Poincaré sections ----------------------------------------------------------------------

namespace {
/// The section times of `method` at dt on the spherical pendulum over [0, 12].
std::vector<double> section_times(const std::string& method, double dt, const std::string& dir) {
  const result r = geomint("run spherical-pendulum --method " + method + " --dt " + std::to_string(dt) +
                               " --t-end 12 --section default --out o",
                           dir);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  return read_csv(path(dir, "o/spherical-pendulum_" + method + "_section.csv")).column("t");
}
}  // namespace

BOOST_AUTO_TEST_CASE(section_times_converge_and_the_grid_is_unchanged) {
  const std::vector<double> reference = section_times("lobatto4", 0.005, "section_ref");
  BOOST_TEST_REQUIRE(reference.size() >= 3u);
  std::vector<double> steps{0.02, 0.01, 0.005}, errors;
  for (double dt : steps) {
    const std::vector<double> t = section_times("rattle", dt, "section_rattle");
    BOOST_TEST_REQUIRE(t.size() == reference.size());
    double worst = 0;
    for (std::size_t i = 0; i < t.size(); ++i) worst = std::fmax(worst, std::fabs(t[i] - reference[i]));
    errors.push_back(worst);
  }
  // RATTLE's crossing times carry its O(h²) error (the cubic extension's is smaller).
  const double order = std::log(errors.front() / errors.back()) / std::log(steps.front() / steps.back());
  BOOST_TEST_MESSAGE("section time errors " << errors.front() << " … " << errors.back() << ", order " << order);
  BOOST_TEST(order >= 1.8);

  // The run's own CSV is the same with and without the section: the steps are not changed.
  const result with = geomint("run spherical-pendulum --method rattle --dt 0.01 --t-end 5 --section default --out o",
                              "section_with");
  const result without = geomint("run spherical-pendulum --method rattle --dt 0.01 --t-end 5 --out o", "section_without");
  BOOST_TEST_REQUIRE((with.code == 0 && without.code == 0));
  BOOST_TEST(slurp(path("section_with", "o/spherical-pendulum_rattle.csv")) ==
             slurp(path("section_without", "o/spherical-pendulum_rattle.csv")));
  BOOST_TEST(contains(with.out, "section default:"));
  if (have_gnuplot()) BOOST_TEST(non_empty_file(path("section_with", "o/spherical-pendulum_rattle_section.png")));
  // The one panel's title is wrapped to its width (650 pixels: 90 characters a line).
  for (const auto& line : lines_of(path("section_with", "o/spherical-pendulum_rattle_section.gp")))
    if (line.rfind("set multiplot", 0) == 0) {
      const std::size_t open = line.find('"'), close = line.rfind('"');
      BOOST_TEST_REQUIRE(close > open);
      std::size_t longest = 0, start = open + 1;
      for (std::size_t at; (at = line.find("\\n", start)) < close; start = at + 2) longest = std::max(longest, at - start);
      BOOST_TEST(std::max(longest, close - start) <= 90u, line);
    }
}

BOOST_AUTO_TEST_CASE(sections_are_listed_compared_side_by_side_and_checked) {
  const result list = geomint("list", "section_list");
  BOOST_TEST_REQUIRE(list.code == 0);
  BOOST_TEST(contains(list.out, "section default    q2 = 0 rising"));
  for (const char* problem : {"double-spherical-pendulum", "heavy-top", "particle-on-ellipsoid", "free-rigid-body"}) {
    const result r = geomint(std::string("run ") + problem + " --method " +
                                 (std::string(problem) == "free-rigid-body" ? "rkmk_rk4_exp" : "rattle") +
                                 " --dt 0.01 --t-end 20 --section default --out o",
                             "section_problem");
    BOOST_TEST(r.code == 0, problem << ": " << r.err);
    BOOST_TEST(contains(r.out, "section default:"), problem);
  }
  const result c = geomint("compare particle-on-ellipsoid --methods rattle,leapfrog --dt 0.02 --t-end 20 --ida off "
                           "--dopri5 off --no-work-precision --section default --out o",
                           "section_compare");
  BOOST_TEST_REQUIRE(c.code == 0, c.err);
  for (const char* m : {"rattle", "leapfrog"}) {
    const std::string file = std::string("o/particle-on-ellipsoid_") + m + "_section.csv";
    BOOST_TEST(read_csv(path("section_compare", file)).rows.size() >= 2u);
    BOOST_TEST(contains(c.out, file), c.out);  // every method's section is listed
  }
  if (have_gnuplot()) BOOST_TEST(non_empty_file(path("section_compare", "o/particle-on-ellipsoid_section.png")));
  // No crossing (T = 1 on the spherical pendulum): the CSV has no points and no PNG is claimed.
  const result empty =
      geomint("run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --section default --out o", "section_empty");
  BOOST_TEST_REQUIRE(empty.code == 0, empty.err);
  BOOST_TEST(contains(empty.out, "section default: 0 points"), empty.out);
  BOOST_TEST(!contains(empty.out, ".png"), empty.out);
  BOOST_TEST(!non_empty_file(path("section_empty", "o/spherical-pendulum_rattle_section.png")));

  // A section that cannot be recorded is refused before anything is written (an earlier run's
  // files in DIR are not overwritten by a run that is refused).
  struct stat st {};
  const result unknown =
      geomint("run spherical-pendulum --method rattle --dt 0.01 --t-end 1 --section nope --out o", "section_bad");
  BOOST_TEST(unknown.code == 1);
  BOOST_TEST(contains(unknown.err, "its sections: default"));
  BOOST_TEST(stat(path("section_bad", "o").c_str(), &st) != 0);
  const result none =
      geomint("run pendulum-chain --method rattle --dt 0.01 --t-end 1 --section default --out o", "section_none");
  BOOST_TEST(none.code == 1);
  BOOST_TEST(contains(none.err, "defines no Poincar"));
  BOOST_TEST(stat(path("section_none", "o").c_str(), &st) != 0);
  // SHAKE has no continuous extension: refused at once, in run, compare and ensemble alike.
  for (const std::string cmd : {"run double-spherical-pendulum --method shake --dt 0.01 --t-end 1",
                                "compare double-spherical-pendulum --methods rattle,shake --dt 0.01 --t-end 1 "
                                "--ida off --dopri5 off --no-work-precision",
                                "ensemble double-spherical-pendulum --method shake --dt 0.01 --t-end 1 --samples 2"}) {
    const result shake = geomint(cmd + " --section default --out o", "section_shake");
    BOOST_TEST(shake.code == 1, cmd);
    BOOST_TEST(contains(shake.err, "shake has no continuous extension"), shake.err);
    BOOST_TEST(stat(path("section_shake", "o").c_str(), &st) != 0, cmd);
  }
}

BOOST_AUTO_TEST_CASE(ensemble_section_points_are_the_same_for_1_and_2_threads) {
  const std::string cmd = "ensemble particle-on-ellipsoid --method rattle --dt 0.02 --t-end 20 --samples 6 "
                          "--vary theta=1.8:2.4 --section default --out o --threads ";
  const result one = geomint(cmd + "1", "ensemble_section1");
  const result two = geomint(cmd + "2", "ensemble_section2");
  BOOST_TEST_REQUIRE((one.code == 0 && two.code == 0), one.err + two.err);
  const std::string file = "o/particle-on-ellipsoid_ensemble_section.csv";
  BOOST_TEST(slurp(path("ensemble_section1", file)) == slurp(path("ensemble_section2", file)));
  const csv c = read_csv(path("ensemble_section1", file));
  BOOST_TEST(c.columns == (std::vector<std::string>{"trajectory", "t", "q3", "p3"}));
  BOOST_TEST_REQUIRE(c.rows.size() >= 12u);  // several crossings per trajectory over T = 20
  // Points are in trajectory order, and every trajectory has some.
  std::set<double> trajectories;
  for (std::size_t i = 1; i < c.rows.size(); ++i) BOOST_TEST(c.rows[i][0] >= c.rows[i - 1][0]);
  for (const auto& row : c.rows) trajectories.insert(row[0]);
  BOOST_TEST(trajectories.size() == 6u);
  BOOST_TEST(contains(one.out, "section default:"), one.out);
  if (have_gnuplot()) BOOST_TEST(non_empty_file(path("ensemble_section1", "o/particle-on-ellipsoid_ensemble_section.png")));
}

// A --t-end of one step: the work–precision runs at 4 dt and 2 dt have no step of their own
// (4 dt rounds to none, 2 dt to the dt run's one) and are left out; before, 4 dt stopped the
// command with "--t-end must be 0 or at least --dt/2" after the first files were written. A
// t-end that dt x 4 does not divide: every run still ends at t-end.
BOOST_AUTO_TEST_CASE(work_precision_runs_land_on_a_short_t_end) {
  const result r = geomint("compare spherical-pendulum --methods rattle --dt 0.1 --t-end 0.1 --out c", "wp_short");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::vector<std::string> settings;
  for (const auto& line : lines_of(path("wp_short", "c/spherical-pendulum_work_precision.csv")))
    if (line.rfind("rattle,", 0) == 0) settings.push_back(line.substr(0, line.find(",ok")));  // not the references'
  BOOST_TEST(settings == (std::vector<std::string>{"rattle,dt=0.1", "rattle,dt=0.05", "rattle,dt=0.025"}),
             boost::test_tools::per_element());

  const result odd = geomint("compare spherical-pendulum --methods rattle --dt 0.01 --t-end 0.05 --out c", "wp_odd");
  BOOST_TEST_REQUIRE(odd.code == 0, odd.err);
  BOOST_TEST(!contains(odd.err, "not a multiple"), odd.err);
  std::size_t rows = 0;
  for (const auto& line : lines_of(path("wp_odd", "c/spherical-pendulum_work_precision.csv")))
    if (line.rfind("rattle,", 0) == 0) {
      ++rows;
      BOOST_TEST(contains(line, ",ok"), line);
    }
  BOOST_TEST(rows == 5u);  // 1, 3, 5, 10 and 20 steps
}

// A t-end that dt does not divide: the methods take round(t-end / dt) steps, and every other run
// (the references, the work-precision rows at every step size) ends where they do, as the CSV
// headers say; before, dopri5 and the rows at dt x 2, 1/2 ran on to t-end.
BOOST_AUTO_TEST_CASE(a_t_end_that_dt_does_not_divide_ends_every_run_at_the_same_time) {
  const result r = geomint("compare spherical-pendulum --methods rattle,lobatto3 --dt 0.3 --t-end 1 --out c", "t_end_odd");
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(contains(r.err, "every run ends after 3 steps, at t = 0.9"), r.err);
  for (const char* file : {"c/spherical-pendulum_summary.csv", "c/spherical-pendulum_work_precision.csv"}) {
    const ensemble_csv c = read_ensemble(path("t_end_odd", file));  // text cells: method, status, ...
    BOOST_TEST_REQUIRE(c.rows.size() >= 4u, file);
    for (std::size_t i = 0; i < c.rows.size(); ++i)
      if (c.cell(i, "status") == "ok")  // 4 dt = 0.9 and 2 dt fail from t = 0 for some methods
        BOOST_TEST(std::fabs(c.number(i, "t_reached") - 0.9) <= 1e-12, file << ": " << c.cell(i, "method") << " "
                                                                         << c.cell(i, "setting") << " t_reached "
                                                                         << c.cell(i, "t_reached"));
    BOOST_TEST(contains(slurp(path("t_end_odd", file)), "# t_end: 0.8999999999999999"), file);  // 3 x 0.3
  }
}

// Output the command could not write (a full disk) is an error, not success.
BOOST_AUTO_TEST_CASE(a_failed_write_to_stdout_is_an_io_error) {
  for (const std::string args : {"list", "run spherical-pendulum --method rattle --dt 0.1 --t-end 1 --out o"}) {
    const int status = std::system(("cd '" + prepare("stdout_full") + "' && " + std::string(GEOMINT_CLI) + " " + args +
                                    " > /dev/full 2> stderr.txt")
                                       .c_str());
    BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 3), args);
    BOOST_TEST(contains(slurp(path("stdout_full", "stderr.txt")), "writing the standard output failed"), args);
  }
}
