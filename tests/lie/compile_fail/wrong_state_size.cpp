// Refused: a 4-vector is not a state of so3 (dimension 3). The compiler reports check_state's
// static_assert and nothing else: do_step does not compile the step when the fixed sizes do not
// fit (tests/lie/CMakeLists.txt expects the message and rejects Eigen's size errors from inside
// the step). Twin: a 3-vector.
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"

int main() {
  const geomint::problems::free_rigid_body body;
#if GEOMINT_COMPILE_FAIL
  geomint::vector<4> y = geomint::vector<4>::Ones();
#else
  geomint::vector<3> y = geomint::vector<3>::Ones();
#endif
  geomint::rkmk<geomint::so3, geomint::rk::rk4> stepper;
  stepper.do_step(body, y, 0.0, 0.1);
  return 0;
}
