// Refused: a user's algebra that forgot two members of THE ALGEBRA CONCEPT (lie/algebra.hpp),
// `dimension` and `ad_star(u)`, given to three Lie–Poisson steppers. The compiler reports one
// static_assert, whose diagnostic names both missing members (algebra_concept::lacks<my_se2,
// missing_dimension, missing_ad_star_u>), and nothing else: no error from the stepper's state
// type, from inside do_step, or a second copy for the second and third stepper
// (tests/lie/CMakeLists.txt rejects other errors). Twin: the algebra with every member.
#include "../se2_algebra.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/rkmk.hpp"

// The user's se(2), here made of the complete one of se2_algebra.hpp, member by member.
class my_se2 : private geomint_test::se2 {
 public:
#if !GEOMINT_COMPILE_FAIL
  using se2::dimension;
  using se2::ad_star;
#else
  vector_type ad_star(const vector_type& u, const vector_type& y) const { return se2::ad_star(u, y); }
#endif
  using se2::casimir_count;
  using se2::has_cayley;
  using se2::group_type;
  using se2::matrix_type;
  using se2::operator_type;
  using se2::vector_type;
  using se2::adjoint;
  using se2::ad;
  using se2::bracket;
  using se2::casimir_scales;
  using se2::casimirs;
  using se2::coadjoint;
  using se2::dim;
  using se2::exp;
  using se2::exp_coadjoint;
  using se2::hat;
  using se2::name;
  using se2::poisson_tensor;
  using se2::vee;
};

// A free body on se(2)*: H = ½ Σ y_i² / I_i.
struct planar_body {
  using algebra_type = my_se2;
  Eigen::Vector3d inertia{1.0, 2.0, 3.0};
  template <class Y>
  double hamiltonian(const Y& y) const { return 0.5 * y.cwiseAbs2().cwiseQuotient(inertia).sum(); }
  template <class Y, class G>
  void gradient(const Y& y, G& g) const { g = y.cwiseQuotient(inertia); }
};

int main() {
  const planar_body body;
  Eigen::Vector3d y(0.3, 1.0, -0.5);
  geomint::rkmk<my_se2, geomint::rk::rk4> rk4;
  rk4.do_step(body, y, 0.0, 0.1);
  geomint::lie_discrete_gradient<my_se2, geomint::exp_coordinates, geomint::gonzalez_gradient> gradient;
  gradient.do_step(body, y, 0.1, 0.1);
  geomint::lie_poisson_leapfrog<my_se2> leapfrog;
  leapfrog.do_step(body, y, 0.2, 0.1);
  return 0;
}
