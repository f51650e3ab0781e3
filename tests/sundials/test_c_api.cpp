// The C module (geomint_sundials.h): bit-for-bit agreement with the C++ steppers on the same
// problem, GeomintEvolve's time stepping, no allocation per step, and Create/Free cycles (run
// under AddressSanitizer's leak checker by scripts/test).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <sunlinsol/sunlinsol_dense.h>

#include "c_problems.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/diagnostics/count_allocations.hpp"

using namespace sundials_test;
using Eigen::VectorXd;
using state = std::pair<VectorXd, VectorXd>;

namespace {

template <int Id, class Stepper>
struct method {
  static constexpr int id = Id;
  using stepper = Stepper;
};
using all_methods = boost::mpl::list<
    method<GEOMINT_CONSTRAINED_RATTLE_2_2, geomint::rattle<state>>,
    method<GEOMINT_CONSTRAINED_LOBATTO_2_2, geomint::lobatto_iiia_iiib<2, state>>,
    method<GEOMINT_CONSTRAINED_LOBATTO_4_3, geomint::lobatto_iiia_iiib<3, state>>,
    method<GEOMINT_CONSTRAINED_LOBATTO_6_4, geomint::lobatto_iiia_iiib<4, state>>,
    method<GEOMINT_CONSTRAINED_LOBATTO_8_5, geomint::lobatto_iiia_iiib<5, state>>,
    method<GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2, geomint::constrained_symplectic_euler<state>>>;

/// Evolves mem to t = k·interval, k = 1..count (each a separate GeomintEvolve), and the C++
/// stepper through the same steps of h; after each interval the states must agree bit for bit.
template <class Stepper, class System>
void compare(void* mem, const System& sys, state x, sun& s, double h, double interval, int count) {
  Stepper stepper;
  N_Vector q = s.vector(x.first), p = s.vector(x.second);
  const int per_interval = static_cast<int>(std::lround(interval / h));
  double t = 0;
  long steps = 0;
  for (int k = 1; k <= count; ++k) {
    sunrealtype tret = -1;
    BOOST_TEST_REQUIRE(GeomintEvolve(mem, k * interval, q, p, &tret, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST(tret == k * interval);
    for (int i = 0; i < per_interval; ++i, ++steps) {
      stepper.do_step(sys, x, t, h);
      t += h;
    }
    BOOST_TEST_REQUIRE(bitwise_equal(x.first, q), "q differs after interval " << k);
    BOOST_TEST_REQUIRE(bitwise_equal(x.second, p), "p differs after interval " << k);
  }
  long nsteps = 0, iterations = 0;
  BOOST_TEST(GeomintGetNumSteps(mem, &nsteps) == GEOMINT_SUCCESS);
  BOOST_TEST(nsteps == steps);
  BOOST_TEST(GeomintGetNumNewtonIters(mem, &iterations) == GEOMINT_SUCCESS);
  BOOST_TEST(iterations == stepper.statistics().newton.iterations);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api)

// Separable H, dense G: the C API's c_separable_system against the same potential and
// constraint code in a geomint::separable_system of the same (dynamic) sizes.
BOOST_AUTO_TEST_CASE_TEMPLATE(bit_for_bit_double_spherical_pendulum, M, all_methods) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, M::id, 0.01, g);
  const auto x0 = d.problem.initial_state();
  compare<typename M::stepper>(mem, d.system(), state(x0.first, x0.second), s, 0.01, 0.1, 10);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// Separable H, sparse (CSR) G: against geomint::problems::pendulum_chain itself.
BOOST_AUTO_TEST_CASE_TEMPLATE(bit_for_bit_pendulum_chain, M, all_methods) {
  sun s;
  chain_data d(20);
  SUNMatrix g;
  void* mem = make_chain(s, d, M::id, 0.01, g);
  compare<typename M::stepper>(mem, d.problem, d.problem.initial_state(), s, 0.01, 0.1, 3);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// General H: dh_dq, dh_dp callbacks, with and without the Hessian callbacks (without them the C
// API takes forward differences exactly as geomint's second_derivatives does for a C++ system).
BOOST_AUTO_TEST_CASE_TEMPLATE(bit_for_bit_general_hamiltonian, M, all_methods) {
  for (bool hessians : {true, false}) {
    BOOST_TEST_CONTEXT("Hessian callbacks " << hessians) {
      sun s;
      vms_data d;
      SUNMatrix g;
      void* mem = make_vms(s, d, M::id, 0.01, hessians, g);
      const auto x0 = d.problem.initial_state();
      const state x(x0.first, x0.second);
      if (hessians) compare<typename M::stepper>(mem, dynamic_vms<true>(d.problem), x, s, 0.01, 0.1, 5);
      else compare<typename M::stepper>(mem, dynamic_vms<false>(d.problem), x, s, 0.01, 0.1, 5);
      GeomintFree(&mem);
      SUNMatDestroy(g);
    }
  }
}

// A general H started from rest, at step sizes where Newton's momentum increments are tiny
// (P = O(h·force)): every step succeeds, with the state on the manifold.
BOOST_AUTO_TEST_CASE(general_hamiltonian_from_rest_at_small_steps) {
  for (int id : {GEOMINT_CONSTRAINED_RATTLE_2_2, GEOMINT_CONSTRAINED_LOBATTO_4_3, GEOMINT_CONSTRAINED_LOBATTO_6_4,
                 GEOMINT_REICH_SYMMETRIC_2}) {
    for (double h : {2e-3, 1e-3, 5e-4, 1e-5, 1e-7}) {
      BOOST_TEST_CONTEXT(GeomintGetMethodName(id) << ", h = " << h) {
        sun s;
        vms_data d;
        SUNMatrix g;
        void* mem = make_vms(s, d, id, h, false, g);
        const auto x0 = d.problem.initial_state();
        N_Vector q = s.vector(x0.first), p = s.vector(VectorXd::Zero(3));
        BOOST_TEST_REQUIRE(GeomintReInit(mem, 0.0, q, p) == GEOMINT_SUCCESS);
        sunrealtype tret = 0, position = 1, velocity = 1;
        BOOST_TEST(GeomintEvolve(mem, 10 * h, q, p, &tret, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
        BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);
        BOOST_TEST(position <= 1e-14);
        BOOST_TEST(velocity <= 1e-13);
        GeomintFree(&mem);
        SUNMatDestroy(g);
      }
    }
  }
}

// tout need not be a multiple of h: the last step is shortened and lands exactly on tout;
// a tout behind the current time is refused (state untouched) unless the step is negative.
BOOST_AUTO_TEST_CASE(evolve_lands_on_tout_in_both_directions) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype t = 0;
  long steps = 0;
  BOOST_TEST(GeomintEvolve(mem, 0.105, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.105);
  BOOST_TEST(GeomintGetNumSteps(mem, &steps) == GEOMINT_SUCCESS);
  BOOST_TEST(steps == 11);  // ten of 0.01 and one of 0.005
  BOOST_TEST(GeomintEvolve(mem, 0.105, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);  // nothing to do
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST(steps == 11);
  const VectorXd q_then = map(q);
  BOOST_TEST(GeomintEvolve(mem, 0.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // behind, h > 0
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST(steps == 11);
  BOOST_TEST((map(q).array() == q_then.array()).all());
  BOOST_TEST(GeomintSetFixedStep(mem, -0.01) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 0.2, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // ahead, h < 0
  BOOST_TEST(GeomintEvolve(mem, 0.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.0);
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST(steps == 22);
  sunrealtype now = -1, position = 1, velocity = 1;
  BOOST_TEST(GeomintGetCurrentTime(mem, &now) == GEOMINT_SUCCESS);
  BOOST_TEST(now == 0.0);
  // Scaled residuals after the steps: at round-off (≤ 1e-14 is a few ulps relative).
  BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);
  BOOST_TEST(position <= 1e-14);
  BOOST_TEST(velocity <= 1e-14);
  const geomint::constraint_residuals direct = geomint::constraint_residuals_of(d.system(), VectorXd(map(q)), VectorXd(map(p)));
  BOOST_TEST(position == direct.position);
  BOOST_TEST(velocity == direct.velocity);
  BOOST_TEST_MESSAGE("residuals " << position << " " << velocity);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// Energy through the hamiltonian callback: the 3-stage Lobatto pair (order 4) at h = 0.01
// keeps |ΔH| small; 1e-6 relative to |H| ≈ 90 is a loose bound on its O(h⁴) error.
BOOST_AUTO_TEST_CASE(energy_and_method_names) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype h0 = 0, h1 = 0, t = 0;
  BOOST_TEST(GeomintGetEnergy(mem, &h0) == GEOMINT_SUCCESS);
  BOOST_TEST(h0 == d.problem.hamiltonian(d.problem.initial_state().first, d.problem.initial_state().second));
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetEnergy(mem, &h1) == GEOMINT_SUCCESS);
  BOOST_TEST(std::fabs(h1 - h0) <= 1e-6 * std::fabs(h0));
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_RATTLE_2_2)) == "constrained_rattle_2_2");
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_2_2)) == "constrained_lobatto_2_2");
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_4_3)) == "constrained_lobatto_4_3");
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_6_4)) == "constrained_lobatto_6_4");
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_8_5)) == "constrained_lobatto_8_5");
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2)) == "constrained_symplectic_euler_1_2");
  BOOST_TEST(GeomintGetMethodName(99) == nullptr);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// After the first GeomintEvolve (which sizes every workspace), further ones allocate nothing:
// the N_Vector views are re-aimed, not created, and the steppers do not allocate. Separable
// with dense and with sparse G, and general H.
BOOST_AUTO_TEST_CASE(evolve_does_not_allocate_after_the_first_call) {
  sun s;
  dsp_data dd;
  chain_data cd(10);
  vms_data vd;
  SUNMatrix g[3];
  void* mems[3] = {make_dsp(s, dd, GEOMINT_CONSTRAINED_LOBATTO_6_4, 0.01, g[0]),
                   make_chain(s, cd, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, g[1]),
                   make_vms(s, vd, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, false, g[2])};
  const int n[3] = {6, 30, 3};
  for (int i = 0; i < 3; ++i) {
    N_Vector q = s.vector(VectorXd::Zero(n[i])), p = s.vector(VectorXd::Zero(n[i]));
    sunrealtype t = 0;
    BOOST_TEST_REQUIRE(GeomintEvolve(mems[i], 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    geomint::diagnostics::allocation_scope scope;
    BOOST_TEST_REQUIRE(GeomintEvolve(mems[i], 0.3, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST(scope.count() == 0, "system " << i);
    GeomintFree(&mems[i]);
    SUNMatDestroy(g[i]);
  }
}

// Create → Init → Set* (a SUNDIALS linear solver too) → Evolve (success and failure) → IDA →
// Free, repeatedly. LeakSanitizer (scripts/test's sanitizer build) fails the run on any leak.
BOOST_AUTO_TEST_CASE(create_free_cycles) {
  sun s;
  for (int cycle = 0; cycle < 20; ++cycle) {
    dsp_data d;
    SUNMatrix g;
    void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
    N_Vector tmpl = N_VNew_Serial(2, s.ctx());
    SUNMatrix a = SUNDenseMatrix(2, 2, s.ctx());
    SUNLinearSolver ls = SUNLinSol_Dense(tmpl, a, s.ctx());
    BOOST_TEST(GeomintSetLinearSolver(mem, ls, a) == GEOMINT_SUCCESS);
    N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
    sunrealtype t = 0;
    BOOST_TEST(GeomintEvolve(mem, 0.05, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    d.f = fault{"dh_dq", 0, 3, -1};
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_CALLBACK_FAIL);
    d.f = fault{};
    GeomintIDAOptions o;
    GeomintIDADefaultOptions(&o);
    GeomintIDAStats st;
    const sunrealtype tout = 0.05;
    BOOST_TEST(GeomintSolveIDA(mem, &o, 1, &tout, &q, &p, &st) == GEOMINT_SUCCESS);
    if (cycle % 2 == 0) BOOST_TEST(GeomintSetMethod(mem, GEOMINT_CONSTRAINED_RATTLE_2_2) == GEOMINT_SUCCESS);
    GeomintFree(&mem);
    BOOST_TEST(mem == nullptr);
    SUNLinSolFree(ls);
    SUNMatDestroy(a);
    SUNMatDestroy(g);
    N_VDestroy(tmpl);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// Another user-data pointer between GeomintEvolve calls (the pendulum on the Moon from t = 0.5):
// the next step equals a fresh start from the same state with the new data. Before, the steppers
// reused ∇V kept from the last end point (the old gravity) in that step: an error O(h Δg).
BOOST_AUTO_TEST_CASE(other_user_data_between_calls_starts_the_next_step_afresh) {
  for (int method : {GEOMINT_CONSTRAINED_RATTLE_2_2, GEOMINT_CONSTRAINED_LOBATTO_4_3, GEOMINT_VARIATIONAL_SHAKE_2_1}) {
    sp_run earth(method, 0.01), moon(method, 0.01);
    moon.d.gravity = 1.62;
    sunrealtype t = 0;
    BOOST_TEST_REQUIRE(GeomintEvolve(earth.mem, 0.5, earth.q, earth.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintReInit(moon.mem, 0.5, earth.q, earth.p) == GEOMINT_SUCCESS, last_error(moon.mem));
    N_VScale(1.0, earth.q, moon.q);
    N_VScale(1.0, earth.p, moon.p);
    BOOST_TEST_REQUIRE(GeomintSetUserData(earth.mem, &moon.d) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintEvolve(earth.mem, 0.6, earth.q, earth.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintEvolve(moon.mem, 0.6, moon.q, moon.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST(bitwise_equal(earth.q, moon.q), "method " << method << ": |dq| = " << (map(earth.q) - map(moon.q)).norm());
    BOOST_TEST(bitwise_equal(earth.p, moon.p), "method " << method << ": |dp| = " << (map(earth.p) - map(moon.p)).norm());
  }
}
