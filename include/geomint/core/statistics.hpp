// Counters the core keeps for every stepper (statistics()). A family's statistics extend them
// (solvers/solver_options.hpp adds the stage solvers' counters, a family its own).
#pragma once

namespace geomint {

struct step_statistics {
  long steps = 0;         ///< successful steps
  long fresh_starts = 0;  ///< steps that did not continue the previous one (start() ran)
  /// Continued steps that failed and were taken again as a fresh stepper takes them (and steps
  /// the family asked to repeat so); each such step counts once in steps.
  long retries = 0;
};

}  // namespace geomint
