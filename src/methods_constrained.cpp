// Constrained partitioned Runge–Kutta methods of order ≤ 4 (Hairer 2003): RATTLE, constrained
// symplectic Euler, Lobatto IIIA–IIIB with 3 stages, on every constrained problem.
#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "cli/method_list.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"

namespace geomint::cli {
namespace {

const registration methods_constrained([] {
  const std::string keeps = "g, hidden constraint to round-off";
  const auto rattle_p = symplectic_constrained("constrained_rattle_2_2", "rattle", "constrained", 2, true, keeps);
  const auto euler_p = symplectic_constrained("constrained_symplectic_euler_1_2", "symplectic_euler", "constrained", 1,
                                              false, keeps);
  const auto lobatto3_p = symplectic_constrained("constrained_lobatto_4_3", "lobatto3", "constrained", 4, true, keeps);
  for_each_constrained_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(rattle_p, name, runner_for<rattle<state>, system>());
    add_method(euler_p, name, runner_for<constrained_symplectic_euler<state>, system>());
    add_method(lobatto3_p, name, runner_for<lobatto_iiia_iiib<3, state>, system>());
  });
});

}  // namespace
}  // namespace geomint::cli
