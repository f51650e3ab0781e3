// Counters every geomint stepper keeps over its lifetime (statistics()). One struct for all
// families; a counter a method has no use for stays 0.
#pragma once

namespace geomint {

struct newton_statistics {
  long solves = 0;
  long iterations = 0;
  long jacobian_updates = 0;
  long full_newton_fallbacks = 0;
  /// Largest scaled increment at which a solve was accepted (≤ tolerance, or a round-off stall).
  double largest_final_increment = 0;
};

struct fixed_point_statistics {
  long solves = 0;
  long iterations = 0;
};

struct step_statistics {
  long steps = 0;
  /// Constrained family: steps whose stages the general (non-separable) solver solved.
  long general_solver_steps = 0;
  /// SHAKE: steps whose SHAKE iteration contracted too slowly and switched to full Newton.
  long full_newton_steps = 0;
  newton_statistics newton;
  fixed_point_statistics fixed_point;
};

}  // namespace geomint
