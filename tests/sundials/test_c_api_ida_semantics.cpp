// What an IDA program relies on, in the C module: failures negative and normal returns positive,
// ONE_STEP after a root returns the end of the root's step, a step limit per call, one time grid
// for both modes and IDA's NORMAL output (interpolated at an off-grid tout, the integrator's state
// on its grid), the stop time, GetDky's time fuzz, and the root-function counter. Each written as
// the loop an IDA user writes.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "c_problems.hpp"
#include "geomint/diagnostics/allocation_counter.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {
// q_y of the spherical pendulum: it crosses the vertical xz plane inside steps, off the grid.
int plane_root(sunrealtype, N_Vector q, N_Vector, sunrealtype* g, void*) {
  g[0] = NV_Ith_S(q, 1);
  return 0;
}
// A recoverable failure of the force, on every call from t = 0.5 on.
int failing_gravity(sunrealtype t, N_Vector, N_Vector, N_Vector out, void*) {
  map(out).setZero();
  return t >= 0.5 ? 1 : 0;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_ida_semantics)

// The IDA loop `if (flag < 0) break;` stops at a recoverable failure instead of calling again
// forever: the failure is negative, and GeomintIsRecoverableFlag tells it is worth a smaller step.
BOOST_AUTO_TEST_CASE(an_ida_loop_stops_at_a_recoverable_failure) {
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  BOOST_TEST(GeomintSetForce(r.mem, failing_gravity, GEOMINT_FORCE_POSITION) == GEOMINT_SUCCESS);
  int calls = 0, flag = 0;
  sunrealtype t = 0;
  for (double tout = 0.1; tout <= 10.0 && calls < 1000; tout += 0.1, ++calls) {
    flag = GeomintEvolve(r.mem, tout, r.q, r.p, &t, GEOMINT_NORMAL);
    if (flag < 0) break;
  }
  BOOST_TEST(flag == GEOMINT_CALLBACK_RECOVERABLE);
  BOOST_TEST(calls < 10);
  BOOST_TEST(GeomintIsRecoverableFlag(flag) == 1);
  BOOST_TEST(t < 0.5 + 1e-12);
}

// IDA_ONE_STEP with roots: after a ROOT_RETURN inside [t_n, t_n + h] the next call returns
// t_n + h (the end of that step) before a new step is taken, so the usual loop "after each
// return, GetDky at every output time ≤ tret" never meets BAD_T, and every grid point is returned.
BOOST_AUTO_TEST_CASE(one_step_returns_the_end_of_the_step_that_held_a_root) {
  sp_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.1);
  BOOST_TEST(GeomintRootInit(r.mem, 1, plane_root) == GEOMINT_SUCCESS);
  std::vector<double> returned, roots;
  double next_output = 0.05;
  N_Vector dq = r.s.vector(VectorXd::Zero(3)), dp = r.s.vector(VectorXd::Zero(3));
  while (returned.empty() || returned.back() < 3.0) {
    sunrealtype t = 0;
    const int flag = GeomintEvolve(r.mem, 3.0, r.q, r.p, &t, GEOMINT_ONE_STEP);
    BOOST_TEST_REQUIRE(flag >= 0, last_error(r.mem));
    if (flag == GEOMINT_ROOT_RETURN) roots.push_back(t);
    else returned.push_back(t);
    for (; next_output <= t; next_output += 0.05)  // dense output up to the return
      BOOST_TEST_REQUIRE(GeomintGetDky(r.mem, next_output, 0, dq, dp) == GEOMINT_SUCCESS, last_error(r.mem));
  }
  BOOST_TEST(!roots.empty());
  BOOST_TEST(returned.size() == 30u);  // every grid point k h, k = 1 … 30, once
  for (std::size_t k = 0; k < returned.size(); ++k) BOOST_TEST(returned[k] == (k + 1) * 0.1, "k = " << k);
  for (double root : roots) BOOST_TEST(std::fabs(root / 0.1 - std::round(root / 0.1)) > 1e-6);  // off the grid
}

// A step limit per call (IDASetMaxNumSteps): tout = 1e10 with h = 0.01, or a tiny h, returns
// GEOMINT_TOO_MUCH_WORK after 500 steps by default, with the state reached; 0 restores the
// default, a negative limit removes it. The Lie–Poisson lifecycle alike.
BOOST_AUTO_TEST_CASE(a_call_takes_at_most_the_step_limit) {
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  sunrealtype t = 0;
  long steps = 0;
  BOOST_TEST(GeomintEvolve(r.mem, 1e10, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_TOO_MUCH_WORK);
  GeomintGetNumSteps(r.mem, &steps);
  BOOST_TEST(steps == 500);
  BOOST_TEST(t == 500 * 0.01);
  BOOST_TEST(last_error(r.mem).find("GeomintSetMaxNumSteps") != std::string::npos, last_error(r.mem));
  BOOST_TEST(GeomintSetMaxNumSteps(r.mem, 20) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(r.mem, 1e10, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_TOO_MUCH_WORK);
  GeomintGetNumSteps(r.mem, &steps);
  BOOST_TEST(steps == 520);
  BOOST_TEST(GeomintSetMaxNumSteps(r.mem, -1) == GEOMINT_SUCCESS);  // no limit
  BOOST_TEST(GeomintEvolve(r.mem, 12.0, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 12.0);
  BOOST_TEST(GeomintSetMaxNumSteps(r.mem, 0) == GEOMINT_SUCCESS);  // the default again
  BOOST_TEST(GeomintSetFixedStep(r.mem, 1e-300) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(r.mem, 13.0, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_TOO_MUCH_WORK);

  sun s;
  void* lie = make_rigid_body(s, GEOMINT_LIE_RKMK_RK4_EXP_4_4, 0.01);
  N_Vector y = s.vector(VectorXd::Zero(3));
  BOOST_TEST(GeomintLieSetMaxNumSteps(lie, 7) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(lie, 1e10, y, &t, GEOMINT_NORMAL) == GEOMINT_TOO_MUCH_WORK);
  BOOST_TEST(GeomintLieGetNumSteps(lie, &steps) == GEOMINT_SUCCESS);
  BOOST_TEST(steps == 7);
  GeomintLieFree(&lie);
}

// One grid t0 + k h for both modes: with h = 0.01 (not a binary fraction) N ONE_STEP calls end
// bit for bit where NORMAL to N h does, at the time N h, with no extra sliver of a step (h =
// 0.0025 to 100: 40000 steps, not 40001).
BOOST_AUTO_TEST_CASE(both_modes_step_on_one_grid) {
  sp_run a(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01), b(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  sunrealtype ta = 0, tb = 0;
  BOOST_TEST(GeomintSetMaxNumSteps(a.mem, -1) == GEOMINT_SUCCESS);
  for (int k = 0; k < 3000; ++k) BOOST_TEST_REQUIRE(GeomintEvolve(a.mem, 30.0, a.q, a.p, &ta, GEOMINT_ONE_STEP) == 0);
  BOOST_TEST(GeomintSetMaxNumSteps(b.mem, -1) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(b.mem, 3000 * 0.01, b.q, b.p, &tb, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(ta == 3000 * 0.01);
  BOOST_TEST(bitwise_equal(a.q, b.q));
  BOOST_TEST(bitwise_equal(a.p, b.p));

  sp_run c(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.0025);
  BOOST_TEST(GeomintSetMaxNumSteps(c.mem, -1) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  long calls = 0;
  while (t < 100.0 - 1e-9) {
    BOOST_TEST_REQUIRE(GeomintEvolve(c.mem, 100.0, c.q, c.p, &t, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
    ++calls;
  }
  BOOST_TEST(calls == 40000);
  BOOST_TEST(t == 40000 * 0.0025);
}

// NORMAL at an output time off the grid, as IDASolve: the steps stay on the grid (they pass tout),
// *tret = tout and (q, p) come from the continuous extension; the integrator's own state is the
// grid point's (GeomintGetCurrentTime). The outputs do not change the trajectory: integrating with
// outputs every 0.033 ends bit for bit where integrating without them does. A stop time within a
// step makes that step land on it (GEOMINT_TSTOP_RETURN), once.
BOOST_AUTO_TEST_CASE(normal_interpolates_off_the_grid_and_lands_on_a_stop_time) {
  sp_run a(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01), b(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01);
  sunrealtype t = 0, now = 0;
  BOOST_TEST(GeomintEvolve(a.mem, 0.045, a.q, a.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.045);
  BOOST_TEST(GeomintGetCurrentTime(a.mem, &now) == GEOMINT_SUCCESS);
  BOOST_TEST(now == 5 * 0.01);
  N_Vector q = a.s.vector(VectorXd::Zero(3)), p = a.s.vector(VectorXd::Zero(3));
  BOOST_TEST(GeomintGetDky(a.mem, 0.045, 0, q, p) == GEOMINT_SUCCESS);
  BOOST_TEST(bitwise_equal(q, a.q));  // the output is the extension's value at tout
  for (double tout = 0.066; tout < 2.0; tout += 0.033)
    BOOST_TEST_REQUIRE(GeomintEvolve(a.mem, tout, a.q, a.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(a.mem, 2.0, a.q, a.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(b.mem, 2.0, b.q, b.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(bitwise_equal(a.q, b.q));
  BOOST_TEST(bitwise_equal(a.p, b.p));

  BOOST_TEST(GeomintSetStopTime(b.mem, 2.063) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(b.mem, 3.0, b.q, b.p, &t, GEOMINT_NORMAL) == GEOMINT_TSTOP_RETURN);
  BOOST_TEST(t == 2.063);
  sunrealtype last = 0;
  GeomintGetLastStep(b.mem, &last);
  BOOST_TEST(std::fabs(last - 0.003) < 1e-12);
  BOOST_TEST(GeomintEvolve(b.mem, 3.0, b.q, b.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);  // cleared
  BOOST_TEST(t == 3.0);
  BOOST_TEST(GeomintGetCurrentTime(b.mem, &now) == GEOMINT_SUCCESS);
  BOOST_TEST(now == 300 * 0.01);  // back on the grid
  BOOST_TEST(GeomintSetStopTime(b.mem, 1.0) == GEOMINT_ILL_INPUT);  // behind
}

// GetDky's time fuzz is IDA's, 100 uround (|t_n| + |h|) = 2.2e-11 at t_n = 1000: nextafter(1000)
// and 1000 + 20 ulps (2.3e-12, beyond the former 1e-12 of the step) are inside the last step.
// (The sum of 10 000 × 0.1 is off by 1.6e-10, beyond IDA's fuzz too: it is BAD_T in both.)
BOOST_AUTO_TEST_CASE(get_dky_accepts_times_within_idas_fuzz) {
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.1);
  BOOST_TEST(GeomintSetMaxNumSteps(r.mem, -1) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(r.mem, 1000.0, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  double twenty_ulps = 1000.0;
  for (int k = 0; k < 20; ++k) twenty_ulps = std::nextafter(twenty_ulps, 2000.0);
  N_Vector q = r.s.vector(VectorXd::Zero(3)), p = r.s.vector(VectorXd::Zero(3));
  BOOST_TEST(GeomintGetDky(r.mem, twenty_ulps, 0, q, p) == GEOMINT_SUCCESS, last_error(r.mem));
  BOOST_TEST(GeomintGetDky(r.mem, std::nextafter(1000.0, 2000.0), 0, q, p) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetDky(r.mem, 1000.0 + 1e-9, 0, q, p) == GEOMINT_BAD_T);
  BOOST_TEST(GeomintGetDky(r.mem, 999.9 - 1e-9, 0, q, p) == GEOMINT_BAD_T);
}

// IDAGetNumGEvals: every call of the root function is counted (here: one per grid point plus the
// root search's), in both lifecycles and in PrintAllStats.
BOOST_AUTO_TEST_CASE(root_function_calls_are_counted) {
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  static long calls = 0;
  calls = 0;
  auto counting = [](sunrealtype t, N_Vector q, N_Vector p, sunrealtype* g, void* ud) {
    ++calls;
    return plane_root(t, q, p, g, ud);
  };
  BOOST_TEST(GeomintRootInit(r.mem, 1, counting) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  int roots = 0;
  for (;;) {
    const int flag = GeomintEvolve(r.mem, 2.0, r.q, r.p, &t, GEOMINT_NORMAL);
    if (flag != GEOMINT_ROOT_RETURN) break;
    ++roots;
  }
  long counted = -1;
  BOOST_TEST(GeomintGetNumGEvals(r.mem, &counted) == GEOMINT_SUCCESS);
  BOOST_TEST(roots > 0);
  BOOST_TEST(counted == calls);
  BOOST_TEST(counted > 200);  // at least one per grid point
  char buffer[4096] = {};
  FILE* out = fmemopen(buffer, sizeof buffer, "w");
  BOOST_TEST(GeomintPrintAllStats(r.mem, out, SUN_OUTPUTFORMAT_TABLE) == GEOMINT_SUCCESS);
  std::fclose(out);
  BOOST_TEST(std::string(buffer).find("Root fn evals                = " + std::to_string(calls)) != std::string::npos, buffer);
  BOOST_TEST(GeomintGetNumGEvals(r.mem, nullptr) == GEOMINT_ILL_INPUT);
}

// The new calls' bad inputs: NULL memory, a non-finite or past stop time, NULL outputs, and a
// cleared stop time that no longer stops; the Lie–Poisson lifecycle alike.
BOOST_AUTO_TEST_CASE(new_calls_refuse_bad_input) {
  BOOST_TEST(GeomintSetMaxNumSteps(nullptr, 10) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintSetStopTime(nullptr, 1.0) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintClearStopTime(nullptr) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintGetNumGEvals(nullptr, nullptr) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintLieSetMaxNumSteps(nullptr, 10) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintLieSetStopTime(nullptr, 1.0) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintLieClearStopTime(nullptr) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintLieGetNumGEvals(nullptr, nullptr) == GEOMINT_MEM_NULL);
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  BOOST_TEST(GeomintSetStopTime(r.mem, std::nan("")) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetStopTime(r.mem, -1.0) == GEOMINT_ILL_INPUT);  // behind, h > 0
  BOOST_TEST(GeomintSetStopTime(r.mem, 0.055) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintClearStopTime(r.mem) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(r.mem, 0.1, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);  // not stopped
  BOOST_TEST(t == 0.1);
  sun s;
  void* lie = make_rigid_body(s, GEOMINT_LIE_RKMK_RK4_EXP_4_4, 0.01);
  N_Vector y = s.vector(VectorXd::Zero(3));
  BOOST_TEST(GeomintLieSetStopTime(lie, std::nan("")) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetStopTime(lie, -1.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetNumGEvals(lie, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetStopTime(lie, 0.055) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(lie, 0.1, y, &t, GEOMINT_NORMAL) == GEOMINT_TSTOP_RETURN);
  BOOST_TEST(t == 0.055);
  BOOST_TEST(GeomintLieEvolve(lie, 0.1, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.1);
  long n = -1;
  BOOST_TEST(GeomintLieGetNumGEvals(lie, &n) == GEOMINT_SUCCESS);
  BOOST_TEST(n == 0);  // no root functions
  GeomintLieFree(&lie);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(c_api_ida_semantics_allocation)

// docs/sundials.md: after its first call GeomintEvolve allocates nothing, with root functions
// too (the search works in the root_search's buffers), and neither does GeomintGetDky after its
// first call, on the forced (general) path as well.
BOOST_AUTO_TEST_CASE(roots_and_dense_output_allocate_nothing_after_the_first_call) {
  for (int dependence : {0, GEOMINT_FORCE_POSITION, GEOMINT_FORCE_GENERAL}) {
    BOOST_TEST_CONTEXT("force dependence " << dependence) {
      sp_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01);
      auto drag = [](sunrealtype, N_Vector, N_Vector p, N_Vector out, void*) {
        map(out) = -0.1 * map(p);
        return 0;
      };
      if (dependence) BOOST_TEST_REQUIRE(GeomintSetForce(r.mem, drag, dependence) == GEOMINT_SUCCESS);
      BOOST_TEST_REQUIRE(GeomintRootInit(r.mem, 1, plane_root) == GEOMINT_SUCCESS);
      N_Vector dq = r.s.vector(VectorXd::Zero(3)), dp = r.s.vector(VectorXd::Zero(3));
      sunrealtype t = 0;
      int roots = 0;
      long allocations = 0;
      for (int k = 1; k <= 30; ++k) {
        for (;;) {
          const geomint::diagnostics::allocation_scope scope;
          const int flag = GeomintEvolve(r.mem, 0.1 * k + 0.005, r.q, r.p, &t, GEOMINT_NORMAL);
          BOOST_TEST_REQUIRE(flag >= 0, last_error(r.mem));
          BOOST_TEST_REQUIRE(GeomintGetDky(r.mem, t, 1, dq, dp) == GEOMINT_SUCCESS);
          if (k > 1) allocations += scope.count();
          if (flag != GEOMINT_ROOT_RETURN) break;
          ++roots;
        }
      }
      BOOST_TEST(roots > 0);
      BOOST_TEST(geomint::diagnostics::counting_enabled());
      BOOST_TEST(allocations == 0);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
