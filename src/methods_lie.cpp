// The Lie–Poisson family on its problems: RKMK (explicit RK4 and Heun, implicit GL2, in
// exponential and Cayley coordinates), the energy-conserving discrete gradient, Moser–Veselov
// (so(3), so(n), se(3)) and the Lie–Poisson leapfrog (so(3), so(n), su(n)).
#include "cli/lie_problems.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"

namespace geomint::cli {
namespace {

method_properties lie_method(std::string id, std::string alias, int order, bool symplectic, bool symmetric,
                             bool energy, std::string note) {
  method_properties p;
  p.id = std::move(id);
  p.alias = std::move(alias);
  p.family = "lie";
  p.order = order;
  p.symplectic = symplectic;
  p.symmetric = symmetric;
  p.conserves_energy = energy;
  p.conserves_casimirs = true;
  p.note = std::move(note);
  return p;
}

const registration methods_lie([] {
  const auto rk4_exp = lie_method("lie_rkmk_exp_4_4", "rkmk_rk4_exp", 4, false, false, false, "coadjoint orbit");
  const auto rk4_cay = lie_method("lie_rkmk_cayley_4_4", "rkmk_rk4_cayley", 4, false, false, false, "coadjoint orbit");
  const auto heun_exp = lie_method("lie_rkmk_exp_2_2", "rkmk_heun_exp", 2, false, false, false, "coadjoint orbit");
  const auto gl2_exp = lie_method("lie_rkmk_exp_2_1", "rkmk_gl2_exp", 2, false, true, false, "coadjoint orbit");
  const auto dg = lie_method("lie_discrete_gradient_exp_2_1", "discrete_gradient", 2, false, false, true,
                             "coadjoint orbit and energy (trapezoidal discrete gradient)");
  const auto mv = lie_method("lie_moser_veselov_2_1", "moser_veselov", 2, true, true, false,
                             "Poisson map; energy for the free body");
  const auto leapfrog = lie_method("lie_poisson_leapfrog_2_1", "lie_leapfrog", 2, true, true, false,
                                   "Poisson map; quadratic H, bi-invariant metric");
  for_each_lie_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using algebra = typename system::algebra_type;
    add_method(rk4_exp, name, lie_runner_for<rkmk<algebra, rk::rk4, exp_coordinates>, system>());
    add_method(rk4_cay, name, lie_runner_for<rkmk<algebra, rk::rk4, cayley_coordinates>, system>());
    add_method(heun_exp, name, lie_runner_for<rkmk<algebra, rk::heun, exp_coordinates>, system>());
    add_method(gl2_exp, name, lie_runner_for<rkmk<algebra, rk::implicit_midpoint, exp_coordinates>, system>());
    add_method(dg, name, lie_runner_for<lie_discrete_gradient<algebra, exp_coordinates>, system>());
  });
  add_method(mv, "free-rigid-body", lie_runner_for<moser_veselov<so3>, problems::free_rigid_body>());
  add_method(mv, "heavy-top-se3", lie_runner_for<moser_veselov<se3>, problems::heavy_top_se3>());
  add_method(mv, "rigid-body-so5", lie_runner_for<moser_veselov<so_n<5>>, rigid_body_so5>());
  add_method(leapfrog, "free-rigid-body", lie_runner_for<lie_poisson_leapfrog<so3>, problems::free_rigid_body>());
  add_method(leapfrog, "rigid-body-so5", lie_runner_for<lie_poisson_leapfrog<so_n<5>>, rigid_body_so5>());
  add_method(leapfrog, "sine-euler-su3", lie_runner_for<lie_poisson_leapfrog<su_n<3>>, sine_euler_su3>());
});

}  // namespace
}  // namespace geomint::cli
