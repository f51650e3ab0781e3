// Refused: RK4's two-commutator form is derived for exp coordinates (its brackets replace the
// Bernoulli series of dexp⁻¹); in Cayley coordinates it would lose its order without an error
// (tests/lie/CMakeLists.txt expects the static_assert). Twin: exp coordinates.
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"

int main() {
  const geomint::problems::free_rigid_body body;
  geomint::vector<3> y = body.engo_faltinsen_initial_state();
#if GEOMINT_COMPILE_FAIL
  geomint::rkmk<geomint::so3, geomint::rk::rk4_two_commutators, geomint::cayley_coordinates> stepper;
#else
  geomint::rkmk<geomint::so3, geomint::rk::rk4_two_commutators, geomint::exp_coordinates> stepper;
#endif
  stepper.do_step(body, y, 0.0, 0.1);
  return 0;
}
