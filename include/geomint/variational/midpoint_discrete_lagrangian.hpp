// The midpoint discrete Lagrangian (Marsden–Wendlandt 1997, eq. (42)):
//
//   L_d(q0, q1) = h L((q0 + q1)/2, (q1 − q0)/h)  ≈ ∫₀ʰ L dt,
//
// second-order accurate and symmetric. Convention: geomint writes L_d(q_k, q_{k+1}) with the factor
// h (the action sum ≈ ∫L dt); the paper's 𝕃(y, x) = L((y + x)/2, (y − x)/h) is L_d(x, y)/h, so
// −h D₂𝕃(q_{k+1}, q_k) = −D₁L_d(q_k, q_{k+1}) is the discrete momentum at q_k (eq. (31)).
// With m = (q0 + q1)/2, v = (q1 − q0)/h and L_qv(i, j) = ∂²L/∂q_i∂v_j:
//
//   D₁L_d = (h/2) L_q − L_v,    D₂L_d = (h/2) L_q + L_v,
//   D₁₂L_d = ∂(D₁L_d)/∂q1 = (h/4) L_qq + ½ (L_qv − L_qvᵀ) − L_vv / h
//
// (detail/one_point_discrete_lagrangian.hpp with θ = 1/2).
#pragma once

#include "geomint/variational/detail/one_point_discrete_lagrangian.hpp"

namespace geomint {

struct midpoint_discrete_lagrangian {
  /// L_d(q0, q1, h) = −L_d(q1, q0, −h): the DEL map is then symmetric.
  static constexpr bool symmetric = true;
  static constexpr int order = 2;
  template <class System>
  using evaluator = detail::one_point_discrete_lagrangian<System, 1, 2>;
};

}  // namespace geomint
