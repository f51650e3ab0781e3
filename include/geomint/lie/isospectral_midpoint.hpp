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
// h²/4 tr(B̃W̃B̃) ≠ 0. H is extended to u(N)* by H(W) = H(W − τ1) (the identity commutes with
// everything, only B̃W̃B̃ sees τ), and the unknown of (1) is z = (ỹ, τ): the coefficients of
// W̃'s traceless part and τ, N² reals.
//
// (1) is solved by fixed-point iteration to round-off (core/fixed_point.hpp), optionally
// Anderson-accelerated (lie_options::acceleration). A sweep costs, with P = (h/2)B̃W̃: one N × N
// product for P, the lower triangle of the Hermitian (h/2) P B̃ (half a product), h/2[B̃, W̃] = P + P†
// (B̃ anti-Hermitian, W̃ Hermitian), and three changes of basis state ↔ matrix (FFTs along the
// wrapped diagonals, su_n.hpp); no factorization. The plain iteration contracts like
// h/2 ‖ad_B̃‖ (it carries the rotation of W̃'s fine scales); Anderson acceleration removes most of
// that (docs/performance.md). The update W₁ = W₀ + h[B̃, W̃] reuses the last sweep's P.
//
// Starting guess: ỹ = y₀, τ = 0 (an O(h) error); when the step continues the previous one with
// the same h (core/continuation.hpp), the previous midpoint reflected through y₀,
// ỹ = 2y₀ − ỹ_prev, τ = τ_prev (an O(h²) error). The converged step is the same to round-off.
#pragma once

#include <cmath>
#include <string>
#include <type_traits>

#include "geomint/core/continuation.hpp"
#include "geomint/core/fixed_point.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/lie_options.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/lie/su_n.hpp"

namespace geomint {

namespace lie_detail {
template <class Algebra>
struct is_su_n : std::false_type {};
template <int N>
struct is_su_n<su_n<N>> : std::true_type {};
}  // namespace lie_detail

namespace detail {

template <class Algebra>
class isospectral_midpoint_workspace {
  static constexpr int N = Algebra::n;
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;
  using mat = typename Algebra::matrix_type;
  using unknowns = Eigen::VectorXd;  ///< z = (ỹ, τ)

 public:
  void forget() { cont_.forget(); }

  template <class Sys, class Y>
  void step(const Sys& sys, Y& y, double t, double dt, const lie_options& opt, step_statistics& stats) {
    const Algebra& alg = lie_detail::algebra_of(sys);
    const int d = alg.dim();
    if (z_.size() != d + 1) resize(d);
    y0_ = y;
    require_finite_state(t, dt, y0_);
    w0_ = alg.hermitian(y0_);
    if (cont_.begin(sys, y0_) && dt == dt_previous_) {
      z_.head(d) = 2 * y0_ - z_previous_.head(d);
      z_(d) = z_previous_(d);
    } else {
      z_.head(d) = y0_;
      z_(d) = 0;
    }
    sweep<Sys> problem{*this, sys, alg, dt};
    fixed_point_solve(problem, z_, z_next_, opt.newton, stats.fixed_point,
                      newton_context{t, dt, "isospectral midpoint, the fixed point (1) for W̃ (use a smaller h)"},
                      opt.acceleration, anderson_);
    // W₁ − W₀ = h[B̃, W̃] from the last sweep (its W̃ agrees with the solution to the tolerance).
    y1_ = y0_ + 2 * alg.coefficients_of_lower(half_commutator_);
    if (!y1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "isospectral midpoint: the new state is not finite");
    y = y1_;
    ++stats.steps;
    z_previous_ = z_;
    cont_.template end<0>() = y1_;
    cont_.record(sys);
    dt_previous_ = dt;
  }

 private:
  /// z ↦ (1)'s right-hand side: W̃ = W(ỹ) + τ1, B̂ = (h/2) B̃ = −(h/2) hat(∇H(ỹ)), P = B̂W̃; then
  /// h/2 [B̃, W̃] = P + P†, h²/4 B̃W̃B̃ = P B̂ (lower triangle), split into (ỹ, τ).
  template <class Sys>
  struct sweep {
    isospectral_midpoint_workspace& m;
    const Sys& sys;
    const Algebra& alg;
    double dt;
    void map(const unknowns& z, unknowns& next) {
      const int d = alg.dim();
      m.ys_ = z.head(d);
      sys.gradient(m.ys_, m.g_);
      m.g_ *= -dt / 2;
      m.b_ = alg.hat(m.g_);
      m.w_ = alg.hermitian(m.ys_);
      m.w_.diagonal().array() += z(d);
      m.p_.noalias() = m.b_ * m.w_;
      m.half_commutator_ = m.p_ + m.p_.adjoint();
      m.next_w_ = m.w0_ + m.half_commutator_;
      m.next_w_.template triangularView<Eigen::Lower>() += m.p_ * m.b_;
      next.head(d) = alg.coefficients_of_lower(m.next_w_);
      next(d) = m.next_w_.diagonal().real().sum() / N;
    }
    double change_norm(const unknowns& next, const unknowns& z) const {
      return (next - z).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  void resize(int d) {
    for (vec* v : {&y0_, &ys_, &g_, &y1_}) v->resize(d);
    for (unknowns* v : {&z_, &z_next_, &z_previous_}) v->resize(d + 1);
    for (mat* a : {&w0_, &w_, &b_, &p_, &half_commutator_, &next_w_}) a->resize(N, N);
    cont_.resize(d);
  }

  vec y0_, ys_, g_, y1_;
  unknowns z_, z_next_, z_previous_;
  mat w0_, w_, b_, p_, half_commutator_, next_w_;
  anderson_workspace anderson_;
  continuation<vec> cont_;  ///< the last step's end point
  double dt_previous_ = 0;
};

}  // namespace detail

/// Modin–Viviani's isospectral midpoint on su(N) (su_n systems): symmetric, order 2, keeps the
/// Casimirs tr(Wᵏ) (W₁ is similar to W₀) and is a Poisson map on the coadjoint orbits.
/// Options: lie_options (tolerance one ulp; acceleration: Anderson depth, 0 = plain iteration).
template <class Algebra>
class isospectral_midpoint
    : public stepper_base<isospectral_midpoint<Algebra>, vector<Algebra::dimension>, lie_options> {
  static_assert(lie_detail::is_su_n<Algebra>::value,
                "geomint: isospectral_midpoint is implemented for su_n<N> (Hermitian-matrix realization)");
  using base = stepper_base<isospectral_midpoint<Algebra>, vector<Algebra::dimension>, lie_options>;

 public:
  using algebra_type = Algebra;
  using properties = method_properties<2, true, true, conserves_casimirs>;
  template <class System>
  using workspace = detail::isospectral_midpoint_workspace<Algebra>;

  using base::base;

  template <class System, class X>
  static void check_state(const System& sys, const X& x) {
    lie_detail::check_system<System, Algebra, X>(sys, x);
  }
};

}  // namespace geomint
