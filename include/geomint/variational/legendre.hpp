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
//   project_to_phase_space(sys, q, p)        Gauss–Newton projection of q onto Q, then of p
#pragma once

#include <Eigen/Cholesky>
#include <string>

#include "geomint/core/newton.hpp"
#include "geomint/core/state_view.hpp"
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
/// Solves the projection at q for p̃; returns v, writes the projected momentum to p_out.
template <class System, class Q, class P>
vector<lagrangian_traits<System>::n> solve_legendre(const System& sys, const Q& q, const P& p_target,
                                                   vector<lagrangian_traits<System>::n>& p_out) {
  using traits = lagrangian_traits<System>;
  const int n = sys.position_count(), m = sys.constraint_count();
  const vector<traits::n> qv = q, pv = p_target;
  typename traits::jacobian_type g(m, n);
  if (m > 0) sys.constraint_jacobian(qv, g);
  legendre_projection<System> pr;
  pr.resize(n, m);
  pr.begin(sys, qv, g, pv, 0, 0);
  using unknowns = typename legendre_projection<System>::unknowns;
  unknowns y = unknowns::Zero(n + m), y0(n + m), r(n + m);
  newton_statistics stats;
  newton_solve(pr, y, y0, r, newton_options{}, stats, newton_context{0, 0, "Legendre transform"});
  p_out = pv;
  if (m > 0) p_out.noalias() -= g.transpose() * y.tail(m);
  return y.head(n);
}
}  // namespace detail

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
  constexpr int N = lagrangian_traits<System>::n;
  const int n = sys.position_count();
  typename Rule::template evaluator<System> ld;
  ld.resize(n);
  const vector<N> a = q_prev, b = q;
  vector<N> d1(n), d2(n), p(n);
  ld.derivatives(sys, a, vector<N>(b - a), h, d1, d2);
  detail::solve_legendre(sys, b, d2, p);
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
        throw step_error(failure_reason::max_iterations, 0, 0, it, residual, "project_to_phase_space: positions did not converge");
      Eigen::LDLT<Eigen::MatrixXd> ldlt(Eigen::MatrixXd(jac * jac.transpose()));
      if (ldlt.info() != Eigen::Success || detail::pivot_ratio(ldlt.vectorD()) <= detail::singular_pivot_ratio)
        throw step_error(failure_reason::singular_constraint_jacobian, 0, 0, it, residual, "project_to_phase_space: G Gᵀ is singular");
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
