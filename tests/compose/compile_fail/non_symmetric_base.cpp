// Must not compile: composition raises the order of symmetric bases only, and constrained
// symplectic Euler is not symmetric (tests/compose/CMakeLists.txt expects the static_assert).
#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"

int main() {
  geomint::composition<geomint::constrained_symplectic_euler<>, geomint::yoshida4> method;
  return method.order();
}
