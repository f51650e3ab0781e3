// The stepper contract (docs/extending.md) for one stepper of every family:
//   * a NaN in the state, a non-finite t or dt is step_error(non_finite_value) before any work,
//     dt = 0 is std::invalid_argument, and the state is left bit for bit as it was;
//   * a copy starts afresh: its next step equals a new stepper's from the same state, bit for bit;
//   * an edit of the state between steps is seen: a momentum pushed off the manifold (here by
//     one part in 10⁶, far above the 1e-10 consistency tolerance) is rejected with
//     inconsistent_initial_state even when the positions are the previous step's;
//   * a system rebuilt in place with other parameters (std::optional::emplace at the same
//     address) is a fresh start: the step equals a new stepper's on the new system.
#include "verification.hpp"

#include <cstring>
#include <limits>
#include <optional>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/problems/autodiff_models.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/riemannian/riemannian_system.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace geomint;

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

template <class X>
bool same_bits(const X& a, const X& b) {
  return std::memcmp(&a, &b, sizeof(X)) == 0;
}
template <class Q, class P>
bool same_bits(const std::pair<Q, P>& a, const std::pair<Q, P>& b) {
  return std::memcmp(a.first.data(), b.first.data(), sizeof(double) * a.first.size()) == 0 &&
         std::memcmp(a.second.data(), b.second.data(), sizeof(double) * a.second.size()) == 0;
}
template <class Q, class P>
double& first_entry(std::pair<Q, P>& x) { return x.first(0); }
template <class X>
double& first_entry(X& x) { return x(0); }

failure_reason reason_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const step_error& e) {
    return e.reason();
  }
  BOOST_FAIL("no step_error");
  return failure_reason::newton_diverged;
}

/// Bad input, and copies.
template <class Stepper, class System, class State>
void check_input_and_copies(const char* name, const System& sys, const State& x0, double h) {
  BOOST_TEST_CONTEXT(name) {
    Stepper stepper;
    State x = x0;
    stepper.do_step(sys, x, 0.0, h);
    const State before = x;
    State bad = x;
    first_entry(bad) = nan;
    const State bad_before = bad;
    BOOST_TEST((reason_of([&] { stepper.do_step(sys, bad, h, h); }) == failure_reason::non_finite_value));
    BOOST_TEST(same_bits(bad, bad_before));
    BOOST_TEST((reason_of([&] { stepper.do_step(sys, x, h, nan); }) == failure_reason::non_finite_value));
    BOOST_TEST((reason_of([&] { stepper.do_step(sys, x, nan, h); }) == failure_reason::non_finite_value));
    BOOST_CHECK_THROW(stepper.do_step(sys, x, h, 0.0), std::invalid_argument);
    BOOST_TEST(same_bits(x, before));

    stepper.do_step(sys, x, h, h);  // continues (the failed calls changed nothing)
    Stepper copy = stepper;
    State a = x, b = x;
    copy.do_step(sys, a, 2 * h, h);
    Stepper().do_step(sys, b, 2 * h, h);
    BOOST_TEST(same_bits(a, b), "a copy's step differs from a fresh stepper's");
  }
}

/// After a few steps, the state edited between steps (a Lie–Poisson state has no manifold to
/// leave: any y is a start): the next step is a fresh stepper's from the edited state, bit for
/// bit — no stage guess, Jacobian or gradient kept from the old end point is used.
template <class Stepper, class System, class State>
void check_edited_state(const char* name, const System& sys, const State& y0, double h) {
  BOOST_TEST_CONTEXT(name) {
    Stepper stepper;
    State y = y0;
    for (int k = 0; k < 3; ++k) stepper.do_step(sys, y, k * h, h);
    first_entry(y) *= 1 + 1e-6;
    State fresh = y;
    stepper.do_step(sys, y, 3 * h, h);
    Stepper().do_step(sys, fresh, 3 * h, h);
    BOOST_TEST(same_bits(y, fresh), "a cache of the old end point was reused");
  }
}

/// After a few steps, p edited by one part in 10⁶ is rejected (q is still the last end point).
template <class Stepper, class System, class State>
void check_edited_momentum(const char* name, const System& sys, const State& x0, double h) {
  BOOST_TEST_CONTEXT(name) {
    Stepper stepper;
    State x = x0;
    for (int k = 0; k < 3; ++k) stepper.do_step(sys, x, k * h, h);
    x.second *= 1 + 1e-6;
    x.second(0) += 1e-6 * x.second.norm();  // a component off the tangent space
    BOOST_TEST((reason_of([&] { stepper.do_step(sys, x, 3 * h, h); }) == failure_reason::inconsistent_initial_state));
  }
}

/// The system emplaced with other parameters between two steps: the second step must be a
/// fresh stepper's on the new system, bit for bit.
template <class Stepper, class System, class State, class A, class B>
void check_emplaced_system(const char* name, const State& x0, double h, A&& make_a, B&& make_b) {
  BOOST_TEST_CONTEXT(name) {
    std::optional<System> sys;
    sys.emplace(make_a());
    Stepper stepper;
    State x = x0;
    stepper.do_step(*sys, x, 0.0, h);
    sys.emplace(make_b());
    State fresh = x;
    stepper.do_step(*sys, x, h, h);
    Stepper().do_step(*sys, fresh, h, h);
    BOOST_TEST(same_bits(x, fresh), "a cache of the old system was reused");
  }
}

using dsp_state = problems::double_spherical_pendulum::state_type;
using dsp = problems::double_spherical_pendulum;

problems::double_spherical_pendulum_parameters gravity(double g) {
  problems::double_spherical_pendulum_parameters p;
  p.gravity = g;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(constrained_and_reich) {
  const dsp pendulum;
  const problems::variable_mass_sphere vm;
  const dsp_state x0 = pendulum.initial_state();
  check_input_and_copies<rattle<dsp_state>>("rattle", pendulum, x0, 0.01);
  check_input_and_copies<lobatto_iiia_iiib<3, problems::variable_mass_sphere::state_type>>("lobatto3, general H", vm,
                                                                                               vm.initial_state(), 0.01);
  check_input_and_copies<reich_symmetric<dsp_state>>("reich_symmetric", pendulum, x0, 0.01);
  check_edited_momentum<rattle<dsp_state>>("rattle", pendulum, x0, 0.01);
  check_edited_momentum<lobatto_iiia_iiib<3, dsp_state>>("lobatto3", pendulum, x0, 0.01);
  check_edited_momentum<reich_symmetric<dsp_state>>("reich_symmetric", pendulum, x0, 0.01);
  check_emplaced_system<rattle<dsp_state>, dsp>("rattle", x0, 0.01, [] { return dsp(gravity(9.81)); },
                                                [] { return dsp(gravity(1.62)); });
  check_emplaced_system<reich_symmetric<dsp_state>, dsp>("reich_symmetric", x0, 0.01, [] { return dsp(gravity(9.81)); },
                                                         [] { return dsp(gravity(1.62)); });
}

BOOST_AUTO_TEST_CASE(variational) {
  const auto lagrangian = problems::ad_models::dsp_lagrangian();
  const dsp_state x0 = dsp().initial_state();
  check_input_and_copies<variational_midpoint<dsp_state>>("variational_midpoint", lagrangian, x0, 0.01);
  check_edited_momentum<variational_midpoint<dsp_state>>("variational_midpoint", lagrangian, x0, 0.01);
  using ad_dsp = decltype(problems::ad_models::dsp_lagrangian());
  check_emplaced_system<variational_midpoint<dsp_state>, ad_dsp>(
      "variational_midpoint", x0, 0.01, [] { return problems::ad_models::dsp_lagrangian(gravity(9.81)); },
      [] { return problems::ad_models::dsp_lagrangian(gravity(1.62)); });

  // SHAKE's state is (q_{k−1}, q_k): the edit that must be seen moves q_k off the sphere.
  const dsp pendulum;
  dsp_state pair{x0.first, x0.first};
  rattle<dsp_state> start;
  dsp_state next = x0;
  start.do_step(pendulum, next, 0.0, 0.01);
  pair.second = next.first;
  check_input_and_copies<shake<dsp_state>>("shake", pendulum, pair, 0.01);
  shake<dsp_state> s;
  for (int k = 1; k < 4; ++k) s.do_step(pendulum, pair, k * 0.01, 0.01);
  pair.second *= 1 + 1e-6;
  BOOST_TEST((reason_of([&] { s.do_step(pendulum, pair, 0.04, 0.01); }) == failure_reason::inconsistent_initial_state));
}

BOOST_AUTO_TEST_CASE(riemannian) {
  using state = problems::particle_on_ellipsoid::state_type;
  const problems::particle_on_ellipsoid ellipsoid({1.0, 1.0, 0.8, 1.3, 1.0});
  const auto on_sphere = on_space(ellipsoid, ellipsoid.space());
  check_input_and_copies<riemannian_leapfrog<state>>("riemannian_leapfrog", on_sphere, ellipsoid.initial_state(), 0.01);
  check_edited_momentum<riemannian_leapfrog<state>>("riemannian_leapfrog", on_sphere, ellipsoid.initial_state(), 0.01);
}

BOOST_AUTO_TEST_CASE(lie_poisson) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  check_input_and_copies<rkmk<so3, rk::rk4>>("rkmk rk4", body, y0, 0.1);
  check_input_and_copies<rkmk<so3, rk::implicit_midpoint, cayley_coordinates>>("rkmk gl2 cayley", body, y0, 0.1);
  check_input_and_copies<lie_discrete_gradient<so3>>("discrete gradient", body, y0, 0.1);
  check_input_and_copies<moser_veselov<so3>>("moser_veselov", body, y0, 0.1);
  check_input_and_copies<lie_poisson_leapfrog<so3>>("lie_poisson_leapfrog", body, y0, 0.1);
  // The fixed-point stage solver extrapolates from the previous step when it continues it: a
  // rebuilt body (other inertia) must not.
  struct fixed_point_gl2 : rkmk<so3, rk::gauss_legendre<2>> {
    fixed_point_gl2() { options().stage_solver = lie_stage_solver::fixed_point; }
  };
  check_emplaced_system<fixed_point_gl2, problems::free_rigid_body>(
      "rkmk gl4, fixed point", y0, 0.1, [] { return problems::free_rigid_body(); },
      [] { return problems::free_rigid_body(vector<3>(1.0, 0.5, 0.25)); });
  check_edited_state<rkmk<so3, rk::implicit_midpoint>>("rkmk midpoint, edited", body, y0, 0.1);
  check_edited_state<fixed_point_gl2>("rkmk gl4 fixed point, edited", body, y0, 0.1);
  check_edited_state<lie_discrete_gradient<so3, cayley_coordinates>>("discrete gradient, edited", body, y0, 0.1);
  check_edited_state<moser_veselov<so3>>("moser_veselov, edited", body, y0, 0.1);
  check_edited_state<lie_poisson_leapfrog<so3>>("lie_poisson_leapfrog, edited", body, y0, 0.1);
}
