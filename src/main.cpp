// The geomint command: list, run and compare geometric time steppers (docs/cli.md). Problems,
// methods and reference solvers register themselves from their family's translation unit
// (cli/registry.hpp); this file only parses the command line and drives.
//
// Exit codes: 0 success, 1 usage error, 2 an integration failed (geomint::step_error or a
// reference solver's failure), 3 I/O error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/driver.hpp"
#include "cli/ensemble_command.hpp"
#include "cli/method_list.hpp"
#include "cli/output.hpp"
#include "cli/plots.hpp"
#include "cli/registry.hpp"
#include "geomint/catalogue.hpp"

#ifndef GEOMINT_VERSION
#error "GEOMINT_VERSION is defined by src/CMakeLists.txt"
#endif

using namespace geomint::cli;

namespace {

const std::string version_line = "geomint " GEOMINT_VERSION;

enum exit_code { exit_ok = 0, exit_usage = 1, exit_failure = 2, exit_io = 3 };
/// 128 + the signal's number, as a shell reports it: 130 for SIGINT, 143 for SIGTERM.
int exit_signal(int signal) { return 128 + signal; }

/// After a SIGINT or SIGTERM: says so (stderr) and gives the exit code.
int stopped_by_signal() {
  std::fprintf(stderr, "geomint: stopped by %s; the files written so far are complete\n",
               signal_name(interrupted).c_str());
  return exit_signal(interrupted);
}

const char* usage_text =
    "usage:\n"
    "  geomint list\n"
    "  geomint run PROBLEM --method ID --dt H --t-end T [--out DIR] [--every K] [--set name=value ...]\n"
    "                  [--section NAME]\n"
    "  geomint compare PROBLEM --methods A,B,... [--dt H] [--t-end T] [--ida RTOL|off] [--dopri5 RTOL|off]\n"
    "                  [--out DIR] [--set name=value ...] [--no-work-precision] [--section NAME]\n"
    "  geomint ensemble PROBLEM --method ID --dt H --t-end T --samples M [--vary name=lo:hi ...] [--seed S]\n"
    "                  [--threads K] [--out DIR] [--every K] [--set name=value ...] [--section NAME]\n"
    "                  (also under mpirun)\n"
    "  geomint help [list|run|compare|ensemble]      geomint VERB --help      geomint --version\n"
    "options take their value as --name value or --name=value\n"
    "exit codes: 0 ok, 1 usage error, 2 integration failure, 3 I/O error, 130 interrupted (SIGINT),\n"
    "            143 terminated (SIGTERM)\n";

const char* list_help =
    "usage: geomint list [--markdown]\n"
    "Lists the problems (kind, description, parameters with their default, meaning and unit, the\n"
    "methods and references available for each), the methods (alias, id, order, properties) and\n"
    "the reference solvers. --markdown prints the method catalogue as the README's method table.\n";

const char* run_help =
    "usage: geomint run PROBLEM --method ID --dt H --t-end T [--out DIR] [--every K] [--set name=value ...]\n"
    "                   [--section NAME]\n"
    "Integrates PROBLEM with one fixed-step method and writes DIR/<problem>_<method>.csv: t, the\n"
    "state, and the invariant errors and residuals, every K steps and at the end.\n"
    "  --method ID        a method's alias or id (geomint list shows those available for PROBLEM)\n"
    "  --dt H             step size, > 0\n"
    "  --t-end T          final time, 0 or >= H/2; round(T/H) steps, ending at that multiple of H\n"
    "  --out DIR          output directory, created if missing (default: out)\n"
    "  --every K          sample every K steps (default: about 2000 rows)\n"
    "  --set name=value   a problem parameter or initial value (repeatable; geomint list names them)\n"
    "  --section NAME     also record the Poincare section NAME (geomint list shows a problem's;\n"
    "                     'default' is its first): DIR/<problem>_<method>_section.csv (t, x, y) and\n"
    "                     a PNG; crossings located on the method's continuous extension\n"
    "exit codes: 0 ok, 1 usage error, 2 the integration failed, 3 I/O error, 130 SIGINT, 143 SIGTERM\n";

const char* compare_help =
    "usage: geomint compare PROBLEM --methods A,B,... [--dt H] [--t-end T] [--ida RTOL|off] [--dopri5 RTOL|off]\n"
    "                       [--out DIR] [--set name=value ...] [--no-work-precision] [--section NAME]\n"
    "Runs several methods and the adaptive references on PROBLEM, prints a table and writes\n"
    "DIR/<problem>_summary.csv, <problem>_series_<method>.csv, <problem>_work_precision.csv and,\n"
    "with gnuplot, PNG plots.\n"
    "  --methods A,B,...  aliases or ids, comma-separated (spaces after commas are allowed)\n"
    "  --dt H             step size (default 0.01)\n"
    "  --t-end T          final time (default 100); every run ends after round(T/H) steps of H\n"
    "  --ida RTOL|off     tolerance of the IDA reference (constrained problems; default 1e-8)\n"
    "  --dopri5 RTOL|off  tolerance of the dopri5 reference (constrained and Lie-Poisson problems;\n"
    "                     default 1e-8)\n"
    "  --out DIR          output directory, created if missing (default: out)\n"
    "  --set name=value   a problem parameter or initial value (repeatable)\n"
    "  --no-work-precision  skip the work-precision runs (each method at dt x 4, 2, 1, 1/2, 1/4,\n"
    "                     each reference at rtol 1e-4, 1e-6, 1e-8, 1e-10)\n"
    "  --section NAME     each method's Poincare section NAME: <problem>_<method>_section.csv, and\n"
    "                     <problem>_section.png with the methods side by side\n"
    "exit codes: 0 ok, 1 usage error, 2 an integration failed, 3 I/O error, 130 SIGINT, 143 SIGTERM\n";

const char* ensemble_help =
    "usage: geomint ensemble PROBLEM --method ID --dt H --t-end T --samples M [--vary name=lo:hi ...]\n"
    "                        [--seed S] [--threads K] [--out DIR] [--every K] [--set name=value ...]\n"
    "       mpirun -n R geomint ensemble ...   (across MPI ranks, if built with MPI)\n"
    "Integrates M trajectories of PROBLEM with one method, each with its varied parameters drawn\n"
    "from (S, its index), and writes DIR/<problem>_ensemble.csv: one row per trajectory (varied\n"
    "parameters, status, max errors of conserved quantities, final residuals, steps, CPU s, reason).\n"
    "The file is the same, bit for bit except the cpu_seconds column and the execution line, for\n"
    "any number of threads and ranks. A failing trajectory is reported and the others complete.\n"
    "  --method ID        a method's alias or id (geomint list shows those available for PROBLEM)\n"
    "  --dt H, --t-end T  step size (> 0) and final time (>= 0); T/H steps (rounded)\n"
    "  --samples M        number of trajectories, 1 ... 100000000\n"
    "  --vary name=lo:hi  draw a parameter or initial value uniformly in [lo, hi) per trajectory\n"
    "                     (whole-number parameters: lo ... hi); repeatable\n"
    "  --seed S           seed of the draws, 0 ... 2^64 - 1 (default 0)\n"
    "  --threads K        worker threads (per rank under MPI); default: the usable cores, 1 under MPI\n"
    "  --out DIR          output directory, created if missing (default: out)\n"
    "  --every K          observe the invariants every K steps (default: about 1000 times)\n"
    "  --set name=value   fix a parameter for every trajectory (repeatable)\n"
    "  --section NAME     every trajectory's Poincare section NAME: DIR/<problem>_ensemble_section.csv\n"
    "                     (trajectory, t, x, y) and a PNG coloured by trajectory\n"
    "exit codes: 0 ok, 1 usage error, 2 a trajectory failed, 3 I/O error, 130 SIGINT, 143 SIGTERM\n";

const char* help_for(const std::string& verb) {
  if (verb == "ensemble") return ensemble_help;
  if (verb == "list") return list_help;
  if (verb == "run") return run_help;
  if (verb == "compare") return compare_help;
  return nullptr;
}

/// The first SIGINT/SIGTERM asks the command to stop cleanly; another one more than 1 s later
/// ends it at once. A repeat within that second is the same request delivered twice: timeout(1)
/// signals the command and then its whole process group, and on a busy machine the first
/// delivery's handler can run before the second arrives. (Both signals are blocked while the
/// handler runs, so first_ms is only ever touched by one handler at a time.)
void on_signal(int signal) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe
  const long long ms = static_cast<long long>(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
  static long long first_ms = 0;
  if (!interrupted) {
    interrupted = signal;
    first_ms = ms;
  } else if (ms - first_ms > 1000) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);  // delivered when the handler returns: the default action ends the program
  }
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

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

/// The command line after the verb: one positional argument (the problem) and options.
struct arguments {
  std::string problem;
  std::string method, out = "out";
  std::vector<std::string> methods, sets, varies;
  double dt = NAN, t_end = NAN;
  long every = 0;
  double ida = NAN, dopri5 = NAN;  // NAN: not given (1e-8); 0: off
  std::string section;             // "": no Poincaré section
  bool work_precision = true, help = false;
  std::uint64_t samples = 0, seed = 0;  // ensemble
  unsigned threads = 0;
};

/// A whole number in [lo, hi] (usage_error otherwise), read exactly (no detour through double).
std::uint64_t parse_whole(const std::string& option, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  // Digits only: strtoull would also skip leading blanks and negate a '-' (" -1" read as 2^64 - 1).
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || end != text.c_str() + text.size() ||
      errno == ERANGE ||
      v < lo || v > hi)
    throw usage_error(option + " must be a whole number in " + std::to_string(lo) + " ... " + std::to_string(hi) +
                      ", got '" + text + "'");
  return v;
}

arguments parse(const std::string& command, int argc, char** argv) {
  arguments a;
  const std::vector<std::string> run_options{"--method", "--dt", "--t-end", "--out", "--every", "--set", "--section"};
  const std::vector<std::string> compare_options{"--methods", "--dt",  "--t-end", "--ida",
                                                 "--dopri5",  "--out", "--set",   "--no-work-precision",
                                                 "--section"};
  const std::vector<std::string> ensemble_options{"--method", "--dt",    "--t-end", "--samples", "--vary",   "--seed",
                                                  "--threads", "--out", "--every", "--set",     "--section"};
  const auto& allowed = command == "run" ? run_options : command == "ensemble" ? ensemble_options : compare_options;
  std::set<std::string> seen;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      a.help = true;
      return a;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!a.problem.empty()) throw usage_error("unexpected argument '" + arg + "' (the problem is '" + a.problem + "')");
      a.problem = arg;
      continue;
    }
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      throw usage_error("unknown option '" + name + "' for " + command + "; valid options: " + join(allowed, ", "));
    if (name != "--set" && name != "--vary" && !seen.insert(name).second) throw usage_error(name + " is given twice");
    if (name == "--no-work-precision") {
      if (eq != std::string::npos) throw usage_error(name + " takes no value");
      a.work_precision = false;
      continue;
    }
    std::string v;
    if (eq != std::string::npos) {
      v = arg.substr(eq + 1);
    } else {
      if (i + 1 >= argc) throw usage_error(name + " needs a value");
      v = argv[++i];
      if (v.rfind("--", 0) == 0) throw usage_error(name + " needs a value (found the option " + v + " instead)");
    }
    if (v.empty() && name != "--out") throw usage_error(name + " needs a value");
    if (name == "--method") a.method = trim(v);
    else if (name == "--methods") {
      // "--methods a, b" reaches us as "a," "b": a list ending in a comma continues.
      while (!v.empty() && v.back() == ',' && i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0)
        v += argv[++i];
      for (const auto& id : split(v, ',')) {
        if (trim(id).empty()) throw usage_error("--methods: empty method name in '" + v + "'");
        a.methods.push_back(trim(id));
      }
    } else if (name == "--out") {
      if (v.empty()) throw usage_error("--out: the output directory must not be empty (use . for this directory)");
      a.out = v;
    } else if (name == "--set") a.sets.push_back(v);
    else if (name == "--section") a.section = trim(v);
    else if (name == "--vary") a.varies.push_back(v);
    else if (name == "--samples") a.samples = parse_whole(name, v, 1, 100000000);
    else if (name == "--seed") a.seed = parse_whole(name, v, 0, UINT64_MAX);
    else if (name == "--threads") a.threads = static_cast<unsigned>(parse_whole(name, v, 1, 1024));
    else if (name == "--dt") {
      a.dt = parse_number(name, v);
      if (!(a.dt > 0)) throw usage_error("--dt must be > 0, got " + v);
    } else if (name == "--t-end") {
      a.t_end = parse_number(name, v);
      if (a.t_end < 0) throw usage_error("--t-end must be >= 0, got " + v);
    } else if (name == "--every") {
      const double k = parse_number(name, v);
      if (k < 1 || k != std::floor(k) || k > 1e12) throw usage_error("--every must be a whole number >= 1, got " + v);
      a.every = static_cast<long>(k);
    } else if (name == "--ida" || name == "--dopri5") {
      double& tol = name == "--ida" ? a.ida : a.dopri5;
      tol = v == "off" ? 0.0 : parse_number(name, v);
      if (v != "off" && !(tol > 0 && tol < 1)) throw usage_error(name + " must be a tolerance in (0, 1) or 'off', got " + v);
    }
  }
  if (a.problem.empty()) throw usage_error(command + ": which problem? (geomint list shows them)");
  return a;
}

parameter_values build_parameters(const arguments& a, const problem_descriptor& d) {
  parameter_values values(d.parameters);
  for (const auto& s : a.sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) throw usage_error("--set expects name=value, got '" + s + "'");
    const std::string name = trim(s.substr(0, eq));
    values.set(name, parse_number("--set " + name, trim(s.substr(eq + 1))), d.name);
  }
  return values;
}

step_plan make_plan(double dt, double t_end, long every, long target_samples, bool notes = true) {
  step_plan p;
  p.dt = dt;
  p.t_end = t_end;
  const double n = std::round(t_end / dt);
  if (n > 1e11)
    throw usage_error("--t-end / --dt = " + format_number(t_end) + " / " + format_number(dt) + " asks for " +
                      format_number(n) + " steps; at most 1e+11 are allowed");
  p.steps = static_cast<long>(n);
  if (t_end > 0 && p.steps == 0)
    throw usage_error("--t-end (" + format_number(t_end) + ") must be 0 or at least --dt/2 (" + format_number(dt / 2) +
                      "): a run takes round(t-end / dt) steps");
  // A t-end that is not a multiple of dt: every run of the command (methods, references, the
  // work-precision rows) ends where the methods' round(t-end / dt) steps end.
  if (std::fabs(static_cast<double>(p.steps) * dt - t_end) > 1e-9 * std::fmax(1.0, t_end)) {
    p.t_end = static_cast<double>(p.steps) * dt;
    if (notes)
      std::fprintf(stderr, "geomint: note: t-end is not a multiple of dt; every run ends after %ld steps, at t = %.12g\n",
                   p.steps, p.t_end);
  }
  p.every = every > 0 ? every : std::max(1L, p.steps / target_samples);
  return p;
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

int list_command() {
  std::printf("Problems (geomint run PROBLEM ...; parameters settable with --set name=value):\n");
  for (const auto& [name, p] : problems()) {
    std::printf("\n  %s  [%s]\n    %s\n", name.c_str(), p.kind.c_str(), p.description.c_str());
    if (p.parameters.empty()) std::printf("    parameters: none\n");
    else std::printf("    parameters (default, meaning [unit]):\n");
    for (const auto& par : p.parameters)
      std::printf("      %-16s %-10g %s [%s]\n", par.name.c_str(), par.value, par.meaning.c_str(), par.unit.c_str());
    std::printf("    methods:");
    for (const auto& m : methods())
      if (m.problems.count(name)) std::printf(" %s", m.properties.alias.c_str());
    std::printf("\n    references:");
    bool any = false;
    for (const auto& r : references())
      if (r.problems.count(name)) {
        std::printf(" %s", r.id.c_str());
        any = true;
      }
    std::printf("%s\n", any ? "" : " none");
    for (const auto& sec : p.sections)
      std::printf("    section %-10s %s\n", sec.name.c_str(), sec.definition.c_str());
  }
  std::printf("\nMethods (--method accepts the alias or the id):\n");
  std::printf("  %-24s %-38s %5s %10s %9s %6s %8s %8s  %s\n", "alias", "id", "order", "symplectic", "symmetric", "energy",
              "momentum", "Casimirs", "note");
  std::vector<const method_descriptor*> sorted;
  for (const auto& m : methods()) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(), [](const method_descriptor* a, const method_descriptor* b) {
    const auto& x = a->properties;
    const auto& y = b->properties;
    return std::make_tuple(x.family(), x.properties().order(), x.id()) <
           std::make_tuple(y.family(), y.properties().order(), y.id());
  });
  for (const method_descriptor* m : sorted) {
    const auto& p = m->properties.properties();
    const unsigned c = p.conserves();
    std::printf("  %-24s %-38s %5d %10s %9s %6s %8s %8s  %s\n", m->properties.alias.c_str(), m->properties.id().c_str(),
                p.order(), yes_no(p.symplectic()).c_str(), yes_no(p.symmetric()).c_str(),
                yes_no(c & geomint::conserves_energy).c_str(),
                yes_no(c & (geomint::conserves_linear_momentum_maps | geomint::conserves_momentum_maps)).c_str(),
                yes_no(c & geomint::conserves_casimirs).c_str(), m->properties.note().c_str());
  }
  std::printf("\nReferences (geomint compare; adaptive, rtol = atol):\n");
  for (const auto& r : references()) std::printf("  %-24s %s\n", r.id.c_str(), r.description.c_str());
  return exit_ok;
}

/// The method catalogue as a Markdown table (README.md's, between its methods markers).
int list_markdown() {
  using namespace geomint;  // the catalogue (geomint/catalogue.hpp) and its property bits
  auto conserved = [](unsigned c) {
    std::string s;
    const std::pair<unsigned, const char*> names[] = {
        {conserves_constraints, "constraints"},   {conserves_linear_momentum_maps, "linear momentum maps"},
        {conserves_momentum_maps, "discrete momentum maps"}, {conserves_casimirs, "Casimirs"},
        {conserves_energy, "energy"},             {conserves_configuration_space, "configuration space"}};
    for (const auto& [bit, name] : names)
      if (c & bit) s += (s.empty() ? "" : ", ") + std::string(name);
    return s.empty() ? std::string("—") : s;
  };
  std::printf("| id | alias | method | C++ type | order | stages | symmetric | symplectic | conserves | applies to |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const method_entry& e : method_catalogue) {
    const std::string alias = alias_of(e.id);
    const method_properties& p = e.properties;
    std::printf("| `%.*s` | `%s` | %.*s | `%.*s` | %d | %d | %s | %s | %s | %.*s |\n", int(e.id.size()), e.id.data(),
                alias.c_str(), int(e.name.size()), e.name.data(), int(e.type.size()), e.type.data(), p.order(), e.stages,
                p.symmetric() ? "yes" : "no", p.symplectic() ? "yes" : "no", conserved(p.conserves()).c_str(),
                int(e.applies_to.size()), e.applies_to.data());
  }
  return exit_ok;
}

/// A method's section points: <problem>_<method>_section.csv and the recorder filling it.
struct section_output {
  section_output(const arguments& a, const problem_descriptor& d, const parameter_values& values,
                 const method_descriptor& m)
      : a_(a),
        definition(find_section(d, a.section)),
        csv(a.out + "/" + a.problem + "_" + m.properties.alias + "_section.csv") {
    csv_preamble{version_line, a.problem, values.all()}.write(
        csv, {{"method", m.properties.id() + " (" + m.properties.alias + ")"},
              {"section", definition.name + ": " + definition.definition}});
    csv.header({"t", definition.x_name, definition.y_name});
    recorder.definition = &definition;
    recorder.csv = &csv;
  }
  /// "section NAME: K points -> CSV" on stdout, and the PNG's path once it is drawn.
  void report(const std::string& png) const {
    std::printf("section %s: %ld points -> %s%s%s\n", definition.name.c_str(), recorder.points, csv.path().c_str(),
                png.empty() ? "" : ", ", png.c_str());
  }
  /// The PNG of these sections side by side (gnuplot), one panel per method with points; its
  /// path, or "" with a note on stderr saying why there is none.
  static std::string plot(const std::vector<const section_output*>& sections, const std::vector<std::string>& methods,
                          const std::string& png) {
    std::vector<std::string> with_points;
    for (std::size_t i = 0; i < sections.size(); ++i)
      if (sections[i]->recorder.points > 0) with_points.push_back(methods[i]);
    const section_output& s = *sections.front();
    if (with_points.empty()) {
      std::fprintf(stderr, "geomint: note: no trajectory crossed section %s: no PNG\n", s.definition.name.c_str());
      return "";
    }
    std::string message;
    const auto written = write_section_plot({s.a_.out, s.a_.problem, s.definition.name, s.definition.definition,
                                             s.definition.x_name, s.definition.y_name, png, with_points},
                                            message);
    if (!message.empty()) std::fprintf(stderr, "geomint: note: %s\n", message.c_str());
    return written.empty() ? "" : written.front();
  }

  const arguments& a_;
  const section_definition& definition;
  csv_file csv;
  section_recorder recorder;
};

int run_command(const arguments& a) {
  if (a.method.empty()) throw usage_error("run: --method is required");
  if (std::isnan(a.dt)) throw usage_error("run: --dt is required");
  if (std::isnan(a.t_end)) throw usage_error("run: --t-end is required");
  const problem_descriptor& d = find_problem(a.problem);
  const method_descriptor& m = find_method(a.method, a.problem);
  const parameter_values values = build_parameters(a, d);
  const auto problem = d.make(values);
  const step_plan plan = make_plan(a.dt, a.t_end, a.every, 2000);
  checked_section(d, a.section, {&m});  // before any output is written
  make_directory(a.out);
  csv_file csv(a.out + "/" + a.problem + "_" + m.properties.alias + ".csv");
  csv_preamble{version_line, a.problem, values.all()}.write(
      csv, {{"method", m.properties.id() + " (" + m.properties.alias + ")"},
            {"dt", exact_number(a.dt)},
            {"t_end", exact_number(plan.t_end)},
            {"steps", std::to_string(plan.steps)},
            {"every", std::to_string(plan.every)}});
  std::printf("%s, %s (%s), dt = %g, t-end = %g, every %ld steps -> %s\n", a.problem.c_str(),
              m.properties.alias.c_str(), m.properties.id().c_str(), a.dt, plan.t_end, plan.every, csv.path().c_str());
  std::unique_ptr<section_output> section;
  if (!a.section.empty()) section = std::make_unique<section_output>(a, d, values, m);
  print_table_header();
  const run_summary s = run_method(*problem, m, a.problem, plan, &csv, true, true, section ? &section->recorder : nullptr);
  csv.close();
  print_table_row(s);
  if (section) {
    section->csv.close();
    section->report(section_output::plot({section.get()}, {m.properties.alias},
                                         a.problem + "_" + m.properties.alias + "_section.png"));
  }
  if (interrupted) return stopped_by_signal();
  return s.ok ? exit_ok : exit_failure;
}

int ensemble_verb(const arguments& a, const mpi_session& mpi) {
  if (a.method.empty()) throw usage_error("ensemble: --method is required");
  if (std::isnan(a.dt)) throw usage_error("ensemble: --dt is required");
  if (std::isnan(a.t_end)) throw usage_error("ensemble: --t-end is required");
  if (a.samples == 0) throw usage_error("ensemble: --samples is required");
  const problem_descriptor& d = find_problem(a.problem);
  ensemble_request q;
  q.version = version_line;
  q.problem = a.problem;
  q.method = a.method;
  q.out = a.out;
  q.plan = make_plan(a.dt, a.t_end, a.every, 1000, mpi.rank() == 0);
  q.sets = a.sets;
  q.parameters = build_parameters(a, d).all();
  q.varies = a.varies;
  q.section = a.section;
  q.samples = a.samples;
  q.seed = a.seed;
  q.threads = a.threads;
  return geomint::cli::ensemble_command(q, mpi);
}

/// The methods of --methods, each once (an alias and its id are the same method).
std::vector<const method_descriptor*> find_methods(const arguments& a) {
  std::vector<const method_descriptor*> ms;
  for (const auto& id : a.methods) {
    const method_descriptor* m = &find_method(id, a.problem);
    if (std::find(ms.begin(), ms.end(), m) != ms.end())
      std::fprintf(stderr, "geomint: note: --methods names %s more than once; it runs once\n", m->properties.alias.c_str());
    else ms.push_back(m);
  }
  return ms;
}

/// The references a compare runs, with their tolerance. An option for a reference the problem
/// does not have is an error (or, for `off`, a note).
std::vector<std::pair<const reference_descriptor*, double>> find_references(const arguments& a,
                                                                              const problem_descriptor& d) {
  struct choice {
    const char* option;
    const char* id;
    double value;
  };
  std::vector<std::pair<const reference_descriptor*, double>> refs;
  for (const choice& c : {choice{"--ida", "ida_ggl", a.ida}, choice{"--dopri5", "odeint_dopri5", a.dopri5}}) {
    const reference_descriptor* r = find_reference(c.id);
    const bool applies = r && r->problems.count(a.problem);
    if (!applies && !std::isnan(c.value)) {
      std::string which;
      if (r)
        for (const auto& [name, f] : r->problems) which += (which.empty() ? "" : ", ") + name;
      const std::string why = std::string(c.option) + " does not apply: problem '" + a.problem + "' (" + d.kind +
                              ") has no " + c.id + " reference" +
                              (which.empty() ? std::string(" in this build") : "; it has one for: " + which);
      if (c.value != 0) throw usage_error(why);
      std::fprintf(stderr, "geomint: note: %s\n", why.c_str());
    }
    const double tol = std::isnan(c.value) ? 1e-8 : c.value;
    if (applies && tol > 0) refs.emplace_back(r, tol);
  }
  return refs;
}

int compare_command(const arguments& a) {
  if (a.methods.empty()) throw usage_error("compare: --methods A,B,... is required");
  const problem_descriptor& d = find_problem(a.problem);
  const std::vector<const method_descriptor*> ms = find_methods(a);
  const auto refs = find_references(a, d);
  const parameter_values values = build_parameters(a, d);
  const auto problem = d.make(values);
  const double dt = std::isnan(a.dt) ? 0.01 : a.dt;
  const step_plan plan = make_plan(dt, std::isnan(a.t_end) ? 100.0 : a.t_end, 0, 1000);
  const double t_end = plan.t_end;  // the end of every run below (make_plan)
  std::vector<double> sample_times;
  for (long k = plan.every; k < plan.steps; k += plan.every) sample_times.push_back(static_cast<double>(k) * dt);
  if (plan.steps > 0) sample_times.push_back(static_cast<double>(plan.steps) * dt);
  checked_section(d, a.section, ms);  // before any output is written

  make_directory(a.out);
  const std::string prefix = a.out + "/" + a.problem;
  const csv_preamble preamble{version_line, a.problem, values.all()};
  const std::pair<std::string, std::string> t_end_field{"t_end", exact_number(t_end)};
  std::printf("%s: dt = %g, t-end = %g (%ld steps), samples every %ld steps; output in %s/\n", a.problem.c_str(), dt,
              t_end, plan.steps, plan.every, a.out.c_str());
  print_table_header();
  std::vector<run_summary> rows;
  std::vector<std::string> labels;
  std::vector<std::unique_ptr<section_output>> sections;
  for (const method_descriptor* m : ms) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + m->properties.alias + ".csv");
    preamble.write(csv, {{"method", m->properties.id() + " (" + m->properties.alias + ")"},
                         {"dt", exact_number(dt)},
                         t_end_field});
    if (!a.section.empty()) sections.push_back(std::make_unique<section_output>(a, d, values, *m));
    rows.push_back(run_method(*problem, *m, a.problem, plan, &csv, false, true,
                              a.section.empty() ? nullptr : &sections.back()->recorder));
    csv.close();
    if (!a.section.empty()) sections.back()->csv.close();
    print_table_row(rows.back());
    labels.push_back(m->properties.alias);
  }
  if (!sections.empty()) {
    std::vector<const section_output*> all;
    for (const auto& sec : sections) all.push_back(sec.get());
    const std::vector<std::string> with_sections(labels.begin(), labels.begin() + static_cast<long>(sections.size()));
    const std::string png = section_output::plot(all, with_sections, a.problem + "_section.png");
    for (const auto& sec : sections) sec->report("");
    if (!png.empty()) std::printf("section %s: all methods -> %s\n", sections.front()->definition.name.c_str(), png.c_str());
  }
  for (const auto& [r, tol] : refs) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + r->id + ".csv");
    preamble.write(csv, {{"reference", r->id}, {"tolerance", exact_number(tol) + " (rtol = atol)"}, t_end_field});
    rows.push_back(run_reference(*problem, *r, a.problem, t_end, tol, sample_times, &csv, true));
    csv.close();
    print_table_row(rows.back());
    labels.push_back(r->id);
  }
  {
    csv_file summary(prefix + "_summary.csv");
    preamble.write(summary, {{"dt", exact_number(dt)}, t_end_field});
    summary.header(summary_columns());
    for (const auto& r : rows) summary.text_row(summary_cells(r));
    summary.close();
  }
  bool failed = false;
  for (const auto& r : rows) failed |= !r.ok && !r.interrupted;

  std::vector<std::string> wp_methods;
  if (a.work_precision && !interrupted) {
    std::printf("\nwork-precision (max energy error against CPU time):\n");
    print_table_header();
    csv_file wp(prefix + "_work_precision.csv");
    preamble.write(wp, {{"dt", exact_number(dt) + " (methods at dt x 4, 2, 1, 1/2, 1/4, each landing on t-end: "
                                                  "t-end / round(t-end / (dt x f)) where dt x f does not divide "
                                                  "it; a factor giving no step or the step count of another is left out)"},
                        {"tolerances", "references at rtol = atol = 1e-4, 1e-6, 1e-8, 1e-10"},
                        t_end_field});
    wp.header(summary_columns());
    for (std::size_t i = 0; i < ms.size() && !interrupted; ++i) {
      std::vector<long> step_counts{plan.steps};
      for (double f : {4.0, 2.0, 1.0, 0.5, 0.25}) {
        if (interrupted) break;
        double h = dt * f;
        if (f != 1.0) {
          // A step that lands on t-end, as the dt run's does; a short --t-end may have room for
          // no step of 4 dt, or for as many as another factor gives.
          const double n = std::round(t_end / h);
          if (n < 1 || std::find(step_counts.begin(), step_counts.end(), static_cast<long>(n)) != step_counts.end())
            continue;
          step_counts.push_back(static_cast<long>(n));
          if (std::fabs(n * h - t_end) > 1e-9 * std::fmax(1.0, t_end)) h = t_end / n;
        }
        run_summary s = f == 1.0 ? rows[i] : run_method(*problem, *ms[i], a.problem, make_plan(h, t_end, 0, 200, false),
                                                        nullptr, false, true);
        wp.text_row(summary_cells(s));
        print_table_row(s, f != 1.0);  // the dt run's failure was reported above
      }
      wp_methods.push_back(ms[i]->properties.alias);
    }
    for (const auto& [r, tol] : refs) {
      for (double t : {1e-4, 1e-6, 1e-8, 1e-10}) {
        if (interrupted) break;
        run_summary s = run_reference(*problem, *r, a.problem, t_end, t, sample_times, nullptr, true);
        wp.text_row(summary_cells(s));
        print_table_row(s);
      }
      wp_methods.push_back(r->id);
    }
    wp.close();
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
  std::fflush(stdout);
  if (!message.empty()) std::fprintf(stderr, "geomint: note: %s\n", message.c_str());
  if (interrupted) return stopped_by_signal();
  return failed ? exit_failure : exit_ok;
}

/// The command, with its exit code.
int run_geomint(int argc, char** argv) {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  const std::string command = argc >= 2 ? argv[1] : "";
  // An ensemble under mpirun: MPI from the start, so every rank parses the same command line and
  // agrees on errors, which rank 0 alone prints.
  std::unique_ptr<mpi_session> mpi;
  if (command == "ensemble") mpi = std::make_unique<mpi_session>(argc, argv);
  const bool quiet = mpi && mpi->rank() != 0;
  try {
    if (argc < 2) throw usage_error("no command given");
    if (command == "--version" || command == "version") {
      if (argc >= 3) throw usage_error(command + " takes no arguments, got '" + std::string(argv[2]) + "'");
      std::printf("geomint %s\n", GEOMINT_VERSION);
      return exit_ok;
    }
    if (command == "help" || command == "--help" || command == "-h") {
      const char* text = argc >= 3 ? help_for(argv[2]) : usage_text;
      if (!text) throw usage_error("help: unknown command '" + std::string(argv[2]) + "'; valid: list, run, compare, ensemble");
      std::printf("%s", text);
      return exit_ok;
    }
    if (command == "list") {
      if (argc >= 3 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
        std::printf("%s", list_help);
        return exit_ok;
      }
      if (argc == 3 && std::string(argv[2]) == "--markdown") return list_markdown();
      if (argc >= 3) throw usage_error("list takes no arguments but --markdown, got '" + std::string(argv[2]) + "'");
      return list_command();
    }
    if (command == "run" || command == "compare" || command == "ensemble") {
      const arguments a = parse(command, argc, argv);
      if (a.help) {
        if (!quiet) std::printf("%s", help_for(command));
        return exit_ok;
      }
      if (command == "ensemble") return ensemble_verb(a, *mpi);
      return command == "run" ? run_command(a) : compare_command(a);
    }
    throw usage_error("unknown command '" + command + "'; valid commands: list, run, compare, ensemble, help");
  } catch (const usage_error& e) {
    const char* help = help_for(command);
    if (!quiet) std::fprintf(stderr, "geomint: %s\n%s", e.what(), help ? help : usage_text);
    return exit_usage;
  } catch (const io_error& e) {
    std::fprintf(stderr, "geomint: I/O error: %s\n", e.what());
    return exit_io;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geomint: error: %s\n", e.what());
    if (mpi) mpi->abort(exit_failure);  // the other ranks may be waiting for this one
    return exit_failure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int code = run_geomint(argc, argv);
  // Output that never reached its file (a full disk, /dev/full) is an I/O error, not success.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "geomint: I/O error: writing the standard output failed\n");
    return code == exit_ok ? exit_io : code;
  }
  return code;
}
