// Refused: the double spherical pendulum has 6 positions and momenta; a state of fixed size 5 is
// rejected by check_state's static_assert alone (tests/constrained/CMakeLists.txt expects the
// message and rejects Eigen's size errors from inside the step). Twin: sizes 6 and 6.
#include <utility>

#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

int main() {
  const geomint::problems::double_spherical_pendulum pendulum;
#if GEOMINT_COMPILE_FAIL
  std::pair<geomint::vector<5>, geomint::vector<6>> x;
#else
  std::pair<geomint::vector<6>, geomint::vector<6>> x;
#endif
  x.first.setZero();
  x.second.setZero();
  geomint::rattle stepper;
  stepper.do_step(pendulum, x, 0.0, 0.01);
  return 0;
}
