// Newton iteration for implicit stage equations.
//
// Simplified Newton with a frozen, factorized Jacobian: the factorization is reused across
// iterations and, while the iteration contracts fast, across steps. When the contraction
// factor θ = ‖Δz_k‖/‖Δz_{k−1}‖ exceeds `refresh_contraction`, the Jacobian is refreshed at the
// current iterate (from the initial guess if the iteration grew, or if a stale Jacobian led it
// to where the Jacobian is singular); if a fresh Jacobian still contracts slowly, every further
// iteration refreshes it (full Newton; refresh_contraction ≤ 0 asks for full Newton from the
// guess on). The first θ measured with a factorization kept from an earlier solve is judged
// more leniently (see first_ratio_bound). The iteration stops
// when the scaled increment is below `tolerance` (near round-off by default), when the next
// iterate's estimated error θ/(1 − θ)‖Δz‖ is (newton_options::estimate_error), or when it has
// stalled at the round-off floor.
//
// A problem whose iteration matrix cannot be improved (`fixed_jacobian`, e.g. the sparse
// chains' SHAKE-type iteration with G(q0)M⁻¹G(q0)ᵀ) runs a linearly convergent iteration: it
// never refreshes, it is Anderson-accelerated where Newton would refresh (θ above
// `refresh_contraction`), and it stops at the round-off floor only once it has made no progress
// for a few iterations (a slow contraction, θ ≈ 0.5–0.9, is not a stall).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "geomint/core/step_error.hpp"
#include "geomint/core/types.hpp"
#include "geomint/solvers/anderson.hpp"
#include "geomint/solvers/solver_options.hpp"

namespace geomint {

struct newton_report {
  int iterations = 0;
  double increment = 0;  ///< scaled norm of the last increment
  /// ‖Δz₂‖/‖Δz₁‖, how well the matrix the solve started with describes its equations: 0 when the
  /// solve converged in one iteration or its first increment was already round-off (< 1e-13).
  double first_contraction = 0;
};

/// Where a solve happens, for the error message.
struct newton_context {
  double t = 0;
  double dt = 0;
  const char* what = "stage equations";
};

/// The first contraction factor measured with a factorization kept from an earlier solve
/// (θ₂ = ‖Δz₂‖/‖Δz₁‖) asks for a refresh only above max(refresh_contraction, this). It is
/// mostly transient: the guess's error in quantities that depend on others is corrected an
/// iteration after them (a constrained PRK step's multipliers after its positions), so the
/// second increment can be 0.3–0.7 of the first while the later ones contract by 0.01–0.1
/// (a Lobatto IIIA–IIIB step of a top, for instance). A refresh there costs a factorization
/// where two or three more iterations suffice; a θ that stays large is caught at the next
/// iteration by refresh_contraction.
inline constexpr double first_ratio_bound = 0.5;

/// `Problem::fixed_jacobian` (a static constexpr bool), false if absent: update_jacobian cannot
/// give a better matrix than the one the solve starts with.
template <class Problem, class = void>
struct has_fixed_jacobian : std::false_type {};
template <class Problem>
struct has_fixed_jacobian<Problem, std::void_t<decltype(Problem::fixed_jacobian)>>
    : std::bool_constant<Problem::fixed_jacobian> {};

/// Iterations without a new smallest increment after which a fixed-matrix iteration has stopped
/// making progress (at round-off, or not contracting).
inline constexpr int fixed_patience = 4;
/// Anderson depth of an accelerated fixed-matrix iteration.
inline constexpr int fixed_anderson_depth = 5;

/// Solves F(z) = 0 in place. `Problem` provides
///   void   residual(const Z& z, Z& r);            // r = F(z)
///   void   update_jacobian(const Z& z);           // (re)factorize J ≈ F'(z); may throw step_error
///   bool   has_jacobian() const;                  // a factorization from an earlier solve exists
///   void   solve_in_place(Z& r);                  // r ← J⁻¹ r with the current factorization
///   double increment_norm(const Z& z, const Z& dz) const;  // scaled, dimensionless
/// and optionally `static constexpr bool fixed_jacobian` (see above) with
///   anderson_workspace& acceleration_history();   // scratch of the accelerated iteration
/// `z0` (same type as z) holds the initial guess on return from a restart; `r` is scratch.
/// On failure a step_error is thrown; z is then unspecified (callers solve in their cache's scratch, not in the state).
template <class Problem, class Z>
newton_report newton_solve(Problem& problem, Z& z, Z& z0, Z& r, const newton_options& opt,
                           newton_statistics& stats, const newton_context& ctx) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr bool fixed = has_fixed_jacobian<Problem>::value;
  auto fail = [&](failure_reason why, int iterations, double increment, const std::string& detail) {
    throw step_error(why, ctx.t, ctx.dt, iterations, increment, std::string(ctx.what) + ": " + detail);
  };

  ++stats.solves;
  z0 = z;
  bool fresh = false;        // the factorization was computed during this solve
  bool full_newton = opt.refresh_contraction <= 0;  // refresh at every iteration (asked for, or fallen back to)
  bool moved = false;        // z is no longer the guess
  double norm = inf;         // last increment norm
  int k = 0;                 // iterations so far
  auto refresh = [&](bool restart) {
    if (restart) {  // a stale Jacobian sent the iterate astray: start again from the guess
      z = z0;
      moved = false;
    }
    try {
      problem.update_jacobian(z);
    } catch (const step_error& e) {
      // Singular where the iteration went, not at the guess. Led there by a Jacobian from an
      // earlier step: start again from the guess with a fresh one (which throws if the Jacobian
      // is singular there too). Led there by this solve's own Jacobian: the iteration is
      // leaving its basin, which is divergence, not a property of the constraints.
      const bool singular = e.reason() == failure_reason::singular_constraint_jacobian ||
                            e.reason() == failure_reason::singular_iteration_matrix;
      if (!moved || !singular) throw;
      if (fresh)
        fail(failure_reason::newton_diverged, k, norm,
             "the iteration reached a point where its Jacobian is singular (a smaller step should converge)");
      z = z0;
      moved = false;
      problem.update_jacobian(z);
    }
    ++stats.jacobian_updates;
    fresh = true;
  };
  if (!fixed && (full_newton || !problem.has_jacobian())) refresh(false);

  double previous = inf;  // last increment norm under the current factorization
  double previous_theta = 0;  // the contraction factor before the last (0: none)
  double best = inf;      // smallest increment norm so far (fixed_jacobian problems)
  int since_best = 0;     // iterations since it (fixed_jacobian problems)
  bool accelerating = false;  // Anderson-accelerated (fixed_jacobian problems)
  double first = inf;     // first increment norm of this solve
  double first_contraction = 0;  // newton_report::first_contraction
  bool first_ratio = true;  // the next θ is the first under a factorization from an earlier solve
  const auto refresh_bound = [&] {
    return first_ratio && !fresh ? std::fmax(opt.refresh_contraction, first_ratio_bound) : opt.refresh_contraction;
  };
  for (k = 1; k <= opt.max_iterations; ++k) {
    problem.residual(z, r);
    problem.solve_in_place(r);  // r now holds the increment
    if (!all_finite(r)) {       // a non-finite residual makes the increment non-finite too
      if (fixed || fresh) fail(failure_reason::non_finite_value, k, norm, "residual or Newton increment is not finite");
      refresh(true);
      previous = inf;
      continue;
    }
    z -= r;
    moved = true;
    ++stats.iterations;
    norm = problem.increment_norm(z, r);
    if (first == inf) first = norm;
    else if (k == 2 && first > 1e-13) first_contraction = norm / first;
    const auto accept = [&] {
      stats.largest_final_increment = std::fmax(stats.largest_final_increment, norm);
      return newton_report{k, norm, first_contraction};
    };
    if (norm <= opt.tolerance) return accept();
    // The next iterate's estimated error θ/(1 − θ)‖Δz‖, θ from the increments under the current
    // factorization (the larger of the last two factors: a quantity corrected an iteration after
    // another contracts in alternating factors).
    if constexpr (!fixed) {
      if (opt.estimate_error && previous != inf && norm < previous) {
        const double theta = std::fmax(norm / previous, previous_theta);
        if (theta < 0.5 && theta * norm <= (1 - theta) * opt.tolerance) return accept();
        previous_theta = norm / previous;
      } else {
        previous_theta = 0;
      }
    }

    // Contraction θ = norm / previous, compared without dividing (previous = ∞ after a refresh).
    const auto theta_at_least = [&](double bound) { return norm >= bound * previous; };
    // Stalled at the round-off floor: the increments stopped shrinking after the iteration had
    // contracted by many orders of magnitude. The floor is ε times the conditioning of the
    // stage equations, which grows like 1/h for constrained problems, so it can lie well above
    // `tolerance`; iterating further only shuffles the last bits. Above 100 × tolerance that is
    // only believed with a Jacobian computed during this solve: a stale one can stop contracting
    // at ~1e-10 in a direction it no longer represents (a constraint row from an earlier step),
    // and stopping there leaves errors that drift conserved momenta; it is refreshed instead.
    if (theta_at_least(0.5) && norm <= opt.stall_factor * opt.tolerance) return accept();
    if constexpr (fixed) {  // no refresh possible: iterate while it makes progress
      // A linear iteration with oscillating modes can grow for an iteration or two while it
      // converges (θ = 0.25, 0.75, 0.6, 0.26, 1.002, … on a chain), so progress is a new
      // smallest increment, and it has stopped after a few iterations without one.
      if (norm < best) {
        best = norm;
        since_best = 0;
      } else if (++since_best == fixed_patience) {
        if (best <= opt.roundoff_floor && best <= 1e-4 * first) return accept();  // at round-off
        fail(failure_reason::newton_diverged, k, norm,
             "the iteration with its fixed matrix does not contract (a smaller step converges)");
      }
      // Where Newton would refresh its Jacobian, the fixed matrix's iteration is accelerated
      // (50-link chain, RATTLE, h = 0.01: θ = 0.75 for 50 iterations without it).
      if (!accelerating && norm > opt.refresh_contraction * previous) {
        accelerating = true;
        problem.acceleration_history().start(z.size(), fixed_anderson_depth);
      }
      if (accelerating) {
        z0 = z + r;  // z_k; z holds z_k − J⁻¹F(z_k), the plain iteration's next iterate
        problem.acceleration_history().advance(z0, z);  // z ← z_{k+1}
      }
      previous = norm;
      continue;
    }
    if (theta_at_least(0.5) && fresh && norm <= opt.roundoff_floor && norm <= 1e-4 * first) return accept();

    if (full_newton) {
      if (theta_at_least(1.0))
        fail(failure_reason::newton_diverged, k, norm, "full Newton does not contract");
      refresh(false);
    } else if (norm > refresh_bound() * previous && norm > opt.stall_factor * opt.tolerance) {
      if (fresh) {  // even a fresh Jacobian contracts slowly: fall back to full Newton
        full_newton = true;
        ++stats.full_newton_fallbacks;
      }
      refresh(norm > first);  // restart from the guess only if the iterate got worse than it
      previous = inf;
      continue;
    }
    if (previous != inf) first_ratio = false;
    previous = norm;
  }
  fail(failure_reason::max_iterations, opt.max_iterations, norm,
       "no convergence within " + std::to_string(opt.max_iterations) + " iterations");
  return {};  // unreachable
}

}  // namespace geomint
