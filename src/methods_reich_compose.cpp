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
  for_each_dense_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    using kahan_li8_reich = composition<reich_symmetric<state>, kahan_li8>;
    add_method(catalogued<reich_constrained<state>>("constrained_reich_1_1"), name,
               runner_for<reich_constrained<state>, system>());
    add_method(catalogued<reich_constrained_adjoint<state>>("constrained_reich_adjoint_1_1"), name,
               runner_for<reich_constrained_adjoint<state>, system>());
    add_method(catalogued<reich_symmetric<state>>("constrained_reich_symmetric_2_2"), name,
               runner_for<reich_symmetric<state>, system>());
    add_method(catalogued<kahan_li8_reich>("compose_reich_symmetric_kahan_li8_8_17"), name,
               runner_for<kahan_li8_reich, system>());
  });
  for_each_constrained_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    using yoshida4_rattle = composition<rattle<state>, yoshida4>;
    using kahan_li6_rattle = composition<rattle<state>, kahan_li6>;
    add_method(catalogued<yoshida4_rattle>("compose_rattle_yoshida4_4_3"), name, runner_for<yoshida4_rattle, system>());
    add_method(catalogued<kahan_li6_rattle>("compose_rattle_kahan_li6_6_9"), name, runner_for<kahan_li6_rattle, system>());
  });
});

}  // namespace
}  // namespace geomint::cli
