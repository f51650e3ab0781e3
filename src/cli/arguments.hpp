// The command line of the verbs that take a problem (run, compare, ensemble): what they were
// given, its parameters and the step plan. Parsed in arguments.cpp; main.cpp dispatches.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/driver.hpp"
#include "cli/registry.hpp"

namespace geomint::cli {

/// "geomint <version>", the first line of every file the command writes.
extern const std::string version_line;

enum exit_code { exit_ok = 0, exit_usage = 1, exit_failure = 2, exit_io = 3 };

/// After a SIGINT or SIGTERM: says so (stderr) and gives the exit code, 128 + the signal's
/// number as a shell reports it (130 for SIGINT, 143 for SIGTERM).
int stopped_by_signal();

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


/// Parses argv[2...] for `command` (run, compare or ensemble); usage_error on a bad one.
arguments parse(const std::string& command, int argc, char** argv);
/// The problem's parameters with the --set values applied.
parameter_values build_parameters(const arguments& a, const problem_descriptor& d);
/// round(t_end / dt) steps of dt, sampled every `every` steps (0: about target_samples rows);
/// usage_error for a plan that cannot be run. `notes`: say on stderr where t_end moved.
step_plan make_plan(double dt, double t_end, long every, long target_samples, bool notes = true);

}  // namespace geomint::cli
