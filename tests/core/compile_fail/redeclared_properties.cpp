// Refused: a subclass of a geomint stepper that declares other properties would be described by
// them while the core (order() among it) reads its base's (tests/core/CMakeLists.txt expects the
// static_assert). Twin: the same claim through declared_properties, which order() follows.
#include <Eigen/Core>
#include <utility>

#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/constrained/rattle.hpp"

using state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;

#if GEOMINT_COMPILE_FAIL
struct my_rattle : geomint::rattle<state> {
  static constexpr geomint::method_properties properties = geomint::properties_of<geomint::rattle<state>>.order(4);
};
#else
struct order4 {
  static constexpr geomint::method_properties value = geomint::properties_of<geomint::rattle<state>>.order(4);
};
using my_rattle = geomint::declared_properties<geomint::rattle<state>, order4>;
#endif

int main() {
  static_assert(geomint::properties_of<my_rattle>.order() == 4);
  return my_rattle().order() == 4 ? 0 : 1;
}
