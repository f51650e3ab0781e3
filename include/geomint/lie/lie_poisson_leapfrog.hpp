// Leimkuhler–Patrick's Riemannian leapfrog reduced to a Lie–Poisson integrator
// (Leimkuhler–Patrick 1996, §5.2, Fig. 2): a left-invariant kinetic energy H(π) = ½⟨π, G⁻¹π⟩
// on a group with a bi-invariant metric (so3, so_n, su_n in their orthonormal coordinates).
//
// With g̃-geodesics q₂ = q₁ exp(w), the generating function (16)/(18) of the method is
// S(q₁, q₂) = (1/2t) ⟨w, G w⟩, w = log(q₁⁻¹q₂). Its reduction gives, in geomint's convention,
//   t π₁ = dexp⁻¹_{−w}ᵀ G w = f(−ad*_w) G w,   f(x) = x/(eˣ − 1) (Bernoulli series (4.19)),
//   t π₂ = t π₁ − ad*_w G w                       (the explicit part, (47)),
// and π₂ = exp(−ad*_w) π₁ exactly: the map is a coadjoint action (Casimirs are kept) and
// symplectic on the orbits. The implicit part is Fig. 2's iteration w = t v₁ + ½A(w) with
// ½A(w) = G⁻¹(1 − f(−ad*_w)) G w, run here after the substitution p = G w / t of Fig. 2:
//   p ← π₁ + (1 − f(−ad*_w)) p,   w = t ∇H(p),
// a contraction with factor O(t), iterated to round-off; then π₂ = π₁ − ad*_w p.
// (On an algebra whose orthonormal basis makes ad skew, ad*_w = −ad_w and (47) is
// Leimkuhler–Patrick's t v₂ = t v₁ + g♯g(w, ad_w ·).) The leapfrog is symmetric, second order.
//
// Only ∇H is called; it must be linear (H quadratic). A fresh start checks that, at the state and
// at a fixed point of the state's size.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/solver_options.hpp"

namespace geomint {

/// The fixed-point iteration stops at 4 ulps of relative change (or a stall within 4 × that).
struct lie_poisson_leapfrog_options : solver_options {
  lie_poisson_leapfrog_options() {
    newton.tolerance = 4 * std::numeric_limits<double>::epsilon();
    newton.stall_factor = 4;
    newton.max_iterations = 100;
  }
};

namespace detail {

template <class Algebra>
class lie_poisson_leapfrog_cache {
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;
  using context = step_context<lie_poisson_leapfrog_options, solver_statistics>;

 public:
  /// Nothing of a step serves the next, but a continued step skips the check of ∇H.
  static constexpr reuse kept = reuse::state;
  using end_state = vec;

  /// ∇H is linear for this system (a system rebuilt in place is a fresh start and checked again).
  template <class Sys, class Y>
  void start(const Sys& sys, const Y& y, const context& c) {
    const int d = detail::algebra_of(sys).dim();
    if (pi1_.size() != d) resize(d);
    pi1_ = y;
    check_linear_gradient(sys, c.t, c.h);
  }

  template <class Sys, class Y, class Y1>
  void advance(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    const Algebra& alg = detail::algebra_of(sys);
    const double t = c.t, dt = c.h;
    pi1_ = y;
    p_ = pi1_;
    iteration<Sys> problem{*this, sys, alg, t, dt};
    fixed_point_solve(problem, p_, next_, c.options.newton, c.stats.fixed_point,
                      newton_context{t, dt, "Lie–Poisson leapfrog, the iteration w = t v₁ + ½A(w)"});
    sys.gradient(p_, w_);
    w_ *= dt;
    detail::ad_star_into(alg, w_, p_, fp_, ops_);
    y1 = pi1_ - fp_;  // (47)
  }

 private:
  /// p ← π₁ + p − f(−ad*_w) p, w = t ∇H(p): f by the Bernoulli series; small algebras apply
  /// −ad*_w as a d × d matrix, large ones bracket by bracket (into the workspace's vectors).
  template <class Sys>
  struct iteration {
    lie_poisson_leapfrog_cache& m;
    const Sys& sys;
    const Algebra& alg;
    double t, dt;
    void map(const vec& p, vec& next) {
      sys.gradient(p, m.w_);
      m.w_ *= dt;
      bool converged = true;
      if (p.size() <= 24) {
        m.op_ = -alg.ad_star(m.w_);
        m.fp_ = detail::bernoulli_series(p, full_series, [&](const vec& v) -> vec { return m.op_ * v; }, &converged);
      } else {
        auto apply = [&](const vec& v, vec& out) {
          detail::ad_star_into(alg, m.w_, v, out, m.ops_);
          out = -out;
        };
        converged = detail::bernoulli_series_into(p, full_series, apply, m.fp_, m.power_, m.power_next_);
      }
      if (!converged) {
        // A NaN or Inf from the model is not a divergence of the series.
        if (!m.w_.allFinite())
          throw step_error(failure_reason::non_finite_value, t, dt, 0, 0,
                           "Lie–Poisson leapfrog: the gradient ∇H is not finite");
        throw step_error(failure_reason::newton_diverged, t, dt, 0, 0,
                         "Lie–Poisson leapfrog: the series f(−ad*_w) diverges (step too large)");
      }
      next = m.pi1_ + p - m.fp_;
    }
    double change_norm(const vec& next, const vec& p) const {
      return (next - p).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  void resize(int d) {
    for (vec* v : {&pi1_, &p_, &w_, &fp_, &next_, &power_, &power_next_}) v->resize(d);
  }

  /// ∇H(0) = 0, ∇H(2u) = 2∇H(u) and ∇H(π + u) = ∇H(π) + ∇H(u) at the current state π and at a
  /// fixed generic point u of π's size (at least 1): H is a quadratic form. (At π alone a state
  /// at or near 0 passes any H: a quartic term vanishes there.)
  template <class Sys>
  void check_linear_gradient(const Sys& sys, double t, double h) {
    const Eigen::Index d = pi1_.size();
    vec u(d), gp(d), gu(d), g2u(d), gsum(d), g0(d);
    const double size = std::fmax(pi1_.cwiseAbs().maxCoeff(), 1.0);
    for (Eigen::Index i = 0; i < d; ++i) u(i) = size * std::cos(1.0 + 2.0 * double(i));  // no symmetry
    sys.gradient(pi1_, gp);
    sys.gradient(u, gu);
    sys.gradient(vec(2 * u), g2u);
    sys.gradient(vec(pi1_ + u), gsum);
    sys.gradient(vec(vec::Zero(d)), g0);
    if (!(all_finite(gp, gu) && all_finite(g2u, gsum) && all_finite(g0)))
      throw step_error(failure_reason::non_finite_value, t, h, 0, 0, "Lie–Poisson leapfrog: the gradient ∇H is not finite");
    const double scale = std::fmax(std::fmax(gp.cwiseAbs().maxCoeff(), gu.cwiseAbs().maxCoeff()), 1e-300);
    const double defect = std::fmax(std::fmax((g2u - 2 * gu).cwiseAbs().maxCoeff(), (gsum - gp - gu).cwiseAbs().maxCoeff()),
                                    g0.cwiseAbs().maxCoeff());
    if (!(defect <= 1e-12 * scale))
      throw std::invalid_argument(
          "geomint: lie_poisson_leapfrog needs a quadratic Hamiltonian H(π) = ½⟨π, G⁻¹π⟩ (a left-invariant "
          "kinetic energy): ∇H is not linear for this system");
    checked_.record(sys);
  }

  system_fingerprint checked_;  ///< the system ∇H was found linear for (core/step_record.hpp)
  vec pi1_, p_, w_, fp_, next_, power_, power_next_;  ///< power_, power_next_: the series' terms
  typename Algebra::operator_type op_;
  detail::op_buffers<Algebra> ops_;
};

}  // namespace detail

/// Symmetric, second order, a Poisson map on the coadjoint orbit.
template <class Algebra>
class lie_poisson_leapfrog
    : public stepper_base<lie_poisson_leapfrog<Algebra>, vector<detail::algebra_dimension<Algebra>>,
                          lie_poisson_leapfrog_options, solver_statistics> {
  // The algebra concept first (one static_assert naming what the algebra lacks, algebra_concept.hpp).
  using algebra_concept_checked = detail::lie_algebra_checked<Algebra>;
  using base = stepper_base<lie_poisson_leapfrog<Algebra>, vector<detail::algebra_dimension<Algebra>>,
                            lie_poisson_leapfrog_options, solver_statistics>;

 public:
  using algebra_type = Algebra;
  static constexpr method_properties properties = method_properties()
                                                      .order(2)
                                                      .symmetric(true)
                                                      .symplectic(true)
                                                      .conserves(conserves_casimirs)
                                                      .state(state_kind::coadjoint_vector);
  template <class System>
  using cache = detail::lie_poisson_leapfrog_cache<Algebra>;
  template <class System>
  using continuous_extension = lie_continuous_extension<System>;

  using base::base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return detail::check_system<System, Algebra, X>(sys, x);
  }
};

}  // namespace geomint
