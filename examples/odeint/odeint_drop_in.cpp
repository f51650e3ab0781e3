// An existing Boost.Odeint program — integrate_const with runge_kutta4 on the double spherical
// pendulum written as an index-1 ODE — next to the same loop with geomint::rattle swapped in.
// Both print their energy and constraint drift at t = 1000.
//
//   odeint_drop_in [dt]      (default dt = 0.001)
#include <boost/numeric/odeint.hpp>
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
#include "geomint/odeint_support/index1_ode.hpp"
#include "geomint/odeint_support/invariant_monitor.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

namespace ode = boost::numeric::odeint;
using pendulum = geomint::problems::double_spherical_pendulum;

int main(int argc, char** argv) {
  const double dt = argc > 1 ? std::atof(argv[1]) : 0.001, t_end = 1000.0;
  const pendulum dsp;  // Marsden–Wendlandt 1997, §7
  const auto x0 = dsp.initial_state();
  auto lz = [](const Eigen::VectorXd& q, const Eigen::VectorXd& p) { return pendulum::vertical_angular_momentum(q, p); };
  std::printf("double spherical pendulum, dt = %g, t = %g\n\n", dt, t_end);
  std::printf("%-22s %14s %14s %14s %14s\n", "method", "max |H - H0|", "|g| at t_end", "|G qdot| end", "max |Lz - Lz0|");

  // The usual alternative: the index-1 ODE and a classical Runge–Kutta method.
  {
    geomint::odeint_support::index1_ode<pendulum> ode_system(dsp);
    std::vector<double> x = ode_system.pack(x0.first, x0.second);
    geomint::odeint_support::invariant_monitor<pendulum> monitor(dsp, lz);
    ode::integrate_const(ode::runge_kutta4<std::vector<double>>(), std::ref(ode_system), x, 0.0, t_end, dt,
                         [&](const std::vector<double>& s, double t) { if (std::fmod(t, 1.0) < dt / 2 || t >= t_end - dt / 2) monitor(s, t); });
    const auto& last = monitor.record().samples.back();
    std::printf("%-22s %14.3e %14.3e %14.3e %14.3e\n", "odeint runge_kutta4", monitor.record().max_energy_error(),
                last.position_residual, last.velocity_residual, monitor.record().max_momentum_error());
  }

  // The same loop with geomint::rattle swapped in: same system description, same observer.
  {
    auto x = x0;
    geomint::odeint_support::invariant_monitor<pendulum> monitor(dsp, lz);
    ode::integrate_const(geomint::rattle<pendulum::state_type>(), std::cref(dsp), x, 0.0, t_end, dt,
                         [&](const pendulum::state_type& s, double t) { if (std::fmod(t, 1.0) < dt / 2 || t >= t_end - dt / 2) monitor(s, t); });
    const auto& last = monitor.record().samples.back();
    std::printf("%-22s %14.3e %14.3e %14.3e %14.3e\n", "geomint rattle", monitor.record().max_energy_error(),
                last.position_residual, last.velocity_residual, monitor.record().max_momentum_error());
  }
  std::printf("\n|g| and |G qdot| are scaled residuals (relative length and velocity errors).\n");
  return 0;
}
