// Lobatto IIIA–IIIB pairs with 4 and 5 stages (orders 6 and 8; Hairer 2003, Example 2.2) on
// every constrained problem. Apart from methods_constrained.cpp so the two compile in parallel.
#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "cli/method_list.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"

namespace geomint::cli {
namespace {

const registration methods_lobatto([] {
  for_each_constrained_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(catalogued<lobatto_iiia_iiib<4, state>>("constrained_lobatto_6_4"), name,
               runner_for<lobatto_iiia_iiib<4, state>, system>());
    add_method(catalogued<lobatto_iiia_iiib<5, state>>("constrained_lobatto_8_5"), name,
               runner_for<lobatto_iiia_iiib<5, state>, system>());
  });
});

}  // namespace
}  // namespace geomint::cli
