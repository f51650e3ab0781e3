// Legendre transforms of a Lagrangian system (lagrangian_system.hpp), continuous and discrete,
// for setting up states and for diagnostics (these helpers allocate; the steppers do not).
//
//   momentum_from_velocity(sys, q, v)        p = ∂L/∂q̇(q, v)          (v ∈ ker G(q): consistent)
//   velocity_from_momentum(sys, q, p)        v ∈ ker G(q) with p − ∂L/∂q̇(q, v) ∈ span G(q)ᵀ
//   energy(sys, q, p)                        E = v·∂L/∂q̇ − L at that v
//   momentum_from_positions<Rule>(sys, q_prev, q, h)
//                                            the discrete Legendre transform (Marsden–Wendlandt
//                                            1997, eq. (31)) p = D₂L_d(q_prev, q) projected onto the
//                                            phase space: turns a two-step state into a one-step one
//                                            (discrete_legendre_transform<Rule, System>: the same
//                                            with a workspace, allocation-free after its first call)
//   project_to_phase_space(sys, q, p)        Gauss–Newton projection of q onto Q, then of p
#pragma once

#include <Eigen/Cholesky>
#include <limits>
#include <string>

#include "geomint/solvers/newton.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/variational/detail/legendre_projection.hpp"
#include "geomint/variational/midpoint_discrete_lagrangian.hpp"

namespace geomint {

template <class System, class Q, class V>
vector<lagrangian_traits<System>::n> momentum_from_velocity(const System& sys, const Q& q, const V& v) {
  constexpr int N = lagrangian_traits<System>::n;
  const vector<N> qv = q, vv = v;
  vector<N> lq(qv.size()), p(qv.size());
  sys.lagrangian_gradient(qv, vv, lq, p);
  return p;
}

namespace detail {
/// The projection of legendre_projection.hpp with its workspace: no allocation after the first
/// call for a given size.
template <class System>
class legendre_solver {
  using traits = lagrangian_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using unknowns = typename legendre_projection<System>::unknowns;

 public:
  /// Projects p̃ = p_target at q onto the phase space: p_out = p̃ − G(q)ᵀμ = ∂L/∂q̇(q, v), v ∈ ker G(q)
  /// (velocity()). Throws step_error on failure.
  template <class Q, class P, class POut>
  void solve(const System& sys, const Q& q, const P& p_target, POut& p_out, double h = 0) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    q_ = q;
    p_ = p_target;
    if (m > 0) sys.constraint_jacobian(q_, g_);
    projection_.begin(sys, q_, g_, p_, 0, h);
    y_.setZero();
    newton_solve(projection_, y_, y0_, r_, newton_options{}, stats_, newton_context{0, h, "Legendre transform"});
    if (m > 0) p_.noalias() -= g_.transpose() * y_.tail(m);
    v_ = y_.head(n);
    p_out = p_;
  }
  const vector<N>& velocity() const { return v_; }

 private:
  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    q_.resize(n);
    p_.resize(n);
    v_.resize(n);
    g_.resize(m, n);
    y_.resize(n + m);
    y0_.resize(n + m);
    r_.resize(n + m);
    projection_.resize(n, m);
  }

  int n_ = -1, m_ = -1;
  vector<N> q_, p_, v_;
  typename traits::jacobian_type g_;
  unknowns y_, y0_, r_;
  legendre_projection<System> projection_;
  newton_statistics stats_;
};

/// Solves the projection at q for p̃; returns v, writes the projected momentum to p_out.
template <class System, class Q, class P>
vector<lagrangian_traits<System>::n> solve_legendre(const System& sys, const Q& q, const P& p_target,
                                                   vector<lagrangian_traits<System>::n>& p_out) {
  legendre_solver<System> solver;
  solver.solve(sys, q, p_target, p_out);
  return solver.velocity();
}
}  // namespace detail

/// The discrete Legendre transform (Marsden–Wendlandt 1997, eq. (31)) p_k = D₂L_d(q_{k−1}, q_k),
/// projected onto the phase space at q_k: turns a two-step state into a one-step one. Holds its
/// workspace: no allocation after the first call for a given size (SHAKE's C form calls it at
/// every step).
template <class Rule, class System>
class discrete_legendre_transform {
  static constexpr int N = lagrangian_traits<System>::n;

 public:
  template <class Q0, class Q1, class P>
  void operator()(const System& sys, const Q0& q_prev, const Q1& q, double h, P& p_out) {
    const int n = sys.position_count();
    if (n != n_) {
      n_ = n;
      ld_.resize(n);
      a_.resize(n);
      delta_.resize(n);
      d1_.resize(n);
      d2_.resize(n);
    }
    a_ = q_prev;
    delta_ = q - a_;
    ld_.derivatives(sys, a_, delta_, h, d1_, d2_);
    legendre_.solve(sys, q, d2_, p_out, h);
  }

 private:
  int n_ = -1;
  typename Rule::template evaluator<System> ld_;
  vector<N> a_, delta_, d1_, d2_;
  detail::legendre_solver<System> legendre_;
};

template <class System, class Q, class P>
vector<lagrangian_traits<System>::n> velocity_from_momentum(const System& sys, const Q& q, const P& p) {
  vector<lagrangian_traits<System>::n> projected;
  return detail::solve_legendre(sys, q, p, projected);
}

/// The energy E = v·∂L/∂q̇ − L of the state (q, p) (the Hamiltonian of the Legendre transform).
template <class System, class Q, class P>
double energy(const System& sys, const Q& q, const P& p) {
  constexpr int N = lagrangian_traits<System>::n;
  const vector<N> qv = q;
  const vector<N> v = velocity_from_momentum(sys, qv, p);
  return v.dot(momentum_from_velocity(sys, qv, v)) - sys.lagrangian(qv, v);
}

/// p_k = D₂L_d(q_{k−1}, q_k) projected onto the phase space at q_k (eq. (31)).
template <class Rule = midpoint_discrete_lagrangian, class System, class Q0, class Q1>
vector<lagrangian_traits<System>::n> momentum_from_positions(const System& sys, const Q0& q_prev, const Q1& q,
                                                             double h) {
  vector<lagrangian_traits<System>::n> p(sys.position_count());
  discrete_legendre_transform<Rule, System>()(sys, q_prev, q, h, p);
  return p;
}

/// Projects (q, p) in place onto the phase space: q onto Q by Gauss–Newton steps
/// q ← q − Gᵀ(GGᵀ)⁻¹g(q), then p onto {∂L/∂q̇(q, v) : v ∈ ker G(q)} along span G(q)ᵀ.
/// Returns the scaled position residual after projection. Throws step_error on failure
/// (q, p unchanged).
template <class System, class Q, class P>
double project_to_phase_space(const System& sys, Q& q_state, P& p_state, double tolerance = 1e-14,
                              int max_iterations = 50) {
  using traits = lagrangian_traits<System>;
  const int n = sys.position_count(), m = sys.constraint_count();
  require_size(q_state, n, "the position vector q");
  require_size(p_state, n, "the momentum vector p");
  vector<traits::n> q = view(q_state), p = view(p_state);
  double residual = 0;
  if (m > 0) {
    vector<traits::m> g(m);
    typename traits::jacobian_type jac(m, n);
    for (int it = 0;; ++it) {
      sys.constraint(q, g);
      sys.constraint_jacobian(q, jac);
      residual = detail::scaled_constraint_residual(jac, g, q.norm());
      if (residual <= tolerance) break;
      if (it == max_iterations)
        throw step_error(failure_reason::max_iterations, std::numeric_limits<double>::quiet_NaN(), 0, it, residual, "project_to_phase_space: positions did not converge");
      Eigen::LDLT<Eigen::MatrixXd> ldlt(Eigen::MatrixXd(jac * jac.transpose()));
      if (ldlt.info() != Eigen::Success || detail::pivot_ratio(ldlt.vectorD()) <= detail::singular_pivot_ratio)
        throw step_error(failure_reason::singular_constraint_jacobian, std::numeric_limits<double>::quiet_NaN(), 0, it, residual, "project_to_phase_space: G Gᵀ is singular");
      q.noalias() -= jac.transpose() * ldlt.solve(g);
    }
  }
  vector<traits::n> projected(n);
  detail::solve_legendre(sys, q, p, projected);
  view(q_state) = q;
  view(p_state) = projected;
  return residual;
}

}  // namespace geomint
