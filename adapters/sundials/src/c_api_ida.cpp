// The C API's IDA reference from the same callbacks (geomint_sundials.h, GeomintSolveIDA) and
// its statistics in IDAPrintAllStats' format.
#include <string>

#include "c_memory.hpp"
#include "c_stats_printer.hpp"

using namespace geomint::sundials::detail;

namespace {

void copy_statistics(const geomint::sundials::ida_result& r, GeomintIDAStats& out) {
  const geomint::sundials::ida_statistics& s = r.statistics;
  out = GeomintIDAStats{};
  out.steps = s.steps;
  out.residual_evals = s.residual_evaluations;
  out.jacobian_evals = s.jacobian_evaluations;
  out.linear_setups = s.linear_setups;
  out.nonlinear_iters = s.nonlinear_iterations;
  out.error_test_fails = s.error_test_failures;
  out.convergence_fails = s.convergence_failures;
  out.cpu_seconds = r.cpu_seconds;
  out.samples = static_cast<int>(r.samples.size());
  out.ida_flag = r.flag;
  out.current_time = s.current_time;
  out.step_solve_fails = s.step_solve_failures;
  out.initial_step = s.initial_step;
  out.last_step = s.last_step;
  out.current_step = s.current_step;
  out.last_order = s.last_order;
  out.current_order = s.current_order;
  out.backtrack_ops = s.backtrack_operations;
  out.ls_residual_evals = s.linear_residual_evaluations;
  out.prec_evals = s.preconditioner_evaluations;
  out.prec_solves = s.preconditioner_solves;
  out.linear_iters = s.linear_iterations;
  out.linear_conv_fails = s.linear_convergence_failures;
  out.jtimes_setups = s.jacobian_times_setups;
  out.jtimes_evals = s.jacobian_times_evaluations;
  out.root_evals = s.root_evaluations;
}

}  // namespace

extern "C" {

void GeomintIDADefaultOptions(GeomintIDAOptions* options) {
  if (!options) return;
  const geomint::sundials::ida_options defaults;
  options->formulation = GEOMINT_IDA_GGL;
  options->linear_solver = GEOMINT_IDA_DENSE;
  options->rtol = defaults.rtol;
  options->atol = defaults.atol;
  options->max_steps = defaults.max_steps;
}

int GeomintSolveIDA(void* mem, const GeomintIDAOptions* options, int ntimes, const sunrealtype* times,
                    N_Vector* q_out, N_Vector* p_out, GeomintIDAStats* stats) {
  return guarded(mem, __func__, [&](memory& m) {
    using namespace geomint::sundials;
    if (!options || !stats || !times || !q_out || !p_out || ntimes < 1)
      return m.ill_input("options, stats, times and ntimes >= 1 output vectors are required");
    for (int i = 0; i < ntimes; ++i)
      if (!serial(q_out[i], m.problem.n) || !serial(p_out[i], m.problem.n))
        return m.ill_input("the output vectors must be serial N_Vectors of length n");
    ida_options o;
    if (options->formulation == GEOMINT_IDA_GGL) o.formulation = dae_formulation::ggl;
    else if (options->formulation == GEOMINT_IDA_INDEX1) o.formulation = dae_formulation::index1;
    else return m.ill_input("unknown IDA formulation");
    if (options->linear_solver == GEOMINT_IDA_DENSE) o.linear_solver = ida_linear_solver::dense;
    else if (options->linear_solver == GEOMINT_IDA_BAND) o.linear_solver = ida_linear_solver::band;
    else if (options->linear_solver == GEOMINT_IDA_KLU) o.linear_solver = ida_linear_solver::klu;
    else return m.ill_input("unknown IDA linear solver");
    o.rtol = options->rtol;
    o.atol = options->atol;
    o.max_steps = options->max_steps;
    o.output_times.assign(times, times + ntimes);
    const ida_result r = m.ensure_model().solve_ida(m.t0, m.q0, m.p0, o);
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      data(q_out[i]) = r.samples[i].q;
      data(p_out[i]) = r.samples[i].p;
    }
    copy_statistics(r, *stats);
    if (!r.ok()) return m.fail(GEOMINT_IDA_FAIL, r.flag_name + ": " + r.message);
    return m.succeed();
  });
}

int GeomintPrintIDAStats(const GeomintIDAStats* stats, FILE* outfile, int fmt) {
  if (!stats || !outfile || !valid_output_format(fmt)) return GEOMINT_ILL_INPUT;
  const GeomintIDAStats& s = *stats;
  stats_printer out(outfile, fmt);
  // IDAPrintAllStats (SUNDIALS 6.4), entry for entry. Its "NLS iters per step" is, as printed
  // there, residual evaluations per step.
  out.entry("Current time", "Time", static_cast<double>(s.current_time));
  out.entry("Steps", s.steps);
  out.entry("Error test fails", s.error_test_fails);
  out.entry("NLS step fails", s.step_solve_fails);
  out.entry("Initial step size", static_cast<double>(s.initial_step));
  out.entry("Last step size", static_cast<double>(s.last_step));
  out.entry("Current step size", static_cast<double>(s.current_step));
  out.entry("Last method order", static_cast<long>(s.last_order));
  out.entry("Current method order", static_cast<long>(s.current_order));
  out.entry("Residual fn evals", s.residual_evals);
  out.entry("IC linesearch backtrack ops", s.backtrack_ops);
  out.entry("NLS iters", s.nonlinear_iters);
  out.entry("NLS fails", s.convergence_fails);
  if (s.steps > 0) out.entry("NLS iters per step", static_cast<double>(s.residual_evals) / s.steps);
  else out.csv_only("NLS iters per step", "0");
  out.entry("LS setups", s.linear_setups);
  out.entry("Jac fn evals", s.jacobian_evals);
  out.entry("LS residual fn evals", "LS residual evals", s.ls_residual_evals);
  out.entry("Prec setup evals", s.prec_evals);
  out.entry("Prec solves", s.prec_solves);
  out.entry("LS iters", s.linear_iters);
  out.entry("LS fails", s.linear_conv_fails);
  out.entry("Jac-times setups", s.jtimes_setups);
  out.entry("Jac-times evals", s.jtimes_evals);
  if (s.nonlinear_iters > 0) {
    out.entry("LS iters per NLS iter", static_cast<double>(s.linear_iters) / s.nonlinear_iters);
    out.entry("Jac evals per NLS iter", static_cast<double>(s.jacobian_evals) / s.nonlinear_iters);
    out.entry("Prec evals per NLS iter", static_cast<double>(s.prec_evals) / s.nonlinear_iters);
  } else {
    out.csv_only("LS iters per NLS iter", "0");
    out.csv_only("Jac evals per NLS iter", "0");
    out.csv_only("Prec evals per NLS iter", "0");
  }
  out.entry("Root fn evals", s.root_evals);
  return GEOMINT_SUCCESS;
}

}  // extern "C"
