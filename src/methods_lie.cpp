// The Lie–Poisson family on its problems: RKMK (explicit RK4 and Heun, implicit GL2, in
// exponential and Cayley coordinates; RK4's two-commutator form in exponential coordinates), the
// energy-conserving discrete gradients (trapezoidal; Gonzalez in both coordinates), Moser–Veselov
// (so(3), so(n), se(3)), the Lie–Poisson leapfrog (so(3), so(n), su(n)) and the isospectral
// midpoint (su(n)).
#include "cli/lie_problems.hpp"
#include "cli/method_list.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"

namespace geomint::cli {
namespace {

const registration methods_lie([] {
  for_each_lie_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using algebra = typename system::algebra_type;
    using rk4_exp = rkmk<algebra, rk::rk4, exp_coordinates>;
    using rk4_two_commutators = rkmk<algebra, rk::rk4_two_commutators, exp_coordinates>;
    using rk4_cayley = rkmk<algebra, rk::rk4, cayley_coordinates>;
    using heun_exp = rkmk<algebra, rk::heun, exp_coordinates>;
    using gl2_exp = rkmk<algebra, rk::implicit_midpoint, exp_coordinates>;
    using gl2_cayley = rkmk<algebra, rk::implicit_midpoint, cayley_coordinates>;
    using trapezoidal_dg = lie_discrete_gradient<algebra, exp_coordinates, trapezoidal_gradient>;
    using gonzalez_dg = lie_discrete_gradient<algebra, exp_coordinates, gonzalez_gradient>;
    using gonzalez_dg_cayley = lie_discrete_gradient<algebra, cayley_coordinates, gonzalez_gradient>;
    add_method(catalogued<rk4_exp>("lie_rkmk_rk4_exp_4_4"), name, lie_runner_for<rk4_exp, system>());
    add_method(catalogued<rk4_two_commutators>("lie_rkmk_rk4_two_commutators_exp_4_4"), name,
               lie_runner_for<rk4_two_commutators, system>());
    add_method(catalogued<rk4_cayley>("lie_rkmk_rk4_cayley_4_4"), name, lie_runner_for<rk4_cayley, system>());
    add_method(catalogued<heun_exp>("lie_rkmk_heun_exp_2_2"), name, lie_runner_for<heun_exp, system>());
    add_method(catalogued<gl2_exp>("lie_rkmk_midpoint_exp_2_1"), name, lie_runner_for<gl2_exp, system>());
    add_method(catalogued<gl2_cayley>("lie_rkmk_midpoint_cayley_2_1"), name, lie_runner_for<gl2_cayley, system>());
    add_method(catalogued<trapezoidal_dg>("lie_discrete_gradient_trapezoidal_exp_2_1"), name,
               lie_runner_for<trapezoidal_dg, system>());
    add_method(catalogued<gonzalez_dg>("lie_discrete_gradient_gonzalez_exp_2_1"), name, lie_runner_for<gonzalez_dg, system>());
    add_method(catalogued<gonzalez_dg_cayley>("lie_discrete_gradient_gonzalez_cayley_2_1"), name,
               lie_runner_for<gonzalez_dg_cayley, system>());
  });
  const auto mv = catalogued<moser_veselov<so3>>("lie_moser_veselov_2_1");
  add_method(mv, "free-rigid-body", lie_runner_for<moser_veselov<so3>, problems::free_rigid_body>());
  add_method(mv, "heavy-top-se3", lie_runner_for<moser_veselov<se3>, problems::heavy_top_se3>());
  add_method(mv, "rigid-body-so5", lie_runner_for<moser_veselov<so_n<5>>, rigid_body_so5>());
  const auto leapfrog = catalogued<lie_poisson_leapfrog<so3>>("lie_poisson_leapfrog_2_1");
  add_method(leapfrog, "free-rigid-body", lie_runner_for<lie_poisson_leapfrog<so3>, problems::free_rigid_body>());
  add_method(leapfrog, "rigid-body-so5", lie_runner_for<lie_poisson_leapfrog<so_n<5>>, rigid_body_so5>());
  add_method(leapfrog, "sine-euler-su3", lie_runner_for<lie_poisson_leapfrog<su_n<3>>, sine_euler_su3>());
  add_method(catalogued<isospectral_midpoint<su_n<3>>>("lie_isospectral_midpoint_2_1"), "sine-euler-su3",
             lie_runner_for<isospectral_midpoint<su_n<3>>, sine_euler_su3>());
});

}  // namespace
}  // namespace geomint::cli
