// Refused: a second force wrapper hides the first one's force on some stage-solver paths (the
// outer force() replaces the inner one, while position_force() is still inherited); the sum of
// the forces belongs in one function (tests/constrained/CMakeLists.txt expects the static_assert
// of forced_system). Twin: one wrapper with the sum.
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/system/forced_system.hpp"

int main() {
#if GEOMINT_COMPILE_FAIL
  const auto drive = geomint::with_position_force(geomint::problems::double_spherical_pendulum(),
                                                  [](double, const auto& q, auto& out) { out = -q; });
  const auto both = geomint::with_force(drive, [](double, const auto&, const auto& p, auto& out) { out = -p; });
#else
  const auto both = geomint::with_force(geomint::problems::double_spherical_pendulum(),
                                        [](double, const auto& q, const auto& p, auto& out) { out = -q - p; });
#endif
  return both.position_count();
}
