// The free rigid body in unit quaternions (Marsden–Wendlandt 1997, §7), a Lagrangian system
// (lagrangian_system.hpp) on V = ℝ⁴ with Q = S³:
//
//   L(q, q̇) = ½ (2 q̄ ⋆ q̇)ᵀ diag(0, I) (2 q̄ ⋆ q̇)       (53),    g(q) = |q|² − 1,
//
// since q̄ ⋆ q̇ = (0, ω_b/2) for the body angular velocity ω_b of a unit quaternion q. L ignores the
// radial velocity (the scalar part q·q̇ of q̄ ⋆ q̇), so it is degenerate on ℝ⁴ and regular on TS³,
// which is all the variational steppers need. It is invariant under left multiplication
// q ↦ r ⋆ q by unit quaternions; the generators ξ_Q(q) = ½(0, e_i) ⋆ q give the momentum maps
// ⟨p, ξ_Q(q)⟩ = π_i, the spatial angular momentum. Momenta: p = ∂L/∂q̇ = 2 q ⋆ (0, I ω_b), so
// Π = I ω_b = ½ vec(q̄ ⋆ p) and π = ½ vec(p ⋆ q̄). All derivatives are analytic
// (quaternion_quadratic_form, K = 4 diag(0, I)).
//
// Paper data (56): q0 = (1, 0, 0, 0), ω_b = (0, 3, 4), I = diag(1, 2, 3).
#pragma once

#include <cmath>
#include <utility>

#include "geomint/problems/quaternion.hpp"

namespace geomint::problems {

struct quaternion_rigid_body_parameters {
  vector<3> inertia = vector<3>(1, 2, 3);
  vector<3> body_angular_velocity = vector<3>(0, 3, 4);  // ω_b at t = 0
};

class quaternion_rigid_body {
 public:
  static constexpr int position_size = 4;
  static constexpr int constraint_size = 1;
  using state_type = std::pair<vector<4>, vector<4>>;
  using parameters_type = quaternion_rigid_body_parameters;

  explicit quaternion_rigid_body(const parameters_type& p = {}) : parameters_(p) {
    kinetic_.k << 0, 4 * p.inertia(0), 4 * p.inertia(1), 4 * p.inertia(2);
  }

  int position_count() const { return 4; }
  int constraint_count() const { return 1; }

  template <class Q, class V>
  double lagrangian(const Q& q, const V& v) const { return kinetic_.value(q, v); }
  template <class Q, class V, class DQ, class DV>
  void lagrangian_gradient(const Q& q, const V& v, DQ& dq, DV& dv) const { kinetic_.gradient(q, v, dq, dv); }
  template <class Q, class V, class QQ, class QV, class VV>
  void lagrangian_hessian(const Q& q, const V& v, QQ& qq, QV& qv, VV& vv) const { kinetic_.hessian(q, v, qq, qv, vv); }
  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { out(0) = q.squaredNorm() - 1; }
  template <class Q, class G>
  void constraint_jacobian(const Q& q, G& g) const { g = 2 * q.transpose(); }

  /// q̇ = ½ q ⋆ (0, ω_b): the velocity of a unit quaternion with body angular velocity ω_b.
  static vector<4> velocity(const vector<4>& q, const vector<3>& omega) {
    return 0.5 * quaternion_multiply(q, pure_quaternion(omega));
  }
  /// The state (q0, p0) at t = 0: q0 = 1, p0 = ∂L/∂q̇(q0, q̇0).
  state_type initial_state() const {
    state_type s;
    s.first << 1, 0, 0, 0;
    vector<4> dq;
    kinetic_.gradient(s.first, velocity(s.first, parameters_.body_angular_velocity), dq, s.second);
    return s;
  }
  /// The paper's start of the two-step form (§7): q0 and one explicit Euler step
  /// q̇ = q ⋆ (0, ω_b/2) of size h_euler, normalized onto S³ (the DEL equations need both on Q).
  std::pair<vector<4>, vector<4>> euler_start(double h_euler = 1e-5) const {
    const vector<4> q0(1, 0, 0, 0);
    vector<4> q1 = q0 + h_euler * velocity(q0, parameters_.body_angular_velocity);
    q1.normalize();
    return {q0, q1};
  }

  /// Π = I ω_b = ½ vec(q̄ ⋆ p).
  template <class Q, class P>
  static vector<3> body_angular_momentum(const Q& q, const P& p) {
    return 0.5 * quaternion_multiply(quaternion_conjugate(vector<4>(q)), vector<4>(p)).template tail<3>();
  }
  /// π = ½ vec(p ⋆ q̄), conserved.
  template <class Q, class P>
  static vector<3> spatial_angular_momentum(const Q& q, const P& p) {
    return 0.5 * quaternion_multiply(vector<4>(p), quaternion_conjugate(vector<4>(q))).template tail<3>();
  }
  /// E = ½ Πᵀ I⁻¹ Π.
  template <class Q, class P>
  double energy(const Q& q, const P& p) const {
    const vector<3> pi = body_angular_momentum(q, p);
    return 0.5 * pi.dot(pi.cwiseQuotient(parameters_.inertia));
  }
  /// ξ_Q(q) = ½ (0, e_axis) ⋆ q: left multiplication, ⟨p, ξ_Q(q)⟩ = π_axis.
  static vector<4> generator(int axis, const vector<4>& q) {
    vector<4> xi = vector<4>::Zero();
    xi(axis + 1) = 0.5;
    return quaternion_multiply(xi, q);
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  parameters_type parameters_;
  quaternion_quadratic_form kinetic_;
};

}  // namespace geomint::problems
