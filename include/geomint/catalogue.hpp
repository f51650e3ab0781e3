// The method catalogue: every method geomint ships, by id (family_name_order_stages), with what
// it is — its properties read from the stepper type itself (core/properties.hpp), so that a
// method is described in one place. The geomint command (run, compare, list, which adds its short
// aliases), the C module (which maps its GeomintMethodID values to these ids) and the README's
// method table read this table; tests/verification checks each claim against the diagnostics.
#pragma once

#include <string_view>
#include <utility>

#include <Eigen/Core>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_constrained.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/so3.hpp"
#include "geomint/lie/su_n.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_first_order.hpp"
#include "geomint/variational/variational_midpoint.hpp"

namespace geomint {

struct method_entry {
  std::string_view id;      ///< family_name_order_stages: the name in the command and the C module
  std::string_view family;  ///< constrained, compose, variational, riemannian, lie
  std::string_view name;    ///< what it is
  std::string_view type;    ///< the C++ stepper type
  int stages;
  method_properties properties;  ///< the type's own (properties_of<type>)
  std::string_view applies_to;
};

namespace detail {
using catalogue_pair = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
template <class Stepper>
constexpr method_properties catalogued = properties_of<Stepper>;
}  // namespace detail

inline constexpr method_entry method_catalogue[] = {
    {"constrained_rattle_2_2", "constrained", "RATTLE", "rattle<State>", 2,
     detail::catalogued<rattle<detail::catalogue_pair>>, "constrained systems (separable fast path, sparse G), driven constraints"},
    {"constrained_lobatto_2_2", "constrained", "Lobatto IIIA-IIIB, 2 stages (RATTLE's tableau)",
     "lobatto_iiia_iiib<2, State>", 2, detail::catalogued<lobatto_iiia_iiib<2, detail::catalogue_pair>>,
     "constrained systems, driven constraints"},
    {"constrained_lobatto_4_3", "constrained", "Lobatto IIIA-IIIB, 3 stages", "lobatto_iiia_iiib<3, State>", 3,
     detail::catalogued<lobatto_iiia_iiib<3, detail::catalogue_pair>>, "constrained systems, driven constraints"},
    {"constrained_lobatto_6_4", "constrained", "Lobatto IIIA-IIIB, 4 stages", "lobatto_iiia_iiib<4, State>", 4,
     detail::catalogued<lobatto_iiia_iiib<4, detail::catalogue_pair>>, "constrained systems, driven constraints"},
    {"constrained_lobatto_8_5", "constrained", "Lobatto IIIA-IIIB, 5 stages", "lobatto_iiia_iiib<5, State>", 5,
     detail::catalogued<lobatto_iiia_iiib<5, detail::catalogue_pair>>, "constrained systems, driven constraints"},
    {"constrained_symplectic_euler_1_2", "constrained", "constrained symplectic Euler",
     "constrained_symplectic_euler<State>", 2, detail::catalogued<constrained_symplectic_euler<detail::catalogue_pair>>,
     "constrained systems, driven constraints"},
    {"constrained_reich_1_1", "constrained", "Reich / McLachlan-Scovel constraint algorithm gamma(t)",
     "reich_constrained<State>", 1, detail::catalogued<reich_constrained<detail::catalogue_pair>>,
     "conservative, dense G"},
    {"constrained_reich_adjoint_1_1", "constrained", "its adjoint gamma^-1(-t)", "reich_constrained_adjoint<State>", 1,
     detail::catalogued<reich_constrained_adjoint<detail::catalogue_pair>>, "conservative, dense G"},
    {"constrained_reich_symmetric_2_2", "constrained", "gamma(t/2) then its adjoint", "reich_symmetric<State>", 2,
     detail::catalogued<reich_symmetric<detail::catalogue_pair>>, "conservative, dense G"},
    {"compose_rattle_yoshida4_4_3", "compose", "Yoshida's triple jump of RATTLE", "composition<rattle<State>, yoshida4>",
     3, detail::catalogued<composition<rattle<detail::catalogue_pair>, yoshida4>>, "constrained systems, driven constraints"},
    {"compose_rattle_kahan_li6_6_9", "compose", "Kahan-Li order-6 composition of RATTLE",
     "composition<rattle<State>, kahan_li6>", 9, detail::catalogued<composition<rattle<detail::catalogue_pair>, kahan_li6>>,
     "constrained systems, driven constraints"},
    {"compose_reich_symmetric_kahan_li8_8_17", "compose", "Kahan-Li order-8 composition of the symmetric Reich pair",
     "composition<reich_symmetric<State>, kahan_li8>", 17,
     detail::catalogued<composition<reich_symmetric<detail::catalogue_pair>, kahan_li8>>, "conservative, dense G"},
    {"variational_midpoint_2_1", "variational", "discrete Euler-Lagrange, midpoint rule", "variational_midpoint<State>",
     1, detail::catalogued<variational_midpoint<detail::catalogue_pair>>, "Lagrangian systems, dense G"},
    {"variational_first_order_1_1", "variational", "discrete Euler-Lagrange, first-order rule",
     "variational_first_order<State>", 1, detail::catalogued<variational_first_order<detail::catalogue_pair>>,
     "Lagrangian systems, dense G"},
    {"variational_shake_2_1", "variational", "SHAKE (two-step DEL form)", "shake<State>", 1,
     detail::catalogued<shake<detail::catalogue_pair>>, "separable H, dense G"},
    {"riemannian_leapfrog_2_1", "riemannian", "Leimkuhler-Patrick Riemannian leapfrog", "riemannian_leapfrog<State>", 1,
     detail::catalogued<riemannian_leapfrog<detail::catalogue_pair>>, "spheres, their products, SO(3)"},
    {"lie_rkmk_rk4_exp_4_4", "lie", "RKMK, classical RK4, exp coordinates", "rkmk<Algebra, rk::rk4, exp_coordinates>",
     4, detail::catalogued<rkmk<so3, rk::rk4, exp_coordinates>>, "Lie-Poisson systems"},
    {"lie_rkmk_rk4_two_commutators_exp_4_4", "lie",
     "RKMK, classical RK4 with two commutators (Munthe-Kaas-Owren), exp coordinates",
     "rkmk<Algebra, rk::rk4_two_commutators, exp_coordinates>", 4,
     detail::catalogued<rkmk<so3, rk::rk4_two_commutators, exp_coordinates>>, "Lie-Poisson systems"},
    {"lie_rkmk_rk4_cayley_4_4", "lie", "RKMK, classical RK4, Cayley coordinates",
     "rkmk<Algebra, rk::rk4, cayley_coordinates>", 4, detail::catalogued<rkmk<so3, rk::rk4, cayley_coordinates>>,
     "Lie-Poisson systems on quadratic groups"},
    {"lie_rkmk_heun_exp_2_2", "lie", "RKMK, Heun, exp coordinates", "rkmk<Algebra, rk::heun, exp_coordinates>", 2,
     detail::catalogued<rkmk<so3, rk::heun, exp_coordinates>>, "Lie-Poisson systems"},
    {"lie_rkmk_midpoint_exp_2_1", "lie", "RKMK, implicit midpoint (GL2), exp coordinates",
     "rkmk<Algebra, rk::implicit_midpoint, exp_coordinates>", 1,
     detail::catalogued<rkmk<so3, rk::implicit_midpoint, exp_coordinates>>, "Lie-Poisson systems"},
    {"lie_rkmk_midpoint_cayley_2_1", "lie", "RKMK, implicit midpoint (GL2), Cayley coordinates",
     "rkmk<Algebra, rk::implicit_midpoint, cayley_coordinates>", 1,
     detail::catalogued<rkmk<so3, rk::implicit_midpoint, cayley_coordinates>>, "Lie-Poisson systems on quadratic groups"},
    {"lie_discrete_gradient_trapezoidal_exp_2_1", "lie",
     "energy-conserving, trapezoidal discrete gradient (quadratic H), exp coordinates",
     "lie_discrete_gradient<Algebra, exp_coordinates, trapezoidal_gradient>", 1,
     detail::catalogued<lie_discrete_gradient<so3, exp_coordinates, trapezoidal_gradient>>,
     "Lie-Poisson systems with quadratic H"},
    {"lie_discrete_gradient_gonzalez_exp_2_1", "lie", "energy-conserving, Gonzalez discrete gradient, exp coordinates",
     "lie_discrete_gradient<Algebra, exp_coordinates, gonzalez_gradient>", 1,
     detail::catalogued<lie_discrete_gradient<so3, exp_coordinates, gonzalez_gradient>>, "Lie-Poisson systems"},
    {"lie_discrete_gradient_gonzalez_cayley_2_1", "lie",
     "energy-conserving, Gonzalez discrete gradient, Cayley coordinates",
     "lie_discrete_gradient<Algebra, cayley_coordinates, gonzalez_gradient>", 1,
     detail::catalogued<lie_discrete_gradient<so3, cayley_coordinates, gonzalez_gradient>>,
     "Lie-Poisson systems on quadratic groups"},
    {"lie_moser_veselov_2_1", "lie", "Moser-Veselov / reduced RATTLE (McLachlan-Scovel 6.1-6.2)",
     "moser_veselov<Algebra>", 1, detail::catalogued<moser_veselov<so3>>,
     "rigid bodies on so(3), so(n); heavy top on se(3)"},
    {"lie_poisson_leapfrog_2_1", "lie", "Lie-Poisson leapfrog (Leimkuhler-Patrick 5.2)", "lie_poisson_leapfrog<Algebra>",
     1, detail::catalogued<lie_poisson_leapfrog<so3>>, "quadratic H, bi-invariant metric (so3, so_n, su_n)"},
    {"lie_isospectral_midpoint_2_1", "lie", "isospectral midpoint (Modin-Viviani), Cayley iteration",
     "isospectral_midpoint<su_n<N>>", 1, detail::catalogued<isospectral_midpoint<su_n<3>>>,
     "Lie-Poisson systems on su(N)"},
};

/// The entry whose id is `id`, or null.
constexpr const method_entry* find_method_entry(std::string_view id) {
  for (const method_entry& e : method_catalogue)
    if (e.id == id) return &e;
  return nullptr;
}

/// Whether the stepper type is the method of a catalogue row (its properties are the row's; a
/// run-time tableau's order 0 matches any order).
template <class Stepper>
constexpr bool catalogue_matches(const method_entry& e) {
  constexpr method_properties p = properties_of<Stepper>;
  return p.order(0) == e.properties.order(0) && (p.order() == 0 || p.order() == e.properties.order());
}

}  // namespace geomint
