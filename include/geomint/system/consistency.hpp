// Distance of a state from the constraint manifold M = {g(q) = 0, G(q) ∂H/∂p = 0}
// (Hairer 2003, (2.5)), measured scale-free:
//   position residual  max_k |g_k(q)| / (‖∇g_k(q)‖ ‖q‖)          (a relative length error)
//   velocity residual  max_k |∇g_k(q)·q̇| / (‖∇g_k(q)‖ ‖q̇‖),  q̇ = ∂H/∂p  (cosine of the angle
//                      between the velocity and the manifold's tangent space)
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "geomint/core/step_error.hpp"
#include "geomint/system/constrained_system.hpp"

namespace geomint {

struct constraint_residuals {
  double position = 0;  ///< scaled |g(q)|
  double velocity = 0;  ///< scaled |G(q) ∂H/∂p(q, p)|
};

namespace detail {
inline double safe_ratio(double a, double b) {
  return a == 0 ? 0.0 : a / std::fmax(b, std::numeric_limits<double>::min());
}
/// max_k |r_k| / (‖G_k‖ · scale); NaN if any of them is NaN (a NaN must fail the check).
template <class G, class R>
double scaled_constraint_residual(const G& jac, const R& r, double scale) {
  double worst = 0;
  for (Eigen::Index k = 0; k < r.size(); ++k) {
    const double ratio = safe_ratio(std::fabs(r(k)), jac.row(k).norm() * scale);
    if (std::isnan(ratio)) return ratio;
    worst = std::fmax(worst, ratio);
  }
  return worst;
}

inline std::string describe_residuals(const constraint_residuals& r, double tol) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "the initial state is off the constraint manifold: scaled position residual "
                "%.3e, velocity residual %.3e (tolerance %.1e); project it first with "
                "geomint::project_to_manifold",
                r.position, r.velocity, tol);
  return buf;
}
}  // namespace detail

/// Residuals of g(q) = 0 and of the hidden constraint at (q, p) (at time t, for a system whose
/// functions take the time). Allocates; for diagnostics.
template <class System, class Q, class P>
constraint_residuals constraint_residuals_of(const System& sys, const Q& q, const P& p, double t = 0) {
  using traits = system_traits<System>;
  const int n = sys.position_count(), m = sys.constraint_count();
  constraint_residuals res;
  if (m == 0) return res;
  vector<traits::n> qv = q, pv = p, v(n);
  vector<traits::m> g(m), gv(m);
  typename traits::jacobian_type jac(m, n);
  const system_at<System> at(sys, t);
  at.constraint(qv, g);
  at.constraint_jacobian(qv, jac);
  at.dh_dp(qv, pv, v);
  gv = jac * v;
  res.position = detail::scaled_constraint_residual(jac, g, qv.norm());
  res.velocity = detail::scaled_constraint_residual(jac, gv, v.norm());
  return res;
}

}  // namespace geomint
