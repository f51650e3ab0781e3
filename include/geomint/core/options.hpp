// Options every geomint stepper has: the check of a fresh start. A family's options extend them
// (solvers/solver_options.hpp adds the stage solver's settings; constrained_options a linear
// solver, lie_options the stage-solver choice).
#pragma once

namespace geomint {

struct step_options {
  /// A step that does not continue the stepper's own previous step checks that the state lies
  /// on the method's manifold (constraints, phase space, coadjoint orbit data): scaled residuals
  /// above this are rejected with inconsistent_initial_state.
  double consistency_tolerance = 1e-10;
};

}  // namespace geomint
