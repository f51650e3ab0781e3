// Work–precision against IDA on the double spherical pendulum (Marsden–Wendlandt §7 data),
// T = 1000: the CPU time each method needs to keep the relative energy error ≤ 1e-6 and
// |g(q)| ≤ 1e-10 over [0, T]. Both sides are checked on the same samples (every 0.1 time
// units, 10 000 samples) and timed the same way (process CPU time, min over repetitions).
//
// geomint methods: for each step size of a halving sequence, the run is accepted when it meets
// the goal; the cheapest accepted run counts. IDA (GGL, dense): likewise over rtol = atol in
// 10^(-k/2) steps. Target: best geomint ≥ 20× faster than the best IDA setting.
// The scan, the error sampling and the clock are shared with bench_ida_general_h
// (work_precision.hpp).
#include <cstdio>
#include <string>
#include <vector>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "work_precision.hpp"

using namespace geomint;
using namespace bench::work_precision;
using pendulum = problems::double_spherical_pendulum;
using state = pendulum::state_type;

int main() {
  const pendulum sys;
  const state x0 = sys.initial_state();
  goal gl;
  gl.t_end = 1000;
  std::printf("IDA work-precision: double spherical pendulum, T = %g, goal: max relative energy error <= %g and "
              "max |g| <= %g\n(samples every %g; CPU time min over %d repetitions)\n",
              gl.t_end, gl.energy, gl.constraint, gl.sample_every, gl.repetitions);

  const std::vector<double> steps = halving(gl.sample_every, 10);  // 0.1 / 2^k, k = 0 … 9
  const std::vector<double> tols = tolerances(12, 26);              // 1e-6 … 1e-13

  const std::vector<candidate> methods = {
      {"geomint rattle", [&](double h) { return run_geomint<rattle<state>>(sys, x0, h, gl); }},
      {"geomint lobatto_iiia_iiib<3>", [&](double h) { return run_geomint<lobatto_iiia_iiib<3, state>>(sys, x0, h, gl); }},
      {"geomint lobatto_iiia_iiib<4>", [&](double h) { return run_geomint<lobatto_iiia_iiib<4, state>>(sys, x0, h, gl); }},
      {"geomint lobatto_iiia_iiib<5>", [&](double h) { return run_geomint<lobatto_iiia_iiib<5, state>>(sys, x0, h, gl); }},
  };
  const best_run geo = cheapest(methods, steps, gl);
  const best_run ida = cheapest_ida(sys, x0, tols, gl);

  if (geo.index < 0) {
    std::printf("\nno geomint method met the goal\n");
    print_speedup("best IDA / best geomint (CPU time)", 0, 20, "no geomint method met the goal");
    return 0;
  }
  const std::string best_name = std::string(methods[geo.index].name) + " (dt = " + std::to_string(geo.setting) + ")";
  std::printf("\nbest geomint: %s, %.3f s\n", best_name.c_str(), geo.result.cpu);
  if (ida.index < 0) {
    std::printf("IDA: no tolerance down to %.0e met the goal\n", tols.back());
    std::printf("%-58s %8s   target >= 20  met (IDA cannot reach the goal)\n", "best IDA / best geomint (CPU time)", "inf");
    return 0;
  }
  std::printf("best IDA:     GGL rtol = atol = %.1e, %.3f s\n", ida.setting, ida.result.cpu);
  print_speedup("best IDA / best geomint (CPU time)", ida.result.cpu / geo.result.cpu, 20);
}
