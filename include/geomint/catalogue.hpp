// The method catalogue: every method geomint ships, by id (family_name_order_stages), with its
// properties. The geomint command (run, compare, list), the C module (GeomintGetMethodName) and
// the README's method table all read this one table; each stepper type that a row names is
// checked against it at compile time where it is instantiated (catalogue_matches), and the
// claims are checked against the diagnostics in tests/verification.
#pragma once

#include <string_view>

#include "geomint/core/properties.hpp"

namespace geomint {

struct method_entry {
  std::string_view id;      ///< family_name_order_stages: the name in the command and the C module
  std::string_view alias;   ///< short name the command also accepts
  std::string_view family;  ///< constrained, compose, variational, riemannian, lie
  std::string_view name;    ///< what it is
  std::string_view type;    ///< the C++ stepper type
  int order, stages;
  bool symmetric, symplectic;
  unsigned conserves;       ///< core/properties.hpp bits
  int c_id;                 ///< GeomintMethodID in the C module, 0 if it is not there
  std::string_view applies_to;
};

namespace detail {
inline constexpr unsigned constraint_bits = conserves_constraints | conserves_linear_momentum_maps;
inline constexpr unsigned variational_bits = conserves_constraints | conserves_momentum_maps;
}  // namespace detail

inline constexpr method_entry method_catalogue[] = {
    {"constrained_rattle_2_2", "rattle", "constrained", "RATTLE", "rattle<State>", 2, 2, true, true,
     detail::constraint_bits, 100, "constrained systems (separable fast path, sparse G)"},
    {"constrained_lobatto_2_2", "lobatto2", "constrained", "Lobatto IIIA-IIIB, 2 stages (RATTLE's tableau)",
     "lobatto_iiia_iiib<2, State>", 2, 2, true, true, detail::constraint_bits, 101, "constrained systems"},
    {"constrained_lobatto_4_3", "lobatto3", "constrained", "Lobatto IIIA-IIIB, 3 stages", "lobatto_iiia_iiib<3, State>",
     4, 3, true, true, detail::constraint_bits, 102, "constrained systems"},
    {"constrained_lobatto_6_4", "lobatto4", "constrained", "Lobatto IIIA-IIIB, 4 stages", "lobatto_iiia_iiib<4, State>",
     6, 4, true, true, detail::constraint_bits, 103, "constrained systems"},
    {"constrained_lobatto_8_5", "lobatto5", "constrained", "Lobatto IIIA-IIIB, 5 stages", "lobatto_iiia_iiib<5, State>",
     8, 5, true, true, detail::constraint_bits, 104, "constrained systems"},
    {"constrained_symplectic_euler_1_2", "symplectic_euler", "constrained", "constrained symplectic Euler",
     "constrained_symplectic_euler<State>", 1, 2, false, true, detail::constraint_bits, 105, "constrained systems"},
    {"constrained_reich_1_1", "reich", "constrained", "Reich / McLachlan-Scovel constraint algorithm gamma(t)",
     "reich_constrained<State>", 1, 1, false, true, detail::constraint_bits, 0, "conservative, dense G"},
    {"constrained_reich_adjoint_1_1", "reich_adjoint", "constrained", "its adjoint gamma^-1(-t)",
     "reich_constrained_adjoint<State>", 1, 1, false, true, detail::constraint_bits, 0, "conservative, dense G"},
    {"constrained_reich_symmetric_2_2", "reich_symmetric", "constrained", "gamma(t/2) then its adjoint",
     "reich_symmetric<State>", 2, 2, true, true, detail::constraint_bits, 106, "conservative, dense G"},
    {"compose_rattle_yoshida4_4_3", "rattle_yoshida4", "compose", "Yoshida's triple jump of RATTLE",
     "composition<rattle<State>, yoshida4>", 4, 3, true, true, detail::constraint_bits, 0, "constrained systems"},
    {"compose_rattle_kahan_li6_6_9", "rattle_kahan_li6", "compose", "Kahan-Li order-6 composition of RATTLE",
     "composition<rattle<State>, kahan_li6>", 6, 9, true, true, detail::constraint_bits, 0, "constrained systems"},
    {"compose_reich_symmetric_kahan_li8_8_17", "reich_symmetric_kahan_li8", "compose",
     "Kahan-Li order-8 composition of the symmetric Reich pair", "composition<reich_symmetric<State>, kahan_li8>", 8,
     17, true, true, detail::constraint_bits, 0, "conservative, dense G"},
    {"variational_midpoint_2_1", "variational_midpoint", "variational", "discrete Euler-Lagrange, midpoint rule",
     "variational_midpoint<State>", 2, 1, true, true, detail::variational_bits, 300, "Lagrangian systems, dense G"},
    {"variational_first_order_1_1", "variational_first_order", "variational",
     "discrete Euler-Lagrange, first-order rule", "variational_first_order<State>", 1, 1, false, true,
     detail::variational_bits, 0, "Lagrangian systems, dense G"},
    {"variational_shake_2_1", "shake", "variational", "SHAKE (two-step DEL form)", "shake<State>", 2, 1, true, true,
     detail::variational_bits, 301, "separable H, dense G"},
    {"riemannian_leapfrog_2_1", "leapfrog", "riemannian", "Leimkuhler-Patrick Riemannian leapfrog",
     "riemannian_leapfrog<State>", 2, 1, true, true, conserves_configuration_space, 0,
     "spheres, their products, SO(3)"},
    {"lie_rkmk_rk4_exp_4_4", "rkmk_rk4_exp", "lie", "RKMK, classical RK4, exp coordinates",
     "rkmk<Algebra, rk::rk4, exp_coordinates>", 4, 4, false, false, conserves_casimirs, 200, "Lie-Poisson systems"},
    {"lie_rkmk_rk4_two_commutators_exp_4_4", "rkmk_rk4_2c_exp", "lie",
     "RKMK, classical RK4 with two commutators (Munthe-Kaas-Owren), exp coordinates",
     "rkmk<Algebra, rk::rk4_two_commutators, exp_coordinates>", 4, 4, false, false, conserves_casimirs, 0,
     "Lie-Poisson systems"},
    {"lie_rkmk_rk4_cayley_4_4", "rkmk_rk4_cayley", "lie", "RKMK, classical RK4, Cayley coordinates",
     "rkmk<Algebra, rk::rk4, cayley_coordinates>", 4, 4, false, false, conserves_casimirs, 201,
     "Lie-Poisson systems on quadratic groups"},
    {"lie_rkmk_heun_exp_2_2", "rkmk_heun_exp", "lie", "RKMK, Heun, exp coordinates",
     "rkmk<Algebra, rk::heun, exp_coordinates>", 2, 2, false, false, conserves_casimirs, 0, "Lie-Poisson systems"},
    {"lie_rkmk_midpoint_exp_2_1", "rkmk_gl2_exp", "lie", "RKMK, implicit midpoint (GL2), exp coordinates",
     "rkmk<Algebra, rk::implicit_midpoint, exp_coordinates>", 2, 1, true, false, conserves_casimirs, 202,
     "Lie-Poisson systems"},
    {"lie_rkmk_midpoint_cayley_2_1", "rkmk_gl2_cayley", "lie", "RKMK, implicit midpoint (GL2), Cayley coordinates",
     "rkmk<Algebra, rk::implicit_midpoint, cayley_coordinates>", 2, 1, false, false, conserves_casimirs, 203,
     "Lie-Poisson systems on quadratic groups"},
    {"lie_discrete_gradient_trapezoidal_exp_2_1", "discrete_gradient", "lie",
     "energy-conserving, trapezoidal discrete gradient (quadratic H), exp coordinates",
     "lie_discrete_gradient<Algebra, exp_coordinates, trapezoidal_gradient>", 2, 1, true, false,
     conserves_casimirs | conserves_energy, 0, "Lie-Poisson systems with quadratic H"},
    {"lie_discrete_gradient_gonzalez_exp_2_1", "discrete_gradient_gonzalez", "lie",
     "energy-conserving, Gonzalez discrete gradient, exp coordinates",
     "lie_discrete_gradient<Algebra, exp_coordinates, gonzalez_gradient>", 2, 1, true, false,
     conserves_casimirs | conserves_energy, 204, "Lie-Poisson systems"},
    {"lie_discrete_gradient_gonzalez_cayley_2_1", "discrete_gradient_gonzalez_cayley", "lie",
     "energy-conserving, Gonzalez discrete gradient, Cayley coordinates",
     "lie_discrete_gradient<Algebra, cayley_coordinates, gonzalez_gradient>", 2, 1, true, false,
     conserves_casimirs | conserves_energy, 205, "Lie-Poisson systems on quadratic groups"},
    {"lie_moser_veselov_2_1", "moser_veselov", "lie", "Moser-Veselov / reduced RATTLE (McLachlan-Scovel 6.1-6.2)",
     "moser_veselov<Algebra>", 2, 1, true, true, conserves_casimirs, 0, "rigid bodies on so(3), so(n); heavy top on se(3)"},
    {"lie_poisson_leapfrog_2_1", "lie_leapfrog", "lie", "Lie-Poisson leapfrog (Leimkuhler-Patrick 5.2)",
     "lie_poisson_leapfrog<Algebra>", 2, 1, true, true, conserves_casimirs, 0,
     "quadratic H, bi-invariant metric (so3, so_n, su_n)"},
    {"lie_isospectral_midpoint_2_1", "isospectral_midpoint", "lie",
     "isospectral midpoint (Modin-Viviani), Cayley iteration", "isospectral_midpoint<su_n<N>>", 2, 1, true, true,
     conserves_casimirs, 0, "Lie-Poisson systems on su(N)"},
};

/// The entry whose id or alias is `name`, or null.
constexpr const method_entry* find_method_entry(std::string_view name) {
  for (const method_entry& e : method_catalogue)
    if (e.id == name || e.alias == name) return &e;
  return nullptr;
}
/// The entry of the C module's method id, or null.
constexpr const method_entry* find_method_entry(int c_id) {
  for (const method_entry& e : method_catalogue)
    if (c_id != 0 && e.c_id == c_id) return &e;
  return nullptr;
}

/// The stepper type's compile-time properties are the entry's (order: where the type knows it).
template <class Stepper>
constexpr bool catalogue_matches(const method_entry& e) {
  using p = properties_of<Stepper>;
  return (p::order == 0 || p::order == e.order) && p::symmetric == e.symmetric && p::symplectic == e.symplectic &&
         p::conserves == e.conserves;
}

}  // namespace geomint
