// A bead of mass m on a circular hoop of radius R that turns about its vertical diameter (the z
// axis) at the constant rate ω, gravity γ along −z: q ∈ ℝ³, H = |p|²/(2m) + mγz, and two driven
// constraints,
//
//   g1 = q·q − R² (the hoop's sphere),   g2 = −x sin ωt + y cos ωt (the hoop's plane).
//
// With θ the angle from the downward vertical (ρ = R sin θ the distance from the axis within the
// hoop's plane, z = −R cos θ), the bead's motion in the turning plane conserves the Jacobi integral
//
//   J = ½mR²θ̇² − ½mR²ω² sin²θ − mγR cos θ,
//
// and for Rω² > γ it has a relative equilibrium off the bottom at cos θ* = γ/(Rω²). The hoop's
// work changes H (H − J = mR²ω² sin²θ, the kinetic energy of the turning).
#pragma once

#include <cmath>
#include <limits>
#include <utility>

#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/system/driven_system.hpp"

namespace geomint::problems {

struct rotating_hoop_constraint {
  static constexpr int size = 2;
  double radius = 1.0;
  double omega = 1.0;
  int count() const { return 2; }
  template <class Q, class Out> void value(double t, const Q& q, Out& out) const {
    out(0) = q.squaredNorm() - radius * radius;
    out(1) = -q(0) * std::sin(omega * t) + q(1) * std::cos(omega * t);
  }
  template <class Q, class G> void jacobian(double t, const Q& q, G& g) const {
    g.row(0) = 2 * q.transpose();
    g.row(1) << -std::sin(omega * t), std::cos(omega * t), 0;
  }
  template <class Q, class Out> void time_derivative(double t, const Q& q, Out& out) const {
    out(0) = 0;
    out(1) = -omega * (q(0) * std::cos(omega * t) + q(1) * std::sin(omega * t));
  }
  template <class Q, class L, class Out> void hessian(double, const Q&, const L& lambda, Out& out) const {
    out = 2 * lambda(0) * matrix<3, 3>::Identity();
  }
};

struct rotating_hoop_parameters {
  double mass = 1.0;
  double radius = 1.0;
  double omega = 5.0;    ///< the hoop's angular velocity (rad/s)
  double gravity = 9.81;
};

class bead_on_rotating_hoop : public driven_separable_system<3, uniform_gravity_3, rotating_hoop_constraint> {
 public:
  using state_type = std::pair<vector<3>, vector<3>>;

  explicit bead_on_rotating_hoop(const rotating_hoop_parameters& p = {})
      : driven_separable_system(diagonal_mass<3>(vector<3>::Constant(p.mass)), uniform_gravity_3{p.mass * p.gravity},
                                rotating_hoop_constraint{p.radius, p.omega}),
        parameters_(p) {}

  /// The state at time t of the bead at angle θ from the downward vertical with θ̇ = theta_dot.
  state_type state(double t, double theta, double theta_dot) const {
    const double r = parameters_.radius, w = parameters_.omega, m = parameters_.mass;
    const double rho = r * std::sin(theta), rho_dot = r * std::cos(theta) * theta_dot;
    const double c = std::cos(w * t), s = std::sin(w * t);
    state_type x;
    x.first << rho * c, rho * s, -r * std::cos(theta);
    x.second << m * (rho_dot * c - rho * w * s), m * (rho_dot * s + rho * w * c), m * r * std::sin(theta) * theta_dot;
    return x;
  }
  /// θ of a state at time t (from the hoop's plane coordinates ρ and z).
  template <class Q>
  double angle(double t, const Q& q) const {
    const double rho = q(0) * std::cos(parameters_.omega * t) + q(1) * std::sin(parameters_.omega * t);
    return std::atan2(rho, -q(2));
  }
  /// The Jacobi integral J = ½m(ρ̇² + ż²) − ½mω²ρ² + mγz at time t.
  template <class Q, class P>
  double jacobi_integral(double t, const Q& q, const P& p) const {
    const double w = parameters_.omega, m = parameters_.mass;
    const double c = std::cos(w * t), s = std::sin(w * t);
    const double rho = q(0) * c + q(1) * s, rho_dot = (p(0) * c + p(1) * s) / m, z_dot = p(2) / m;
    return 0.5 * m * (rho_dot * rho_dot + z_dot * z_dot) - 0.5 * m * w * w * rho * rho + m * parameters_.gravity * q(2);
  }
  /// cos θ* = γ/(Rω²): the relative equilibrium off the bottom (NaN if Rω² ≤ γ: none).
  double equilibrium_angle() const {
    const double c = parameters_.gravity / (parameters_.radius * parameters_.omega * parameters_.omega);
    return c < 1 ? std::acos(c) : std::numeric_limits<double>::quiet_NaN();
  }
  const rotating_hoop_parameters& parameters() const { return parameters_; }

 private:
  rotating_hoop_parameters parameters_;
};

}  // namespace geomint::problems
