// SHAKE in the variational form of Marsden–Wendlandt 1997 (§6 after eq. (47), §7): the discrete
// Euler–Lagrange equations of the midpoint discrete Lagrangian (42) for L = ½q̇ᵀMq̇ − V(q) with
// holonomic constraints, in position-only two-step form
//
//   M (q_{k+1} − 2q_k + q_{k−1}) / h² + ½ (∇V((q_{k+1} + q_k)/2) + ∇V((q_k + q_{k−1})/2))
//       − G(q_k)ᵀλ_k = 0,       g(q_{k+1}) = 0,
//
// as an odeint stepper on x = (q_{k−1}, q_k) ↦ (q_k, q_{k+1}). Systems are separable constrained
// Hamiltonian systems (separable_system.hpp: the same objects RATTLE integrates). Each step is the
// classical SHAKE iteration on an m × m system S_k = G(q_k)M⁻¹G(q_k)ᵀ, with full Newton as
// fallback (detail/shake_equations.hpp). Symplectic and momentum-preserving; order 2. For uniform
// gravity (∇V constant, as for the double spherical pendulum) it produces RATTLE's positions.
//
// shake_momentum(sys, q_prev, q, h) gives the momentum p_k of the trajectory (the discrete Legendre
// transform (31) projected onto the phase space), for energies and momentum maps.
#pragma once

#include <string>
#include <utility>

#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/hermite.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/detail/shake_equations.hpp"
#include "geomint/variational/legendre.hpp"
#include "geomint/variational/variational_options.hpp"

namespace geomint {

namespace detail {

template <class System>
class shake_cache {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using equations = shake_equations<System>;
  using context = step_context<variational_options, variational_statistics>;

 public:
  static constexpr reuse kept = reuse::state;
  using end_state = std::pair<vector<N>, vector<N>>;

  /// Both positions of the pair on the constraint manifold; ∇V at their midpoint, G(q_k).
  template <class QPrev, class Q>
  void start(const System& sys, const QPrev& q_prev, const Q& q, const context& c) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    const newton_context ctx{c.t, c.h, "SHAKE position equations"};
    q_prev_ = q_prev;
    q_ = q;
    check(sys, q_prev_, ctx, c.options);
    check(sys, q_, ctx, c.options);
    delta_ = q_ - q_prev_;
    mid_ = 0.5 * (q_prev_ + q_);
    sys.potential_gradient(mid_, grad_minus_);
    if (m_ > 0) sys.constraint_jacobian(q_, g_);
    lambda_.setZero();
  }

  template <class QPrev, class Q, class QOut0, class QOut1>
  void advance(const System& sys, const QPrev& q_prev, const Q& q, QOut0& out_k, QOut1& out_next, const context& c) {
    const double t = c.t, dt = c.h;
    const newton_context ctx{t, dt, "SHAKE position equations"};
    // The pair must also come from a step of the same size (delta_ is reused unrounded).
    const bool continuing = c.continuing && dt == c.h_previous;
    if (c.continuing && !continuing) start(sys, q_prev, q, c);
    q_ = q;
    if (m_ > 0 && !equations_.factorize_gram(sys, g_))
      throw step_error(failure_reason::singular_constraint_jacobian, t, dt, 0, 0,
                       "G(q) M⁻¹ G(q)ᵀ is singular: the constraints are dependent at this configuration");

    z_.head(n_) = delta_;  // guess Δ_{k+1} = 2Δ_k − Δ_{k−1} (error O(h³)), or Δ_k on a fresh start
    if (continuing) z_.head(n_) += delta_ - delta_previous_;
    if (m_ > 0) z_.tail(m_) = lambda_;
    equations_.begin(sys, delta_, q_, grad_minus_, g_, dt, t);
    newton_solve(equations_, z_, z0_, r_, c.options.newton, c.stats.newton, ctx);
    if (equations_.used_full_newton()) ++c.stats.full_newton_steps;
    q1_ = q_ + z_.head(n_);
    if (!q1_.allFinite()) throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "the new state is not finite");
    mid_ = q_ + 0.5 * z_.head(n_);
    sys.potential_gradient(mid_, grad_plus_);
    if (m_ > 0) sys.constraint_jacobian(q1_, g1_);
    if (!grad_plus_.allFinite() || !g1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "∇V or G at the new state is not finite");

    out_k = q_;
    out_next = q1_;
    if (m_ > 0) lambda_ = z_.tail(m_);
    delta_previous_ = delta_;
    delta_ = z_.head(n_);
    std::swap(g_, g1_);
    std::swap(grad_minus_, grad_plus_);
  }

 private:
  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    equations_.resize(n, m);
    for (auto* v : {&q_prev_, &q_, &q1_, &mid_, &delta_, &delta_previous_, &grad_minus_, &grad_plus_}) v->resize(n);
    gval_.resize(m);
    lambda_.setZero(m);
    g_.resize(m, n);
    g1_.resize(m, n);
    z_.resize(n + m);
    z0_.resize(n + m);
    r_.resize(n + m);
  }

  void check(const System& sys, const vector<N>& q, const newton_context& ctx, const variational_options& opt) {
    if (m_ == 0) return;
    sys.constraint(q, gval_);
    sys.constraint_jacobian(q, g1_);
    const double res = scaled_constraint_residual(g1_, gval_, q.norm());
    if (!(res <= opt.consistency_tolerance))
      throw step_error(failure_reason::inconsistent_initial_state, ctx.t, ctx.dt, 0, res,
                       "a position of the SHAKE state (q_{k−1}, q_k) is off the constraint manifold: scaled "
                       "residual " + detail::decimal(res));
  }

  int n_ = -1, m_ = -1;
  equations equations_;
  vector<N> q_prev_, q_, q1_, mid_, delta_, delta_previous_, grad_minus_, grad_plus_;
  vector<M> gval_, lambda_;
  typename traits::jacobian_type g_, g1_;
  typename equations::unknowns z_, z0_, r_;
};

/// SHAKE's continuous extension (dense_output<shake<State>>). The state at t ∈ [t_k, t_{k+1}] is
/// (q(t − h), q(t)): each component a cubic Hermite interpolant between two grid positions with
/// the trajectory's velocities M⁻¹p at both ends. The momenta are the discrete Legendre
/// transforms of a pair (Marsden–West 2001, (1.5.6)), projected onto G(q) M⁻¹p = 0: at the later
/// point p_k = D₂L_d(q_{k−1}, q_k), at the earlier one −D₁L_d(q_{k−1}, q_k), which for the
/// midpoint Lagrangian is D₂L_d(q_k, q_{k−1}) with step −h. The velocities are second-order
/// accurate: local interpolation error O(h³), SHAKE's own local error.
template <class System, class State>
class shake_extension {
  static constexpr int N = system_traits<System>::n;
  using vec = vector<N>;

 public:
  template <class Stepper>
  shake_extension(const Stepper&, const System& sys, const State&) : sys_(&sys), lagrangian_(sys) {}

  /// The step from x0 = (q_{k−1}, q_k) at t0 to x1 = (q_k, q_{k+1}) (nothing is carried from one
  /// step to the next).
  void begin_step(const State& x0, const State& x1, double t0, double h, bool /*continued*/) {
    q0_ = view(x0.first);
    q1_ = view(x0.second);
    q2_ = view(x1.second);
    t0_ = t0;
    h_ = h;
    ready_ = false;
  }

  /// x (k = 0) or ẋ (k = 1) at t ∈ [t0, t0 + h]; `project` does not apply (positions only, each
  /// on the constraint manifold to the interpolation error).
  void evaluate(double t, State& x, int k, bool /*project*/) {
    if (!ready_) {
      velocity(q1_, q0_, -h_, v0_);  // at q_{k−1}
      velocity(q0_, q1_, h_, v1_);   // at q_k
      velocity(q1_, q2_, h_, v2_);   // at q_{k+1}
      ready_ = true;
    }
    const hermite_weights w = cubic_hermite((t - t0_) / h_);
    const auto& c = k == 0 ? w.value : w.slope;
    const double scale = k == 0 ? 1 : 1 / h_;
    view(x.first) = scale * (c[0] * q0_ + (c[1] * h_) * v0_ + (c[4] * h_) * v1_ + c[5] * q1_);
    view(x.second) = scale * (c[0] * q1_ + (c[1] * h_) * v1_ + (c[4] * h_) * v2_ + c[5] * q2_);
  }

 private:
  /// M⁻¹ D₂L_d(a, b; h), projected: the velocity at b.
  void velocity(const vec& a, const vec& b, double h, vec& v) {
    legendre_(lagrangian_, a, b, h, p_);
    sys_->mass().apply_inverse(p_, v);  // sizes v (an assignment)
  }

  const System* sys_;
  lagrangian_view<System> lagrangian_;
  discrete_legendre_transform<midpoint_discrete_lagrangian, lagrangian_view<System>> legendre_;
  vec q0_, q1_, q2_, v0_, v1_, v2_, p_;
  double t0_ = 0, h_ = 0;
  bool ready_ = false;
};

}  // namespace detail

/// SHAKE as an odeint stepper on x = (q_{k−1}, q_k). State = std::pair<Q, Q>.
template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class shake : public stepper_base<shake<State>, State, variational_options, variational_statistics> {
 public:
  static constexpr method_properties properties = method_properties()
                                                      .order(2)
                                                      .symmetric(true)
                                                      .symplectic(true)
                                                      .conserves(conserves_constraints | conserves_momentum_maps)
                                                      .state(state_kind::two_step_pair);
  template <class System>
  using cache = detail::shake_cache<System>;
  /// dense_output's extension for this two-step state: (q(t − h), q(t)).
  template <class System>
  using continuous_extension = detail::shake_extension<System, State>;

  using stepper_base<shake<State>, State, variational_options, variational_statistics>::stepper_base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position q_{k−1}", "the position q_k");
  }
};

/// The momentum p_k of a SHAKE trajectory at q_k from (q_{k−1}, q_k): the discrete Legendre
/// transform D₂L_d(q_{k−1}, q_k) = M(q_k − q_{k−1})/h − (h/2)∇V((q_{k−1} + q_k)/2), projected onto
/// {G(q_k) M⁻¹p = 0}. Allocates (diagnostics).
template <class System, class Q0, class Q1>
vector<system_traits<System>::n> shake_momentum(const System& sys, const Q0& q_prev, const Q1& q, double h) {
  const lagrangian_view<System> lagrangian(sys);
  return momentum_from_positions<midpoint_discrete_lagrangian>(lagrangian, q_prev, q, h);
}

}  // namespace geomint
