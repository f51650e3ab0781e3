// The geomint command: list, run and compare geometric time steppers (README, "The geomint
// command"). Problems, methods and reference solvers register themselves from their family's
// translation unit (cli/registry.hpp); this file only parses the command line and drives.
//
// Exit codes: 0 success, 1 usage error, 2 an integration failed (geomint::step_error or a
// reference solver's failure), 3 I/O error, 130 interrupted (SIGINT).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "cli/driver.hpp"
#include "cli/plots.hpp"
#include "cli/registry.hpp"

using namespace geomint::cli;

namespace {

enum exit_code { exit_ok = 0, exit_usage = 1, exit_failure = 2, exit_io = 3, exit_interrupted = 130 };

const char* usage_text =
    "usage:\n"
    "  geomint list\n"
    "  geomint run PROBLEM --method ID --dt H --t-end T [--out DIR] [--every K] [--set name=value ...]\n"
    "  geomint compare PROBLEM --methods A,B,... [--dt H] [--t-end T] [--ida RTOL|off] [--dopri5 RTOL|off]\n"
    "                  [--out DIR] [--set name=value ...] [--no-work-precision]\n"
    "  geomint help\n"
    "exit codes: 0 ok, 1 usage error, 2 integration failure, 3 I/O error, 130 interrupted (Ctrl-C)\n";

void on_sigint(int) {
  interrupted = 1;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C terminates at once
}

double parse_number(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
    throw usage_error(option + ": '" + text + "' is not a number");
  if (!std::isfinite(v)) throw usage_error(option + ": must be finite, got '" + text + "'");
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

/// The command line after the subcommand: one positional argument (the problem) and options.
struct arguments {
  std::string problem;
  std::string method, methods, out = "out";
  std::vector<std::string> sets;
  double dt = NAN, t_end = NAN;
  long every = 0;
  double ida = 1e-8, dopri5 = NAN;  // NAN: same as ida; 0: off
  bool work_precision = true;
};

arguments parse(const std::string& command, int argc, char** argv) {
  arguments a;
  const auto is = [&](const char* name, const std::vector<std::string>& allowed_in) {
    for (const auto& x : allowed_in)
      if (x == name) return true;
    return false;
  };
  const std::vector<std::string> run_options{"--method", "--dt", "--t-end", "--out", "--every", "--set"};
  const std::vector<std::string> compare_options{"--methods", "--dt", "--t-end", "--ida", "--dopri5", "--out", "--set",
                                                 "--no-work-precision"};
  const auto& allowed = command == "run" ? run_options : compare_options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      if (!a.problem.empty()) throw usage_error("unexpected argument '" + arg + "' (the problem is '" + a.problem + "')");
      a.problem = arg;
      continue;
    }
    if (!is(arg.c_str(), allowed)) {
      std::string valid;
      for (const auto& o : allowed) valid += (valid.empty() ? "" : ", ") + o;
      throw usage_error("unknown option '" + arg + "' for " + command + "; valid options: " + valid);
    }
    if (arg == "--no-work-precision") {
      a.work_precision = false;
      continue;
    }
    if (i + 1 >= argc) throw usage_error(arg + " needs a value");
    const std::string v = argv[++i];
    if (arg == "--method") a.method = v;
    else if (arg == "--methods") a.methods = v;
    else if (arg == "--out") a.out = v;
    else if (arg == "--set") a.sets.push_back(v);
    else if (arg == "--dt") {
      a.dt = parse_number(arg, v);
      if (!(a.dt > 0)) throw usage_error("--dt must be > 0, got " + v);
    } else if (arg == "--t-end") {
      a.t_end = parse_number(arg, v);
      if (a.t_end < 0) throw usage_error("--t-end must be >= 0, got " + v);
    } else if (arg == "--every") {
      const double k = parse_number(arg, v);
      if (k < 1 || k != std::floor(k) || k > 1e12) throw usage_error("--every must be a whole number >= 1, got " + v);
      a.every = static_cast<long>(k);
    } else if (arg == "--ida" || arg == "--dopri5") {
      double& tol = arg == "--ida" ? a.ida : a.dopri5;
      tol = v == "off" ? 0.0 : parse_number(arg, v);
      if (v != "off" && !(tol > 0 && tol < 1)) throw usage_error(arg + " must be a tolerance in (0, 1) or 'off', got " + v);
    }
  }
  if (a.problem.empty()) throw usage_error(command + ": which problem? (geomint list shows them)");
  return a;
}

std::unique_ptr<problem_instance> build_problem(const arguments& a, const problem_descriptor& d) {
  parameter_values values(d.parameters);
  for (const auto& s : a.sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw usage_error("--set expects name=value, got '" + s + "'");
    values.set(s.substr(0, eq), parse_number("--set " + s.substr(0, eq), s.substr(eq + 1)), d.name);
  }
  return d.make(values);
}

step_plan make_plan(double dt, double t_end, long every, long target_samples) {
  step_plan p;
  p.dt = dt;
  p.t_end = t_end;
  const double n = std::round(t_end / dt);
  if (n > 1e11) throw usage_error("--t-end / --dt asks for " + std::to_string(n) + " steps; that is too many");
  p.steps = static_cast<long>(n);
  if (t_end > 0 && p.steps == 0) throw usage_error("--t-end must be 0 or at least --dt/2");
  if (std::fabs(static_cast<double>(p.steps) * dt - t_end) > 1e-9 * std::fmax(1.0, t_end))
    std::printf("note: t-end is not a multiple of dt; integrating %ld steps to t = %.12g\n", p.steps,
                static_cast<double>(p.steps) * dt);
  p.every = every > 0 ? every : std::max(1L, p.steps / target_samples);
  return p;
}

void make_directory(const std::string& dir) {
  std::string partial;
  for (const auto& part : split(dir, '/')) {
    partial += part;
    if (!partial.empty() && mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST)
      throw io_error("cannot create directory " + partial + ": " + std::strerror(errno));
    partial += '/';
  }
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

int list_command() {
  std::printf("Problems (geomint run PROBLEM ...; parameters settable with --set name=value):\n");
  for (const auto& [name, p] : problems()) {
    std::printf("\n  %s  [%s]\n    %s\n    parameters:", name.c_str(), p.kind.c_str(), p.description.c_str());
    for (const auto& par : p.parameters) std::printf(" %s=%g", par.name.c_str(), par.value);
    std::printf("\n    methods:");
    for (const auto& m : methods())
      if (m.problems.count(name)) std::printf(" %s", m.properties.alias.c_str());
    std::printf("\n    references:");
    for (const auto& r : references())
      if (r.problems.count(name)) std::printf(" %s", r.id.c_str());
    std::printf("\n");
  }
  std::printf("\nMethods (--method accepts the alias or the id):\n");
  std::printf("  %-24s %-38s %5s %10s %9s %6s %8s %8s  %s\n", "alias", "id", "order", "symplectic", "symmetric", "energy",
              "momentum", "Casimirs", "note");
  std::vector<const method_descriptor*> sorted;
  for (const auto& m : methods()) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(), [](const method_descriptor* a, const method_descriptor* b) {
    const auto& x = a->properties;
    const auto& y = b->properties;
    return std::tie(x.family, x.order, x.id) < std::tie(y.family, y.order, y.id);
  });
  for (const method_descriptor* m : sorted) {
    const auto& p = m->properties;
    std::printf("  %-24s %-38s %5d %10s %9s %6s %8s %8s  %s\n", p.alias.c_str(), p.id.c_str(), p.order,
                yes_no(p.symplectic).c_str(), yes_no(p.symmetric).c_str(), yes_no(p.conserves_energy).c_str(),
                yes_no(p.conserves_momentum).c_str(), yes_no(p.conserves_casimirs).c_str(), p.note.c_str());
  }
  std::printf("\nReferences (geomint compare; adaptive, rtol = atol):\n");
  for (const auto& r : references()) std::printf("  %-24s %s\n", r.id.c_str(), r.description.c_str());
  return exit_ok;
}

int run_command(const arguments& a) {
  if (a.method.empty()) throw usage_error("run: --method is required");
  if (std::isnan(a.dt)) throw usage_error("run: --dt is required");
  if (std::isnan(a.t_end)) throw usage_error("run: --t-end is required");
  const problem_descriptor& d = find_problem(a.problem);
  const method_descriptor& m = find_method(a.method, a.problem);
  const auto problem = build_problem(a, d);
  const step_plan plan = make_plan(a.dt, a.t_end, a.every, 2000);
  make_directory(a.out);
  csv_file csv(a.out + "/" + a.problem + "_" + m.properties.alias + ".csv");
  const run_summary s = run_method(*problem, m, a.problem, plan, &csv, true, true);
  csv.close();
  std::printf("%s, %s (%s), dt = %g, t-end = %g, every %ld steps -> %s\n", a.problem.c_str(),
              m.properties.alias.c_str(), m.properties.id.c_str(), a.dt, a.t_end, plan.every, csv.path().c_str());
  print_summary({s});
  if (s.interrupted) return exit_interrupted;
  return s.ok ? exit_ok : exit_failure;
}

/// One work–precision row: method, setting, status, max energy error, final constraint, CPU s, steps.
void work_precision_row(csv_file& f, const run_summary& s) {
  char b[256];
  std::snprintf(b, sizeof b, "%.6e,%.6e,%.6e,%ld", s.max_energy_error, s.final_constraint,
                std::fmax(s.cpu_seconds, 1e-6), s.steps);
  f.text_row({s.method, s.setting, s.status(), b});
}

int compare_command(const arguments& a) {
  if (a.methods.empty()) throw usage_error("compare: --methods A,B,... is required");
  const problem_descriptor& d = find_problem(a.problem);
  std::vector<const method_descriptor*> ms;
  for (const auto& id : split(a.methods, ',')) ms.push_back(&find_method(id, a.problem));
  const auto problem = build_problem(a, d);
  const double dt = std::isnan(a.dt) ? 0.01 : a.dt, t_end = std::isnan(a.t_end) ? 100.0 : a.t_end;
  const step_plan plan = make_plan(dt, t_end, 0, 1000);
  std::vector<double> sample_times;
  for (long k = plan.every; k < plan.steps; k += plan.every) sample_times.push_back(static_cast<double>(k) * dt);
  if (plan.steps > 0) sample_times.push_back(static_cast<double>(plan.steps) * dt);

  std::vector<std::pair<const reference_descriptor*, double>> refs;
  const double dopri_tol = std::isnan(a.dopri5) ? a.ida : a.dopri5;
  for (const auto& [id, tol] : {std::pair<std::string, double>{"ida_ggl", a.ida}, {"odeint_dopri5", dopri_tol}}) {
    const reference_descriptor* r = find_reference(id);
    if (tol > 0 && r && r->problems.count(a.problem)) refs.emplace_back(r, tol);
  }

  make_directory(a.out);
  const std::string prefix = a.out + "/" + a.problem;
  std::printf("%s: dt = %g, t-end = %g (%ld steps), samples every %ld steps; output in %s/\n", a.problem.c_str(), dt,
              t_end, plan.steps, plan.every, a.out.c_str());
  std::vector<run_summary> rows;
  std::vector<std::string> labels;
  for (const method_descriptor* m : ms) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + m->properties.alias + ".csv");
    rows.push_back(run_method(*problem, *m, a.problem, plan, &csv, false, true));
    csv.close();
    labels.push_back(m->properties.alias);
  }
  for (const auto& [r, tol] : refs) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + r->id + ".csv");
    rows.push_back(run_reference(*problem, *r, a.problem, t_end, tol, sample_times, &csv, true));
    csv.close();
    labels.push_back(r->id);
  }
  print_summary(rows);
  write_summary_csv(prefix + "_summary.csv", rows);
  bool failed = false;
  for (const auto& r : rows) failed |= !r.ok && !r.interrupted;

  std::vector<std::string> wp_methods;
  if (a.work_precision && !interrupted) {
    std::printf("\nwork-precision (max energy error against CPU time):\n");
    csv_file wp(prefix + "_work_precision.csv");
    wp.header({"method", "setting", "status", "max_energy_error", "final_constraint_residual", "cpu_seconds", "steps"});
    std::vector<run_summary> wp_rows;
    for (std::size_t i = 0; i < ms.size() && !interrupted; ++i) {
      for (double f : {4.0, 2.0, 1.0, 0.5, 0.25}) {
        if (interrupted) break;
        run_summary s = f == 1.0 ? rows[i] : run_method(*problem, *ms[i], a.problem, make_plan(dt * f, t_end, 0, 200),
                                                        nullptr, false, true);
        work_precision_row(wp, s);
        wp_rows.push_back(s);
      }
      wp_methods.push_back(ms[i]->properties.alias);
    }
    for (const auto& [r, tol] : refs) {
      for (double t : {1e-4, 1e-6, 1e-8, 1e-10}) {
        if (interrupted) break;
        run_summary s = run_reference(*problem, *r, a.problem, t_end, t, sample_times, nullptr, true);
        work_precision_row(wp, s);
        wp_rows.push_back(s);
      }
      wp_methods.push_back(r->id);
    }
    wp.close();
    print_summary(wp_rows);
  }

  plot_request pr;
  pr.directory = a.out;
  pr.problem = a.problem;
  pr.series = labels;
  pr.has_constraint = !rows.empty() && rows.front().has_constraint;
  pr.has_casimir = !rows.empty() && rows.front().has_casimir;
  pr.work_precision = !wp_methods.empty();
  pr.work_precision_methods = wp_methods;
  std::string message;
  const auto pngs = labels.empty() ? std::vector<std::string>{} : write_plots(pr, message);
  std::printf("\nwritten: %s_summary.csv, %s_series_*.csv%s\n", prefix.c_str(), prefix.c_str(),
              pr.work_precision ? (", " + prefix + "_work_precision.csv").c_str() : "");
  for (const auto& png : pngs) std::printf("plot: %s\n", png.c_str());
  if (!message.empty()) std::printf("%s\n", message.c_str());
  if (interrupted) return exit_interrupted;
  return failed ? exit_failure : exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  try {
    if (argc < 2) throw usage_error("no command given");
    const std::string command = argv[1];
    if (command == "help" || command == "--help" || command == "-h") {
      std::printf("%s", usage_text);
      return exit_ok;
    }
    if (command == "list") return list_command();
    if (command == "run") return run_command(parse(command, argc, argv));
    if (command == "compare") return compare_command(parse(command, argc, argv));
    throw usage_error("unknown command '" + command + "'; valid commands: list, run, compare, help");
  } catch (const usage_error& e) {
    std::fprintf(stderr, "geomint: %s\n%s", e.what(), usage_text);
    return exit_usage;
  } catch (const io_error& e) {
    std::fprintf(stderr, "geomint: I/O error: %s\n", e.what());
    return exit_io;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geomint: error: %s\n", e.what());
    return exit_failure;
  }
}
