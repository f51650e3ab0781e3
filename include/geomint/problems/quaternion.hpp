// Quaternion algebra for the rigid-body problems (Marsden–Wendlandt 1997, §7): a = (a_s, a_v) ∈ ℝ⁴,
// a ⋆ b = (a_s b_s − a_v·b_v, a_s b_v + b_s a_v + a_v × b_v), ā = (a_s, −a_v). Unit quaternions
// form S³, a double cover of SO(3) by (52).
//
// quaternion_quadratic_form: F(q, x) = ½ uᵀ K u with u = q̄ ⋆ x and K diagonal — the kinetic
// energy of a rigid body in quaternions, as a Lagrangian (x = q̇, K = 4 diag(0, I)) or a
// Hamiltonian (x = p, K = ¼ diag(1/I₀, I⁻¹)). u is bilinear: u = L(q)ᵀx = R(x) C q with
// a ⋆ b = L(a) b = R(b) a and C = diag(1, −1, −1, −1), whence, with w = K u,
//   ∂F/∂x = L(q) w = q ⋆ w,   ∂F/∂q = C R(x)ᵀ w = x ⋆ w̄   (R(x)ᵀw = w ⋆ x̄, as ⟨a ⋆ x, w⟩ = ⟨a, w ⋆ x̄⟩),
//   ∂²F/∂x² = L(q) K L(q)ᵀ,   ∂²F/∂q² = C R(x)ᵀ K R(x) C,
//   ∂²F/∂q∂x = C R(x)ᵀ K L(q)ᵀ + R(w)ᵀ   (the last from ⟨w, q̄ ⋆ x⟩ = ⟨q ⋆ w, x⟩ = qᵀR(w)ᵀx).
#pragma once

#include <Eigen/Core>

#include "geomint/core/types.hpp"

namespace geomint::problems {

/// a ⋆ b for any scalar type (usable in automatically differentiated models). Always inlined:
/// the heavy top's gradient makes three of them per stage and Newton iteration, and GCC left
/// them as calls returning through memory (4.6% of a lobatto_iiia_iiib<3> run's instructions).
template <class A, class B>
GEOMINT_ALWAYS_INLINE Eigen::Matrix<typename A::Scalar, 4, 1> quaternion_multiply(const A& a, const B& b) {
  Eigen::Matrix<typename A::Scalar, 4, 1> c;
  c(0) = a(0) * b(0) - a(1) * b(1) - a(2) * b(2) - a(3) * b(3);
  c(1) = a(0) * b(1) + a(1) * b(0) + a(2) * b(3) - a(3) * b(2);
  c(2) = a(0) * b(2) + a(2) * b(0) + a(3) * b(1) - a(1) * b(3);
  c(3) = a(0) * b(3) + a(3) * b(0) + a(1) * b(2) - a(2) * b(1);
  return c;
}

template <class A>
Eigen::Matrix<typename A::Scalar, 4, 1> quaternion_conjugate(const A& a) {
  Eigen::Matrix<typename A::Scalar, 4, 1> c;
  c << a(0), -a(1), -a(2), -a(3);
  return c;
}

/// The pure quaternion (0, v).
template <class V>
vector<4> pure_quaternion(const V& v) {
  vector<4> c;
  c << 0, v(0), v(1), v(2);
  return c;
}

/// L(a): a ⋆ b = L(a) b.
inline matrix<4, 4> left_multiplication(const vector<4>& a) {
  matrix<4, 4> m;
  m << a(0), -a(1), -a(2), -a(3),
       a(1), a(0), -a(3), a(2),
       a(2), a(3), a(0), -a(1),
       a(3), -a(2), a(1), a(0);
  return m;
}

/// R(b): a ⋆ b = R(b) a.
inline matrix<4, 4> right_multiplication(const vector<4>& b) {
  matrix<4, 4> m;
  m << b(0), -b(1), -b(2), -b(3),
       b(1), b(0), b(3), -b(2),
       b(2), -b(3), b(0), b(1),
       b(3), b(2), -b(1), b(0);
  return m;
}

/// The rotation matrix of a unit quaternion, eq. (52): (2a_s² − 1)I + 2a_s â_v + 2a_v a_vᵀ.
inline matrix<3, 3> rotation_matrix(const vector<4>& a) {
  const vector<3> v = a.tail<3>();
  matrix<3, 3> hat;
  hat << 0, -v(2), v(1), v(2), 0, -v(0), -v(1), v(0), 0;
  return (2 * a(0) * a(0) - 1) * matrix<3, 3>::Identity() + 2 * a(0) * hat + 2 * v * v.transpose();
}

/// F(q, x) = ½ (q̄ ⋆ x)ᵀ diag(k) (q̄ ⋆ x) and its derivatives (see the header comment).
struct quaternion_quadratic_form {
  vector<4> k = vector<4>::Zero();

  template <class Q, class X>
  double value(const Q& q, const X& x) const {
    const vector<4> u = quaternion_multiply(quaternion_conjugate(vector<4>(q)), vector<4>(x));
    return 0.5 * u.dot(k.cwiseProduct(u));
  }
  template <class Q, class X, class DQ, class DX>
  void gradient(const Q& q, const X& x, DQ& dq, DX& dx) const {
    const vector<4> qv = q, xv = x;
    const vector<4> w = k.cwiseProduct(quaternion_multiply(quaternion_conjugate(qv), xv));
    // Three quaternion products (48 multiplications) instead of forming L(q) and R(x).
    dx = quaternion_multiply(qv, w);
    dq = quaternion_multiply(xv, quaternion_conjugate(w));
  }
  template <class Q, class X, class QQ, class QX, class XX>
  void hessian(const Q& q, const X& x, QQ& qq, QX& qx, XX& xx) const {
    const vector<4> qv = q, xv = x;
    const vector<4> w = k.cwiseProduct(quaternion_multiply(quaternion_conjugate(qv), xv));
    const matrix<4, 4> lq = left_multiplication(qv);
    matrix<4, 4> rxc = right_multiplication(xv);  // ∂u/∂q = R(x) C: C negates columns 1..3
    rxc.rightCols<3>() *= -1;
    const matrix<4, 4> klt = k.asDiagonal() * lq.transpose();
    xx.noalias() = lq * klt;
    qq.noalias() = rxc.transpose() * k.asDiagonal() * rxc;
    qx.noalias() = rxc.transpose() * klt;
    qx += right_multiplication(w).transpose();
  }
};

}  // namespace geomint::problems
