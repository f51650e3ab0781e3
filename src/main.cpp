// The geomint command: list, run and compare geometric time steppers (docs/cli.md). Problems,
// methods and reference solvers register themselves from their family's translation unit
// (cli/registry.hpp); each verb is in cli/<verb>_command.cpp; this file reads the verb, prints
// help and maps errors to exit codes.
//
// Exit codes: 0 success, 1 usage error, 2 an integration failed (geomint::step_error or a
// reference solver's failure), 3 I/O error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
#include <csignal>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/registry.hpp"

using namespace geomint::cli;

namespace {

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
      std::printf("%s\n", version_line.c_str());
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