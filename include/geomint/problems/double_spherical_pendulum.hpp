// Double spherical pendulum in absolute coordinates (Marsden–Wendlandt 1997, §7):
// q = (q1, q2) ∈ ℝ⁶ are the positions of the two masses, the first attached to the origin,
//   g(q) = (q1·q1 − l1², (q2 − q1)·(q2 − q1) − l2²)          (eq. 58)
//   H = |p1|²/(2m1) + |p2|²/(2m2) + γ (m1 z1 + m2 z2).
// Rotation about the vertical is a symmetry; its momentum k·(q1×p1 + q2×p2) is conserved.
#pragma once

#include <cmath>
#include <utility>

#include "geomint/system/separable_system.hpp"

namespace geomint::problems {

struct double_spherical_pendulum_parameters {
  double m1 = 2.0, m2 = 3.5;  // kg
  double l1 = 4.0, l2 = 3.0;  // m
  double gravity = 9.81;      // m/s²
};

struct two_mass_gravity {  // V = γ (m1 z1 + m2 z2)
  double m1g = 0, m2g = 0;
  template <class Q> double value(const Q& q) const { return m1g * q(2) + m2g * q(5); }
  template <class Q, class Out> void gradient(const Q&, Out& out) const { out << 0, 0, m1g, 0, 0, m2g; }
  template <class Q, class Out> void hessian(const Q&, Out& out) const { out.setZero(); }
};

struct double_pendulum_constraints {
  static constexpr int size = 2;
  double l1 = 4.0, l2 = 3.0;
  int count() const { return 2; }
  template <class Q, class Out>
  void value(const Q& q, Out& out) const {
    out(0) = q.template head<3>().squaredNorm() - l1 * l1;
    out(1) = (q.template tail<3>() - q.template head<3>()).squaredNorm() - l2 * l2;
  }
  template <class Q, class G>
  void jacobian(const Q& q, G& g) const {
    const vector<3> d = q.template tail<3>() - q.template head<3>();
    g.row(0) << 2 * q(0), 2 * q(1), 2 * q(2), 0, 0, 0;
    g.row(1) << -2 * d(0), -2 * d(1), -2 * d(2), 2 * d(0), 2 * d(1), 2 * d(2);
  }
  template <class Q, class L, class Out>
  void hessian(const Q&, const L& lambda, Out& out) const {
    const matrix<3, 3> i3 = matrix<3, 3>::Identity();
    out.template topLeftCorner<3, 3>() = 2 * (lambda(0) + lambda(1)) * i3;
    out.template topRightCorner<3, 3>() = -2 * lambda(1) * i3;
    out.template bottomLeftCorner<3, 3>() = -2 * lambda(1) * i3;
    out.template bottomRightCorner<3, 3>() = 2 * lambda(1) * i3;
  }
};

class double_spherical_pendulum
    : public separable_system<6, two_mass_gravity, double_pendulum_constraints> {
 public:
  using state_type = std::pair<vector<6>, vector<6>>;
  using parameters_type = double_spherical_pendulum_parameters;

  explicit double_spherical_pendulum(const parameters_type& p = {})
      : separable_system(masses(p), two_mass_gravity{p.m1 * p.gravity, p.m2 * p.gravity},
                         double_pendulum_constraints{p.l1, p.l2}),
        parameters_(p) {}

  /// A consistent state from horizontal positions and velocities: z < 0 and ż follow from the
  /// position and velocity constraints.
  state_type state_from(double x1, double y1, double x2, double y2, double vx1, double vy1, double vx2,
                        double vy2) const {
    const auto& p = parameters_;
    const double z1 = -std::sqrt(p.l1 * p.l1 - x1 * x1 - y1 * y1);
    const double dx = x2 - x1, dy = y2 - y1;
    const double dz = -std::sqrt(p.l2 * p.l2 - dx * dx - dy * dy);
    const double vz1 = -(x1 * vx1 + y1 * vy1) / z1;                      // q1·v1 = 0
    const double vz2 = vz1 - (dx * (vx2 - vx1) + dy * (vy2 - vy1)) / dz;  // d·(v2 − v1) = 0
    state_type s;
    s.first << x1, y1, z1, x2, y2, z1 + dz;
    s.second << p.m1 * vx1, p.m1 * vy1, p.m1 * vz1, p.m2 * vx2, p.m2 * vy2, p.m2 * vz2;
    return s;
  }

  /// The initial data of Marsden–Wendlandt 1997, §7.
  state_type initial_state() const { return state_from(2.820, 0.025, 5.085, 0.105, 3.381, 2.506, 2.497, 10.495); }

  /// k·(q1 × p1 + q2 × p2)
  template <class Q, class P>
  static double vertical_angular_momentum(const Q& q, const P& p) {
    return q(0) * p(1) - q(1) * p(0) + q(3) * p(4) - q(4) * p(3);
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  static diagonal_mass<6> masses(const parameters_type& p) {
    vector<6> m;
    m << p.m1, p.m1, p.m1, p.m2, p.m2, p.m2;
    return diagonal_mass<6>(m);
  }
  parameters_type parameters_;
};

}  // namespace geomint::problems
