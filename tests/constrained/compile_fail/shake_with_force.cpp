// Refused: SHAKE's discrete Euler–Lagrange equations have no force term, so a forced system's
// force would be ignored without an error (tests/constrained/CMakeLists.txt expects the
// static_assert). Twin: SHAKE on the conservative system.
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/variational/shake.hpp"

int main() {
#if GEOMINT_COMPILE_FAIL
  const auto sys = geomint::with_position_force(geomint::problems::double_spherical_pendulum(),
                                                [](double, const auto& q, auto& out) { out = -q; });
#else
  const geomint::problems::double_spherical_pendulum sys;
#endif
  const auto x = sys.initial_state();
  std::pair<geomint::vector<6>, geomint::vector<6>> pair{x.first, x.first};
  geomint::shake<std::pair<geomint::vector<6>, geomint::vector<6>>> stepper;
  stepper.do_step(sys, pair, 0.0, 0.01);
  return 0;
}
