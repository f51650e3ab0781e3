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
// Only ∇H is called; it must be linear (H quadratic). The first step with a system checks that.
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "geomint/lie/lie_poisson_system.hpp"

namespace geomint {

struct lie_poisson_leapfrog_options {
  double tolerance = 4 * std::numeric_limits<double>::epsilon();  ///< relative change of p per iteration
  int max_iterations = 100;
};

template <class Algebra>
class lie_poisson_leapfrog {
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;

 public:
  using algebra_type = Algebra;
  using state_type = vector<D>;
  using deriv_type = state_type;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;

  explicit lie_poisson_leapfrog(const lie_poisson_leapfrog_options& options = {}) : options_(options) {}

  order_type order() const { return 2; }
  lie_poisson_leapfrog_options& options() { return options_; }
  const lie_poisson_leapfrog_options& options() const { return options_; }
  const lie_statistics& statistics() const { return stats_; }
  void reset() { checked_system_ = nullptr; }

  /// Advances π from t to t + dt. On failure throws step_error and leaves π unchanged.
  template <class System, class State>
  void do_step(System&& system, State& x, time_type t, time_type dt) {
    const auto& sys = lie_detail::unwrap(system);
    using sys_type = std::decay_t<decltype(sys)>;
    static_assert(std::is_same<typename sys_type::algebra_type, Algebra>::value,
                  "geomint: the system's algebra_type differs from the stepper's algebra");
    lie_detail::check_static_state_size<State, Algebra>();
    const Algebra& alg = lie_detail::algebra_of(sys);
    const int d = alg.dim();
    lie_detail::require_state_size(x, d, Algebra::name());
    auto y = view(x);
    if (pi1_.size() != d) resize(d);
    pi1_ = y;
    if (checked_system_ != static_cast<const void*>(&sys)) check_linear_gradient(sys);

    p_ = pi1_;
    double previous = std::numeric_limits<double>::infinity(), delta = 0;
    for (int it = 1;; ++it) {
      ++stats_.iterations;
      sys.gradient(p_, w_);
      w_ *= dt;
      // f(−ad*_w) p by the Bernoulli series, then p ← π₁ + p − f(−ad*_w) p. Small algebras
      // apply −ad*_w as a d × d matrix, large ones bracket by bracket.
      bool converged = true;
      if (d <= 24) {
        op_ = -alg.ad_star(w_);
        fp_ = lie_detail::bernoulli_series(p_, full_series, [&](const vec& v) -> vec { return op_ * v; }, &converged);
      } else {
        fp_ = lie_detail::bernoulli_series(
            p_, full_series, [&](const vec& v) -> vec { return -alg.ad_star(w_, v); }, &converged);
      }
      next_ = pi1_ + p_ - fp_;
      delta = (next_ - p_).cwiseAbs().maxCoeff() / std::fmax(next_.cwiseAbs().maxCoeff(), 1e-300);
      p_ = next_;
      if (!converged || !std::isfinite(delta) || delta > 1e3)
        throw step_error(failure_reason::newton_diverged, t, dt, it, delta,
                         "Lie–Poisson leapfrog: the iteration w = t v₁ + ½A(w) diverged (step too large)");
      if (delta <= options_.tolerance || (delta >= 0.5 * previous && delta <= 4 * options_.tolerance)) break;
      if (it >= options_.max_iterations)
        throw step_error(failure_reason::max_iterations, t, dt, it, delta,
                         "Lie–Poisson leapfrog: the iteration w = t v₁ + ½A(w) did not converge");
      previous = delta;
    }
    sys.gradient(p_, w_);
    w_ *= dt;
    next_ = pi1_ - alg.ad_star(w_, p_);  // (47)
    if (!next_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "Lie–Poisson leapfrog: the new state is not finite");
    y = next_;
    ++stats_.steps;
  }

 private:
  void resize(int d) {
    for (vec* v : {&pi1_, &p_, &w_, &fp_, &next_}) v->resize(d);
  }

  /// ∇H(0) = 0 and ∇H(2π) = 2∇H(π) at the current state: H is a quadratic form.
  template <class Sys>
  void check_linear_gradient(const Sys& sys) {
    vec g1(pi1_.size()), g2(pi1_.size()), g0(pi1_.size());
    sys.gradient(pi1_, g1);
    sys.gradient(vec(2 * pi1_), g2);
    sys.gradient(vec(vec::Zero(pi1_.size())), g0);
    const double scale = std::fmax(g1.cwiseAbs().maxCoeff(), 1e-300);
    if ((g2 - 2 * g1).cwiseAbs().maxCoeff() > 1e-12 * scale || g0.cwiseAbs().maxCoeff() > 1e-12 * scale)
      throw std::invalid_argument(
          "geomint: lie_poisson_leapfrog needs a quadratic Hamiltonian H(π) = ½⟨π, G⁻¹π⟩ (a left-invariant "
          "kinetic energy): ∇H is not linear for this system");
    checked_system_ = &sys;
  }

  lie_poisson_leapfrog_options options_;
  lie_statistics stats_;
  const void* checked_system_ = nullptr;
  vec pi1_, p_, w_, fp_, next_;
  matrix<D, D> op_;
};

}  // namespace geomint
