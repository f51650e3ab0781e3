// The IDA reference (geomint::sundials, stabilized index-2 GGL formulation) on every
// constrained problem: the DAE is built from the same system object the steppers use.
#include <chrono>

#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "geomint/sundials/ida_reference.hpp"

namespace geomint::cli {
namespace {

template <class System>
reference_result solve_ggl(const problem_instance& instance, const reference_request& req) {
  const auto& problem = as_problem<System>(instance);
  reference_result result;
  if (req.sample_times.empty()) return result;
  sundials::ida_options o;
  o.formulation = sundials::dae_formulation::ggl;
  o.linear_solver = system_traits<System>::sparse_jacobian ? sundials::ida_linear_solver::klu
                                                           : sundials::ida_linear_solver::dense;
  o.rtol = o.atol = req.tolerance;
  o.output_times = req.sample_times;
  const sundials::ida_result r = sundials::solve_ida(problem.system(), problem.start().first, problem.start().second, 0.0, o);
  result.steps = r.statistics.steps;
  result.cpu_seconds = r.cpu_seconds;
  result.ok = r.ok();
  if (!r.ok()) result.error = r.flag_name + ": " + r.message;
  std::vector<double> state;
  for (const auto& s : r.samples) {
    state.resize(static_cast<std::size_t>(s.q.size() + s.p.size()));
    Eigen::Map<Eigen::VectorXd>(state.data(), s.q.size()) = s.q;
    Eigen::Map<Eigen::VectorXd>(state.data() + s.q.size(), s.p.size()) = s.p;
    req.sample(s.t, state);
  }
  return result;
}

const registration ida_reference([] {
  for_each_constrained_problem([](auto tag, const char* name) {
    add_reference("ida_ggl", "SUNDIALS IDA on the stabilized index-2 (GGL) DAE, built by geomint::sundials", name,
                  solve_ggl<typename decltype(tag)::type>);
  });
});

}  // namespace
}  // namespace geomint::cli
