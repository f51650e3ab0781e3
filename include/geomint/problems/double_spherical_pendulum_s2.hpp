// The double spherical pendulum of double_spherical_pendulum.hpp in relative coordinates, so
// that its configuration space is the product of spheres S²_{l1} × S²_{l2} (McLachlan–Scovel
// 1994, §6.3; Leimkuhler–Patrick 1996, §5.1): r1 = q1 (first rod), r2 = q2 − q1 (second rod),
//
//   T = ½ m1|ṙ1|² + ½ m2|ṙ1 + ṙ2|² = ½ ṙᵀK ṙ,   K = [[(m1+m2) I, m2 I], [m2 I, m2 I]],
//   V = γ ((m1 + m2) r1_z + m2 r2_z),   g(r) = (|r1|² − l1², |r2|² − l2²).
//
// A separable constrained system (dense constant mass K) and, through on_space(system,
// system.space()), a Riemannian system for riemannian_leapfrog. The change of variables is a
// linear point transformation r = T q; its cotangent lift p_r = T⁻ᵀ p_q = (p1 + p2, p2) is
// canonical, so to_absolute/from_absolute map solutions to solutions exactly.
#pragma once

#include <array>
#include <utility>

#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/riemannian/sphere_product.hpp"

namespace geomint::problems {

struct two_sphere_constraints {  // g = (|r1|² − l1², |r2|² − l2²)
  static constexpr int size = 2;
  double l1 = 4.0, l2 = 3.0;
  int count() const { return 2; }
  template <class Q, class Out>
  void value(const Q& q, Out& out) const {
    out(0) = q.template head<3>().squaredNorm() - l1 * l1;
    out(1) = q.template tail<3>().squaredNorm() - l2 * l2;
  }
  template <class Q, class G>
  void jacobian(const Q& q, G& g) const {
    g.setZero();
    g.template block<1, 3>(0, 0) = 2 * q.template head<3>().transpose();
    g.template block<1, 3>(1, 3) = 2 * q.template tail<3>().transpose();
  }
  template <class Q, class L, class Out>
  void hessian(const Q&, const L& lambda, Out& out) const {
    out.setZero();
    out.template topLeftCorner<3, 3>().diagonal().setConstant(2 * lambda(0));
    out.template bottomRightCorner<3, 3>().diagonal().setConstant(2 * lambda(1));
  }
};

class double_spherical_pendulum_s2 : public separable_system<6, two_mass_gravity, two_sphere_constraints, dense_mass<6>> {
 public:
  using state_type = std::pair<vector<6>, vector<6>>;
  using parameters_type = double_spherical_pendulum_parameters;

  explicit double_spherical_pendulum_s2(const parameters_type& p = {})
      : separable_system(mass_matrix(p), two_mass_gravity{(p.m1 + p.m2) * p.gravity, p.m2 * p.gravity},
                         two_sphere_constraints{p.l1, p.l2}),
        parameters_(p) {}

  sphere_product<2> space() const { return sphere_product<2>(std::array<double, 2>{parameters_.l1, parameters_.l2}); }

  /// (q, p) of double_spherical_pendulum → (r, p_r)
  template <class S>
  static state_type from_absolute(const S& x) {
    state_type s;
    s.first << x.first.template head<3>(), x.first.template tail<3>() - x.first.template head<3>();
    s.second << x.second.template head<3>() + x.second.template tail<3>(), x.second.template tail<3>();
    return s;
  }
  /// (r, p_r) → (q, p) of double_spherical_pendulum
  template <class S>
  static state_type to_absolute(const S& x) {
    state_type s;
    s.first << x.first.template head<3>(), x.first.template head<3>() + x.first.template tail<3>();
    s.second << x.second.template head<3>() - x.second.template tail<3>(), x.second.template tail<3>();
    return s;
  }
  /// The initial data of Marsden–Wendlandt 1997, §7, in relative coordinates.
  state_type initial_state() const { return from_absolute(double_spherical_pendulum(parameters_).initial_state()); }

  /// k·(r1 × p_r1 + r2 × p_r2) = k·(q1 × p1 + q2 × p2)
  template <class Q, class P>
  static double vertical_angular_momentum(const Q& q, const P& p) {
    return q(0) * p(1) - q(1) * p(0) + q(3) * p(4) - q(4) * p(3);
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  static dense_mass<6> mass_matrix(const parameters_type& p) {
    matrix<6, 6> k = matrix<6, 6>::Zero();
    k.topLeftCorner<3, 3>().diagonal().setConstant(p.m1 + p.m2);
    k.topRightCorner<3, 3>().diagonal().setConstant(p.m2);
    k.bottomLeftCorner<3, 3>().diagonal().setConstant(p.m2);
    k.bottomRightCorner<3, 3>().diagonal().setConstant(p.m2);
    return dense_mass<6>(k);
  }
  parameters_type parameters_;
};

}  // namespace geomint::problems
