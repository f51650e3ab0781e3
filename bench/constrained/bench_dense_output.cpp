// dense_output<rattle> against plain rattle on the double spherical pendulum, observing on the
// grid (odeint integrate_const with the observation step equal to the step): the dense-output
// layer costs one state copy per step, and grid observations return the grid states without
// interpolating. Target: ≤ 1.05×. Also printed: the cost of observing between grid points
// (one interpolation per step, Hermite quintic/cubic with the exact vector field).
#include <utility>  // before odeint
#include <boost/numeric/odeint/integrate/integrate_const.hpp>
#include <cstdio>

#include "bench_timing.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

int main() {
  namespace odeint = boost::numeric::odeint;
  using state = geomint::problems::double_spherical_pendulum::state_type;
  const geomint::problems::double_spherical_pendulum dsp;
  const double dt = 0.001;

  state a = dsp.initial_state(), b = a, c = a;
  geomint::rattle<state> plain;
  geomint::dense_output<geomint::rattle<state>> dense, between;
  double ta = 0, tb = 0, sink = 0;
  const auto observe = [&](const state& x, double) { sink += x.first(0); };
  between.initialize(c, 0.0, dt);
  const auto t = bench::side_by_side(
      {[&](long s) {
         for (long i = 0; i < s; ++i, ta += dt) {
           plain.do_step(dsp, a, ta, dt);
           observe(a, ta);
         }
       },
       [&](long s) {
         odeint::integrate_const(dense, std::cref(dsp), b, tb, tb + s * dt, dt, observe);
         tb += s * dt;
       },
       [&](long s) {  // one observation in the middle of every step
         for (long i = 0; i < s; ++i) {
           between.do_step(std::cref(dsp));
           between.calc_state(between.current_time() - 0.5 * dt, c);
           observe(c, 0.0);
         }
       }},
      20000, 101);
  std::printf("%-58s %8s %8s   (time per step, ns: rattle %.0f, dense on the grid %.0f, between %.0f)\n", "ratio",
              "min", "median", 1e9 * t[0].median, 1e9 * t[1].median, 1e9 * t[2].median);
  bench::print_ratio("dense_output<rattle> observing on the grid / rattle", t[1], t[0], 1.05,
                     "on a ~150 ns step the layer's state copy, integrate_const's dense-output loop (time "
                     "comparisons per observation) and calc_state's copy of the grid state into the "
                     "observer's state add ~15 ns; a step costlier than the pendulum's brings it under 1.05");
  bench::print_ratio("dense_output<rattle> observing between grid points / rattle", t[2], t[0]);
  bench::keep(sink);
  return 0;
}
