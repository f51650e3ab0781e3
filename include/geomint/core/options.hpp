// Options every geomint stepper shares: the stage solver's settings and the consistency check
// of a fresh start. A family's options extend step_options (e.g. constrained_options adds a
// linear solver, lie_options the stage-solver choice).
#pragma once

#include <limits>

namespace geomint {

/// Settings of newton_solve and fixed_point_solve.
struct newton_options {
  /// Scaled increment norm at which the iteration has converged (relative to the unknowns).
  double tolerance = 10 * std::numeric_limits<double>::epsilon();
  /// Hard bound on iterations per solve, refreshes included.
  int max_iterations = 50;
  /// Contraction factor above which a frozen Jacobian is refreshed (Newton only); ≤ 0 means
  /// full Newton, the Jacobian refreshed at the guess and at every iterate.
  double refresh_contraction = 0.3;
  /// Increments that stop shrinking (contraction θ ≥ 0.5) below stall_factor × tolerance are
  /// round-off: the iteration has converged.
  double stall_factor = 100;
  /// Increments that stop shrinking below this, after contracting by 10⁴, are round-off too
  /// (Newton: only with a Jacobian computed in the same solve).
  double roundoff_floor = 1e-9;
};

struct step_options {
  newton_options newton;
  /// A step that does not continue the stepper's own previous step checks that the state lies
  /// on the method's manifold (constraints, phase space, coadjoint orbit data): scaled residuals
  /// above this are rejected with inconsistent_initial_state.
  double consistency_tolerance = 1e-10;
};

}  // namespace geomint
