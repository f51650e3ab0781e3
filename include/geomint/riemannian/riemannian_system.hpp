// The mechanical system concept of riemannian_leapfrog (Leimkuhler–Patrick 1996, §2): a
// Lagrangian L(v) = ½ g(q)(v, v) − V(q) on a symmetric space Q with a known (ambient) metric g̃.
// A system is any class with
//
//   using space_type = ...;                   // sphere, sphere_product<K>, so3_group
//   const space_type& space() const;
//   double potential_energy(q) const;         // V(q)
//   void potential_gradient(q, out) const;    // dV(q) as a covector in the space's tangent
//                                             //   coordinates (ambient gradient for spheres, body
//                                             //   covector for SO(3)); only its action on T_qQ matters
//   void kinetic_metric(q, K) const;          // the matrix K of g(q) in those coordinates (n × n),
//                                             //   positive definite on T_qQ
//   static constexpr bool constant_metric;    // true if K does not depend on q
//   void metric_derivative(q, w, out) const;  // only if !constant_metric: out·v = d/dε wᵀK(c(ε))w
//                                             //   for a curve c in Q with c(0) = q, c'(0) = v ∈ T_qQ
//
// STATE (q, p): q a point of the space (ℝ³ᴷ for spheres, a rotation matrix for SO(3)) and
// p = K(q) v, the momentum g♭(v) of the tangent velocity v. For spheres this p is exactly the
// canonical momentum on the constraint manifold {|q_i| = a_i, q_i·(K⁻¹p)_i = 0} of the
// constrained system H = ½ pᵀK⁻¹p + V(q): riemannian_leapfrog and the constrained steppers
// (rattle, reich_symmetric, …) act on the same states and can be compared and alternated.
//
// on_space(system, space) builds such a system from a separable constrained system
// (separable_system.hpp, constant mass M = K) whose constraint manifold is the space.
#pragma once

#include <Eigen/Cholesky>
#include <type_traits>
#include <utility>

#include "geomint/system/constrained_system.hpp"

namespace geomint {

/// A separable constrained system H = ½pᵀM⁻¹p + V(q) seen as a Riemannian mechanical system on
/// `Space` (which must be its constraint manifold): kinetic metric K = M, constant.
template <class System, class Space>
class separable_on_space {
  static_assert(system_traits<System>::separable, "geomint: on_space needs a separable system (constant mass)");
  static_assert(System::position_size == Space::point_size && Space::point_size == Space::tangent_size,
                "geomint: the system's coordinates must be the ambient coordinates of the space");

 public:
  using space_type = Space;
  using constrained_system_type = System;
  static constexpr bool constant_metric = true;
  static constexpr int n = Space::tangent_size;

  separable_on_space(const System& system, const Space& space) : system_(system), space_(space) {
    matrix<n, n> inverse(n, n);
    system_.mass().inverse_matrix(inverse);
    metric_ = inverse.llt().solve(matrix<n, n>::Identity());
  }

  const Space& space() const { return space_; }
  const System& constrained_system() const { return system_; }

  template <class Q>
  double potential_energy(const Q& q) const { return system_.potential().value(q); }
  template <class Q, class Out>
  void potential_gradient(const Q& q, Out& out) const { system_.potential_gradient(q, out); }
  template <class Q, class Out>
  void kinetic_metric(const Q&, Out& k) const { k = metric_; }
  template <class Q, class P>
  double hamiltonian(const Q& q, const P& p) const { return system_.hamiltonian(q, p); }

 private:
  System system_;
  Space space_;
  matrix<n, n> metric_;
};

template <class System, class Space>
separable_on_space<System, Space> on_space(const System& system, const Space& space) {
  return {system, space};
}

}  // namespace geomint
