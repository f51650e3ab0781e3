// Refused: SHAKE steps the pair (q_{k-1}, q_k), which holds the previous step's size, so its
// substeps of different sizes (and signs) would be wrong without an error
// (tests/compose/CMakeLists.txt expects the static_assert). Twin: the one-step DEL form.
#include "geomint/compose/composition.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

int main() {
#if GEOMINT_COMPILE_FAIL
  geomint::composition<geomint::shake<>, geomint::yoshida4> method;
#else
  geomint::composition<geomint::variational_midpoint<>, geomint::yoshida4> method;
#endif
  return method.order();
}
