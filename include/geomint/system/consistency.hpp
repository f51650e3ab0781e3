// Distance of a state from the constraint manifold M = {g(q) = 0, G(q) ∂H/∂p = 0}
// (Hairer 2003, (2.5)), measured scale-free:
//   position residual  max_k |g_k(q)| / (‖∇g_k(q)‖ ‖q‖)          (a relative length error)
//   velocity residual  max_k |∇g_k(q)·q̇| / (‖∇g_k(q)‖ ‖q̇‖),  q̇ = ∂H/∂p  (cosine of the angle
//                      between the velocity and the manifold's tangent space)
// Driven constraints g(q, t) = 0 (system_traits::rheonomic) have the hidden constraint
// G q̇ + ∂g/∂t = 0; its residual is max_k |∇g_k·q̇ + ∂g_k/∂t| / (‖∇g_k‖ ‖q̇‖ + |∂g_k/∂t|).
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

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
/// The velocity residual of driven constraints: max_k |(G q̇)_k + ∂g_k/∂t| / (‖G_k‖ ‖q̇‖ + |∂g_k/∂t|),
/// `gv` = G q̇ + ∂g/∂t, `rate` = ∂g/∂t; NaN if any of them is NaN.
template <class G, class R>
double scaled_driven_velocity_residual(const G& jac, const R& gv, const R& rate, double speed) {
  double worst = 0;
  for (Eigen::Index k = 0; k < gv.size(); ++k) {
    const double ratio = safe_ratio(std::fabs(gv(k)), jac.row(k).norm() * speed + std::fabs(rate(k)));
    if (std::isnan(ratio)) return ratio;
    worst = std::fmax(worst, ratio);
  }
  return worst;
}
/// The velocity residual of (q, p) at time `at`: G q̇ (+ ∂g/∂t for driven constraints) in `gv`,
/// q̇ = ∂H/∂p in `v`, ∂g/∂t in `rate` (untouched for constraints that do not depend on t).
template <class At, class Q, class P, class Jac, class V, class Mv>
double velocity_residual(const At& at, const Q& q, const P& p, const Jac& jac, V& v, Mv& gv, Mv& rate) {
  at.dh_dp(q, p, v);
  gv.noalias() = jac * v;
  if constexpr (system_traits<std::decay_t<decltype(at.system())>>::rheonomic) {
    at.constraint_time_derivative(q, rate);
    gv += rate;
    return scaled_driven_velocity_residual(jac, gv, rate, v.norm());
  } else {
    return scaled_constraint_residual(jac, gv, v.norm());
  }
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

/// The check a constrained stepper makes on a fresh start, for a user's stepper too: the
/// residuals of g(q) = 0 and of the hidden constraint G(q) ∂H/∂p = 0 (G ∂H/∂p + ∂g/∂t = 0 for
/// driven constraints) at (q, p) and time t, and
/// `require`, which throws step_error inconsistent_initial_state with both residuals in its
/// message when either exceeds the tolerance. Its workspace is sized on first use: nothing is
/// allocated after the first call with the same sizes.
template <class System>
class consistency_check {
  using traits = system_traits<System>;

 public:
  template <class Q, class P>
  constraint_residuals residuals(const System& sys, const Q& q, const P& p, double t = 0) {
    const int n = sys.position_count(), m = sys.constraint_count();
    constraint_residuals res;
    if (m == 0) return res;
    if (v_.size() != n || g_.size() != m) resize(n, m);
    q_ = q;
    p_ = p;
    const system_at<System> at(sys, t);
    at.constraint(q_, g_);
    at.constraint_jacobian(q_, jac_);
    res.position = detail::scaled_constraint_residual(jac_, g_, q_.norm());
    res.velocity = detail::velocity_residual(at, q_, p_, jac_, v_, gv_, rate_);
    return res;
  }

  /// Throws step_error(inconsistent_initial_state) at (t, h) unless both residuals are ≤ tolerance.
  template <class Q, class P>
  void require(const System& sys, const Q& q, const P& p, double t, double h, double tolerance) {
    const constraint_residuals res = residuals(sys, q, p, t);
    if (!(res.position <= tolerance && res.velocity <= tolerance))
      throw step_error(failure_reason::inconsistent_initial_state, t, h, 0, std::fmax(res.position, res.velocity),
                       detail::describe_residuals(res, tolerance));
  }

 private:
  void resize(int n, int m) {
    q_.resize(n), p_.resize(n), v_.resize(n);
    g_.resize(m), gv_.resize(m), rate_.resize(m);
    jac_.resize(m, n);
  }
  vector<traits::n> q_, p_, v_;
  vector<traits::m> g_, gv_, rate_;
  typename traits::jacobian_type jac_;
};

/// Residuals of g(q) = 0 and of the hidden constraint at (q, p) (at time t, for a system whose
/// functions take the time). Allocates (a consistency_check of its own); for diagnostics.
template <class System, class Q, class P>
constraint_residuals constraint_residuals_of(const System& sys, const Q& q, const P& p, double t = 0) {
  return consistency_check<System>().residuals(sys, q, p, t);
}

}  // namespace geomint
