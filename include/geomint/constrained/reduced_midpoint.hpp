// A comparison baseline, not a constrained integrator: the implicit midpoint rule applied to the
// "reduced equations" of McLachlan–Scovel 1994, §6 and Figure 2, i.e. the unconstrained ODE in
// ℝ²ⁿ obtained by eliminating the multipliers analytically. For H = ½pᵀM⁻¹p + V(q), g(q) = 0:
//
//   q̇ = M⁻¹p,   ṗ = −∇V(q) − G(q)ᵀλ(q, p),   (G M⁻¹ Gᵀ) λ = c(q, v) − G M⁻¹ ∇V,
//   c_k = vᵀ ∇²g_k(q) v,  v = M⁻¹p        (from d²g/dt² = 0)
//
// The constraint manifold {g = 0, G M⁻¹p = 0} is invariant under this flow, but g and G M⁻¹p are
// not integrals: their nonzero level sets are not invariant. The midpoint rule, which preserves
// quadratic integrals, therefore does not keep the numerical solution on the manifold: the
// constraints drift (§6.3), and with them the pointwise error grows much faster than for the
// constraint algorithm (reich_constrained.hpp). Use it to reproduce that comparison.
//
// Requires a separable system with constraint_hessian (analytic ∇²g_k: they enter λ, so finite
// differences would change the result). Second order, symmetric. The step solves
// y1 = y0 + h f((y0 + y1)/2) by simplified Newton (Jacobian by forward differences of f: it
// only shapes the iteration; it is kept from step to step while the steps continue each other).
// No consistency check: any state in ℝ²ⁿ is accepted. A failed step throws step_error and leaves
// the state unchanged; no allocation after the first step.
#pragma once

#include <cmath>
#include <limits>
#include <utility>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/constrained/hamiltonian_extension.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/solvers/solver_options.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {

namespace detail {

template <class System>
class reduced_midpoint_cache {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int Y = size::fixed_if_small(size::product(2, N));
  static_assert(traits::separable, "geomint: reduced_midpoint needs a separable H = ½pᵀM⁻¹p + V(q)");
  static_assert(traits::has_constraint_hessian,
                "geomint: reduced_midpoint needs the system's constraint_hessian (the multipliers "
                "of the reduced equations contain ∇²g)");
  static_assert(!traits::sparse_jacobian, "geomint: reduced_midpoint needs a dense constraint Jacobian");
  static_assert(!traits::rheonomic, "geomint: reduced_midpoint does not take driven constraints (constraint_time_derivative); rattle, lobatto_iiia_iiib and constrained_symplectic_euler do");

 public:
  using unknowns = vector<Y>;
  static constexpr reuse kept = reuse::state;  // the iteration matrix
  using end_state = std::pair<vector<N>, vector<N>>;
  using context = step_context<solver_options, solver_statistics>;

  template <class Q0, class P0>
  void start(const System& sys, const Q0&, const P0&, const context&) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    have_jacobian_ = false;
  }

  template <class Q0, class P0, class Q1, class P1>
  void advance(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    sys_ = system_at<System>(sys, c.t + c.h / 2);  // the equations at the midpoint
    ctx_ = newton_context{c.t, c.h, "implicit midpoint rule on the reduced equations"};
    h_ = c.h;
    y0_.head(n_) = q;
    y0_.tail(n_) = p;
    q_scale_ = std::fmax(q.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    // Explicit Euler as first guess.
    rhs(y0_, f_);
    y_ = y0_ + c.h * f_;
    newton_solve(*this, y_, z0_, r_, c.options.newton, c.stats.newton, ctx_);
    q1 = y_.head(n_);
    p1 = y_.tail(n_);
  }

  // --- Newton problem: R(y1) = y1 − y0 − h f((y0 + y1)/2) --------------------------------
  void residual(const unknowns& y1, unknowns& r) {
    mid_ = 0.5 * (y0_ + y1);
    rhs(mid_, f_);
    r = y1 - y0_ - h_ * f_;
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& y1) {
    mid_ = 0.5 * (y0_ + y1);
    rhs(mid_, f_);
    auto& j = lu_.system_matrix();
    for (int c = 0; c < 2 * n_; ++c) {  // ∂R/∂y1 = I − (h/2) f'(ȳ), f' by forward differences
      const double d = difference_step(mid_, c);
      work_ = mid_;
      work_(c) += d;
      rhs(work_, f1_);
      j.col(c) = (-0.5 * h_ / d) * (f1_ - f_);
      j(c, c) += 1.0;
    }
    if (!lu_.factorize())
      throw step_error(failure_reason::singular_iteration_matrix, ctx_.t, ctx_.dt, 0, 0,
                       "the midpoint iteration matrix is singular");
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  double increment_norm(const unknowns& y1, const unknowns& d) {
    const double p_scale =
        std::fmax(std::fmax(y0_.tail(n_).cwiseAbs().maxCoeff(), y1.tail(n_).cwiseAbs().maxCoeff()),
                  std::numeric_limits<double>::min());
    return std::fmax(d.head(n_).cwiseAbs().maxCoeff() / q_scale_, d.tail(n_).cwiseAbs().maxCoeff() / p_scale);
  }
  // -----------------------------------------------------------------------------------------

 private:
  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    y0_.resize(2 * n);
    y_.resize(2 * n);
    mid_.resize(2 * n);
    work_.resize(2 * n);
    f_.resize(2 * n);
    f1_.resize(2 * n);
    z0_.resize(2 * n);
    r_.resize(2 * n);
    qv_.resize(n);
    pv_.resize(n);
    v_.resize(n);
    grad_.resize(n);
    minv_grad_.resize(n);
    force_.resize(n);
    tmp_.resize(n);
    lambda_.resize(m);
    unit_.resize(m);
    c_.resize(m);
    g_.resize(m, n);
    hess_.resize(n, n);
    gram_.resize(n, m);
    lu_.resize(2 * n);
    have_jacobian_ = false;
  }

  /// f(y) of the reduced equations.
  void rhs(const unknowns& y, unknowns& out) {
    const system_at<System>& sys = sys_;
    qv_ = y.head(n_);
    pv_ = y.tail(n_);
    sys.mass().apply_inverse(pv_, v_);
    sys.potential_gradient(qv_, grad_);
    force_ = -grad_;
    if (m_ > 0) {
      sys.constraint_jacobian(qv_, g_);
      if (!gram_.factorize(sys.system(), g_))
        throw step_error(failure_reason::singular_constraint_jacobian, ctx_.t, ctx_.dt, 0, 0,
                         "G M⁻¹ Gᵀ is singular: the multipliers of the reduced equations are undefined");
      for (int k = 0; k < m_; ++k) {  // c_k = vᵀ∇²g_k v
        unit_.setZero();
        unit_(k) = 1.0;
        sys.constraint_hessian(qv_, unit_, hess_);
        tmp_.noalias() = hess_ * v_;
        c_(k) = v_.dot(tmp_);
      }
      sys.mass().apply_inverse(grad_, minv_grad_);
      lambda_ = c_;
      lambda_.noalias() -= g_ * minv_grad_;
      gram_.solve_in_place(lambda_);
      force_.noalias() -= g_.transpose() * lambda_;
    }
    out.head(n_) = v_;
    out.tail(n_) = force_;
  }

  system_at<System> sys_;
  newton_context ctx_;
  int n_ = -1, m_ = -1;
  double h_ = 0, q_scale_ = 1;
  bool have_jacobian_ = false;
  unknowns y0_, y_, mid_, work_, f_, f1_, z0_, r_;
  vector<N> qv_, pv_, v_, grad_, minv_grad_, force_, tmp_;
  vector<M> lambda_, unit_, c_;
  typename traits::jacobian_type g_;
  matrix<N, N> hess_;
  constraint_gram<System> gram_;
  dense_lu<Y> lu_;
};

}  // namespace detail

/// Implicit midpoint rule on the reduced equations (multipliers eliminated analytically):
/// the baseline of McLachlan–Scovel §6.3, Figure 2. See the comment at the top of this file.
/// options().consistency_tolerance is not used: any state of ℝ²ⁿ is accepted.
template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class reduced_midpoint : public stepper_base<reduced_midpoint<State>, State, solver_options, solver_statistics> {
 public:
  static constexpr method_properties properties = method_properties().order(2).symmetric(true);
  template <class System>
  using cache = detail::reduced_midpoint_cache<System>;
  template <class System>
  using continuous_extension = hamiltonian_extension<System, State>;

  using stepper_base<reduced_midpoint<State>, State, solver_options, solver_statistics>::stepper_base;

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }
};

}  // namespace geomint
