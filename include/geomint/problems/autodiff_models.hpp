// The reference problems written once as generic models (geomint/system/autodiff.hpp): the
// automatically differentiated counterparts of the hand-differentiated problems in this folder,
// used by the tests (AD against analytic derivatives), by bench/variational (cost of an AD-built
// step) and as worked examples of model code:
//   * a scalar model returns exactly its scalar type T (`return T(...)`),
//   * vector models write into `out`,
//   * quaternion products through problems::quaternion_multiply, which is scalar-generic.
#pragma once

#include <Eigen/Core>

#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/heavy_top.hpp"
#include "geomint/problems/quaternion_rigid_body.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/system/ad_lagrangian_system.hpp"
#include "geomint/system/ad_system.hpp"

namespace geomint::problems::ad_models {

using geomint::ad::scalar_of;

// Double spherical pendulum (Marsden–Wendlandt §7 data).
inline auto dsp_potential(const geomint::problems::double_spherical_pendulum_parameters& p = {}) {
  return [m1g = p.m1 * p.gravity, m2g = p.m2 * p.gravity](const auto& q) {
    using T = scalar_of<decltype(q)>;
    return T(m1g * q(2) + m2g * q(5));
  };
}
inline auto dsp_constraints(const geomint::problems::double_spherical_pendulum_parameters& p = {}) {
  return [l1 = p.l1, l2 = p.l2](const auto& q, auto& out) {
    out(0) = q.template head<3>().squaredNorm() - l1 * l1;
    out(1) = (q.template tail<3>() - q.template head<3>()).squaredNorm() - l2 * l2;
  };
}
inline geomint::vector<6> dsp_masses(const geomint::problems::double_spherical_pendulum_parameters& p = {}) {
  geomint::vector<6> m;
  m << p.m1, p.m1, p.m1, p.m2, p.m2, p.m2;
  return m;
}
/// H = ½ pᵀM⁻¹p + V through the separable builder (RATTLE's fast path).
inline auto dsp_separable() {
  return geomint::make_ad_separable_system<2>(geomint::diagonal_mass<6>(dsp_masses()), dsp_potential(), dsp_constraints());
}
/// The same H as a general H(q, p) (the steppers' general path).
inline auto dsp_general() {
  const geomint::vector<6> minv = dsp_masses().cwiseInverse();
  auto v = dsp_potential();
  auto h = [minv, v](const auto& q, const auto& p) {
    using T = scalar_of<decltype(q)>;
    T kinetic(0.0);
    for (int i = 0; i < 6; ++i) kinetic += 0.5 * minv(i) * p(i) * p(i);
    return T(kinetic + v(q));
  };
  return geomint::make_ad_system<6, 2>(h, dsp_constraints());
}
/// L = ½ q̇ᵀMq̇ − V(q).
inline auto dsp_lagrangian(const geomint::problems::double_spherical_pendulum_parameters& p = {}) {
  const geomint::vector<6> m = dsp_masses();
  auto v = dsp_potential(p);
  auto l = [m, v](const auto& q, const auto& qdot) {
    using T = scalar_of<decltype(q)>;
    T kinetic(0.0);
    for (int i = 0; i < 6; ++i) kinetic += 0.5 * m(i) * qdot(i) * qdot(i);
    return T(kinetic - v(q));
  };
  return geomint::make_ad_lagrangian_system<6, 2>(l, dsp_constraints());
}

// Heavy top in quaternions, H = ⅛ (ē ⋆ p)ᵀ D⁻¹ (ē ⋆ p) + γ(e₀² − e₁² − e₂² + e₃²).
inline auto heavy_top_hamiltonian(const geomint::problems::heavy_top_parameters& par = {}) {
  const geomint::vector<4> dinv(1 / par.radial_inertia, 1 / par.inertia(0), 1 / par.inertia(1), 1 / par.inertia(2));
  return [dinv, gamma = par.gravity](const auto& e, const auto& p) {
    using T = scalar_of<decltype(e)>;
    const Eigen::Matrix<T, 4, 1> u =
        geomint::problems::quaternion_multiply(geomint::problems::quaternion_conjugate(e), p);
    T h = gamma * (e(0) * e(0) - e(1) * e(1) - e(2) * e(2) + e(3) * e(3));
    for (int k = 0; k < 4; ++k) h += 0.125 * dinv(k) * u(k) * u(k);
    return h;
  };
}
inline auto unit_quaternion_constraint() {
  return [](const auto& q, auto& out) { out(0) = q.squaredNorm() - 1.0; };
}
inline auto heavy_top(const geomint::problems::heavy_top_parameters& par = {}) {
  return geomint::make_ad_system<4, 1>(heavy_top_hamiltonian(par), unit_quaternion_constraint());
}

// Quaternion rigid body, L = ½ (2 q̄ ⋆ q̇)ᵀ diag(0, I) (2 q̄ ⋆ q̇)  (53).
inline auto rigid_body(const geomint::vector<3>& inertia = geomint::vector<3>(1, 2, 3)) {
  auto l = [inertia](const auto& q, const auto& qdot) {
    using T = scalar_of<decltype(q)>;
    const Eigen::Matrix<T, 4, 1> u =
        geomint::problems::quaternion_multiply(geomint::problems::quaternion_conjugate(q), qdot);
    T value(0.0);
    for (int k = 1; k < 4; ++k) value += 2.0 * inertia(k - 1) * u(k) * u(k);
    return value;
  };
  return geomint::make_ad_lagrangian_system<4, 1>(l, unit_quaternion_constraint());
}

// Heavy top as a Lagrangian: the rigid body (53) minus V = γ(e₀² − e₁² − e₂² + e₃²).
inline auto heavy_top_lagrangian(const geomint::problems::heavy_top_parameters& par = {}) {
  auto l = [inertia = par.inertia, gamma = par.gravity](const auto& e, const auto& edot) {
    using T = scalar_of<decltype(e)>;
    const Eigen::Matrix<T, 4, 1> u =
        geomint::problems::quaternion_multiply(geomint::problems::quaternion_conjugate(e), edot);
    T value = -gamma * (e(0) * e(0) - e(1) * e(1) - e(2) * e(2) + e(3) * e(3));
    for (int k = 1; k < 4; ++k) value += 2.0 * inertia(k - 1) * u(k) * u(k);
    return value;
  };
  return geomint::make_ad_lagrangian_system<4, 1>(l, unit_quaternion_constraint());
}

// Variable-mass sphere (non-separable H with a configuration-dependent mass matrix).
inline auto variable_mass_sphere(const geomint::problems::variable_mass_sphere_parameters& par = {}) {
  const geomint::vector<3> a(par.a1, par.a2, par.a3);
  auto h = [a, gamma = par.gravity](const auto& q, const auto& p) {
    using T = scalar_of<decltype(q)>;
    T value = gamma * q(2);
    for (int i = 0; i < 3; ++i) value += 0.5 * p(i) * p(i) / (1.0 + a(i) * q(i) * q(i));
    return value;
  };
  auto g = [r = par.radius](const auto& q, auto& out) { out(0) = q.squaredNorm() - r * r; };
  return geomint::make_ad_system<3, 1>(h, g);
}

// Spherical pendulum and a three-link pendulum chain as separable systems.
inline auto spherical_pendulum(const geomint::problems::spherical_pendulum_parameters& par = {}) {
  auto v = [mg = par.mass * par.gravity](const auto& q) {
    using T = scalar_of<decltype(q)>;
    return T(mg * q(2));
  };
  auto g = [l = par.length](const auto& q, auto& out) { out(0) = q.squaredNorm() - l * l; };
  return geomint::make_ad_separable_system<1>(geomint::diagonal_mass<3>(geomint::vector<3>::Constant(par.mass)), v, g);
}
inline auto chain3(double mass = 1.0, double length = 1.0, double gravity = 9.81) {
  auto v = [mg = mass * gravity](const auto& q) {
    using T = scalar_of<decltype(q)>;
    return T(mg * (q(2) + q(5) + q(8)));
  };
  auto g = [length](const auto& q, auto& out) {
    out(0) = q.template segment<3>(0).squaredNorm() - length * length;
    for (int k = 1; k < 3; ++k)
      out(k) = (q.template segment<3>(3 * k) - q.template segment<3>(3 * k - 3)).squaredNorm() - length * length;
  };
  return geomint::make_ad_separable_system<3>(geomint::diagonal_mass<9>(geomint::vector<9>::Constant(mass)), v, g);
}

}  // namespace geomint::problems::ad_models
