// Zeitlin's truncation of 2D ideal flow on the torus to su(N) — the sine-Euler equations of
// Engø–Faltinsen 1999 §6.3 (problems/sine_euler.hpp) — at N = 63 (3968 coefficients), from a
// random vorticity. The truncation conserves the spectrum of the vorticity matrix W: the
// Casimirs tr(Wᵏ)/N, k = 2 … N, the discrete enstrophies. Three ways to integrate it:
//   isospectral midpoint  Modin–Viviani 2020 (lie/isospectral_midpoint.hpp): W₁ is similar to
//                         W₀, symplectic on the coadjoint orbit, order 2;
//   RKMK GL2 (Cayley)     implicit midpoint in Cayley coordinates (lie/rkmk.hpp), order 2;
//   dopri5                Boost.Odeint's adaptive Dormand–Prince on the plain ODE
//                         ẏ = −ad*_{∇H(y)} y (rtol = atol = 1e-8): what a user does without a
//                         Lie–Poisson method.
// For each: CPU time per unit of simulated time, the largest relative change of the Casimirs
// (against the scale of their terms, su_n::casimir_scales) and of the energy over the samples.
//
//   zeitlin_fluid [T] [h]     (default T = 10, h = 0.1; the fixed-step methods take steps of h)
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

constexpr int N = 63;
using fluid = problems::sine_euler<N>;
using state = fluid::state_type;

double cpu_now() { return double(std::clock()) / CLOCKS_PER_SEC; }

/// Largest relative Casimir and energy errors over the samples, against the initial state, and
/// the CPU time the samples took (the Casimirs cost N products each: not the method's time).
struct drift {
  const fluid& sys;
  Eigen::VectorXd c0, scale;
  double h0, casimir = 0, energy = 0, seconds = 0;
  drift(const fluid& s, const state& y0)
      : sys(s), c0(s.algebra().casimirs(y0)), scale(s.algebra().casimir_scales(y0)), h0(s.hamiltonian(y0)) {}
  void sample(const state& y) {
    const double start = cpu_now();
    casimir = std::fmax(casimir, (sys.algebra().casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
    energy = std::fmax(energy, std::fabs(sys.hamiltonian(y) - h0) / std::fabs(h0));
    seconds += cpu_now() - start;
  }
};

/// One table row; `cpu` includes the samples, which are taken out.
void report(const char* method, double cpu, double t_end, long steps, const drift& d) {
  std::printf("  %-24s %8ld %14.3f %12.2e %12.2e\n", method, steps, (cpu - d.seconds) / t_end, d.casimir, d.energy);
}

/// A fixed-step Lie–Poisson stepper over [0, T], sampled `samples` times.
template <class Stepper>
void fixed_step(const char* name, const fluid& sys, const state& y0, double t_end, double h, int samples) {
  Stepper stepper;
  state y = y0;
  drift d(sys, y0);
  const long n = std::lround(t_end / h), every = std::max(1L, n / samples);
  const double start = cpu_now();
  for (long k = 0; k < n; ++k) {
    stepper.do_step(sys, y, k * h, h);
    if ((k + 1) % every == 0 || k + 1 == n) d.sample(y);
  }
  report(name, cpu_now() - start, t_end, n, d);
}

}  // namespace

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 10;
  const double h = argc > 2 ? std::atof(argv[2]) : 0.1;
  if (!(t_end > 0) || !(h > 0) || h > t_end) {
    std::fprintf(stderr, "usage: zeitlin_fluid [T > 0] [0 < h <= T]\n");
    return 1;
  }
  const fluid sys;
  const state y0 = fluid::random_initial_state();
  const int samples = 20;
  std::printf("sine-Euler on su(%d)*: %d coefficients, T = %g, h = %g (Casimirs tr(W^k)/N, k = 2..%d)\n", N,
              int(y0.size()), t_end, h, N);
  std::printf("  %-24s %8s %14s %12s %12s\n", "method", "steps", "CPU s / unit t", "Casimirs", "energy");

  fixed_step<isospectral_midpoint<su_n<N>>>("isospectral midpoint", sys, y0, t_end, h, samples);
  fixed_step<rkmk<su_n<N>, rk::implicit_midpoint, cayley_coordinates>>("RKMK GL2 (Cayley)", sys, y0, t_end, h,
                                                                        samples);

  // dopri5 on the plain ODE, observed at the same number of evenly spaced times.
  namespace odeint = boost::numeric::odeint;
  std::vector<double> x(y0.data(), y0.data() + y0.size());
  drift d(sys, y0);
  auto stepper = odeint::make_dense_output(1e-8, 1e-8, odeint::runge_kutta_dopri5<std::vector<double>>());
  const lie_poisson_vector_field<fluid> field(sys);
  const double start = cpu_now();
  long steps = 0;
  stepper.initialize(x, 0.0, h);
  for (int k = 1; k <= samples; ++k) {
    const double ts = t_end * k / samples;
    while (stepper.current_time() < ts) {
      stepper.do_step(field);
      ++steps;
    }
    stepper.calc_state(ts, x);
    d.sample(Eigen::Map<const state>(x.data(), static_cast<Eigen::Index>(x.size())));
  }
  report("odeint dopri5 (1e-8)", cpu_now() - start, t_end, steps, d);
  return 0;
}
