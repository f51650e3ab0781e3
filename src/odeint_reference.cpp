// "What a user does today": Boost.Odeint's runge_kutta_dopri5 (controlled, integrate_adaptive)
// on the index-1 ODE of a constrained problem (geomint/odeint/index1_ode.hpp). Its solutions
// drift off g = 0.
#include <boost/numeric/odeint.hpp>

#include "cli/constrained_problems.hpp"
#include "cli/driver.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "geomint/odeint/index1_ode.hpp"

namespace geomint::cli {
namespace {

namespace ode = boost::numeric::odeint;

template <class System>
reference_result solve_dopri5(const problem_instance& instance, const reference_request& req) {
  const auto& problem = as_problem<System>(instance);
  reference_result result;
  if (req.sample_times.empty()) return result;
  odeint::index1_ode<System> system(problem.system());
  std::vector<double> x = system.pack(problem.start().first, problem.start().second);
  auto stepper = ode::make_controlled(req.tolerance, req.tolerance, ode::runge_kutta_dopri5<std::vector<double>>());
  // The observer sees every accepted step; the state at the first step point at or after each
  // sample time is handed on (with its own time). Its cost is left out of the CPU time.
  std::size_t next = 0;
  double observer_cpu = 0;
  auto observer = [&](const std::vector<double>& s, double t) {
    if (next >= req.sample_times.size() || t < req.sample_times[next] * (1 - 1e-12)) return;
    const double c0 = cpu_seconds();
    while (next < req.sample_times.size() && t >= req.sample_times[next] * (1 - 1e-12)) ++next;
    req.sample(t, s);
    req.progress(t);
    observer_cpu += cpu_seconds() - c0;
  };
  const double c0 = cpu_seconds();
  try {
    result.steps = static_cast<long>(ode::integrate_adaptive(stepper, std::ref(system), x, 0.0, req.t_end,
                                                             std::min(1e-3, req.t_end), observer));
  } catch (const ode::step_adjustment_error& e) {
    result.ok = false;
    result.error = e.what();
  } catch (const ode::no_progress_error& e) {
    result.ok = false;
    result.error = e.what();
  }
  result.cpu_seconds = cpu_seconds() - c0 - observer_cpu;
  return result;
}

const registration odeint_reference([] {
  for_each_constrained_problem([](auto tag, const char* name) {
    add_reference("odeint_dopri5", odeint_dopri5_description, name, solve_dopri5<typename decltype(tag)::type>);
  });
});

}  // namespace
}  // namespace geomint::cli
