// The C module's solve modes and state getters (geomint_sundials.h; IDA's itask and IDAGet*):
// GEOMINT_ONE_STEP against GEOMINT_NORMAL, GeomintGetCurrentState / Multipliers / LastStep, the
// direction of integration, and the same for the Lie–Poisson lifecycle.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "c_problems.hpp"

using namespace sundials_test;
using Eigen::VectorXd;


BOOST_AUTO_TEST_SUITE(c_api_modes)

// With h = 2⁻⁷ every time k h is exact, so the steps of GEOMINT_ONE_STEP calls and of
// GEOMINT_NORMAL calls have the same sizes: the states agree bit for bit after every step.
BOOST_AUTO_TEST_CASE(one_step_takes_the_steps_of_normal) {
  sun s;
  dsp_data a, b;
  SUNMatrix ga, gb;
  const double h = 1.0 / 128;
  void* normal = make_dsp(s, a, GEOMINT_CONSTRAINED_LOBATTO_4_3, h, ga);
  void* single = make_dsp(s, b, GEOMINT_CONSTRAINED_LOBATTO_4_3, h, gb);
  N_Vector q1 = s.vector(VectorXd::Zero(6)), p1 = s.vector(VectorXd::Zero(6));
  N_Vector q2 = s.vector(VectorXd::Zero(6)), p2 = s.vector(VectorXd::Zero(6));
  for (int k = 1; k <= 64; ++k) {
    sunrealtype t1 = -1, t2 = -1, last = 0;
    long steps = 0;
    BOOST_TEST_REQUIRE(GeomintEvolve(single, 0.5, q2, p2, &t2, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(t2 == k * h);
    BOOST_TEST(GeomintGetNumSteps(single, &steps) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(steps == k);
    BOOST_TEST(GeomintGetLastStep(single, &last) == GEOMINT_SUCCESS);
    BOOST_TEST(last == h);
    BOOST_TEST_REQUIRE(GeomintEvolve(normal, k * h, q1, p1, &t1, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(bitwise_equal(q1, q2), "step " << k);
    BOOST_TEST_REQUIRE(bitwise_equal(p1, p2), "step " << k);
  }
  // At tout ONE_STEP still takes its step (IDA_ONE_STEP: tout gives the direction only).
  sunrealtype t = -1;
  long steps = 0;
  BOOST_TEST(GeomintEvolve(single, 0.5, q2, p2, &t, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 65 * h);
  GeomintGetNumSteps(single, &steps);
  BOOST_TEST(steps == 65);
  GeomintFree(&normal);
  GeomintFree(&single);
  SUNMatDestroy(ga);
  SUNMatDestroy(gb);
}

// ONE_STEP stays on the grid k h: it passes tout rather than shortening a step to land on it
// (GeomintGetLastStep is 0 before the first step).
BOOST_AUTO_TEST_CASE(one_step_stays_on_the_grid) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype t = -1, last = -1;
  BOOST_TEST(GeomintGetLastStep(mem, &last) == GEOMINT_SUCCESS);
  BOOST_TEST(last == 0.0);
  for (int k = 1; k <= 3; ++k) {
    BOOST_TEST(GeomintEvolve(mem, 0.025, q, p, &t, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
    BOOST_TEST(t == k * 0.01);
  }
  BOOST_TEST(GeomintGetLastStep(mem, &last) == GEOMINT_SUCCESS);
  BOOST_TEST(last == 0.01);
  long steps = 0;
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST(steps == 3);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// GeomintGetCurrentState: the initial state, then what GeomintEvolve returned, also after a
// failed step (the last successful state).
BOOST_AUTO_TEST_CASE(current_state) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  N_Vector qc = s.vector(VectorXd::Zero(6)), pc = s.vector(VectorXd::Zero(6));
  BOOST_TEST(GeomintGetCurrentState(mem, qc, pc) == GEOMINT_SUCCESS);
  BOOST_TEST((map(qc).array() == d.problem.initial_state().first.array()).all());
  BOOST_TEST((map(pc).array() == d.problem.initial_state().second.array()).all());
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(mem, 0.3, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetCurrentState(mem, qc, pc) == GEOMINT_SUCCESS);
  BOOST_TEST(bitwise_equal(q, qc));
  BOOST_TEST(bitwise_equal(p, pc));
  d.f = fault{"dh_dq", 0, 20, -1};
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_CALLBACK_FAIL);
  BOOST_TEST(GeomintGetCurrentState(mem, qc, pc) == GEOMINT_SUCCESS);
  BOOST_TEST(bitwise_equal(q, qc));
  BOOST_TEST(bitwise_equal(p, pc));
  sunrealtype now = -1;
  GeomintGetCurrentTime(mem, &now);
  BOOST_TEST(now == t);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// A negative step integrates backwards: the 3-stage Lobatto pair is symmetric (its step map
// with −h inverts the one with h), so 100 steps forward and 100 back return to the start up to
// the stage solves' round-off (10 ε relative per solve; measured 1.2e-15 here): 1e-12 asserted.
BOOST_AUTO_TEST_CASE(negative_step_integrates_backwards) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetFixedStep(mem, -0.01) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.99);
  BOOST_TEST(GeomintEvolve(mem, 0.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.0);
  const auto x0 = d.problem.initial_state();
  const double q_error = (map(q) - x0.first).cwiseAbs().maxCoeff() / x0.first.cwiseAbs().maxCoeff();
  const double p_error = (map(p) - x0.second).cwiseAbs().maxCoeff() / x0.second.cwiseAbs().maxCoeff();
  BOOST_TEST_MESSAGE("relative return error q " << q_error << ", p " << p_error);
  BOOST_TEST(q_error <= 1e-12);
  BOOST_TEST(p_error <= 1e-12);
  long steps = 0;
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST(steps == 200);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// λ against the spherical pendulum's closed form (sp_data::lambda), for the separable and the
// general form of H, at the start and after a run. λ comes from central differences of G along
// fixed directions, exact to round-off for this quadratic constraint, and three refinement
// sweeps: 1e-12 relative is asserted (measured ≤ 5e-14). μ = (G Gᵀ)⁻¹ G ∂H/∂p is the hidden
// constraint's round-off divided by |G| = 2|q|: |μ| ≤ 1e-13 |v| / |q| is asserted.
BOOST_AUTO_TEST_CASE(multipliers_of_the_spherical_pendulum) {
  for (bool separable : {true, false}) {
    BOOST_TEST_CONTEXT((separable ? "separable" : "general") << " H") {
      sun s;
      sp_data d;
      SUNMatrix g;
      void* mem = make_sp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, separable, g);
      N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
      N_Vector lambda = s.vector(VectorXd::Zero(1)), mu = s.vector(VectorXd::Constant(1, 1.0));
      for (double tout : {0.0, 1.0, 2.5}) {
        sunrealtype t = -1;
        BOOST_TEST_REQUIRE(GeomintEvolve(mem, tout, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
        BOOST_TEST(GeomintGetCurrentState(mem, q, p) == GEOMINT_SUCCESS);
        BOOST_TEST_REQUIRE(GeomintGetCurrentMultipliers(mem, lambda, mu) == GEOMINT_SUCCESS, last_error(mem));
        const double exact = d.lambda(map(q), map(p));
        BOOST_TEST_MESSAGE("lambda relative error " << std::fabs(NV_Ith_S(lambda, 0) - exact) / std::fabs(exact)
                                                    << ", mu " << NV_Ith_S(mu, 0));
        BOOST_TEST(std::fabs(NV_Ith_S(lambda, 0) - exact) <= 1e-12 * std::fabs(exact),
                   "t = " << tout << ": lambda " << NV_Ith_S(lambda, 0) << ", exact " << exact);
        BOOST_TEST(std::fabs(NV_Ith_S(mu, 0)) <= 1e-13 * map(p).norm() / d.mass / map(q).norm());
      }
      GeomintFree(&mem);
      SUNMatDestroy(g);
    }
  }
}

// Bad arguments of the new calls: wrong vector lengths, NULL outputs, an unknown itask, and
// multipliers of a problem without constraints or off the manifold.
BOOST_AUTO_TEST_CASE(bad_arguments) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6)), short5 = s.vector(VectorXd::Zero(5));
  N_Vector m2 = s.vector(VectorXd::Zero(2)), m3 = s.vector(VectorXd::Zero(3));
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, 0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, 3) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(mem).find("itask") != std::string::npos);
  BOOST_TEST(GeomintGetCurrentState(mem, short5, p) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetCurrentState(mem, q, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetCurrentMultipliers(mem, m3, m2) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetCurrentMultipliers(mem, m2, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetLastStep(mem, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetCurrentMultipliers(mem, m2, m2) == GEOMINT_SUCCESS);
  // Off the manifold: the multipliers of the DAE are not defined there.
  VectorXd q0 = d.problem.initial_state().first;
  q0(0) += 1e-3;
  BOOST_TEST(GeomintReInit(mem, 0.0, s.vector(q0), s.vector(d.problem.initial_state().second)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetCurrentMultipliers(mem, m2, m2) == GEOMINT_INCONSISTENT_STATE);
  // Without constraints there are no multipliers.
  BOOST_TEST(GeomintSetConstraints(mem, nullptr, nullptr, nullptr) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetCurrentMultipliers(mem, m2, m2) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(mem).find("no constraints") != std::string::npos);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// The Lie–Poisson lifecycle: ONE_STEP against NORMAL bit for bit (h = 2⁻⁷), current state and
// last step, the direction rule, and a negative step.
BOOST_AUTO_TEST_CASE(lie_modes) {
  sun s;
  const double h = 1.0 / 128;
  void* normal = make_rigid_body(s, GEOMINT_LIE_RKMK_RK4_EXP_4_4, h);
  void* single = make_rigid_body(s, GEOMINT_LIE_RKMK_RK4_EXP_4_4, h);
  N_Vector y1 = s.vector(VectorXd::Zero(3)), y2 = s.vector(VectorXd::Zero(3)), yc = s.vector(VectorXd::Zero(3));
  sunrealtype last = -1;
  BOOST_TEST(GeomintLieGetLastStep(single, &last) == GEOMINT_SUCCESS);
  BOOST_TEST(last == 0.0);
  BOOST_TEST(GeomintLieGetCurrentState(single, yc) == GEOMINT_SUCCESS);
  BOOST_TEST((map(yc).array() == rb_initial().array()).all());
  for (int k = 1; k <= 32; ++k) {
    sunrealtype t1 = -1, t2 = -1;
    BOOST_TEST_REQUIRE(GeomintLieEvolve(single, 1.0, y2, &t2, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(t2 == k * h);
    BOOST_TEST_REQUIRE(GeomintLieEvolve(normal, k * h, y1, &t1, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(bitwise_equal(y1, y2), "step " << k);
  }
  BOOST_TEST(GeomintLieGetCurrentState(single, yc) == GEOMINT_SUCCESS);
  BOOST_TEST(bitwise_equal(yc, y2));
  BOOST_TEST(GeomintLieGetLastStep(single, &last) == GEOMINT_SUCCESS);
  BOOST_TEST(last == h);
  sunrealtype t = -1;
  BOOST_TEST(GeomintLieEvolve(single, 0.0, y2, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // behind, h > 0
  BOOST_TEST(GeomintLieSetFixedStep(single, -h) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(single, 1.0, y2, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // ahead, h < 0
  BOOST_TEST(GeomintLieEvolve(single, 0.0, y2, &t, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 31 * h);
  BOOST_TEST(GeomintLieGetLastStep(single, &last) == GEOMINT_SUCCESS);
  BOOST_TEST(last == -h);
  // Back to 0: RK4 is not symmetric, so the return is only O(h⁴)-close: the state is the one
  // of 31 steps forward within 1e-8 (|y| = 1; RK4's local error here is ~h⁵ ≈ 3e-11 per step).
  // Inside the last step [31 h, 32 h] NORMAL interpolates (IDA's); behind it, refused.
  BOOST_TEST(GeomintLieEvolve(normal, 31 * h, y1, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 31 * h);
  BOOST_TEST(GeomintLieEvolve(normal, 30 * h, y1, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieEvolve(single, 0.0, y2, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.0);
  BOOST_TEST((map(y2) - rb_initial()).cwiseAbs().maxCoeff() <= 1e-8);
  // Bad arguments.
  N_Vector y6 = s.vector(VectorXd::Zero(6));
  BOOST_TEST(GeomintLieEvolve(single, 0.0, y2, &t, 7) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetCurrentState(single, y6) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetCurrentState(single, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetLastStep(single, nullptr) == GEOMINT_ILL_INPUT);
  GeomintLieFree(&normal);
  GeomintLieFree(&single);
}

BOOST_AUTO_TEST_SUITE_END()
