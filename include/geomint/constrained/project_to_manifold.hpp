// Projection of a state onto the constraint manifold M = {g(q) = 0, G(q) ∂H/∂p = 0}, for users
// whose initial data are only approximately consistent (the steppers reject such states).
// Positions: Gauss–Newton steps q ← q − Gᵀ(GGᵀ)⁻¹ g(q), the Euclidean projection. Momenta:
// p ← p − G(q)ᵀμ with G(q) ∂H/∂p(q, p) = 0, as at the end of every step.
#pragma once

#include <Eigen/SparseCholesky>
#include <string>

#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint {

/// Projects (q, p) in place and returns the residuals after projection. Throws step_error
/// (singular_constraint_jacobian or max_iterations) if the projection fails; q, p are then
/// unchanged. Q, P: Eigen vectors, std::array or std::vector.
template <class System, class Q, class P>
constraint_residuals project_to_manifold(const System& sys, Q& q_state, P& p_state, double tolerance = 1e-14,
                                         int max_iterations = 50) {
  using traits = system_traits<System>;
  const int n = sys.position_count(), m = sys.constraint_count();
  require_size(q_state, n, "the position vector q");
  require_size(p_state, n, "the momentum vector p");
  if (m == 0) return {};
  vector<traits::n> q = view(q_state), p = view(p_state);
  vector<traits::m> g(m), mu(m);
  typename traits::jacobian_type jac(m, n);
  auto fail = [&](failure_reason why, int it, double res, const std::string& what) {
    throw step_error(why, 0, 0, it, res, "project_to_manifold: " + what);
  };

  double residual = 0;
  int it = 0;
  for (;; ++it) {
    sys.constraint(q, g);
    sys.constraint_jacobian(q, jac);
    residual = detail::scaled_constraint_residual(jac, g, q.norm());
    if (residual <= tolerance) break;
    if (it == max_iterations) fail(failure_reason::max_iterations, it, residual, "positions did not converge");
    if constexpr (traits::sparse_jacobian) {
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(Eigen::SparseMatrix<double>(jac * jac.transpose()));
      if (ldlt.info() != Eigen::Success) fail(failure_reason::singular_constraint_jacobian, it, residual, "G Gᵀ is singular");
      mu = ldlt.solve(g);
    } else {
      Eigen::LDLT<Eigen::MatrixXd> ldlt(Eigen::MatrixXd(jac * jac.transpose()));
      if (ldlt.info() != Eigen::Success || detail::pivot_ratio(ldlt.vectorD()) <= detail::singular_pivot_ratio)
        fail(failure_reason::singular_constraint_jacobian, it, residual, "G Gᵀ is singular");
      mu = ldlt.solve(g);
    }
    q.noalias() -= jac.transpose() * mu;
  }

  detail::hidden_constraint_solver<System> hidden;
  hidden.resize(n, m);
  if constexpr (traits::separable) {
    detail::constraint_gram<System> gram;
    gram.resize(n, m);
    if (!gram.factorize(sys, jac)) fail(failure_reason::singular_constraint_jacobian, it, residual, "G M⁻¹ Gᵀ is singular");
    hidden.project_separable(sys, q, jac, gram, p);
  } else {
    newton_statistics stats;
    newton_options opt;
    hidden.project_general(sys, q, jac, p, opt, stats, newton_context{0, 0, "project_to_manifold"});
  }
  view(q_state) = q;
  view(p_state) = p;
  return constraint_residuals_of(sys, q, p);
}

}  // namespace geomint
