// A particle of mass m on the ellipsoid y₁²/a₁² + y₂²/a₂² + y₃²/a₃² = 1 with potential V = μ y₃
// (Leimkuhler–Patrick 1996, §2). In the coordinates x_i = y_i/a_i the configuration space is the
// unit sphere, the kinetic metric is g = m Σ a_i² dx_i² (restricted to the sphere) and V = a₃ μ x₃:
//
//   H(x, p) = Σ p_i²/(2 m a_i²) + a₃ μ x₃,   g(x) = x·x − 1,   p_i = m a_i² ẋ_i.
//
// As a separable constrained system it runs with rattle, reich_symmetric, …; on_space(system,
// system.space()) (riemannian_system.hpp) is its Riemannian form for riemannian_leapfrog. When
// a₁ = a₂ rotations about the x₃ axis are a symmetry with momentum x₁p₂ − x₂p₁.
#pragma once

#include <cmath>
#include <utility>

#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/riemannian/sphere_product.hpp"
#include "geomint/system/separable_system.hpp"

namespace geomint::problems {

struct particle_on_ellipsoid_parameters {
  double mass = 1.0;
  double a1 = 1.0, a2 = 1.0, a3 = 0.6;  // semi-axes
  double mu = 1.0;                      // V = μ y₃
};

class particle_on_ellipsoid : public separable_system<3, uniform_gravity_3, sphere_constraint> {
 public:
  using state_type = std::pair<vector<3>, vector<3>>;
  using parameters_type = particle_on_ellipsoid_parameters;

  explicit particle_on_ellipsoid(const parameters_type& p = {})
      : separable_system(masses(p), uniform_gravity_3{p.a3 * p.mu}, sphere_constraint{1.0}), parameters_(p) {}

  /// The configuration space in x coordinates: the unit sphere.
  sphere space() const { return sphere(1.0); }

  /// On the sphere at polar angle θ from the x₃ axis, azimuth 0, with x-velocity
  /// ẋ = ω_az e_φ + ω_pol e_θ (tangent): a consistent state.
  state_type initial_state(double theta = 2.0, double omega_azimuthal = 1.3, double omega_polar = 0.4) const {
    state_type s;
    s.first << std::sin(theta), 0, std::cos(theta);
    const vector<3> e_theta(std::cos(theta), 0, -std::sin(theta)), e_phi(0, 1, 0);
    const vector<3> xdot = omega_azimuthal * std::sin(theta) * e_phi + omega_polar * e_theta;
    const auto& q = parameters_;
    s.second << q.mass * q.a1 * q.a1 * xdot(0), q.mass * q.a2 * q.a2 * xdot(1), q.mass * q.a3 * q.a3 * xdot(2);
    return s;
  }
  /// The point y on the ellipsoid.
  template <class X>
  vector<3> ellipsoid_point(const X& x) const {
    return vector<3>(parameters_.a1 * x(0), parameters_.a2 * x(1), parameters_.a3 * x(2));
  }
  /// Momentum of rotations about the x₃ (= y₃) axis; conserved when a₁ = a₂.
  template <class Q, class P>
  static double axial_momentum(const Q& x, const P& p) { return x(0) * p(1) - x(1) * p(0); }
  const parameters_type& parameters() const { return parameters_; }

 private:
  static diagonal_mass<3> masses(const parameters_type& p) {
    return diagonal_mass<3>(vector<3>(p.mass * p.a1 * p.a1, p.mass * p.a2 * p.a2, p.mass * p.a3 * p.a3));
  }
  parameters_type parameters_;
};

}  // namespace geomint::problems
