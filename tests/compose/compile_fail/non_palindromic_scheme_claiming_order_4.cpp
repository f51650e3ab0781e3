// Refused: {0.5, 0.3, 0.2} is consistent but no palindrome and no fourth-order scheme; claiming
// order 4 it would run at order 2. Twin: the same coefficients claiming the order they reach (2),
// accepted, and described as not symmetric.
#include <array>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"

struct my_scheme {
#if GEOMINT_COMPILE_FAIL
  static constexpr int order = 4;
#else
  static constexpr int order = 2;
#endif
  static constexpr std::array<double, 3> coefficients{0.5, 0.3, 0.2};
};

int main() {
  using method = geomint::composition<geomint::rattle<>, my_scheme>;
#if GEOMINT_COMPILE_FAIL
  method m;  // the only use: the one error is the scheme's
  (void)m;
#else
  static_assert(!geomint::properties_of<method>.symmetric());
  return method().order();
#endif
}
