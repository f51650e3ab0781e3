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

#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/flow_difference_extension.hpp"
#include "geomint/solvers/newton.hpp"
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
class del_cache {
  using traits = lagrangian_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using evaluator = typename Rule::template evaluator<System>;
  using positions_type = del_position_equations<System, evaluator>;
  using projection_type = legendre_projection<System>;
  using context = step_context<variational_options, variational_statistics>;

 public:
  static constexpr reuse kept = reuse::state;
  using end_state = std::pair<vector<N>, vector<N>>;

  /// One-step form: check (q0, p0), evaluate G(q0) and the velocity v0 at (q0, p0) for the first
  /// guess. Two-step form: check both positions, G(q_k), and Δ_k = q_k − q_{k−1}.
  template <class A, class B>
  void start(const System& sys, const A& a, const B& b, const context& c) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    const newton_context ctx{c.t, c.h, "discrete Euler–Lagrange equations"};
    lambda_.setZero();
    positions_.invalidate();
    if constexpr (TwoStep) {
      p1_ = a;  // q_{k−1}
      q0_ = b;
      check_position(sys, p1_, ctx, c.options);
      check_position(sys, q0_, ctx, c.options);
      if (m_ > 0) sys.constraint_jacobian(q0_, g0_);
      delta_ = q0_ - p1_;
    } else {
      q0_ = a;
      p0_ = b;
      check_position(sys, q0_, ctx, c.options);
      if (m_ > 0) sys.constraint_jacobian(q0_, g0_);
      y_.setZero();
      projection_.begin(sys, q0_, g0_, p0_, c.t, c.h);
      newton_context pctx = ctx;
      pctx.what = "initial velocity from ∂L/∂q̇(q0, v0) + G(q0)ᵀμ = p0";
      newton_solve(projection_, y_, y0_, ry_, c.options.newton, c.stats.newton, pctx);
      v0_ = y_.head(n_);
      if (m_ > 0) {
        d1_.noalias() = g0_.transpose() * y_.tail(m_);  // p0's component off the phase space
        const double res = safe_ratio(d1_.cwiseAbs().maxCoeff(), p0_.cwiseAbs().maxCoeff());
        if (!(res <= c.options.consistency_tolerance))
          throw step_error(failure_reason::inconsistent_initial_state, c.t, c.h, 0, res,
                           describe_lagrangian_residuals(0, res, c.options.consistency_tolerance));
      }
    }
  }

  template <class A, class B, class A1, class B1>
  void advance(const System& sys, const A& a, const B& b, A1& a1, B1& b1, const context& c) {
    if constexpr (TwoStep) advance_positions(sys, a, b, a1, b1, c);
    else advance_momenta(sys, a, b, a1, b1, c);
  }

 private:
  /// One-step form: (q, p) ↦ (q1, p1).
  template <class Q0, class P0, class Q1, class P1>
  void advance_momenta(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    const double dt = c.h;
    const newton_context ctx{c.t, dt, "discrete Euler–Lagrange equations"};
    q0_ = q;
    p0_ = p;
    const double ratio = c.continuing ? dt / c.h_previous : 0.0;  // either sign (backward runs)

    // 1. positions: z = (Δ, λ), Δ = q1 − q0. Guess Δ = h v(t + h/2), v(t + h/2) extrapolated from
    //    v0 and the previous step's mean velocity Δ_prev/h_prev (error O(h³)); λ from the last step.
    z_.head(n_) = dt * v0_;
    if (c.continuing) z_.head(n_) += (dt * ratio) * (v0_ - delta_ / c.h_previous);
    if (m_ > 0) z_.tail(m_) = ratio * lambda_;
    positions_.begin(sys, ld_, q0_, p0_, g0_, dt, c.t);
    newton_solve(positions_, z_, z0_, r_, c.options.newton, c.stats.newton, ctx);
    delta_ = z_.head(n_);
    q1_ = q0_ + delta_;

    // 2. momenta: p̃1 = D₂L_d(q0, q1), projected onto the phase space at q1
    ld_.derivatives(sys, q0_, delta_, dt, d1_, d2_);
    if (m_ > 0) sys.constraint_jacobian(q1_, g1_);
    y_.head(n_) = delta_ / dt;
    if (m_ > 0) y_.tail(m_).setZero();
    projection_.begin(sys, q1_, g1_, d2_, c.t, dt);
    newton_context pctx = ctx;
    pctx.what = "discrete Legendre transform p1 = D₂L_d(q0, q1) − G(q1)ᵀμ";
    newton_solve(projection_, y_, y0_, ry_, c.options.newton, c.stats.newton, pctx);
    p1_ = d2_;
    if (m_ > 0) p1_.noalias() -= g1_.transpose() * y_.tail(m_);

    q1 = q1_;
    p1 = p1_;
    if (m_ > 0) lambda_ = z_.tail(m_);
    v0_ = y_.head(n_);
    std::swap(g0_, g1_);
  }

  /// Two-step form: (q_{k−1}, q_k) ↦ (q_k, q_{k+1}).
  template <class Q0, class Q1, class QOut0, class QOut1>
  void advance_positions(const System& sys, const Q0& q_prev, const Q1& q, QOut0& out_k, QOut1& out_next,
                         const context& c) {
    const double dt = c.h;
    const newton_context ctx{c.t, dt, "discrete Euler–Lagrange equations"};
    // The pair must also come from a step of the same size (delta_ is reused unrounded).
    const bool continuing = c.continuing && dt == c.h_previous;
    if (c.continuing && !continuing) start(sys, q_prev, q, c);
    q0_ = q;
    p1_ = q_prev;  // q_{k−1}
    const double ratio = continuing ? dt / c.h_previous : 0.0;

    // p_k = D₂L_d(q_{k−1}, q_k): then step 1 of the one-step form is eq. (45) times h.
    ld_.derivatives(sys, p1_, delta_, dt, d1_, d2_);
    p0_ = d2_;
    z_.head(n_) = delta_;  // guess Δ_{k+1} = 2Δ_k − Δ_{k−1} (error O(h³)), or Δ_k on a fresh start
    if (continuing) z_.head(n_) += delta_ - delta_previous_;
    if (m_ > 0) z_.tail(m_) = ratio * lambda_;
    positions_.begin(sys, ld_, q0_, p0_, g0_, dt, c.t);
    newton_solve(positions_, z_, z0_, r_, c.options.newton, c.stats.newton, ctx);
    q1_ = q0_ + z_.head(n_);
    if (!q1_.allFinite())
      throw step_error(failure_reason::non_finite_value, c.t, dt, 0, 0, "the new state is not finite");
    if (m_ > 0) {
      sys.constraint_jacobian(q1_, g1_);
      if (!g1_.allFinite())
        throw step_error(failure_reason::non_finite_value, c.t, dt, 0, 0, "G(q_{k+1}) is not finite");
      lambda_ = z_.tail(m_);
    }
    delta_previous_ = delta_;
    delta_ = z_.head(n_);
    out_k = q0_;
    out_next = q1_;
    std::swap(g0_, g1_);
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    ld_.resize(n);
    positions_.resize(n, m);
    projection_.resize(n, m);
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

  int n_ = -1, m_ = -1;
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
inline constexpr method_properties del_properties = method_properties()
                                                        .order(Rule::order)
                                                        .symmetric(Rule::symmetric)
                                                        .symplectic(true)
                                                        .conserves(conserves_constraints | conserves_momentum_maps);

}  // namespace detail

/// The DEL equations of a discrete Lagrangian as a one-step map on (q, p). State = std::pair<Q, P>.
/// Final: the named method deriving from this class (variational_midpoint, ...), or void.
template <class Rule, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Final = void>
class discrete_euler_lagrange
    : public stepper_base<final_class<Final, discrete_euler_lagrange<Rule, State, Final>>, State, variational_options,
                          variational_statistics> {
  using base = stepper_base<final_class<Final, discrete_euler_lagrange<Rule, State, Final>>, State,
                            variational_options, variational_statistics>;

 public:
  static constexpr method_properties properties = detail::del_properties<Rule>;
  template <class System>
  using cache = detail::del_cache<System, Rule, false>;
  template <class System>
  using continuous_extension = flow_difference_extension<final_class<Final, discrete_euler_lagrange>, System>;

  using base::base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }
};

/// The DEL equations in the paper's two-step form: x = (q_{k−1}, q_k) ↦ (q_k, q_{k+1}); the pair
/// must come from a step of the size of the call. It names no continuous extension (dense_output
/// refuses it): use the one-step form, or SHAKE for separable systems.
template <class Rule, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Final = void>
class discrete_euler_lagrange_two_step
    : public stepper_base<final_class<Final, discrete_euler_lagrange_two_step<Rule, State, Final>>, State,
                          variational_options, variational_statistics> {
  using base = stepper_base<final_class<Final, discrete_euler_lagrange_two_step<Rule, State, Final>>, State,
                            variational_options, variational_statistics>;

 public:
  static constexpr method_properties properties = detail::del_properties<Rule>.state(state_kind::two_step_pair);
  template <class System>
  using cache = detail::del_cache<System, Rule, true>;

  using base::base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position q_{k−1}", "the position q_k");
  }
};

}  // namespace geomint
