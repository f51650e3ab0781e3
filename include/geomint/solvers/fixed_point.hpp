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
//
// Optionally accelerated (fixed_point_acceleration::anderson_depth = m > 0): Anderson
// acceleration (solvers/anderson.hpp: z_{k+1} = g_k − ΔG_k γ_k from the last m differences). For
// a linear map it is GMRES on (1 − F') in disguise, so an iteration that contracts slowly
// because of a few (or clustered) eigenvalues of F' near its spectral radius is much sped up.
// The stopping rule is the plain iteration's, applied to the residual change_norm(g_k, z_k);
// on convergence z = g_k, as in the plain iteration. Depth 0 is the plain iteration.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "geomint/solvers/anderson.hpp"
#include "geomint/solvers/newton.hpp"

namespace geomint {

struct fixed_point_report {
  int iterations = 0;
  double change = 0;  ///< scaled norm of the last change
};

/// Solves z = F(z) in place. `Problem` provides
///   void   map(const Z& z, Z& next);                 // next = F(z); may throw step_error
///   double change_norm(const Z& next, const Z& z);   // scaled, dimensionless
/// `next` is scratch of the same size as z. On failure a step_error is thrown; z is then
/// unspecified (callers solve in their cache's scratch, not in the state).
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

/// Anderson acceleration of fixed_point_solve: depth 0 (the default) is the plain iteration.
struct fixed_point_acceleration {
  int anderson_depth = 0;  ///< m: differences kept (2–5 is typical)
};

/// fixed_point_solve, Anderson-accelerated when acceleration.anderson_depth > 0 (else the plain
/// iteration above, identically). Same stopping rule, same failures; `history` is scratch.
template <class Problem, class Z>
fixed_point_report fixed_point_solve(Problem& problem, Z& z, Z& next, const newton_options& opt,
                                     fixed_point_statistics& stats, const newton_context& ctx,
                                     const fixed_point_acceleration& acceleration, anderson_workspace& history) {
  if (acceleration.anderson_depth <= 0) return fixed_point_solve(problem, z, next, opt, stats, ctx);
  auto fail = [&](failure_reason why, int k, double change, const std::string& detail) {
    throw step_error(why, ctx.t, ctx.dt, k, change, std::string(ctx.what) + ": " + detail);
  };
  ++stats.solves;
  history.start(z.size(), acceleration.anderson_depth);
  constexpr double inf = std::numeric_limits<double>::infinity();
  double previous = inf, first = inf, change = inf;
  int growing_in_a_row = 0;
  for (int k = 1; k <= opt.max_iterations; ++k) {
    problem.map(z, next);  // g_k = F(z_k)
    ++stats.iterations;
    change = problem.change_norm(next, z);
    if (std::isnan(change) || std::isinf(change))
      fail(failure_reason::non_finite_value, k, change, "an iterate is not finite");
    if (first == inf) first = change;
    const bool stalled = change >= 0.5 * previous;
    growing_in_a_row = change > previous ? growing_in_a_row + 1 : 0;
    if (change <= opt.tolerance || (stalled && change <= opt.stall_factor * opt.tolerance) ||
        (change >= previous && change <= opt.roundoff_floor && change <= 1e-4 * first)) {
      z.swap(next);  // z = g_k
      return {k, change};
    }
    if (change > 1e3 || growing_in_a_row >= 3)
      fail(failure_reason::newton_diverged, k, change,
           "the fixed-point iteration diverges: the step is too large for it");
    history.advance(z, next);  // next = z_{k+1}
    z.swap(next);
    previous = change;
  }
  fail(failure_reason::max_iterations, opt.max_iterations, change,
       "no convergence within " + std::to_string(opt.max_iterations) + " iterations");
  return {};  // unreachable
}

/// A fixed-point problem from its map alone, `map(z, next)`, with the change measured as the
/// max-norm difference relative to the new iterate.
template <class Map>
struct mapped_fixed_point {
  Map map_;
  template <class Z>
  void map(const Z& z, Z& next) { map_(z, next); }
  template <class Z>
  double change_norm(const Z& next, const Z& z) const {
    return (next - z).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
  }
};
template <class Map>
mapped_fixed_point<Map> fixed_point_of(Map map) {
  return {std::move(map)};
}

}  // namespace geomint
