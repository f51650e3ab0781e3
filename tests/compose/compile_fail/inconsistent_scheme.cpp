// Refused: a scheme whose coefficients sum to 1.1 (a typo in the middle one) is inconsistent; it
// would run with an O(1) error at every step size. Twin: the same scheme with the middle
// coefficient corrected so that Σγ = 1.
#include <array>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"

struct my_scheme {
  static constexpr int order = 2;
#if GEOMINT_COMPILE_FAIL
  static constexpr std::array<double, 3> coefficients{0.3, 0.5, 0.3};
#else
  static constexpr std::array<double, 3> coefficients{0.3, 0.4, 0.3};
#endif
};

int main() {
  geomint::composition<geomint::rattle<>, my_scheme> method;
  (void)method;
}
