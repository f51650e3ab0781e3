// The problems of the constrained family, as a list the method and reference translation units
// iterate over: for_each_constrained_problem(f) calls f(type_tag<System>{}, "kebab-name").
#pragma once

#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/heavy_top.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/problems/quaternion.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"

namespace geomint::cli {

template <class T>
struct type_tag {
  using type = T;
};

/// Separable problems with a dense constraint Jacobian (what the variational steppers take).
template <class F>
void for_each_separable_dense_problem(F&& f) {
  f(type_tag<problems::double_spherical_pendulum>{}, "double-spherical-pendulum");
  f(type_tag<problems::spherical_pendulum>{}, "spherical-pendulum");
}

/// Problems with a dense constraint Jacobian (separable or not).
template <class F>
void for_each_dense_problem(F&& f) {
  for_each_separable_dense_problem(f);
  f(type_tag<problems::variable_mass_sphere>{}, "variable-mass-sphere");
  f(type_tag<problems::heavy_top>{}, "heavy-top");
}

/// Every constrained Hamiltonian problem (separable or not, dense or sparse G).
template <class F>
void for_each_constrained_problem(F&& f) {
  for_each_dense_problem(f);
  f(type_tag<problems::pendulum_chain>{}, "pendulum-chain");
}

}  // namespace geomint::cli
