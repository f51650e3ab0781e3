// Spherical pendulum: a point mass on a massless rod of length l about a fixed pivot at the
// origin, gravity along −z. q ∈ ℝ³, g(q) = q·q − l², H = |p|²/(2m) + m γ q_z.
// The angular momentum about the vertical, q_x p_y − q_y p_x, is conserved.
#pragma once

#include <cmath>
#include <utility>

#include "geomint/system/separable_system.hpp"

namespace geomint::problems {

struct spherical_pendulum_parameters {
  double mass = 1.0;
  double length = 1.0;
  double gravity = 9.81;
};

struct uniform_gravity_3 {  // V = m γ q_z
  double mg = 9.81;
  template <class Q> double value(const Q& q) const { return mg * q(2); }
  template <class Q, class Out> void gradient(const Q&, Out& out) const { out << 0, 0, mg; }
  template <class Q, class Out> void hessian(const Q&, Out& out) const { out.setZero(); }
};

struct sphere_constraint {  // g = q·q − l²
  static constexpr int size = 1;
  double length = 1.0;
  int count() const { return 1; }
  template <class Q, class Out> void value(const Q& q, Out& out) const { out(0) = q.squaredNorm() - length * length; }
  template <class Q, class G> void jacobian(const Q& q, G& g) const { g = 2 * q.transpose(); }
  template <class Q, class L, class Out> void hessian(const Q&, const L& lambda, Out& out) const {
    out = 2 * lambda(0) * matrix<3, 3>::Identity();
  }
};

class spherical_pendulum : public separable_system<3, uniform_gravity_3, sphere_constraint> {
 public:
  using state_type = std::pair<vector<3>, vector<3>>;

  explicit spherical_pendulum(const spherical_pendulum_parameters& p = {})
      : separable_system(diagonal_mass<3>(vector<3>::Constant(p.mass)), uniform_gravity_3{p.mass * p.gravity},
                         sphere_constraint{p.length}),
        parameters_(p) {}

  /// Starts at polar angle θ from the downward vertical with azimuthal speed ω (rad/s).
  state_type initial_state(double theta = 1.0, double omega = 2.0) const {
    const double l = parameters_.length;
    state_type x;
    x.first << l * std::sin(theta), 0, -l * std::cos(theta);
    x.second << 0, parameters_.mass * omega * l * std::sin(theta), 0;
    return x;
  }
  template <class Q, class P>
  static double vertical_angular_momentum(const Q& q, const P& p) { return q(0) * p(1) - q(1) * p(0); }
  const spherical_pendulum_parameters& parameters() const { return parameters_; }

 private:
  spherical_pendulum_parameters parameters_;
};

}  // namespace geomint::problems
