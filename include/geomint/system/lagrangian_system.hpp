// The Lagrangian system concept with holonomic constraints (Marsden–Wendlandt 1997, §6): an
// unconstrained Lagrangian L(q, q̇) on a linear space V = ℝⁿ and constraints g: V → ℝᵐ with
// Q = g⁻¹(0). A system is any class with these members (q, v, out: Eigen vectors; G: a matrix):
//
//   static constexpr int position_size;      // n at compile time, or geomint::dynamic
//   static constexpr int constraint_size;    // m at compile time, or geomint::dynamic
//   int    position_count() const;
//   int    constraint_count() const;
//   double lagrangian(q, v) const;
//   void   lagrangian_gradient(q, v, dq, dv) const;         // ∂L/∂q, ∂L/∂q̇
//   void   lagrangian_hessian(q, v, qq, qv, vv) const;      // ∂²L/∂q², ∂²L/∂q∂q̇ ((i, j) =
//                                                           //   ∂²L/∂q_i∂q̇_j), ∂²L/∂q̇²
//   void   constraint(q, out) const;                        // g(q)
//   void   constraint_jacobian(q, G) const;                 // G(q) = ∂g/∂q, dense m × n
//
// Optional (detected at compile time):
//   void   lagrangian_velocity_hessian(q, v, vv) const;     // ∂²L/∂q̇² alone, when it is much
//                                                           //   cheaper than the three blocks
//                                                           //   (automatic differentiation)
//
// L may be degenerate on V — the quaternion rigid body (53) is, its kinetic energy ignores the
// radial velocity — provided ∂²L/∂q̇² is non-degenerate on every tangent space ker G(q): the
// matrices [[∂²L/∂q̇², Gᵀ], [G, 0]] the variational steppers factorize are then invertible.
//
// Phase space. The variational steppers' states are (q, p) with g(q) = 0 and p = ∂L/∂q̇(q, v)
// for some v ∈ ker G(q): the image of TQ under the Legendre transform, a representative of T*Q
// in T*V. For a regular L it is the constrained Hamiltonian manifold {g = 0, G ∂H/∂p = 0}
// (Hairer 2003, (2.5)) of the Legendre-transformed H.
//
// make_ad_lagrangian_system (ad_lagrangian_system.hpp) builds a system from L and g written once;
// lagrangian_view (separable_lagrangian.hpp) presents a separable Hamiltonian system as one.
#pragma once

#include <type_traits>
#include <utility>

#include "geomint/core/types.hpp"

namespace geomint {

namespace detail {
template <class S, class V, class H, class = void>
struct has_lagrangian_velocity_hessian_t : std::false_type {};
template <class S, class V, class H>
struct has_lagrangian_velocity_hessian_t<
    S, V, H,
    std::void_t<decltype(std::declval<const S&>().lagrangian_velocity_hessian(
        std::declval<const V&>(), std::declval<const V&>(), std::declval<H&>()))>> : std::true_type {};
}  // namespace detail

/// Compile-time facts about a Lagrangian system.
template <class System>
struct lagrangian_traits {
  static constexpr int n = System::position_size;
  static constexpr int m = System::constraint_size;
  using vector_type = vector<n>;
  using jacobian_type = matrix<m, n>;
  using hessian_type = matrix<n, n>;
  static constexpr bool has_velocity_hessian =
      detail::has_lagrangian_velocity_hessian_t<System, vector_type, hessian_type>::value;
};

}  // namespace geomint
