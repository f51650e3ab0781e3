// The heavy top in quaternions (Euler parameters), Hairer 2003 §5, as a constrained Hamiltonian
// system in ℝ⁴ (constrained_system.hpp) with g(e) = |e|² − 1, for rattle and lobatto_iiia_iiib<S>.
//
// Derivation. A rigid body with a fixed point has orientation Q ∈ SO(3), body angular velocity
// Ω̂ = QᵀQ̇ and kinetic energy T = ½ΩᵀIΩ (Hairer 2003, §5). With a unit quaternion e,
//   Q(e) = I + 2e₀ê + 2ê²   (Hairer; = Marsden–Wendlandt (52)),
// and for |e| = 1: ē ⋆ ė = (e·ė, ½Ω) = (0, ½Ω)  (Marsden–Wendlandt §7), so on TS³
//   T = 2 (ē ⋆ ė)ᵀ diag(0, I₁, I₂, I₃) (ē ⋆ ė).
// 1. Extension to ℝ⁴. The scalar part e·ė of ē ⋆ ė vanishes on TS³, so
//      T_ext = 2 (ē ⋆ ė)ᵀ D (ē ⋆ ė),  D = diag(I₀, I₁, I₂, I₃),  any I₀ > 0,
//    agrees with T on TS³ and is non-degenerate: ē ⋆ ė = W(e)ė with W(e) = L(e)ᵀ, WWᵀ = |e|²I, so
//    the mass matrix M(e) = 4WᵀDW is positive definite for e ≠ 0. I₀ (radial_inertia) is a free
//    regularization; the constrained dynamics do not depend on it (item 4).
// 2. Legendre transform. p = M(e)ė; M⁻¹ = ¼|e|⁻⁴ WᵀD⁻¹W, hence
//      H_ext(e, p) = ½pᵀM(e)⁻¹p + V(e) = ⅛ |e|⁻⁴ (ē ⋆ p)ᵀ D⁻¹ (ē ⋆ p) + V(e).
// 3. Dropping |e|⁻⁴. For f = 1 on S³, fH has the same p-gradient as H on g = 0 and its
//    e-gradient differs by H∇f ∥ e ∥ ∇g, which the multiplier absorbs: same constraint manifold
//    and same flow. geomint uses the polynomial
//      H(e, p) = ⅛ (ē ⋆ p)ᵀ D⁻¹ (ē ⋆ p) + V(e),     V(e) = γ (e₀² − e₁² − e₂² + e₃²).
//    On S³, e₀² − e₁² − e₂² + e₃² = 1 − 2e₁² − 2e₂² = Q(e)₃₃: Hairer's V = q₃₃, the height of the
//    centre of mass (γ = 1; γ = 0 gives the free rigid body).
// 4. Constraint manifold (Hairer (2.5)). G = 2eᵀ and ∂H/∂p = ¼ L(e) D⁻¹ (ē ⋆ p), so
//      G ∂H/∂p = ½ (ē ⋆ e)ᵀ D⁻¹ (ē ⋆ p) = ½ |e|² (e·p)/I₀:
//    the hidden constraint is e·p = 0, for every I₀. On M = {|e| = 1, e·p = 0} the I₀ term
//    (e·p)²/(8I₀) and both its gradients vanish, so the flow on M does not depend on I₀ — only
//    the numerical stages, which leave M, do. Regularity (2.4): G ∂²H/∂p² Gᵀ = |e|⁴/I₀ > 0.
// 5. Meaning of p. On M, ē ⋆ p = 2(0, Π) with Π = IΩ the body angular momentum, p = 2 e ⋆ (0, IΩ),
//    and H = ½ΠᵀI⁻¹Π + V: the heavy-top energy. The body-frame equations it reproduces are
//    Π̇ = Π × Ω + γ Γ × e₃,  Γ̇ = Γ × Ω,  Γ = Q(e)ᵀe₃ (tested against them).
// All derivatives are analytic (quaternion_quadratic_form with K = ¼D⁻¹).
//
// Hairer's data: I = (0.5, 0.9, 1), e(0) = (0.4, 0.2, 0.4, 0.8), Ω(0) = (0.2, 1.0, 0.4).
#pragma once

#include <utility>

#include "geomint/problems/quaternion.hpp"

namespace geomint::problems {

struct heavy_top_parameters {
  vector<3> inertia = vector<3>(0.5, 0.9, 1.0);
  double radial_inertia = 1.0;  // I₀ of the extension to ℝ⁴; does not affect the exact flow
  double gravity = 1.0;         // γ in V = γ(e₀² − e₁² − e₂² + e₃²)
  vector<4> orientation = vector<4>(0.4, 0.2, 0.4, 0.8);      // e(0)
  vector<3> body_angular_velocity = vector<3>(0.2, 1.0, 0.4);  // Ω(0)
};

class heavy_top {
 public:
  static constexpr int position_size = 4;
  static constexpr int constraint_size = 1;
  using state_type = std::pair<vector<4>, vector<4>>;
  using parameters_type = heavy_top_parameters;

  explicit heavy_top(const parameters_type& p = {}) : parameters_(p) {
    kinetic_.k << 0.25 / p.radial_inertia, 0.25 / p.inertia(0), 0.25 / p.inertia(1), 0.25 / p.inertia(2);
    signs_ << 1, -1, -1, 1;
  }

  int position_count() const { return 4; }
  int constraint_count() const { return 1; }

  template <class Q, class P>
  double hamiltonian(const Q& e, const P& p) const { return kinetic_.value(e, p) + potential(e); }
  /// ∂H/∂e and ∂H/∂p from one evaluation of the quadratic form's gradient.
  template <class Q, class P, class DQ, class DP>
  void gradients(const Q& e, const P& p, DQ& dq, DP& dp) const {
    kinetic_.gradient(e, p, dq, dp);
    dq += (2 * parameters_.gravity) * signs_.cwiseProduct(vector<4>(e));
  }
  template <class Q, class P, class Out>
  void dh_dq(const Q& e, const P& p, Out& out) const {
    vector<4> dp;
    gradients(e, p, out, dp);
  }
  template <class Q, class P, class Out>
  void dh_dp(const Q& e, const P& p, Out& out) const {
    vector<4> dq;
    kinetic_.gradient(e, p, dq, out);
  }
  /// ∂²H/∂e², ∂²H/∂e∂p and ∂²H/∂p² from one evaluation of the quadratic form's Hessian.
  template <class Q, class P, class QQ, class QP, class PP>
  void hessians(const Q& e, const P& p, QQ& qq, QP& qp, PP& pp) const {
    kinetic_.hessian(e, p, qq, qp, pp);
    qq.diagonal() += (2 * parameters_.gravity) * signs_;
  }
  template <class Q, class P, class Out>
  void h_qq(const Q& e, const P& p, Out& out) const {
    matrix<4, 4> qp, pp;
    hessians(e, p, out, qp, pp);
  }
  /// out(i, j) = ∂²H/∂e_i∂p_j
  template <class Q, class P, class Out>
  void h_qp(const Q& e, const P& p, Out& out) const {
    matrix<4, 4> qq, pp;
    hessians(e, p, qq, out, pp);
  }
  template <class Q, class P, class Out>
  void h_pp(const Q& e, const P& p, Out& out) const {
    matrix<4, 4> qq, qp;
    hessians(e, p, qq, qp, out);
  }
  template <class Q, class Out>
  void constraint(const Q& e, Out& out) const { out(0) = e.squaredNorm() - 1; }
  template <class Q, class G>
  void constraint_jacobian(const Q& e, G& g) const { g = 2 * e.transpose(); }
  template <class Q, class L, class Out>
  void constraint_hessian(const Q&, const L& lambda, Out& out) const { out = 2 * lambda(0) * matrix<4, 4>::Identity(); }

  template <class Q>
  double potential(const Q& e) const {
    return parameters_.gravity * (e(0) * e(0) - e(1) * e(1) - e(2) * e(2) + e(3) * e(3));
  }

  /// (e(0), p(0)) with p = 2 e ⋆ (0, I Ω(0)): consistent (e·p = 0 for |e| = 1).
  state_type initial_state() const {
    return state_from(parameters_.orientation, parameters_.body_angular_velocity);
  }
  /// The state of orientation e (unit) and body angular velocity Ω.
  state_type state_from(const vector<4>& e, const vector<3>& omega) const {
    return {e, 2 * quaternion_multiply(e, pure_quaternion(parameters_.inertia.cwiseProduct(omega)))};
  }
  /// Π = ½ vec(ē ⋆ p) (body angular momentum on M).
  template <class Q, class P>
  static vector<3> body_angular_momentum(const Q& e, const P& p) {
    return 0.5 * quaternion_multiply(quaternion_conjugate(vector<4>(e)), vector<4>(p)).template tail<3>();
  }
  template <class Q, class P>
  vector<3> body_angular_velocity(const Q& e, const P& p) const {
    return body_angular_momentum(e, p).cwiseQuotient(parameters_.inertia);
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  parameters_type parameters_;
  quaternion_quadratic_form kinetic_;
  vector<4> signs_;
};

}  // namespace geomint::problems
