// Refused: Yoshida's fourth-order triple jump claiming order 6 (it runs at order 4: its order-5
// conditions fail). Twin: the same coefficients claiming order 4.
#include <array>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"

struct my_scheme {
#if GEOMINT_COMPILE_FAIL
  static constexpr int order = 6;
#else
  static constexpr int order = 4;
#endif
  static constexpr std::array<double, 3> coefficients = geomint::yoshida4::coefficients;
};

int main() {
  using method = geomint::composition<geomint::rattle<>, my_scheme>;
#if GEOMINT_COMPILE_FAIL
  method m;  // the only use: the one error is the scheme's
  (void)m;
#else
  static_assert(geomint::properties_of<method>.symmetric() && geomint::properties_of<method>.order() == my_scheme::order);
  return method().order();
#endif
}
