// Marsden–Wendlandt 1997 §7 with geomint's variational integrators.
//
// 1. The quaternion rigid body (Lagrangian (53), I = diag(1, 2, 3), ω_b = (0, 3, 4)) with the
//    two-step variational_midpoint, started as in the paper (an Euler step of 1e-5, then the DEL
//    integrator at 1e-5 up to t = h), for h = 0.1 … 0.0125 over 30 s: the quaternion error (57)
//    against the h = 1e-4 run (Fig. 1), the unit-quaternion constraint, and the discrete
//    momentum map (conserved, approaching the continuous π = (0, 6, 12) as h²).
// 2. The double spherical pendulum with SHAKE (h = 0.1 … 0.001, 100 s): energy error, vertical
//    angular momentum (eq. (41) on the pairs (q_k, q_{k+1})), constraint residuals.
//
//   rigid_body_and_pendulum
#include <cmath>
#include <cstdio>
#include <vector>

#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/quaternion_rigid_body.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/discrete_momentum_map.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace geomint;
using pair4 = std::pair<vector<4>, vector<4>>;
using pair6 = std::pair<vector<6>, vector<6>>;

namespace {

struct rigid_body_run {
  std::vector<vector<4>> samples;  // q at t = 0, 0.1, 0.2, …
  double constraint = 0;           // max |‖q‖² − 1|
  vector<3> momentum = vector<3>::Zero();
  double momentum_variation = 0;   // max change of the discrete momentum map along the run
};

vector<3> discrete_angular_momentum(const problems::quaternion_rigid_body& body, const vector<4>& a,
                                    const vector<4>& b, double h) {
  vector<3> j;
  for (int axis = 0; axis < 3; ++axis)
    j(axis) = discrete_momentum_map(body, a, b, h, [axis](const vector<4>& q) {
      return problems::quaternion_rigid_body::generator(axis, q);
    });
  return j;
}

rigid_body_run run_rigid_body(const problems::quaternion_rigid_body& body, double h, double t_end) {
  const double h_fine = 1e-5;
  pair4 x = body.euler_start(h_fine);
  const vector<4> q0 = x.first;
  variational_midpoint_two_step<pair4> fine;
  for (int k = 1; k < static_cast<int>(std::lround(h / h_fine)); ++k) fine.do_step(body, x, k * h_fine, h_fine);
  x.first = q0;  // (q(0), q(h))

  rigid_body_run run;
  run.samples.push_back(q0);
  run.momentum = discrete_angular_momentum(body, x.first, x.second, h);
  const int every = static_cast<int>(std::lround(0.1 / h)), n = static_cast<int>(std::lround(t_end / h));
  variational_midpoint_two_step<pair4> stepper;
  for (int k = 1; k <= n; ++k) {
    if (k % every == 0) run.samples.push_back(x.second);
    run.constraint = std::fmax(run.constraint, std::fabs(x.second.squaredNorm() - 1));
    if (k == n) break;
    stepper.do_step(body, x, k * h, h);
    if (k % 1000 == 0 || k == n - 1)
      run.momentum_variation = std::fmax(
          run.momentum_variation, (discrete_angular_momentum(body, x.first, x.second, h) - run.momentum).norm());
  }
  return run;
}

}  // namespace

int main() {
  const problems::quaternion_rigid_body body;
  const double t_end = 30.0;
  std::printf("Quaternion rigid body, variational_midpoint (two-step form, paper's start), t in [0, %g]\n", t_end);
  const rigid_body_run standard = run_rigid_body(body, 1e-4, t_end);
  const vector<3> pi(0, 6, 12);
  std::printf("%8s %14s %14s %16s %18s\n", "h", "error (57)", "max |q|^2-1", "|J_d - pi|/|pi|", "J_d variation");
  for (double h : {0.1, 0.05, 0.025, 0.0125}) {
    const rigid_body_run run = run_rigid_body(body, h, t_end);
    double sum = 0;
    for (std::size_t i = 0; i < run.samples.size(); ++i) sum += (run.samples[i] - standard.samples[i]).norm();
    std::printf("%8.4f %14.4e %14.2e %16.4e %18.2e\n", h, sum / (4.0 * run.samples.size()), run.constraint,
                (run.momentum - pi).norm() / pi.norm(), run.momentum_variation / pi.norm());
  }

  const problems::double_spherical_pendulum dsp;
  const lagrangian_view<problems::double_spherical_pendulum> lagrangian(dsp);
  const auto x0 = dsp.initial_state();
  const double e0 = dsp.hamiltonian(x0.first, x0.second);
  const double j0 = problems::double_spherical_pendulum::vertical_angular_momentum(x0.first, x0.second);
  auto rotation = [](const vector<6>& q) {
    vector<6> xi;
    xi << -q(1), q(0), 0, -q(4), q(3), 0;
    return xi;
  };
  std::printf("\nDouble spherical pendulum (Marsden-Wendlandt §7 data), shake, t in [0, 100]\n");
  std::printf("%8s %16s %20s %22s %14s\n", "h", "max |dE|/E0", "J_d(h) - J", "J_d variation / |J|", "max |g|/l1^2");
  for (double h : {0.1, 0.01, 0.001}) {
    auto r = x0;
    rattle<problems::double_spherical_pendulum::state_type>().do_step(dsp, r, 0.0, h);  // q1
    pair6 x{x0.first, r.first};
    const double jd = discrete_momentum_map(lagrangian, x.first, x.second, h, rotation);
    shake<pair6> stepper;
    double de = 0, dj = 0, g = 0;
    vector<2> gval;
    const int n = static_cast<int>(std::lround(100.0 / h));
    for (int k = 1; k < n; ++k) {
      stepper.do_step(dsp, x, k * h, h);
      dsp.constraint(x.second, gval);
      g = std::fmax(g, gval.cwiseAbs().maxCoeff() / 16.0);
      if (k % 10 == 0) {
        de = std::fmax(de, std::fabs(dsp.hamiltonian(x.second, shake_momentum(dsp, x.first, x.second, h)) - e0));
        dj = std::fmax(dj, std::fabs(discrete_momentum_map(lagrangian, x.first, x.second, h, rotation) - jd));
      }
    }
    std::printf("%8.3f %16.4e %20.4e %22.2e %14.2e\n", h, de / std::fabs(e0), jd - j0, dj / std::fabs(j0), g);
  }
  return 0;
}
