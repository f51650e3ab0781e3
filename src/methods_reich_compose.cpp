// The Reich / McLachlan–Scovel constraint algorithm (γ, its adjoint, the symmetric pair) on the
// problems with a dense G, and compositions of symmetric second-order bases to orders 4, 6, 8.
#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "cli/method_list.hpp"
#include "geomint/compose/composition.hpp"
#include "geomint/compose/composition_schemes.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_constrained.hpp"
#include "geomint/constrained/reich_symmetric.hpp"

namespace geomint::cli {
namespace {

const registration methods_reich_compose([] {
  const std::string keeps = "g, hidden constraint to round-off";
  const auto reich_p = symplectic_constrained("constrained_reich_1_1", "reich", "constrained", 1, false,
                                              keeps + "; symmetric only if H = H(p)");
  const auto adjoint_p = symplectic_constrained("constrained_reich_adjoint_1_1", "reich_adjoint", "constrained", 1,
                                                false, keeps + "; symmetric only if H = H(p)");
  const auto symmetric_p = symplectic_constrained("constrained_reich_symmetric_2_2", "reich_symmetric", "constrained",
                                                  2, true, keeps);
  const auto yoshida4_p = symplectic_constrained("compose_rattle_yoshida4_4_3", "rattle_yoshida4", "compose", 4, true,
                                                 "what rattle conserves");
  const auto kahan_li6_p = symplectic_constrained("compose_rattle_kahan_li6_6_9", "rattle_kahan_li6", "compose", 6,
                                                  true, "what rattle conserves");
  const auto kahan_li8_p = symplectic_constrained("compose_reich_symmetric_kahan_li8_8_17", "reich_symmetric_kahan_li8",
                                                  "compose", 8, true, "what reich_symmetric conserves");
  for_each_dense_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(reich_p, name, runner_for<reich_constrained<state>, system>());
    add_method(adjoint_p, name, runner_for<reich_constrained_adjoint<state>, system>());
    add_method(symmetric_p, name, runner_for<reich_symmetric<state>, system>());
    add_method(kahan_li8_p, name, runner_for<composition<reich_symmetric<state>, kahan_li8>, system>());
  });
  for_each_constrained_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(yoshida4_p, name, runner_for<composition<rattle<state>, yoshida4>, system>());
    add_method(kahan_li6_p, name, runner_for<composition<rattle<state>, kahan_li6>, system>());
  });
});

}  // namespace
}  // namespace geomint::cli
