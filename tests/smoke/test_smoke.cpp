// One translation unit that drives every stepper family through the code paths where memory
// and undefined-behaviour errors hide: the first step (workspaces sized), continued steps
// (cached factorizations reused), a copy of a stepper that has stepped (copied workspaces),
// a reset, and a failing step (state restored), in one place. scripts/test runs it with the
// whole suite under AddressSanitizer + UndefinedBehaviorSanitizer; the family test binaries
// check the numerical properties.
#define BOOST_TEST_MODULE smoke
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/so3.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace geomint;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
// Each step solves the constraints to near round-off (≤ 1e-12 scaled).
constexpr double roundoff = 1e-12;

/// Steps, copies the stepper and steps the copy, resets and steps again; then a state with a
/// NaN momentum must throw step_error and stay bit-identical.
template <class Stepper, class System, class State, class Check>
void exercise(Stepper stepper, const System& sys, State x, double h, Check check) {
  for (int i = 0; i < 5; ++i) stepper.do_step(sys, x, i * h, h);
  Stepper copy = stepper;
  for (int i = 5; i < 10; ++i) copy.do_step(sys, x, i * h, h);
  copy.reset();
  copy.do_step(sys, x, 10 * h, h);
  check(x);

  State bad = x;
  bad.second[0] = not_a_number;
  const State before = bad;
  BOOST_CHECK_THROW(copy.do_step(sys, bad, 11 * h, h), step_error);
  BOOST_TEST(std::isnan(bad.second[0]));
  for (int i = 1; i < static_cast<int>(bad.second.size()); ++i) BOOST_TEST(bad.second[i] == before.second[i]);
  BOOST_TEST((bad.first.array() == before.first.array()).all());
}

template <class System>
auto on_manifold(const System& sys) {
  return [&sys](const auto& x) {
    const constraint_residuals r = constraint_residuals_of(sys, x.first, x.second);
    BOOST_TEST(r.position <= roundoff);
    BOOST_TEST(r.velocity <= roundoff);
  };
}

}  // namespace

BOOST_AUTO_TEST_CASE(constrained_family) {
  const problems::double_spherical_pendulum dsp;
  using dsp_state = problems::double_spherical_pendulum::state_type;
  exercise(rattle<dsp_state>(), dsp, dsp.initial_state(), 0.01, on_manifold(dsp));
  exercise(lobatto_iiia_iiib<3, dsp_state>(), dsp, dsp.initial_state(), 0.01, on_manifold(dsp));
  exercise(constrained_symplectic_euler<dsp_state>(), dsp, dsp.initial_state(), 0.005, on_manifold(dsp));
  exercise(reich_symmetric<dsp_state>(), dsp, dsp.initial_state(), 0.01, on_manifold(dsp));
  exercise(composition<rattle<dsp_state>, yoshida4>(), dsp, dsp.initial_state(), 0.01, on_manifold(dsp));

  // Dynamic sizes: the sparse chain and the general (non-separable) path.
  const problems::pendulum_chain chain({20});
  exercise(rattle<>(), chain, chain.initial_state(), 0.001, on_manifold(chain));
  const problems::variable_mass_sphere sphere;
  exercise(lobatto_iiia_iiib<3, problems::variable_mass_sphere::state_type>(), sphere, sphere.initial_state(), 0.01,
           on_manifold(sphere));
}

BOOST_AUTO_TEST_CASE(variational_family) {
  const problems::double_spherical_pendulum dsp;
  const lagrangian_view<problems::double_spherical_pendulum> lagrangian(dsp);
  using dsp_state = problems::double_spherical_pendulum::state_type;
  exercise(variational_midpoint<dsp_state>(), lagrangian, dsp.initial_state(), 0.01, on_manifold(dsp));

  // SHAKE on (q_{k−1}, q_k), started from one RATTLE step; its states are two positions.
  dsp_state x = dsp.initial_state(), r = x;
  rattle<dsp_state>().do_step(dsp, r, 0.0, 0.01);
  dsp_state q_pair{x.first, r.first};
  shake<dsp_state> stepper;
  for (int k = 1; k < 6; ++k) stepper.do_step(dsp, q_pair, k * 0.01, 0.01);
  shake<dsp_state> copy = stepper;
  copy.do_step(dsp, q_pair, 0.06, 0.01);
  vector<2> g;
  dsp.constraint(q_pair.second, g);
  BOOST_TEST(g.cwiseAbs().maxCoeff() <= roundoff * 16);  // |g| is not scaled here: lengths 4 and 3
}

BOOST_AUTO_TEST_CASE(riemannian_family) {
  const problems::particle_on_ellipsoid ellipsoid;
  const auto riemannian = on_space(ellipsoid, ellipsoid.space());
  using state = problems::particle_on_ellipsoid::state_type;
  exercise(riemannian_leapfrog<state>(), riemannian, ellipsoid.initial_state(), 0.05, [](const state& x) {
    BOOST_TEST(std::abs(x.first.norm() - 1) <= 1e-14);  // iterates stay on the sphere
  });
}

BOOST_AUTO_TEST_CASE(lie_poisson_family) {
  const problems::free_rigid_body body;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  auto run = [&](auto stepper) {
    auto y = y0;
    for (int i = 0; i < 5; ++i) stepper.do_step(body, y, i * 0.1, 0.1);
    auto copy = stepper;
    for (int i = 5; i < 10; ++i) copy.do_step(body, y, i * 0.1, 0.1);
    // The update is a coadjoint action: |y| (the Casimir of so(3)*) to round-off.
    BOOST_TEST(std::abs(y.norm() - y0.norm()) <= 1e-14 * y0.norm());
    auto bad = y;
    bad(1) = not_a_number;
    const auto before = bad;
    BOOST_CHECK_THROW(copy.do_step(body, bad, 1.0, 0.1), step_error);
    BOOST_TEST(bad(0) == before(0));
    BOOST_TEST(bad(2) == before(2));
  };
  run(rkmk<so3, rk::rk4, exp_coordinates>());
  run(rkmk<so3, rk::implicit_midpoint, exp_coordinates>());
  run(lie_discrete_gradient<so3, exp_coordinates>());
  run(moser_veselov<so3>());
}
