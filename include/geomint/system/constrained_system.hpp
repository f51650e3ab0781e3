// The constrained Hamiltonian system concept (Hairer 2003, eq. (2.1)):
//
//   ṗ = −∂H/∂q(q, p) − G(q)ᵀλ + f(t, q, p),   q̇ = ∂H/∂p(q, p),   0 = g(q),   G = ∂g/∂q.
//
// A system is any class with these members (q, p, out: Eigen vectors or maps; G: a matrix):
//
//   static constexpr int position_size;    // n at compile time, or geomint::dynamic
//   static constexpr int constraint_size;  // m at compile time, or geomint::dynamic
//   int    position_count() const;         // n
//   int    constraint_count() const;       // m (0 for an unconstrained system)
//   double hamiltonian(q, p) const;
//   void   dh_dq(q, p, out) const;         // ∂H/∂q
//   void   dh_dp(q, p, out) const;         // ∂H/∂p
//   void   constraint(q, out) const;       // g(q), m entries
//   void   constraint_jacobian(q, G) const;// G(q) = ∂g/∂q, m × n
//
// Optional members (detected at compile time):
//
//   using constraint_jacobian_type = ...;  // default: dense m × n; Eigen::SparseMatrix<double,
//                                          //   Eigen::RowMajor> for large sparse constraint sets
//   void gradients(q, p, dq, dp) const;    // ∂H/∂q and ∂H/∂p at once, for an H whose first
//                                          //   derivatives share work (used by the general
//                                          //   stage solver; dh_dq, dh_dp still needed)
//   void h_qq(q, p, out) const;            // ∂²H/∂q²       (n × n)
//   void h_qp(q, p, out) const;            // ∂²H/∂q∂p, (i,j) = ∂²H/∂q_i∂p_j
//   void h_pp(q, p, out) const;            // ∂²H/∂p²
//   void hessians(q, p, qq, qp, pp) const; // the three at once, for an H whose second
//                                          //   derivatives share work (used by the general
//                                          //   stage solver; h_qq, h_qp, h_pp still needed)
//   void constraint_hessian(q, λ, out) const;  // Σ_k λ_k ∇²g_k(q)
//   void force(t, q, p, out) const;        // non-conservative generalized force f(t, q, p);
//                                          //   with it the method is no longer symplectic
//   void position_force(t, q, out) const;  // the same force when it does not depend on p
//                                          //   (with force() too, see forced_system.hpp): a
//                                          //   separable system keeps its fast path
//   static constexpr bool takes_time = true;  // every function above takes the time first:
//                                          //   dh_dq(t, q, p, out), constraint(t, q, out), …;
//                                          //   the steppers pass the stage's time (the C
//                                          //   module's systems; system/evaluation.hpp)
//   void constraint_time_derivative(t, q, out) const;  // ∂g/∂t(q, t), m entries: the
//                                          //   constraints are driven (rheonomic), g(q, t) = 0,
//                                          //   and the hidden constraint is G ∂H/∂p + ∂g/∂t = 0;
//                                          //   needs takes_time (docs/constrained.md, "Driven
//                                          //   constraints")
//
// Missing second derivatives are replaced by forward differences of the first derivatives;
// they only feed Newton's Jacobian, so the converged step does not depend on that choice.
//
// Separable systems H = ½ pᵀM⁻¹p + V(q) with constant M (see separable_system.hpp) also provide
//   void potential_gradient(q, out) const;  const Mass& mass() const;
// and take a faster path in the steppers.
#pragma once

#include <Eigen/SparseCore>
#include <functional>
#include <type_traits>
#include <utility>

#include "geomint/core/system_reference.hpp"
#include "geomint/core/types.hpp"
#include "geomint/system/evaluation.hpp"

namespace geomint {

namespace detail {

// Member detection, probed with the argument types the steppers pass: vectors V (size n),
// square matrices H (n × n). A system that takes the time (system/evaluation.hpp) is probed with
// t first (T: double, or nothing).
#define GEOMINT_DETECT_MEMBER(name, member, ...)                                                     \
  template <class S, class V, class H, class = void>                                                \
  struct name##_untimed : std::false_type {};                                                       \
  template <class S, class V, class H>                                                              \
  struct name##_untimed<S, V, H, std::void_t<decltype(std::declval<const S&>().member(__VA_ARGS__))>> \
      : std::true_type {};                                                                          \
  template <class S, class V, class H, class = void>                                                \
  struct name##_timed : std::false_type {};                                                         \
  template <class S, class V, class H>                                                              \
  struct name##_timed<S, V, H, std::void_t<decltype(std::declval<const S&>().member(0.0, __VA_ARGS__))>> \
      : std::true_type {};                                                                          \
  template <class S, class V, class H>                                                              \
  using name = std::conditional_t<takes_time_v<S>, name##_timed<S, V, H>, name##_untimed<S, V, H>>;

GEOMINT_DETECT_MEMBER(has_h_qq_t, h_qq, std::declval<const V&>(), std::declval<const V&>(), std::declval<H&>())
GEOMINT_DETECT_MEMBER(has_h_qp_t, h_qp, std::declval<const V&>(), std::declval<const V&>(), std::declval<H&>())
GEOMINT_DETECT_MEMBER(has_h_pp_t, h_pp, std::declval<const V&>(), std::declval<const V&>(), std::declval<H&>())
GEOMINT_DETECT_MEMBER(has_gradients_t, gradients, std::declval<const V&>(), std::declval<const V&>(), std::declval<V&>(),
                      std::declval<V&>())
GEOMINT_DETECT_MEMBER(has_hessians_t, hessians, std::declval<const V&>(), std::declval<const V&>(), std::declval<H&>(),
                      std::declval<H&>(), std::declval<H&>())
GEOMINT_DETECT_MEMBER(has_constraint_hessian_t, constraint_hessian, std::declval<const V&>(),
                      std::declval<const Eigen::VectorXd&>(), std::declval<H&>())
GEOMINT_DETECT_MEMBER(has_potential_gradient_t, potential_gradient, std::declval<const V&>(), std::declval<V&>())
#undef GEOMINT_DETECT_MEMBER

// The force takes the time in every system.
template <class S, class V, class H, class = void>
struct has_force_t : std::false_type {};
template <class S, class V, class H>
struct has_force_t<S, V, H, std::void_t<decltype(std::declval<const S&>().force(0.0, std::declval<const V&>(), std::declval<const V&>(), std::declval<V&>()))>>
    : std::true_type {};
template <class S, class V, class H, class = void>
struct has_position_force_t : std::false_type {};
template <class S, class V, class H>
struct has_position_force_t<S, V, H, std::void_t<decltype(std::declval<const S&>().position_force(0.0, std::declval<const V&>(), std::declval<V&>()))>>
    : std::true_type {};
template <class S, class V, class H, class = void>
struct has_mass_t : std::false_type {};
template <class S, class V, class H>
struct has_mass_t<S, V, H, std::void_t<decltype(std::declval<const S&>().mass().apply_inverse(std::declval<const V&>(), std::declval<V&>()))>>
    : std::true_type {};
template <class S, class V, class H>
struct has_separable_t : std::bool_constant<has_potential_gradient_t<S, V, H>::value && has_mass_t<S, V, H>::value> {};

// ∂g/∂t takes the time whether or not the system declares takes_time (which it must: the
// traits refuse one that does not, rather than ignore its ∂g/∂t).
template <class S, class V, class = void>
struct has_constraint_time_derivative_t : std::false_type {};
template <class S, class V>
struct has_constraint_time_derivative_t<S, V, std::void_t<decltype(std::declval<const S&>().constraint_time_derivative(
                                                 0.0, std::declval<const V&>(), std::declval<vector<S::constraint_size>&>()))>>
    : std::true_type {};

template <class S, class = void>
struct has_jacobian_type_t : std::false_type {};
template <class S>
struct has_jacobian_type_t<S, std::void_t<typename S::constraint_jacobian_type>> : std::true_type {};

template <class S, bool = has_jacobian_type_t<S>::value>
struct jacobian_type_select {
  using type = matrix<S::constraint_size, S::position_size>;
};
template <class S>
struct jacobian_type_select<S, true> {
  using type = typename S::constraint_jacobian_type;
};

template <class T>
struct is_sparse_matrix : std::is_base_of<Eigen::SparseMatrixBase<T>, T> {};

}  // namespace detail

/// Compile-time facts about a constrained Hamiltonian system.
template <class System>
struct system_traits {
  static constexpr int n = System::position_size;
  static constexpr int m = System::constraint_size;
  using jacobian_type = typename detail::jacobian_type_select<System>::type;
  static constexpr bool sparse_jacobian = detail::is_sparse_matrix<jacobian_type>::value;
  using vector_type = vector<n>;
  using hessian_type = matrix<n, n>;
  static constexpr bool has_h_qq = detail::has_h_qq_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_h_qp = detail::has_h_qp_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_h_pp = detail::has_h_pp_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_gradients = detail::has_gradients_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_hessians = detail::has_hessians_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_constraint_hessian =
      detail::has_constraint_hessian_t<System, vector_type, hessian_type>::value;
  static constexpr bool has_force = detail::has_force_t<System, vector_type, hessian_type>::value;
  /// The force depends on (t, q) only: position_force(t, q, out) gives it without p.
  static constexpr bool has_position_force =
      has_force && detail::has_position_force_t<System, vector_type, hessian_type>::value;
  static_assert(has_force || !detail::has_position_force_t<System, vector_type, hessian_type>::value,
                "geomint: a system with position_force(t, q, out) must also declare force(t, q, p, out) "
                "(with_position_force does both); without it the force would be ignored");
  /// H = ½ pᵀM⁻¹p + V(q) with constant M: the steppers' fast path applies.
  static constexpr bool separable = detail::has_separable_t<System, vector_type, hessian_type>::value;
  /// The constraints depend on the time, g(q, t) = 0: the system gives ∂g/∂t.
  static constexpr bool rheonomic = detail::has_constraint_time_derivative_t<System, vector_type>::value;
  static_assert(!rheonomic || takes_time_v<System>,
                "geomint: a system with driven constraints (constraint_time_derivative) must take the time "
                "in every function (static constexpr bool takes_time = true)");
};


}  // namespace geomint
