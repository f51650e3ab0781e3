// The stage solvers' settings and counters (newton.hpp, fixed_point.hpp), and the options and
// statistics of a stepper that solves implicit equations with them: the core's plus these.
#pragma once

#include <limits>

#include "geomint/core/options.hpp"
#include "geomint/core/statistics.hpp"

namespace geomint {

/// Settings of newton_solve and fixed_point_solve.
struct newton_options {
  /// Scaled increment norm at which the iteration has converged (relative to the unknowns).
  double tolerance = 10 * std::numeric_limits<double>::epsilon();
  /// Also stop (Newton only) when the estimated error of the next iterate, θ/(1 − θ)‖Δz‖ with θ
  /// the larger of the last two contraction factors, is below `tolerance` (Hairer–Wanner,
  /// Solving ODEs II, IV.8): an iteration contracting by θ ~ 1e-5 stops one iteration before
  /// its increments themselves fall below `tolerance` (forced pendulum, Lobatto 4_3: 2 instead
  /// of 3 iterations per step). Off by default: θ measured from the first increments can
  /// underestimate the rate of a slower component, and the stages are then solved to ~1e-14
  /// per step rather than round-off (an order-8 pair at h = 1/16: an error of 1.8e-12 after 48
  /// steps, 1.0e-12 without). For a force so expensive that this trade is worth it.
  bool estimate_error = false;
  /// Hard bound on iterations per solve, refreshes included.
  int max_iterations = 50;
  /// Contraction factor above which a frozen Jacobian is refreshed (Newton only); ≤ 0 means
  /// full Newton, the Jacobian refreshed at the guess and at every iterate.
  double refresh_contraction = 0.3;
  /// Increments that stop shrinking (contraction θ ≥ 0.5) below stall_factor × tolerance are
  /// round-off: the iteration has converged.
  double stall_factor = 100;
  /// Increments that stop shrinking below this, after contracting by 10⁴, are round-off too
  /// (Newton: only with a Jacobian computed in the same solve); 0 turns this exit off.
  double roundoff_floor = 1e-9;
};

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

/// Options of a stepper with implicit equations: the fresh-start check and the solver's settings.
struct solver_options : step_options {
  newton_options newton;
};

/// Statistics of a stepper with implicit equations: the core's counters and the solvers'.
struct solver_statistics : step_statistics {
  newton_statistics newton;
  fixed_point_statistics fixed_point;
};

}  // namespace geomint
