// IDA (GGL, KLU with the sparse Jacobian pattern of the chain) on the N-link pendulum chain, for
// comparison with bench_chain_scale (geomint::rattle): CPU time per IDA step per link, and the
// CPU time per unit of simulated time of both at the same horizon. IDA at rtol = atol = 1e-8;
// rattle at dt = 1e-3. Printed for information (a comparison, no target).
#include <cstdio>
#include <ctime>
#include <vector>

#include "geomint/constrained/rattle.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/sundials/ida_reference.hpp"

using namespace geomint;

int main() {
  const double t_end = 0.1, dt = 1e-3;
  std::printf("pendulum chain over [0, %g]: IDA GGL + KLU (rtol = atol = 1e-8) against rattle (dt = %g)\n", t_end, dt);
  std::printf("%8s %10s %14s %12s %12s %14s\n", "links", "IDA steps", "IDA us/step/lk", "IDA CPU s", "rattle CPU s",
              "IDA / rattle");
  for (int links : {10, 100, 1000, 10000}) {
    const problems::pendulum_chain chain({links});
    const auto x0 = chain.initial_state();
    sundials::ida_options o;
    o.rtol = o.atol = 1e-8;
    o.linear_solver = sundials::ida_linear_solver::klu;
    o.output_times = {t_end};
    const sundials::ida_result r = sundials::solve_ida(chain, x0.first, x0.second, 0.0, o);

    auto x = x0;
    rattle<> stepper;
    const double start = double(std::clock()) / CLOCKS_PER_SEC;
    const long steps = std::lround(t_end / dt);
    for (long i = 0; i < steps; ++i) stepper.do_step(chain, x, i * dt, dt);
    const double rattle_cpu = double(std::clock()) / CLOCKS_PER_SEC - start;

    if (!r.ok()) {
      std::printf("%8d IDA failed: %s (%s)\n", links, r.flag_name.c_str(), r.message.c_str());
      continue;
    }
    std::printf("%8d %10ld %14.2f %12.3f %12.3f %14.1f\n", links, r.statistics.steps,
                1e6 * r.cpu_seconds / r.statistics.steps / links, r.cpu_seconds, rattle_cpu, r.cpu_seconds / rattle_cpu);
  }
  return 0;
}
