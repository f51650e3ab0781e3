// "What a user does today" for the constrained problems: Boost.Odeint's runge_kutta_dopri5 on
// the index-1 ODE (geomint/odeint_support/index1_ode.hpp, cli/dopri5_reference.hpp). Its solutions
// drift off g = 0.
#include "cli/constrained_problems.hpp"
#include "cli/dopri5_reference.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "geomint/odeint_support/index1_ode.hpp"

namespace geomint::cli {
namespace {

template <class System>
reference_result solve_dopri5(const problem_instance& instance, const reference_request& req) {
  const auto& problem = as_problem<System>(instance);
  odeint_support::index1_ode<System> system(problem.system());
  return run_dopri5(system, system.pack(problem.start().first, problem.start().second), req);
}

const registration odeint_reference([] {
  for_each_constrained_problem([](auto tag, const char* name) {
    add_reference("odeint_dopri5", odeint_dopri5_description, name, solve_dopri5<typename decltype(tag)::type>);
  });
});

}  // namespace
}  // namespace geomint::cli
