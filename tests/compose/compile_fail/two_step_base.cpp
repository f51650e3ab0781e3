// Must not compile: SHAKE steps the pair (q_{k-1}, q_k), which holds the previous step's size,
// so its substeps of different sizes (and signs) would be wrong without an error
// (tests/compose/CMakeLists.txt expects the static_assert).
#include "geomint/compose/composition.hpp"
#include "geomint/variational/shake.hpp"

int main() {
  geomint::composition<geomint::shake<>, geomint::yoshida4> method;
  return method.order();
}
