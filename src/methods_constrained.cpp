// Constrained partitioned Runge–Kutta methods of order ≤ 4 (Hairer 2003): RATTLE, Lobatto IIIA–IIIB
// with 2 and 3 stages, constrained symplectic Euler, on every constrained problem.
#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "cli/method_list.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"

namespace geomint::cli {
namespace {

const registration methods_constrained([] {
  for_each_constrained_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(catalogued<rattle<state>>("constrained_rattle_2_2"), name, runner_for<rattle<state>, system>());
    add_method(catalogued<lobatto_iiia_iiib<2, state>>("constrained_lobatto_2_2"), name,
               runner_for<lobatto_iiia_iiib<2, state>, system>());
    add_method(catalogued<constrained_symplectic_euler<state>>("constrained_symplectic_euler_1_2"), name,
               runner_for<constrained_symplectic_euler<state>, system>());
    add_method(catalogued<lobatto_iiia_iiib<3, state>>("constrained_lobatto_4_3"), name,
               runner_for<lobatto_iiia_iiib<3, state>, system>());
  });
});

}  // namespace
}  // namespace geomint::cli
