// Fixed-point iteration z ← F(z) for implicit stages whose map contracts for small steps
// (Moser–Veselov, the Lie–Poisson leapfrog, matrix-free RKMK stages), beside newton_solve and
// with the same stopping rule:
//   converged   the scaled change is ≤ tolerance; or it stopped shrinking (θ ≥ 0.5) at
//               ≤ stall_factor × tolerance; or it stopped shrinking altogether (θ ≥ 1) below
//               roundoff_floor after contracting by 10⁴ (round-off of an expensive map);
//   diverged    the change exceeds 10³, or grows (θ > 1) three iterations in a row (a map
//               that contracts only in some norm — Moser–Veselov's two blocks — may grow once);
//   non-finite  the map produced a NaN or Inf (step_error non_finite_value);
//   otherwise   max_iterations.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "geomint/core/newton.hpp"

namespace geomint {

struct fixed_point_report {
  int iterations = 0;
  double change = 0;  ///< scaled norm of the last change
};

/// Solves z = F(z) in place. `Problem` provides
///   void   map(const Z& z, Z& next);                 // next = F(z); may throw step_error
///   double change_norm(const Z& next, const Z& z);   // scaled, dimensionless
/// `next` is scratch of the same size as z. On failure a step_error is thrown; z is then
/// unspecified (callers solve in a workspace).
template <class Problem, class Z>
fixed_point_report fixed_point_solve(Problem& problem, Z& z, Z& next, const newton_options& opt,
                                     fixed_point_statistics& stats, const newton_context& ctx) {
  auto fail = [&](failure_reason why, int k, double change, const std::string& detail) {
    throw step_error(why, ctx.t, ctx.dt, k, change, std::string(ctx.what) + ": " + detail);
  };
  ++stats.solves;
  constexpr double inf = std::numeric_limits<double>::infinity();
  double previous = inf, first = inf, change = inf;
  int growing_in_a_row = 0;
  for (int k = 1; k <= opt.max_iterations; ++k) {
    problem.map(z, next);
    ++stats.iterations;
    change = problem.change_norm(next, z);
    z.swap(next);
    if (std::isnan(change) || std::isinf(change))
      fail(failure_reason::non_finite_value, k, change, "an iterate is not finite");
    if (first == inf) first = change;
    if (change <= opt.tolerance) return {k, change};
    const bool stalled = change >= 0.5 * previous;
    growing_in_a_row = change > previous ? growing_in_a_row + 1 : 0;
    if (stalled && change <= opt.stall_factor * opt.tolerance) return {k, change};
    if (change >= previous && change <= opt.roundoff_floor && change <= 1e-4 * first) return {k, change};
    if (change > 1e3 || growing_in_a_row >= 3)
      fail(failure_reason::newton_diverged, k, change,
           "the fixed-point iteration diverges: the step is too large for it");
    previous = change;
  }
  fail(failure_reason::max_iterations, opt.max_iterations, change,
       "no convergence within " + std::to_string(opt.max_iterations) + " iterations");
  return {};  // unreachable
}

}  // namespace geomint
