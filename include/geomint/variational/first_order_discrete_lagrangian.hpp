// The first-order discrete Lagrangian (Marsden–Wendlandt 1997, eq. (51)):
//
//   L_d(q0, q1) = h L(q1, (q1 − q0)/h),
//
// first-order accurate for a general L (no cancellation in the h¹ term), but for
// L = ½q̇ᵀMq̇ − V(q) without constraints its DEL equations are explicit: it is the symplectic Euler
// method. Same conventions as midpoint_discrete_lagrangian.hpp. With v = (q1 − q0)/h and all
// derivatives of L at (q1, v):
//
//   D₁L_d = −L_v,    D₂L_d = h L_q + L_v,    D₁₂L_d = ∂(D₁L_d)/∂q1 = −L_qvᵀ − L_vv / h
//
// (detail/one_point_discrete_lagrangian.hpp with θ = 1).
#pragma once

#include "geomint/variational/detail/one_point_discrete_lagrangian.hpp"

namespace geomint {

struct first_order_discrete_lagrangian {
  /// L_d(q0, q1, h) = −L_d(q1, q0, −h): the DEL map is then symmetric.
  static constexpr bool symmetric = false;
  static constexpr int order = 1;
  template <class System>
  using evaluator = detail::one_point_discrete_lagrangian<System, 1, 1>;
};

}  // namespace geomint
