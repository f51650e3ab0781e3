// Parsing the command line of run, compare and ensemble (arguments.hpp).
#include "cli/arguments.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "geomint/config.hpp"

namespace geomint::cli {

const std::string version_line = "geomint " GEOMINT_VERSION;

int stopped_by_signal() {
  std::fprintf(stderr, "geomint: stopped by %s; the files written so far are complete\n",
               signal_name(interrupted).c_str());
  return 128 + interrupted;
}

namespace {

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

}  // namespace

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
step_plan make_plan(double dt, double t_end, long every, long target_samples, bool notes) {
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

}  // namespace geomint::cli
