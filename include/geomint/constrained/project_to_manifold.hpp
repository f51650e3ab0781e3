// Projection of a state onto the constraint manifold M = {g(q) = 0, G(q) ∂H/∂p = 0}, for users
// whose initial data are only approximately consistent (the steppers reject such states).
// Positions: Gauss–Newton steps q ← q − Gᵀ(GGᵀ)⁻¹ g(q), the Euclidean projection. Momenta:
// p ← p − G(q)ᵀμ with G(q) ∂H/∂p(q, p) = 0 (+ ∂g/∂t for driven constraints), as at the end of
// every step.
//
// manifold_projection<System> keeps its workspace: after the first call it does not allocate
// (fixed-size dense G; with dynamic sizes the residuals it returns are dynamic vectors, built on
// each call). project_to_manifold(sys, q, p) is the one-call form.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/mass.hpp"

namespace geomint {

struct projection_options {
  double tolerance = 1e-14;  ///< scaled position residual at which the Gauss–Newton steps stop
  int max_iterations = 50;
  /// The state's time: for messages, and the time at which a system whose functions take the
  /// time (system/evaluation.hpp) is evaluated (0 if not given).
  double t = std::numeric_limits<double>::quiet_NaN();
};

template <class System>
class manifold_projection {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;

 public:
  explicit manifold_projection(const System& sys) { resize(sys.position_count(), sys.constraint_count()); }

  /// Projects (q, p) in place and returns the residuals after projection. Throws step_error
  /// (singular_constraint_jacobian or max_iterations) if the projection fails; q, p are then
  /// unchanged. Q, P: Eigen vectors, std::array or std::vector.
  template <class Q, class P>
  constraint_residuals project(const System& sys, Q& q_state, P& p_state, const projection_options& opt = {}) {
    const int n = sys.position_count(), m = sys.constraint_count();
    require_size(q_state, n, "the position vector q");
    require_size(p_state, n, "the momentum vector p");
    if (n != n_ || m != m_) resize(n, m);
    if (m == 0) return {};
    auto fail = [&](failure_reason why, int it, double res, const std::string& what) {
      throw step_error(why, opt.t, 0, it, res, "project_to_manifold: " + what);
    };
    q_ = view(q_state);
    p_ = view(p_state);
    require_finite_state(opt.t, 0, q_, p_);

    const system_at<System> at(sys, std::isnan(opt.t) ? 0.0 : opt.t);
    double residual = 0;
    int it = 0;
    for (;; ++it) {
      at.constraint(q_, g_);
      at.constraint_jacobian(q_, jac_);
      residual = detail::scaled_constraint_residual(jac_, g_, q_.norm());
      if (residual <= opt.tolerance) break;
      if (!(residual == residual)) fail(failure_reason::non_finite_value, it, residual, "g(q) is not finite");
      if (it == opt.max_iterations) fail(failure_reason::max_iterations, it, residual, "positions did not converge");
      if (!euclidean_.factorize_with(unit_, jac_))
        fail(failure_reason::singular_constraint_jacobian, it, residual, "G Gᵀ is singular: dependent constraints");
      mu_ = g_;
      euclidean_.solve_in_place(mu_);
      q_.noalias() -= jac_.transpose() * mu_;
    }
    if constexpr (traits::separable) {
      if (!gram_.factorize(sys, jac_))
        fail(failure_reason::singular_constraint_jacobian, it, residual, "G M⁻¹ Gᵀ is singular");
      hidden_.project_separable(at, q_, jac_, gram_, p_);
    } else {
      hidden_.project_general(at, q_, jac_, p_, newton_options{}, stats_,
                              newton_context{opt.t, 0, "project_to_manifold"});
    }
    view(q_state) = q_;
    view(p_state) = p_;
    return constraint_residuals_of(sys, q_, p_, at.time());
  }

 private:
  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    q_.resize(n);
    p_.resize(n);
    g_.resize(m);
    mu_.resize(m);
    jac_.resize(m, n);
    unit_ = diagonal_mass<N>(vector<N>::Ones(n));
    euclidean_.resize(n, m);
    gram_.resize(n, m);
    hidden_.resize(n, m);
  }

  int n_ = -1, m_ = -1;
  vector<N> q_, p_;
  vector<M> g_, mu_;
  typename traits::jacobian_type jac_;
  diagonal_mass<N> unit_;
  detail::constraint_gram<System> euclidean_;  // G Gᵀ (unit weights)
  detail::constraint_gram<System> gram_;       // G M⁻¹ Gᵀ (separable systems)
  detail::hidden_constraint_solver<System> hidden_;
  newton_statistics stats_;
};

/// One-call form of manifold_projection (allocates its workspace each call).
template <class System, class Q, class P>
constraint_residuals project_to_manifold(const System& sys, Q& q, P& p, double tolerance = 1e-14,
                                         int max_iterations = 50) {
  projection_options opt;
  opt.tolerance = tolerance;
  opt.max_iterations = max_iterations;
  return manifold_projection<System>(sys).project(sys, q, p, opt);
}

}  // namespace geomint
