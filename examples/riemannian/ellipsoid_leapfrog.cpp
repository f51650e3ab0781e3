// Leimkuhler–Patrick 1996, §2: a particle on the ellipsoid y₁²/a₁² + y₂²/a₂² + y₃²/a₃² = 1 with
// V = μ y₃, integrated on the unit sphere x = y/a with the Riemannian leapfrog (geodesics and
// parallel transport of the round metric; the kinetic metric m Σ a_i² dx_i² enters through A),
// next to RATTLE on the same problem written as a constrained system. Printed over time: the
// energy error of both, the S¹ momentum x₁p₂ − x₂p₁ (conserved when a₁ = a₂), and how far x is
// from the unit sphere.
//
//   ellipsoid_leapfrog [a1 = 1] [a2 = 1] [a3 = 0.6] [h = 0.05] [T = 500]
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"

int main(int argc, char** argv) {
  using namespace geomint;
  problems::particle_on_ellipsoid_parameters par;
  if (argc > 1) par.a1 = std::atof(argv[1]);
  if (argc > 2) par.a2 = std::atof(argv[2]);
  if (argc > 3) par.a3 = std::atof(argv[3]);
  const double h = argc > 4 ? std::atof(argv[4]) : 0.05, T = argc > 5 ? std::atof(argv[5]) : 500.0;
  const problems::particle_on_ellipsoid ellipsoid(par);
  const auto riemannian = on_space(ellipsoid, ellipsoid.space());
  using state = problems::particle_on_ellipsoid::state_type;

  state lf = ellipsoid.initial_state(), rt = lf;
  riemannian_leapfrog<state> leapfrog;
  rattle<state> constrained;
  const double e0 = ellipsoid.hamiltonian(lf.first, lf.second);
  const double j0 = problems::particle_on_ellipsoid::axial_momentum(lf.first, lf.second);
  const int steps = static_cast<int>(T / h + 0.5), every = std::max(1, steps / 20);
  std::printf("# particle on the ellipsoid a = (%g, %g, %g), mu = %g, h = %g\n", par.a1, par.a2, par.a3, par.mu, h);
  std::printf("# %8s %13s %13s %13s %13s %11s\n", "t", "dE leapfrog", "dE rattle", "dJ leapfrog", "dJ rattle", "||x|-1| lf");
  for (int i = 1; i <= steps; ++i) {
    leapfrog.do_step(riemannian, lf, (i - 1) * h, h);
    constrained.do_step(ellipsoid, rt, (i - 1) * h, h);
    if (i % every == 0)
      std::printf("%10.2f %13.3e %13.3e %13.3e %13.3e %11.2e\n", i * h, ellipsoid.hamiltonian(lf.first, lf.second) - e0,
                  ellipsoid.hamiltonian(rt.first, rt.second) - e0,
                  problems::particle_on_ellipsoid::axial_momentum(lf.first, lf.second) - j0,
                  problems::particle_on_ellipsoid::axial_momentum(rt.first, rt.second) - j0, std::fabs(lf.first.norm() - 1));
  }
  return 0;
}
