// Casimirs and energy over 1e5 steps for the RKMK and discrete-gradient methods on four
// algebras, and Casimirs for the Lie–Poisson leapfrog and the isospectral midpoint. A binary of its own, every case labelled `slow`: under the sanitizers these runs
// would take some 45 minutes, so the sanitized build (scripts/test, CI) does not build them;
// `scripts/test --no-sanitize` and any build without GEOMINT_SANITIZE do.
#define BOOST_TEST_MODULE lie_long_runs
#include <boost/test/unit_test.hpp>

#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"
#include "rkmk_test_methods.hpp"

using namespace geomint;
using namespace lie_test;

BOOST_AUTO_TEST_SUITE(long_runs, *boost::unit_test::label("slow"))

BOOST_AUTO_TEST_CASE_TEMPLATE(casimirs_to_round_off_over_1e5_steps, M, casimir_methods) {
  // The update is a coadjoint action (Lemma 1): the Casimirs only see the rounding of the state,
  // ~ε√n·scale ≈ 4e-14 for n = 1e5 (casimir_drift); the bound 1e-13 leaves a factor 2.
  // Engø–Faltinsen's data and step h = 0.1 (forward Euler: 0.01, see euler_exp; su(3): a random
  // vorticity; so(5): a generic body).
  constexpr long n = 100000;
  const double rb = casimir_drift(typename M::template type<so3>{}, problems::free_rigid_body{},
                                  problems::free_rigid_body::engo_faltinsen_initial_state(), M::h, n);
  const double top = casimir_drift(typename M::template type<se3>{}, problems::heavy_top_se3{},
                                   problems::heavy_top_se3::engo_faltinsen_initial_state(), M::h, n);
  const double fluid = casimir_drift(typename M::template type<su_n<3>>{}, problems::sine_euler<3>{},
                                     problems::sine_euler<3>::random_initial_state(), M::h, n);
  const double body5 = casimir_drift(typename M::template type<so_n<5>>{}, problems::rigid_body_so_n<5>{},
                                     problems::rigid_body_so_n<5>::initial_state(), M::h, n);
  BOOST_TEST_MESSAGE("Casimir drift: rigid body " << rb << ", heavy top " << top << ", sine-Euler su(3) " << fluid
                                                  << ", so(5) body " << body5);
  BOOST_TEST(rb <= 1e-13);
  BOOST_TEST(top <= 1e-13);
  BOOST_TEST(fluid <= 1e-13);
  BOOST_TEST(body5 <= 1e-13);
}

BOOST_AUTO_TEST_CASE(casimirs_on_the_structure_constant_algebra_over_1e5_steps) {
  constexpr long n = 100000;
  const rigid_body_on_constants body;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  BOOST_TEST(casimir_drift(rkmk<structure_constants<3>, rk::rk4>{}, body, y0, 0.1, n) <= 1e-13);
  BOOST_TEST(casimir_drift(rkmk<structure_constants<3>, rk::trapezoidal>{}, body, y0, 0.1, n) <= 1e-13);
  BOOST_TEST(casimir_drift(lie_discrete_gradient<structure_constants<3>>{}, body, y0, 0.1, n) <= 1e-13);
}

BOOST_AUTO_TEST_CASE(leapfrog_and_isospectral_midpoint_keep_casimirs_over_1e5_steps) {
  // The same bound for the two Lie–Poisson maps outside RKMK: the leapfrog's update is a
  // coadjoint action, the isospectral midpoint's a unitary similarity W₁ = cay(hB̃) W₀ cay(hB̃)⁻¹;
  // either way only the rounding of the state reaches the Casimirs (~ε√n · scale ≈ 4e-14;
  // measured 1e-14 … 4e-14).
  constexpr long n = 100000;
  const double rb = casimir_drift(lie_poisson_leapfrog<so3>{}, problems::free_rigid_body{},
                                  problems::free_rigid_body::engo_faltinsen_initial_state(), 0.1, n);
  const double body5 = casimir_drift(lie_poisson_leapfrog<so_n<5>>{}, problems::rigid_body_so_n<5>{},
                                     problems::rigid_body_so_n<5>::initial_state(), 0.1, n);
  const double fluid3 = casimir_drift(isospectral_midpoint<su_n<3>>{}, problems::sine_euler<3>{},
                                      problems::sine_euler<3>::random_initial_state(), 0.1, n);
  const double fluid5 = casimir_drift(isospectral_midpoint<su_n<5>>{}, problems::sine_euler<5>{},
                                      problems::sine_euler<5>::random_initial_state(), 0.1, n);
  BOOST_TEST_MESSAGE("Casimir drift: leapfrog rigid body " << rb << ", so(5) body " << body5
                                                           << "; isospectral midpoint su(3) " << fluid3 << ", su(5) " << fluid5);
  BOOST_TEST(rb <= 1e-13);
  BOOST_TEST(body5 <= 1e-13);
  BOOST_TEST(fluid3 <= 1e-13);
  BOOST_TEST(fluid5 <= 1e-13);
}

BOOST_AUTO_TEST_CASE(discrete_gradient_conserves_energy_over_1e5_steps) {
  // Theorem 2 with σ solved to round-off: H changes only by the rounding of each step, a random
  // walk of ~ε√n ≈ 4e-14 relative for n = 1e5; bound 1e-13.
  constexpr long n = 100000;
  auto frozen = lie_discrete_gradient<so3>::default_options();
  frozen.jacobian = lie_jacobian::frozen;
  const problems::free_rigid_body body;
  const problems::heavy_top_se3 top;
  const problems::sine_euler<3> fluid;
  const problems::rigid_body_so_n<5> body5;
  const auto y_rb = problems::free_rigid_body::engo_faltinsen_initial_state();
  const auto y_top = problems::heavy_top_se3::engo_faltinsen_initial_state();
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  const auto y5 = problems::rigid_body_so_n<5>::initial_state();
  lie_discrete_gradient<so3> rb_exp, rb_exp_frozen(frozen);
  lie_discrete_gradient<so3, cayley_coordinates> rb_cay, rb_cay_frozen(frozen);
  lie_discrete_gradient<se3> top_exp;
  lie_discrete_gradient<se3, cayley_coordinates> top_cay(frozen);
  lie_discrete_gradient<su_n<3>> fluid_exp;
  lie_discrete_gradient<su_n<3>, cayley_coordinates> fluid_cay(frozen);
  lie_discrete_gradient<so_n<5>> body5_exp(frozen);
  lie_discrete_gradient<so_n<5>, cayley_coordinates> body5_cay;
  const double e[] = {energy_drift(rb_exp, body, y_rb, 0.1, n),       energy_drift(rb_exp_frozen, body, y_rb, 0.1, n),
                      energy_drift(rb_cay, body, y_rb, 0.1, n),       energy_drift(rb_cay_frozen, body, y_rb, 0.1, n),
                      energy_drift(top_exp, top, y_top, 0.1, n),      energy_drift(top_cay, top, y_top, 0.1, n),
                      energy_drift(fluid_exp, fluid, y_fluid, 0.1, n), energy_drift(fluid_cay, fluid, y_fluid, 0.1, n),
                      energy_drift(body5_exp, body5, y5, 0.1, n),     energy_drift(body5_cay, body5, y5, 0.1, n)};
  for (double x : e) {
    BOOST_TEST_MESSAGE("discrete gradient energy drift " << x);
    BOOST_TEST(x <= 1e-13);
  }
}

BOOST_AUTO_TEST_SUITE_END()
