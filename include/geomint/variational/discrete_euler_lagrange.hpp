// Variational integrators: the discrete Euler–Lagrange (DEL) equations of a discrete Lagrangian
// L_d with holonomic constraints enforced by Lagrange multipliers (Marsden–Wendlandt 1997,
// eqs. (44)–(46)), as Boost.Odeint steppers for Lagrangian systems (lagrangian_system.hpp).
//
// One-step form, discrete_euler_lagrange<Rule, State>: state (q, p), a one-step map through the
// discrete Legendre transforms (eq. (31)):
//   1. find q1, λ:   p0 = −D₁L_d(q0, q1) − G(q0)ᵀλ,   g(q1) = 0          (Newton, n + m unknowns)
//   2. p̃1 = D₂L_d(q0, q1), then p1 = p̃1 − G(q1)ᵀμ = ∂L/∂q̇(q1, v1) with G(q1) v1 = 0
//      (detail/legendre_projection.hpp: p1 lies on the phase space, the hidden constraint holds).
// The map is symplectic (Theorem 5.1) and preserves the discrete momentum map of every symmetry
// of L_d and g (Theorem 5.2, discrete_momentum_map.hpp). The positions it produces are exactly
// those of the two-step form: step 1 with p0 = D₂L_d(q_{k−1}, q_k) is eq. (45) times h.
//
// Two-step form, discrete_euler_lagrange_two_step<Rule, State>: state (q_{k−1}, q_k) ↦
// (q_k, q_{k+1}), the DEL equations as the paper writes them. Both positions must lie on Q and
// the pair must come from the same step size as the call.
//
// The rule is a discrete Lagrangian (midpoint_discrete_lagrangian, first_order_discrete_lagrangian).
// Errors: a failed step throws step_error and leaves the state as it was. A step that does not
// continue the stepper's previous step checks that the state is consistent.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "geomint/core/continuation.hpp"
#include "geomint/core/newton.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/variational/detail/del_position_equations.hpp"
#include "geomint/variational/detail/legendre_projection.hpp"
#include "geomint/variational/variational_options.hpp"

namespace geomint {

namespace detail {

inline std::string describe_lagrangian_residuals(double position, double momentum, double tol) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "the initial state is off the phase space: scaled position residual %.3e, momentum "
                "residual %.3e (tolerance %.1e); project it first with geomint::project_to_phase_space",
                position, momentum, tol);
  return buf;
}

/// TwoStep: the state is (q_{k−1}, q_k) instead of (q, p).
template <class System, class Rule, bool TwoStep>
class del_workspace {
  using traits = lagrangian_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using evaluator = typename Rule::template evaluator<System>;
  using positions_type = del_position_equations<System, evaluator>;
  using projection_type = legendre_projection<System>;

 public:
  void forget() {
    cont_.forget();
    positions_.invalidate();
  }

  template <class A, class B>
  void step(const System& sys, A& a, B& b, double t, double dt, const variational_options& opt,
            variational_statistics& stats) {
    if constexpr (TwoStep) step_positions(sys, a, b, t, dt, opt, stats);
    else step_momenta(sys, a, b, t, dt, opt, stats);
  }

 private:
  /// One-step form: (q, p) ↦ (q1, p1).
  template <class QMap, class PMap>
  void step_momenta(const System& sys, QMap& q, PMap& p, double t, double dt, const variational_options& opt,
                    variational_statistics& stats) {
    prepare(sys);
    const newton_context ctx{t, dt, "discrete Euler–Lagrange equations"};
    const bool continuing = cont_.begin(sys, q, p);
    q0_ = q;
    p0_ = p;
    if (!continuing) start_fresh(sys, ctx, opt, stats, true);
    const double ratio = h_previous_ != 0 ? dt / h_previous_ : 0.0;  // either sign (backward runs)

    // 1. positions: z = (Δ, λ), Δ = q1 − q0. Guess Δ = h v(t + h/2), v(t + h/2) extrapolated from
    //    v0 and the previous step's mean velocity Δ_prev/h_prev (error O(h³)); λ from the last step.
    z_.head(n_) = dt * v0_;
    if (continuing) z_.head(n_) += (dt * ratio) * (v0_ - delta_ / h_previous_);
    if (m_ > 0) z_.tail(m_) = ratio * lambda_;
    positions_.begin(sys, ld_, q0_, p0_, g0_, dt, t);
    newton_solve(positions_, z_, z0_, r_, opt.newton, stats.newton, ctx);
    delta_ = z_.head(n_);
    q1_ = q0_ + delta_;

    // 2. momenta: p̃1 = D₂L_d(q0, q1), projected onto the phase space at q1
    ld_.derivatives(sys, q0_, delta_, dt, d1_, d2_);
    if (m_ > 0) sys.constraint_jacobian(q1_, g1_);
    y_.head(n_) = delta_ / dt;
    if (m_ > 0) y_.tail(m_).setZero();
    projection_.begin(sys, q1_, g1_, d2_, t, dt);
    newton_context pctx = ctx;
    pctx.what = "discrete Legendre transform p1 = D₂L_d(q0, q1) − G(q1)ᵀμ";
    newton_solve(projection_, y_, y0_, ry_, opt.newton, stats.newton, pctx);
    p1_ = d2_;
    if (m_ > 0) p1_.noalias() -= g1_.transpose() * y_.tail(m_);

    cont_.template end<0>() = q1_;
    cont_.template end<1>() = p1_;
    cont_.commit(sys, t, dt, q, p);
    if (m_ > 0) lambda_ = z_.tail(m_);
    v0_ = y_.head(n_);
    std::swap(g0_, g1_);
    finish(dt, stats);
  }

  /// Two-step form: (q_{k−1}, q_k) ↦ (q_k, q_{k+1}).
  template <class QMap0, class QMap1>
  void step_positions(const System& sys, QMap0& q_prev, QMap1& q, double t, double dt,
                      const variational_options& opt, variational_statistics& stats) {
    prepare(sys);
    const newton_context ctx{t, dt, "discrete Euler–Lagrange equations"};
    // The pair must also come from a step of the same size (delta_ is reused unrounded).
    const bool continuing = cont_.begin(sys, q_prev, q) && dt == h_previous_;
    q0_ = q;
    p1_ = q_prev;  // q_{k−1}
    if (!continuing) {
      require_finite_state(t, dt, p1_, q0_);
      check_position(sys, p1_, ctx, opt);
      start_fresh(sys, ctx, opt, stats, false);
      delta_ = q0_ - p1_;
    }  // else delta_ is the previous step's unrounded displacement q_k − q_{k−1}
    const double ratio = h_previous_ != 0 ? dt / h_previous_ : 0.0;  // either sign (backward runs)

    // p_k = D₂L_d(q_{k−1}, q_k): then step 1 of the one-step form is eq. (45) times h.
    ld_.derivatives(sys, p1_, delta_, dt, d1_, d2_);
    p0_ = d2_;
    z_.head(n_) = delta_;  // guess Δ_{k+1} = 2Δ_k − Δ_{k−1} (error O(h³)), or Δ_k on a fresh start
    if (continuing) z_.head(n_) += delta_ - delta_previous_;
    if (m_ > 0) z_.tail(m_) = ratio * lambda_;
    positions_.begin(sys, ld_, q0_, p0_, g0_, dt, t);
    newton_solve(positions_, z_, z0_, r_, opt.newton, stats.newton, ctx);
    q1_ = q0_ + z_.head(n_);
    if (!q1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "the new state is not finite");
    if (m_ > 0) {
      sys.constraint_jacobian(q1_, g1_);
      if (!g1_.allFinite())
        throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "G(q_{k+1}) is not finite");
      lambda_ = z_.tail(m_);
    }
    delta_previous_ = delta_;
    delta_ = z_.head(n_);
    cont_.template end<0>() = q0_;
    cont_.template end<1>() = q1_;
    cont_.commit(sys, t, dt, q_prev, q);
    std::swap(g0_, g1_);
    finish(dt, stats);
  }

  void prepare(const System& sys) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    ld_.resize(n);
    positions_.resize(n, m);
    projection_.resize(n, m);
    cont_.resize(n, n);
    for (auto* v : {&q0_, &p0_, &q1_, &p1_, &v0_, &d1_, &d2_, &delta_, &delta_previous_}) v->resize(n);
    gval_.resize(m);
    lambda_.setZero(m);
    g0_.resize(m, n);
    g1_.resize(m, n);
    z_.resize(n + m);
    z0_.resize(n + m);
    r_.resize(n + m);
    y_.resize(n + m);
    y0_.resize(n + m);
    ry_.resize(n + m);
    positions_.invalidate();
  }

  void check_position(const System& sys, const vector<N>& q, const newton_context& ctx,
                      const variational_options& opt) {
    if (m_ == 0) return;
    sys.constraint(q, gval_);
    sys.constraint_jacobian(q, g1_);
    const double res = scaled_constraint_residual(g1_, gval_, q.norm());
    if (!(res <= opt.consistency_tolerance))
      throw step_error(failure_reason::inconsistent_initial_state, ctx.t, ctx.dt, 0, res,
                       describe_lagrangian_residuals(res, 0, opt.consistency_tolerance));
  }

  /// The step does not continue the previous one: check q0 (and p0), evaluate G(q0), and (one-step
  /// form) the velocity v0 at (q0, p0) for the initial guess.
  void start_fresh(const System& sys, const newton_context& ctx, const variational_options& opt,
                   variational_statistics& stats, bool with_momentum) {
    if (with_momentum) require_finite_state(ctx.t, ctx.dt, q0_, p0_);
    h_previous_ = 0;
    lambda_.setZero();
    positions_.invalidate();
    check_position(sys, q0_, ctx, opt);
    if (m_ > 0) sys.constraint_jacobian(q0_, g0_);
    if (!with_momentum) return;
    y_.setZero();
    projection_.begin(sys, q0_, g0_, p0_, ctx.t, ctx.dt);
    newton_context pctx = ctx;
    pctx.what = "initial velocity from ∂L/∂q̇(q0, v0) + G(q0)ᵀμ = p0";
    newton_solve(projection_, y_, y0_, ry_, opt.newton, stats.newton, pctx);
    v0_ = y_.head(n_);
    if (m_ > 0) {
      d1_.noalias() = g0_.transpose() * y_.tail(m_);  // p0's component off the phase space
      const double res = safe_ratio(d1_.cwiseAbs().maxCoeff(), p0_.cwiseAbs().maxCoeff());
      if (!(res <= opt.consistency_tolerance))
        throw step_error(failure_reason::inconsistent_initial_state, ctx.t, ctx.dt, 0, res,
                         describe_lagrangian_residuals(0, res, opt.consistency_tolerance));
    }
  }

  void finish(double dt, variational_statistics& stats) {
    h_previous_ = dt;
    ++stats.steps;
  }

  int n_ = -1, m_ = -1;
  continuation<vector<N>, vector<N>> cont_;  // the state last written: (q, p), or (q_{k−1}, q_k) in the two-step form
  double h_previous_ = 0;
  evaluator ld_;
  positions_type positions_;
  projection_type projection_;
  vector<N> q0_, p0_, q1_, p1_, v0_, d1_, d2_, delta_, delta_previous_;
  vector<M> gval_, lambda_;
  typename traits::jacobian_type g0_, g1_;
  typename positions_type::unknowns z_, z0_, r_;
  typename projection_type::unknowns y_, y0_, ry_;
};

template <class Rule>
using del_properties = method_properties<Rule::order, Rule::symmetric, true, conserves_constraints | conserves_momentum_maps>;

}  // namespace detail

/// The DEL equations of a discrete Lagrangian as a one-step map on (q, p). State = std::pair<Q, P>.
template <class Rule, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class discrete_euler_lagrange : public stepper_base<discrete_euler_lagrange<Rule, State>, State, variational_options> {
 public:
  using properties = detail::del_properties<Rule>;
  template <class System>
  using workspace = detail::del_workspace<System, Rule, false>;

  using stepper_base<discrete_euler_lagrange<Rule, State>, State, variational_options>::stepper_base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }
};

/// The DEL equations in the paper's two-step form: x = (q_{k−1}, q_k) ↦ (q_k, q_{k+1}); the pair
/// must come from a step of the size of the call.
template <class Rule, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class discrete_euler_lagrange_two_step
    : public stepper_base<discrete_euler_lagrange_two_step<Rule, State>, State, variational_options> {
 public:
  using properties = detail::del_properties<Rule>;
  static constexpr bool two_step_state = true;  // not composable (core/properties.hpp)
  template <class System>
  using workspace = detail::del_workspace<System, Rule, true>;

  using stepper_base<discrete_euler_lagrange_two_step<Rule, State>, State, variational_options>::stepper_base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position q_{k−1}", "the position q_k");
  }
};

}  // namespace geomint
