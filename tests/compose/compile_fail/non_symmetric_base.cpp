// Refused: composition raises the order of symmetric bases only, and constrained symplectic Euler
// is not symmetric (tests/compose/CMakeLists.txt expects the static_assert). Twin: RATTLE.
#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/rattle.hpp"

int main() {
#if GEOMINT_COMPILE_FAIL
  geomint::composition<geomint::constrained_symplectic_euler<>, geomint::yoshida4> method;
#else
  geomint::composition<geomint::rattle<>, geomint::yoshida4> method;
#endif
  return method.order();
}
