// The isospectral midpoint of Modin–Viviani ("Lie–Poisson methods for isospectral flows",
// Found. Comput. Math. 20 (2020), the one-stage Gauss case of their isospectral symplectic
// Runge–Kutta methods) for Lie–Poisson systems on su(N) held as Hermitian matrices (su_n).
//
// In su_n's realization the Lie–Poisson equation ẏ = −ad*_{∇H(y)} y (lie_poisson_system.hpp) is
// the isospectral flow Ẇ = [B(W), W] with B = −hat(∇H(y)) = −(i/4) W(∇H(y)), anti-Hermitian
// (su_n.hpp; for sine-Euler B = −(i/2)Ψ). One step of size h:
//   W₀ = (1 − h/2 B̃) W̃ (1 + h/2 B̃),   W₁ = (1 + h/2 B̃) W̃ (1 − h/2 B̃),   B̃ = B(W̃),
// i.e. W̃ solves the fixed-point equation
//   W̃ = W₀ + h/2 [B̃, W̃] + h²/4 B̃ W̃ B̃,                                              (1)
// and W₁ = W₀ + h [B̃, W̃]. Eliminating W̃, W₁ = cay(hB̃) W₀ cay(hB̃)⁻¹ with cay(X) =
// (1 − X/2)⁻¹(1 + X/2) unitary: W₁ is similar to W₀, so every Casimir tr(Wᵏ) is kept to the
// accuracy of the solve of (1) — here round-off. The method is symmetric (W₀ ↔ W₁, h ↔ −h leave
// (1) unchanged), of order 2, and a Poisson map on the coadjoint orbits (Modin–Viviani).
//
// W̃ is a congruence of W₀, not a similarity: it is Hermitian but its trace τN is
// h²/4 tr(B̃W̃B̃) ≠ 0, and it lies off the orbit by O(h²). H is extended to u(N)* by
// H(W) = H(W − τ1) (the identity commutes with everything; in (1) only B̃W̃B̃ sees τ).
//
// Two iterations solve (1) to round-off (solvers/fixed_point.hpp), both optionally
// Anderson-accelerated (lie_options::acceleration), both giving the same step to the tolerance:
//
//   cayley (default)  the unknown is the smooth k = ∇H(W̃) (as RKMK's stage slope). Given k,
//       B̂ = (h/2)B̃ = −(h/2) hat(k), (1) is linear in W̃ and solved exactly:
//       W̃ = M W₀ M†, M = (1 − B̂)⁻¹ = 1 + e, e = (1 − B̂)⁻¹B̂, so with X = e W₀,
//         W̃ − W₀ = X + X† + X e†                           (detail::cayley_congruence, c = 1).
//       A sweep costs an LU factorization of 1 − B̂ and the solve for e (in two halves on two
//       threads), one product X = eW₀ and the lower triangle of Xe† (half a product), the same
//       matrix work as one stage of RKMK GL2 in Cayley coordinates (su_n::cayley_action), and it
//       contracts about as fast (the map goes through ∇H, which smooths: ~60× per sweep on
//       su(63) against GL2's ~100×). The sweeps after the first change B̂ by 1e-9 … 1e-15
//       relative and are answered by a first-order correction of an earlier one (two products,
//       in single precision when the change is small enough; cayley_congruence bounds what each
//       adds by the rounding of a full sweep). W̃'s trace is part of M W₀ M†; k does not see it.
//       The update W₁ − W₀ = h[B̃, W̃] = 2(P + P†), P = B̂W̃, one product at the last sweep.
//   commutator  the unknown is W̃ itself, z = (ỹ, τ) (coefficients of W̃'s traceless part and
//       τ), and a sweep evaluates (1)'s right-hand side: with P = B̂W̃, h/2 [B̃, W̃] = P + P†
//       (B̃ anti-Hermitian, W̃ Hermitian) and h²/4 B̃W̃B̃ = P B̂ (lower triangle): one and a half
//       products and no factorization; W₁ − W₀ = 2(P + P†) from the last sweep. It contracts
//       only like h/2 ‖ad_B̃‖ (it carries the rotation of W̃'s fine scales by B̃): ~0.2 per sweep
//       on bench_su_n_scaling's problem, ~0.1 with Anderson acceleration (bench/NOTES.md).
//
// Starting guess: with no previous step k = ∇H(y₀) (cayley), ỹ = y₀, τ = 0 (commutator); when
// the step continues the previous ones with the same h (core/step_record.hpp), an extrapolation
// of their converged unknowns (guess() below; through up to six steps, O(h⁶), the degree chosen
// by how well each predicted the last step: solvers/extrapolation.hpp; should the iteration fail
// from it, the core takes the step again as a fresh start, from the fresh guess). Each sweep contracts the
// error by a fixed factor, so every power of h the guess gains saves sweeps (on sine-Euler su(255)
// at h = 0.1: 4 sweeps per step instead of 6 from the quadratic extrapolation). The converged
// step is the same to round-off (tested against fresh starts).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/solvers/extrapolation.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/lie/lie_options.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/lie/su_n.hpp"

namespace geomint {

/// How isospectral_midpoint solves its fixed-point equation (1) (see above).
enum class isospectral_iteration {
  cayley,     ///< unknown k = ∇H(W̃), W̃ = M W₀ M† exactly (an LU per sweep; fast contraction)
  commutator  ///< unknown W̃, (1)'s right-hand side (no factorization; slow contraction)
};

struct isospectral_midpoint_options : lie_options {
  isospectral_iteration iteration = isospectral_iteration::cayley;
};

namespace detail {
template <class Algebra>
struct is_su_n : std::false_type {};
template <int N>
struct is_su_n<su_n<N>> : std::true_type {};
}  // namespace detail

namespace detail {

template <class Algebra>
class isospectral_midpoint_cache {
  static constexpr int N = Algebra::n;
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;
  using mat = typename Algebra::matrix_type;
  using unknowns = Eigen::VectorXd;  ///< z = (ỹ, τ)
  using context = step_context<isospectral_midpoint_options, solver_statistics>;

 public:
  static constexpr reuse kept = reuse::state;  // the last steps' solutions, for the next guess
  using end_state = vec;

  template <class Sys, class Y>
  void start(const Sys& sys, const Y&, const context&) {
    const int d = detail::algebra_of(sys).dim();
    if (z_.size() != d + 1) resize(d);
    k_history_.forget();
    z_history_.forget();
  }

  template <class Sys, class Y, class Y1>
  void advance(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    const Algebra& alg = detail::algebra_of(sys);
    const double t = c.t, dt = c.h;
    const isospectral_midpoint_options& opt = c.options;
    auto& stats = c.stats;
    const int d = alg.dim();
    y0_ = y;
    alg.hermitian(y0_, w0_, buffers_);
    sys.gradient(y0_, g0_);
    if (!(c.continuing && dt == c.h_previous && iteration_ == opt.iteration)) {
      k_history_.forget();
      z_history_.forget();
    }
    iteration_ = opt.iteration;
    const newton_context ctx{t, dt, "isospectral midpoint, the fixed point (1) for W̃ (use a smaller h)"};
    if (opt.iteration == isospectral_iteration::cayley) {
      congruence_.prepare(w0_);
      cayley_sweep<Sys> problem{*this, sys, alg, dt};
      solve(problem, k_, k_next_, g0_, k_history_, opt, stats, ctx);
      // W₁ − W₀ = h[B̃, W̃] = 2(P + P†), P = B̂W̃, at the last sweep's B̂ and W̃ (its k agrees with
      // the solution to the tolerance): exact for W̃ = MW₀M†, one product.
      w_ = increment_.template selfadjointView<Eigen::Lower>();
      w_ += w0_;
      p_.noalias() = b_ * w_;
      increment_ = 2 * (p_ + p_.adjoint());
    } else {
      z_start_ << y0_, (z_history_.size() > 0 ? z_history_.latest()(d) : 0.0);
      commutator_sweep<Sys> problem{*this, sys, alg, dt};
      solve(problem, z_, z_next_, z_start_, z_history_, opt, stats, ctx);
      // W₁ − W₀ = h[B̃, W̃] = 2(P + P†) from the last sweep.
      increment_ = 2 * half_commutator_;
    }
    alg.coefficients_of_lower(increment_, y1, buffers_);
    y1 += y0_;
  }

 private:
  /// k ↦ ∇H(W̃(k)), W̃ = M W₀ M†: B̂ = −(h/2) hat(k), W̃ − W₀ = Δ₁(B̂) = X + X† + Xe†,
  /// e = (1 − B̂)⁻¹B̂, X = eW₀ (detail::cayley_congruence: after the first sweep, a
  /// first-order correction of the previous one, in single precision where that suffices).
  template <class Sys>
  struct cayley_sweep {
    isospectral_midpoint_cache& m;
    const Sys& sys;
    const Algebra& alg;
    double dt;
    void map(const vec& k, vec& next) {
      m.g_ = (-dt / 2) * k;
      alg.hat(m.g_, m.b_, m.buffers_);
      m.increment_ = m.congruence_.increment(m.b_, 1);
      alg.coefficients_of_lower(m.increment_, m.ys_, m.buffers_);
      m.ys_ += m.y0_;
      sys.gradient(m.ys_, next);
    }
    double change_norm(const vec& next, const vec& k) const {
      return (next - k).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  /// z ↦ (1)'s right-hand side: W̃ = W(ỹ) + τ1, B̂ = (h/2) B̃ = −(h/2) hat(∇H(ỹ)), P = B̂W̃; then
  /// h/2 [B̃, W̃] = P + P†, h²/4 B̃W̃B̃ = P B̂ (lower triangle), split into (ỹ, τ).
  template <class Sys>
  struct commutator_sweep {
    isospectral_midpoint_cache& m;
    const Sys& sys;
    const Algebra& alg;
    double dt;
    void map(const unknowns& z, unknowns& next) {
      const int d = alg.dim();
      m.ys_ = z.head(d);
      sys.gradient(m.ys_, m.g_);
      m.g_ *= -dt / 2;
      alg.hat(m.g_, m.b_, m.buffers_);
      alg.hermitian(m.ys_, m.w_, m.buffers_);
      m.w_.diagonal().array() += z(d);
      m.p_.noalias() = m.b_ * m.w_;
      m.half_commutator_ = m.p_ + m.p_.adjoint();
      m.next_w_ = m.w0_ + m.half_commutator_;
      m.next_w_.template triangularView<Eigen::Lower>() += m.p_ * m.b_;
      alg.coefficients_of_lower(m.next_w_, next.head(d), m.buffers_);
      next(d) = m.next_w_.diagonal().real().sum() / N;
    }
    double change_norm(const unknowns& next, const unknowns& z) const {
      return (next - z).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  /// The starting guess from the unknowns of the last continued steps (midpoints at t − h/2,
  /// t − 3h/2, …): with two or more, their extrapolation (solvers/extrapolation.hpp); with one only,
  /// the reflection 2u(y₀) − u₁ (O(h²)); none: u(y₀) (O(h)). The midpoint is off the orbit by
  /// O(h²) (W̃ is a congruence of W₀); extrapolating midpoints from midpoints carries that offset
  /// along, the reflection through y₀ does not.
  template <class V>
  static void guess(V& u, const V& at_y0, const sequence_extrapolation<V>& history) {
    if (history.size() >= 2) history.predict(u);
    else if (history.size() == 1) u = 2 * at_y0 - history.latest();
    else u = at_y0;
  }

  /// Solves (1) from guess(), or, should that fail from an extrapolated guess, from u(y₀) as a
  /// fresh start would (solvers/fixed_point.hpp); the converged unknowns join the history.
  /// From a guess extrapolated along a continued sequence (should it fail from there, the core
  /// takes the step again as a fresh start, from the state's own guess).
  template <class Problem, class V>
  void solve(Problem& problem, V& u, V& next, const V& at_y0, sequence_extrapolation<V>& history,
             const isospectral_midpoint_options& opt, solver_statistics& stats, const newton_context& ctx) {
    guess(u, at_y0, history);
    fixed_point_solve(problem, u, next, opt.newton, stats.fixed_point, ctx, opt.acceleration, anderson_);
    history.record(u);
  }

  void resize(int d) {
    for (vec* v : {&y0_, &ys_, &g_, &g0_, &y1_, &k_, &k_next_}) v->resize(d);
    for (unknowns* v : {&z_, &z_next_, &z_start_}) v->resize(d + 1);
    k_history_.forget();
    z_history_.forget();
    for (mat* a : {&w0_, &w_, &b_, &p_, &half_commutator_, &next_w_, &increment_}) a->resize(N, N);
  }

  vec y0_, ys_, g_, g0_, y1_, k_, k_next_;
  unknowns z_, z_next_, z_start_;  ///< z_start_: (y₀, the last τ), the fresh start
  sequence_extrapolation<vec> k_history_;       ///< converged k of consecutive continued steps
  sequence_extrapolation<unknowns> z_history_;  ///< converged z likewise (commutator iteration)
  mat w0_, w_, b_, p_, half_commutator_, next_w_, increment_;
  typename Algebra::basis_buffers buffers_;  ///< the change of basis state ↔ matrix
  detail::cayley_congruence<mat> congruence_;
  isospectral_iteration iteration_ = isospectral_iteration::cayley;
  anderson_workspace anderson_;
};

}  // namespace detail

/// Modin–Viviani's isospectral midpoint on su(N) (su_n systems): symmetric, order 2, keeps the
/// Casimirs tr(Wᵏ) (W₁ is similar to W₀) and is a Poisson map on the coadjoint orbits.
/// Options: isospectral_midpoint_options (lie_options' tolerance of one ulp and Anderson depth,
/// 0 = plain iteration; the iteration, cayley by default).
template <class Algebra>
class isospectral_midpoint
    : public stepper_base<isospectral_midpoint<Algebra>, vector<detail::algebra_dimension<Algebra>>,
                          isospectral_midpoint_options, solver_statistics> {
  static_assert(detail::is_su_n<Algebra>::value,
                "geomint: isospectral_midpoint is implemented for su_n<N> (Hermitian-matrix realization)");
  using base = stepper_base<isospectral_midpoint<Algebra>, vector<detail::algebra_dimension<Algebra>>,
                            isospectral_midpoint_options, solver_statistics>;

 public:
  using algebra_type = Algebra;
  static constexpr method_properties properties = method_properties()
                                                      .order(2)
                                                      .symmetric(true)
                                                      .symplectic(true)
                                                      .conserves(conserves_casimirs)
                                                      .state(state_kind::coadjoint_vector);
  template <class System>
  using cache = detail::isospectral_midpoint_cache<Algebra>;
  template <class System>
  using continuous_extension = lie_continuous_extension<System>;

  using base::base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return detail::check_system<System, Algebra, X>(sys, x);
  }
};

}  // namespace geomint
