// The general (non-separable or forced) stage solver at every step size from 1e-1 down to
// 1e-7, from rest and moving: every step is accepted with its Newton increment at round-off
// (never a round-off plateau reported as divergence), and the new state lies on the manifold.
// Problems: the variable-mass sphere (position-dependent mass matrix), the double spherical
// pendulum with a damping and driving force (velocity- and time-dependent), and the quaternion
// heavy top (general H with a norm constraint on the quaternion).
#include <boost/test/unit_test.hpp>

#include "common.hpp"
#include "geomint/compose/composition.hpp"
#include "geomint/compose/composition_schemes.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/heavy_top.hpp"

using namespace geomint;

namespace {

const double step_sizes[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7};

/// Ten steps of every size from `start` and from rest at the same configuration.
template <class Stepper, class System, class State>
void check_every_step_size(const System& sys, const State& start) {
  State rest = start;
  rest.second.setZero();
  for (const State* x0 : {&start, static_cast<const State*>(&rest)}) {
    for (double h : step_sizes) {
      BOOST_TEST_CONTEXT((x0 == &rest ? "from rest" : "moving") << ", h = " << h) {
        Stepper stepper;
        State x = *x0;
        BOOST_REQUIRE_NO_THROW(test::advance(stepper, sys, x, h, 10));
        // 100·tolerance is where newton_solve accepts a plateau; the solves end below it, at
        // the tolerance itself (measured ≤ 1.5e-14 over all cases here).
        // Written as a number, not from newton_options{}: a loosened default must fail here.
        BOOST_TEST(stepper.statistics().newton.largest_final_increment <= 100 * 10 * 2.220446049250313e-16);
        const constraint_residuals res = constraint_residuals_of(sys, x.first, x.second);
        BOOST_TEST(res.position <= 1e-14);
        BOOST_TEST(res.velocity <= 1e-13);
      }
    }
  }
}

/// The constrained PRK methods and, for conservative systems, the Reich family.
template <class State, class System>
void check_constrained_methods(const System& sys, const State& start) {
  check_every_step_size<constrained_symplectic_euler<State>>(sys, start);
  check_every_step_size<rattle<State>>(sys, start);
  check_every_step_size<lobatto_iiia_iiib<3, State>>(sys, start);
  check_every_step_size<lobatto_iiia_iiib<4, State>>(sys, start);
  check_every_step_size<composition<rattle<State>, yoshida4>>(sys, start);
  if constexpr (!system_traits<System>::has_force) {
    check_every_step_size<reich_constrained<State>>(sys, start);
    check_every_step_size<reich_constrained_adjoint<State>>(sys, start);
    check_every_step_size<reich_symmetric<State>>(sys, start);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(general_path_accepts_every_step_size_with_a_position_dependent_mass) {
  const problems::variable_mass_sphere vm;
  check_constrained_methods<test::vm_state>(vm, vm.initial_state());
}

BOOST_AUTO_TEST_CASE(general_path_accepts_every_step_size_with_a_velocity_dependent_force) {
  const problems::double_spherical_pendulum dsp;
  const auto damped_and_driven = with_force(dsp, [](double t, const auto&, const auto& p, auto& f) {
    f = -0.3 * p;
    f(0) += std::sin(3 * t);
  });
  check_constrained_methods<test::dsp_state>(damped_and_driven, dsp.initial_state());
}

BOOST_AUTO_TEST_CASE(general_path_accepts_every_step_size_on_the_quaternion_heavy_top) {
  const problems::heavy_top top;
  check_constrained_methods<problems::heavy_top::state_type>(top, top.initial_state());
}

BOOST_AUTO_TEST_CASE(finite_difference_hessians_accept_every_step_size) {
  // Without second derivatives Newton's matrix comes from forward differences (√ε accurate).
  const problems::variable_mass_sphere vm;
  const test::first_derivatives_only<problems::variable_mass_sphere> view{vm};
  check_every_step_size<rattle<test::vm_state>>(view, vm.initial_state());
  check_every_step_size<lobatto_iiia_iiib<3, test::vm_state>>(view, vm.initial_state());
  check_every_step_size<reich_symmetric<test::vm_state>>(view, vm.initial_state());
}
