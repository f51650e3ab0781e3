// Refused: SHAKE's discrete Euler–Lagrange equations do not take driven constraints g(q, t) = 0
// (they would hold g at the wrong times and miss ∂g/∂t): tests/constrained/CMakeLists.txt
// expects the static_assert. Twin: RATTLE on the same driven system.
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/bead_on_rotating_rod.hpp"
#include "geomint/variational/shake.hpp"

int main() {
  const geomint::problems::bead_on_rotating_rod sys;
  auto x = sys.exact_state(0.0);
  using state = std::pair<geomint::vector<2>, geomint::vector<2>>;
#if GEOMINT_COMPILE_FAIL
  geomint::shake<state> stepper;
#else
  geomint::rattle<state> stepper;
#endif
  stepper.do_step(sys, x, 0.0, 0.01);
  return 0;
}
