// `geomint ensemble`: many trajectories of one problem with one method, parameters and initial
// data sampled per trajectory, on threads and (when built with MPI and launched by mpirun or
// srun) on MPI ranks; one CSV row per trajectory, written once by rank 0 (docs/ensembles.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/driver.hpp"
#include "cli/registry.hpp"

namespace geomint::cli {

/// MPI for the lifetime of the object, if this process was started by an MPI launcher (mpirun,
/// mpiexec, srun: it sets OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK) and the command was built
/// with MPI (GEOMINT_WITH_MPI). Otherwise rank 0 of 1. Never throws: a launch the command cannot
/// serve (several ranks, no MPI in this build) is reported by problem().
class mpi_session {
 public:
  mpi_session(int& argc, char**& argv);
  ~mpi_session();
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;
  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Why this launch cannot run, or empty.
  const std::string& problem() const { return problem_; }
  /// Ends every rank (MPI_Abort) after an error on this one that the others cannot see.
  void abort(int code) const;

 private:
  bool active_ = false;
  int rank_ = 0, size_ = 1;
  std::string problem_;
};

/// Sampling `--vary name=lo:hi` of one parameter.
struct variation {
  std::string name;
  double lo = 0, hi = 0;
  bool integer = false;  ///< a whole-number parameter: lo … hi, each value equally likely
};

struct ensemble_request {
  std::string version;  ///< "geomint 0.1.0"
  std::string problem, method, out;
  step_plan plan;
  std::vector<std::string> sets;    ///< --set name=value, already applied to `parameters`
  std::vector<parameter> parameters;  ///< the problem's parameters after --set
  std::vector<std::string> varies;  ///< --vary name=lo:hi, as given
  std::uint64_t samples = 0;
  std::uint64_t seed = 0;
  unsigned threads = 0;  ///< 0: default (one per core, or 1 per rank under MPI)
  std::string section;   ///< --section NAME: every trajectory's crossings, or empty
};

/// The variations of `--vary` texts for a problem's parameters (usage_error naming what is
/// wrong: syntax, unknown or repeated name, lo > hi, a fraction for a whole-number parameter,
/// a parameter also given with --set).
std::vector<variation> parse_variations(const std::vector<std::string>& texts, const std::vector<parameter>& parameters,
                                        const std::vector<std::string>& sets);

/// Runs the ensemble; the exit code (0 all ok, 2 a trajectory failed, 128 + signal if stopped).
/// Throws usage_error / io_error as the other verbs.
int ensemble_command(const ensemble_request& request, const mpi_session& mpi);

}  // namespace geomint::cli
