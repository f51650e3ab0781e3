// Every method of the constrained family on the double spherical pendulum of
// Marsden–Wendlandt 1997 §7: energy, constraint and momentum errors over [0, T].
//
//   constrained_methods [T] [dt]      (default T = 100, dt = 0.01)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/tableau/collocation.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

using pendulum = geomint::problems::double_spherical_pendulum;
using state = pendulum::state_type;

template <class Stepper>
void report(const char* name, const pendulum& dsp, double t_end, double dt) {
  Stepper stepper;
  auto x = dsp.initial_state();
  const double h0 = dsp.hamiltonian(x.first, x.second), l0 = pendulum::vertical_angular_momentum(x.first, x.second);
  double de = 0, dl = 0, g = 0, gv = 0;
  const auto start = std::chrono::steady_clock::now();
  const long n = std::lround(t_end / dt);
  for (long i = 0; i < n; ++i) {
    stepper.do_step(dsp, x, i * dt, dt);
    de = std::fmax(de, std::fabs(dsp.hamiltonian(x.first, x.second) - h0) / std::fabs(h0));
    dl = std::fmax(dl, std::fabs(pendulum::vertical_angular_momentum(x.first, x.second) - l0) / std::fabs(l0));
    const auto r = geomint::constraint_residuals_of(dsp, x.first, x.second);
    g = std::fmax(g, r.position);
    gv = std::fmax(gv, r.velocity);
  }
  const double cpu = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-34s %5d %12.3e %12.3e %12.3e %12.3e %9.2f\n", name, stepper.order(), de, g, gv, dl, cpu);
}

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 100.0, dt = argc > 2 ? std::atof(argv[2]) : 0.01;
  const pendulum dsp;
  std::printf("double spherical pendulum (Marsden-Wendlandt 1997 §7), T = %g, dt = %g\n", t_end, dt);
  std::printf("maxima over every step; relative energy and momentum errors, scaled constraint residuals\n\n");
  std::printf("%-34s %5s %12s %12s %12s %12s %9s\n", "method", "order", "energy", "g(q)", "G dH/dp", "Lz", "CPU s");
  report<geomint::constrained_symplectic_euler<state>>("constrained_symplectic_euler", dsp, t_end, dt);
  report<geomint::rattle<state>>("rattle", dsp, t_end, dt);
  report<geomint::lobatto_iiia_iiib<3, state>>("lobatto_iiia_iiib<3>", dsp, t_end, dt);
  report<geomint::lobatto_iiia_iiib<4, state>>("lobatto_iiia_iiib<4>", dsp, t_end, dt);
  report<geomint::lobatto_iiia_iiib<5, state>>("lobatto_iiia_iiib<5>", dsp, t_end, dt);
  return 0;
}
