// A continuous extension for any one-step stepper of a point of phase space: cubic Hermite
// interpolation on [t0, t0 + h] with the derivative of the stepper's own flow at both grid
// states, (Φ_ε(y) − Φ_{−ε}(y))/(2ε), error O(εᵖ) + O(ε_mach/ε). ε = min(1e-5, 1e-3|h|) for steps
// of h: dynamics that a step of 1e-6 resolves must not be differenced over 1e-5 (ten steps), and
// the round-off ε_mach/ε then enters the interpolant as |h|·ε_mach/ε ≤ 1e3 ε_mach. The families
// without an extension of their own (the Riemannian leapfrog, the variational steppers, a user's
// stepper) name it for dense_output.
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "geomint/core/state_view.hpp"
#include "geomint/solvers/hermite.hpp"

namespace geomint {

template <class Stepper, class System>
class flow_difference_extension {
 public:
  using state_type = typename Stepper::state_type;

  /// Keeps a copy of the stepper: its tiny steps start afresh (reset()), and leave the stepper
  /// that takes the grid steps alone.
  flow_difference_extension(const Stepper& stepper, const System& sys, const state_type& shape)
      : stepper_(stepper), sys_(&sys), plus_(shape), minus_(shape) {
    const Eigen::Index k = detail::flat_size(shape);
    for (Eigen::VectorXd* v : {&y0_, &y1_, &d0_, &d1_, &a_, &b_, &out_}) v->resize(k);
  }

  /// A new step [t0, t0 + h] from x0 to x1. `continued`: the step continued the last one (same
  /// system value); its end derivative then serves as this step's start derivative if the step
  /// also starts where it ended, in time and in state.
  void begin_step(const state_type& x0, const state_type& x1, double t0, double h, bool continued) {
    detail::flatten(x0, y0_);
    const bool continues = continued && have_end_ && t0 == t1_ && y0_ == y1_;
    if (continues) d0_.swap(d1_);
    have_start_ = continues;
    have_end_ = false;
    detail::flatten(x1, y1_);
    eps_ = std::fmin(1e-5, 1e-3 * std::fabs(h));
    t0_ = t0;
    h_ = h;
    t1_ = t0 + h;
  }

  /// x (k = 0) or ẋ (k = 1) at t ∈ [t0, t0 + h] (`project` does not apply).
  void evaluate(double t, state_type& x, int k, bool /*project*/) {
    if (!have_start_) derivative(t0_, y0_, d0_);
    if (!have_end_) derivative(t1_, y1_, d1_);
    have_start_ = have_end_ = true;
    const hermite_weights w = cubic_hermite((t - t0_) / h_);
    const auto& c = k == 0 ? w.value : w.slope;
    out_ = c[0] * y0_ + (c[1] * h_) * d0_ + (c[4] * h_) * d1_ + c[5] * y1_;
    if (k == 1) out_ /= h_;
    detail::unflatten(out_, x);
  }

 private:
  void derivative(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
    detail::unflatten(y, plus_);
    detail::unflatten(y, minus_);
    stepper_.reset();
    stepper_.do_step(*sys_, plus_, t, eps_);
    stepper_.reset();
    stepper_.do_step(*sys_, minus_, t, -eps_);
    detail::flatten(plus_, a_);
    detail::flatten(minus_, b_);
    dy = (a_ - b_) / (2 * eps_);
  }

  Stepper stepper_;
  const System* sys_;
  state_type plus_, minus_;
  Eigen::VectorXd y0_, y1_, d0_, d1_, a_, b_, out_;
  double eps_ = 1e-5, t0_ = 0, t1_ = 0, h_ = 0;
  bool have_start_ = false, have_end_ = false;
};

/// The extension of Base's kind for the stepper Stepper (a composition names its base's).
template <class Extension, class Stepper>
struct extension_for {
  using type = Extension;
};
template <class Base, class System, class Stepper>
struct extension_for<flow_difference_extension<Base, System>, Stepper> {
  using type = flow_difference_extension<Stepper, System>;
};

}  // namespace geomint
