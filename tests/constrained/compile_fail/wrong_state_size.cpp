// Must not compile: the double spherical pendulum has 6 positions and momenta; a state of fixed
// size 5 is rejected by check_state's static_assert alone (tests/constrained/CMakeLists.txt
// expects the message and rejects Eigen's size errors from inside the step).
#include <utility>

#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

int main() {
  const geomint::problems::double_spherical_pendulum pendulum;
  std::pair<geomint::vector<5>, geomint::vector<6>> x;
  x.first.setZero();
  x.second.setZero();
  geomint::rattle stepper;
  stepper.do_step(pendulum, x, 0.0, 0.01);
  return 0;
}
