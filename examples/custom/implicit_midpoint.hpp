// A stepper geomint does not ship, written on its core: the implicit midpoint rule
// y₁ = y₀ + h J∇H((y₀ + y₁)/2) for an unconstrained H(q, p) — symmetric, symplectic, order 2.
// The core gives it odeint's stepper interface, options, statistics, copies and the checks of
// dt; the workspace below is all the mathematics.
#pragma once

#include "geomint/core/fixed_point.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/core/stepper_base.hpp"

template <class System>
class midpoint_workspace {
  using vec = geomint::vector<2 * System::position_size>;  // y = (q, p)

 public:
  void forget() {}  // nothing cached between steps

  template <class Q, class P>
  void step(const System& sys, Q& q, P& p, double t, double h, const geomint::step_options& opt,
            geomint::step_statistics& stats) {
    // Every step is a fresh start here (nothing is cached): check the state before any work.
    geomint::require_finite_state(t, h, q, p);
    sys_ = &sys;
    h_ = h;
    y0_ << q, p;
    y_ = y0_;
    geomint::fixed_point_solve(*this, y_, next_, opt.newton, stats.fixed_point, {t, h, "implicit midpoint"});
    if (!geomint::all_finite(y_))
      throw geomint::step_error(geomint::failure_reason::non_finite_value, t, h, 0, 0, "the new state is not finite");
    q = y_.head(q.size());  // the state is written only now: a failure leaves it as it was
    p = y_.tail(p.size());
    ++stats.steps;
  }

  // The fixed-point problem: y ← y₀ + h J∇H((y₀ + y)/2).
  void map(const vec& y, vec& next) {
    const int n = static_cast<int>(y.size()) / 2;
    mid_ = (y0_ + y) / 2;
    sys_->dh_dp(mid_.head(n), mid_.tail(n), dq_);
    sys_->dh_dq(mid_.head(n), mid_.tail(n), dp_);
    next << y0_.head(n) + h_ * dq_, y0_.tail(n) - h_ * dp_;
  }
  double change_norm(const vec& next, const vec& y) const {
    return (next - y).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
  }

 private:
  const System* sys_ = nullptr;
  double h_ = 0;
  vec y0_, y_, next_, mid_;
  geomint::vector<System::position_size> dq_, dp_;
};

template <class State>
class implicit_midpoint : public geomint::stepper_base<implicit_midpoint<State>, State> {
 public:
  using properties = geomint::method_properties<2, true, true, geomint::conserves_nothing>;
  template <class System>
  using workspace = midpoint_workspace<System>;

  /// Returns whether fixed sizes fit (a type): do_step compiles the step only if they do.
  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return geomint::require_pair_sizes<System::position_size>(x, sys.position_count(), "q", "p");
  }
};
