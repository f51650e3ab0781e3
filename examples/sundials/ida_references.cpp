// IDA references built from geomint's problem objects (no residual written by hand), against
// lobatto_iiia_iiib<4> at h = 1e-3: accuracy, IDA's work and CPU time per tolerance, formulation
// and linear solver; the constraint drift of the two formulations over [0, 100]; and what
// IDA's uniform weighting of the multipliers does at tight tolerances. Prints the figures
// quoted in docs/sundials.md.
#include <cstdio>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/sundials/ida_reference.hpp"

using namespace geomint;
using namespace geomint::sundials;

namespace {

const char* name(dae_formulation f) { return f == dae_formulation::ggl ? "GGL" : "index-1"; }
const char* name(ida_linear_solver s) {
  return s == ida_linear_solver::dense ? "dense" : s == ida_linear_solver::band ? "band" : "KLU";
}

template <class System>
void accuracy_table(const char* title, const System& sys, std::initializer_list<ida_linear_solver> solvers) {
  const auto x0 = sys.initial_state();
  auto x = x0;
  lobatto_iiia_iiib<4, typename System::state_type> stepper;
  for (int i = 0; i < 1000; ++i) stepper.do_step(sys, x, i * 1e-3, 1e-3);
  std::printf("\n%s, t = 1: max |IDA - lobatto_iiia_iiib<4>(h = 1e-3)| over q, p\n", title);
  std::printf("%-8s %-6s %6s  %-13s %9s %7s %7s %6s %7s %5s %5s %8s\n", "form", "solver", "rtol", "flag", "error",
              "steps", "res", "jac", "newton", "etf", "ncf", "cpu [s]");
  for (dae_formulation f : {dae_formulation::ggl, dae_formulation::index1})
    for (ida_linear_solver s : solvers)
      for (double tol : {1e-6, 1e-8, 1e-10, 1e-12}) {
        ida_options o;
        o.rtol = o.atol = tol;
        o.formulation = f;
        o.linear_solver = s;
        o.output_times = {1.0};
        const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, o);
        const double error = r.ok() ? std::fmax((r.samples[0].q - x.first).cwiseAbs().maxCoeff(),
                                                (r.samples[0].p - x.second).cwiseAbs().maxCoeff())
                                    : -1;
        const ida_statistics& st = r.statistics;
        std::printf("%-8s %-6s %6.0e  %-13s %9.2e %7ld %7ld %6ld %7ld %5ld %5ld %8.3f\n", name(f), name(s), tol,
                    r.flag_name.c_str(), error, st.steps, st.residual_evaluations, st.jacobian_evaluations,
                    st.nonlinear_iterations, st.error_test_failures, st.convergence_failures, r.cpu_seconds);
      }
}

template <class System>
void drift(const char* title, const System& sys, double tol, ida_linear_solver s) {
  const auto x0 = sys.initial_state();
  std::printf("\n%s over [0, 100], rtol = atol = %.0e (%s): max |g(q)| over 100 samples\n", title, tol, name(s));
  for (dae_formulation f : {dae_formulation::ggl, dae_formulation::index1}) {
    ida_options o;
    o.rtol = o.atol = tol;
    o.formulation = f;
    o.linear_solver = s;
    for (int i = 1; i <= 100; ++i) o.output_times.push_back(i);
    const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, o);
    double first = 0, all = 0;
    Eigen::VectorXd g(sys.constraint_count());
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      sys.constraint(r.samples[i].q, g);
      all = std::fmax(all, g.cwiseAbs().maxCoeff());
      if (i < 10) first = std::fmax(first, g.cwiseAbs().maxCoeff());
    }
    std::printf("  %-8s %s: over [0, 10] %.2e, over [0, 100] %.2e (%ld steps, %.2f s)\n", name(f),
                r.flag_name.c_str(), first, all, r.statistics.steps, r.cpu_seconds);
  }
}

}  // namespace

int main() {
  const problems::double_spherical_pendulum pendulum;
  problems::pendulum_chain_parameters p;
  p.links = 20;
  const problems::pendulum_chain chain(p);
  accuracy_table("Double spherical pendulum (n = 6, m = 2)", pendulum, {ida_linear_solver::dense});
  accuracy_table("20-link chain (n = 60, m = 20)", chain,
                 {ida_linear_solver::dense, ida_linear_solver::band, ida_linear_solver::klu});
  drift("Double spherical pendulum", pendulum, 1e-10, ida_linear_solver::dense);
  drift("20-link chain", chain, 1e-8, ida_linear_solver::klu);

  std::printf("\nIDA's uniform weighting (multiplier_atol = atol), double spherical pendulum, GGL:\n");
  for (double tol : {1e-8, 1e-10, 1e-12}) {
    ida_options o;
    o.rtol = o.atol = o.multiplier_atol = tol;
    o.output_times = {1.0};
    o.max_steps = 20000;
    const ida_result r = solve_ida(pendulum, pendulum.initial_state().first, pendulum.initial_state().second, 0.0, o);
    std::printf("  rtol %.0e: %s %s\n", tol, r.flag_name.c_str(), r.message.c_str());
  }
  return 0;
}
