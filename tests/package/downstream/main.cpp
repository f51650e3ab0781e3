// A user program built against an installed geomint.
#include <boost/numeric/odeint.hpp>
#include <cstdio>
#include <geomint/geomint.hpp>
#include <geomint/odeint_support/invariant_monitor.hpp>
#include <geomint/problems/spherical_pendulum.hpp>

int main() {
  const geomint::problems::spherical_pendulum pendulum;
  auto x = pendulum.initial_state();
  geomint::odeint_support::invariant_monitor<geomint::problems::spherical_pendulum> monitor(pendulum);
  boost::numeric::odeint::integrate_const(geomint::rattle<decltype(x)>{}, pendulum, x, 0.0, 10.0, 0.01, monitor);
  std::printf("constraint residual %.1e, energy error %.1e\n", monitor.record().max_position_residual(),
              monitor.record().max_energy_error());
  return monitor.record().max_position_residual() <= 1e-12 ? 0 : 1;
}
