// The force callback of the C module (GeomintSetForce) on a problem with a
// closed-form solution: a unit mass on the unit circle g(q) = (|q|² − 1)/2, V = 0, pushed along
// the circle by a(t)(−q₂, q₁) and optionally damped by −c p, so that the angle obeys
// θ̈ = a(t) − c θ̇ (tests/constrained/test_forces.cpp solves it). The orders of RATTLE and
// Lobatto 3 are recovered through the C API, which needs each stage's time in the callbacks.
#define BOOST_TEST_MODULE sundials_forces
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <vector>

#include "c_problems.hpp"
#include "forced_pendulum.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

constexpr double theta0 = 0.3, omega0 = 0.7, damping = 0.5, t_end = 2.0;

/// The exact (q, p) at t: undamped with a = cos 2t, damped (c = 0.5) with a = cos t.
std::pair<VectorXd, VectorXd> exact(double t, bool damped) {
  double theta, omega;
  if (!damped) {
    theta = theta0 + omega0 * t + (1 - std::cos(2 * t)) / 4;
    omega = omega0 + std::sin(2 * t) / 2;
  } else {
    const double c = damping, k = 1 + c * c, transient = omega0 - c / k;
    theta = theta0 + (c * std::sin(t) - std::cos(t) + 1) / k + transient * (1 - std::exp(-c * t)) / c;
    omega = (c * std::cos(t) + std::sin(t)) / k + transient * std::exp(-c * t);
  }
  VectorXd q(2), p(2);
  q << std::cos(theta), std::sin(theta);
  p << -omega * std::sin(theta), omega * std::cos(theta);
  return {q, p};
}

/// What the callbacks see: the times of each kind of call.
struct circle_data {
  bool damped = false;
  int fail_force_at = -1;  // the force callback returns 1 from this call on (-1: never)
  int force_calls = 0;
  bool record = true;  // off for the allocation test (a std::set allocates)
  std::set<double> force_times, other_times;
  void saw(std::set<double>& times, double t) {
    if (record) times.insert(t);
  }
};
circle_data& data_of(void* u) { return *static_cast<circle_data*>(u); }

int zero_gradient(sunrealtype t, N_Vector, N_Vector, N_Vector out, void* u) {
  data_of(u).saw(data_of(u).other_times, t);
  N_VConst(0.0, out);
  return 0;
}
int unit_mass_velocity(sunrealtype t, N_Vector, N_Vector p, N_Vector out, void* u) {  // general H: ∂H/∂p = p
  data_of(u).saw(data_of(u).other_times, t);
  N_VScale(1.0, p, out);
  return 0;
}
int circle(sunrealtype t, N_Vector q, N_Vector g, void* u) {
  data_of(u).saw(data_of(u).other_times, t);
  NV_Ith_S(g, 0) = 0.5 * (NV_Ith_S(q, 0) * NV_Ith_S(q, 0) + NV_Ith_S(q, 1) * NV_Ith_S(q, 1) - 1);
  return 0;
}
int circle_jacobian(sunrealtype t, N_Vector q, SUNMatrix G, void* u) {
  data_of(u).saw(data_of(u).other_times, t);
  SM_ELEMENT_D(G, 0, 0) = NV_Ith_S(q, 0);
  SM_ELEMENT_D(G, 0, 1) = NV_Ith_S(q, 1);
  return 0;
}
int circle_sparse_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void*) {  // pattern set by the test
  SM_DATA_S(G)[0] = NV_Ith_S(q, 0);
  SM_DATA_S(G)[1] = NV_Ith_S(q, 1);
  return 0;
}
/// a(t)(−q₂, q₁), and −c p when damped (then GEOMINT_FORCE_GENERAL).
int push(sunrealtype t, N_Vector q, N_Vector p, N_Vector f, void* u) {
  circle_data& d = data_of(u);
  d.saw(d.force_times, t);
  if (d.fail_force_at >= 0 && ++d.force_calls >= d.fail_force_at) return 1;
  const double a = d.damped ? std::cos(t) : std::cos(2 * t);
  NV_Ith_S(f, 0) = -a * NV_Ith_S(q, 1);
  NV_Ith_S(f, 1) = a * NV_Ith_S(q, 0);
  if (d.damped) N_VLinearSum(1.0, f, -damping, p, f);
  return 0;
}

/// A memory block for the circle: separable (mass 1) or general H, with the force of `d`.
struct circle_run {
  sun s;
  circle_data d;
  SUNMatrix g = nullptr;
  void* mem = nullptr;
  N_Vector q, p;
  circle_run(int method, bool separable, bool damped, double h, int dependence) {
    d.damped = damped;
    const auto x0 = exact(0, damped);
    q = s.vector(x0.first);
    p = s.vector(x0.second);
    g = SUNDenseMatrix(1, 2, s.ctx());
    mem = GeomintCreate(s.ctx(), method);
    GeomintCallbacks cb{zero_gradient, separable ? nullptr : unit_mass_velocity, nullptr};
    BOOST_TEST_REQUIRE(GeomintSetUserData(mem, &d) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintInit(mem, &cb, 0.0, q, p) == GEOMINT_SUCCESS);
    if (separable) BOOST_TEST_REQUIRE(GeomintSetMass(mem, s.vector(VectorXd::Ones(2))) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintSetConstraints(mem, circle, circle_jacobian, g) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintSetForce(mem, push, dependence) == GEOMINT_SUCCESS);
    BOOST_TEST_REQUIRE(GeomintSetFixedStep(mem, h) == GEOMINT_SUCCESS);
  }
  ~circle_run() {
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  int evolve(double tout, int task = GEOMINT_NORMAL) {
    sunrealtype t = 0;
    return GeomintEvolve(mem, tout, q, p, &t, task);
  }
};

/// max |x(t_end) − exact| for n steps.
double error_with(int method, bool separable, bool damped, int dependence, int n) {
  circle_run r(method, separable, damped, t_end / n, dependence);
  BOOST_TEST_REQUIRE(r.evolve(t_end) == GEOMINT_SUCCESS);
  const auto x = exact(t_end, damped);
  return std::fmax((map(r.q) - x.first).cwiseAbs().maxCoeff(), (map(r.p) - x.second).cwiseAbs().maxCoeff());
}

double order_of(int method, bool separable, bool damped, int dependence, const std::vector<int>& counts) {
  std::vector<double> h, e;
  for (int n : counts) {
    h.push_back(t_end / n);
    e.push_back(error_with(method, separable, damped, dependence, n));
  }
  return geomint::diagnostics::loglog_slope(h, e);
}

// As in test_forces.cpp: least-squares slopes over a factor 8 in h, errors in [1e-9, 1e-2]; the
// next error term moves them by O(h) relative: 0.25 is a quarter of the gap to the next order.
constexpr double order_tolerance = 0.25;

/// How many of `stages` the times hit (each within 1e-15); fails the test for a time that is
/// none of them.
int nearest_stage_times(const std::set<double>& times, const std::vector<double>& stages) {
  std::set<int> hit;
  for (double t : times) {
    int found = -1;
    for (std::size_t i = 0; i < stages.size(); ++i)
      if (std::fabs(t - stages[i]) <= 1e-15) found = static_cast<int>(i);
    BOOST_TEST(found >= 0, "a callback saw t = " << t << ", not a stage time");
    hit.insert(found);
  }
  hit.erase(-1);
  return static_cast<int>(hit.size());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_forces)

BOOST_AUTO_TEST_CASE(orders_are_recovered_with_time_dependent_forces) {
  const std::vector<int> rattle_counts{20, 40, 80, 160}, lobatto_counts{10, 20, 40, 80};
  struct config {
    bool separable, damped;
    int dependence;
    const char* what;
  };
  const config configs[] = {{true, false, GEOMINT_FORCE_POSITION, "separable H, f(t, q): fast path"},
                            {true, true, GEOMINT_FORCE_GENERAL, "separable H, f(t, q, p): general path"},
                            {false, false, GEOMINT_FORCE_POSITION, "general H, f(t, q)"},
                            {false, true, GEOMINT_FORCE_GENERAL, "general H, f(t, q, p)"}};
  for (const config& c : configs) {
    const double r2 = order_of(GEOMINT_CONSTRAINED_RATTLE_2_2, c.separable, c.damped, c.dependence, rattle_counts);
    const double r4 = order_of(GEOMINT_CONSTRAINED_LOBATTO_4_3, c.separable, c.damped, c.dependence, lobatto_counts);
    BOOST_TEST_MESSAGE(c.what << ": RATTLE order " << r2 << ", Lobatto 4_3 order " << r4);
    BOOST_TEST(std::fabs(r2 - 2) <= order_tolerance, c.what);
    BOOST_TEST(std::fabs(r4 - 4) <= order_tolerance, c.what);
  }
}

BOOST_AUTO_TEST_CASE(callbacks_see_the_stage_times) {
  // One Lobatto 3 step of h = 0.25 from t = 0: stages at 0, h/2, h (c = (0, 1/2, 1)); RATTLE: 0, h.
  // Every callback's t is one of them (none sees another time), and the force sees each. "One
  // of them" up to 1e-15: c is computed as the row sums of the tableau (1/2 − 2⁻⁵⁴ here).
  for (const bool separable : {true, false}) {
    for (const bool damped : {false, true}) {
      circle_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, separable, damped, 0.25,
                   damped ? GEOMINT_FORCE_GENERAL : GEOMINT_FORCE_POSITION);
      BOOST_TEST_REQUIRE(r.evolve(0.25, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
      BOOST_TEST(nearest_stage_times(r.d.force_times, {0.0, 0.125, 0.25}) == 3);
      BOOST_TEST(nearest_stage_times(r.d.other_times, {0.0, 0.125, 0.25}) >= 1);
    }
    circle_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, separable, false, 0.25, GEOMINT_FORCE_POSITION);
    BOOST_TEST_REQUIRE(r.evolve(0.25, GEOMINT_ONE_STEP) == GEOMINT_SUCCESS);
    BOOST_TEST(nearest_stage_times(r.d.force_times, {0.0, 0.25}) == 2);
  }
}

// A velocity-dependent force sends a separable H through the general stage solver: a
// SUNLinearSolver given to it factorizes the stage Jacobians (order S n + (S - 1)(n + m) = 12 for
// Lobatto 3 on the circle), and the counts are its calls; a position force keeps the fast path and
// its m x m G M^-1 G^T. The steps equal those with Eigen's factorizations to round-off.
BOOST_AUTO_TEST_CASE(the_linear_solver_serves_the_path_the_force_selects) {
  for (bool damped : {false, true}) {
    BOOST_TEST_CONTEXT((damped ? "velocity-dependent" : "position") << " force") {
      const int dependence = damped ? GEOMINT_FORCE_GENERAL : GEOMINT_FORCE_POSITION;
      const double h = t_end / 40;
      circle_run eigen(GEOMINT_CONSTRAINED_LOBATTO_4_3, true, damped, h, dependence);
      BOOST_TEST_REQUIRE(eigen.evolve(t_end) == GEOMINT_SUCCESS);
      circle_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, true, damped, h, dependence);
      sunindextype order = 0;
      BOOST_TEST_REQUIRE(GeomintGetLinearSystemSize(r.mem, &order) == GEOMINT_SUCCESS);
      BOOST_TEST(order == (damped ? 12 : 1));
      SUNMatrix a = SUNDenseMatrix(order, order, r.s.ctx());
      SUNLinearSolver ls = SUNLinSol_Dense(r.s.vector(VectorXd::Zero(order)), a, r.s.ctx());
      ls->ops->setup = counting_setup;
      ls->ops->solve = counting_solve;
      setup_calls = solve_calls = 0;
      BOOST_TEST_REQUIRE(GeomintSetLinearSolver(r.mem, ls, a) == GEOMINT_SUCCESS);
      BOOST_TEST_REQUIRE(r.evolve(t_end) == GEOMINT_SUCCESS);
      long setups = 0, solves = 0, iterations = 0;
      GeomintGetNumLinSolvSetups(r.mem, &setups);
      GeomintGetNumLinSolves(r.mem, &solves);
      GeomintGetNumNewtonIters(r.mem, &iterations);
      BOOST_TEST(setups == setup_calls);
      BOOST_TEST(solves == solve_calls);
      BOOST_TEST(iterations > 0);
      BOOST_TEST(solve_calls >= iterations, "the stage iterations went past the user's solver");
      BOOST_TEST((map(r.q) - map(eigen.q)).cwiseAbs().maxCoeff() <= 1e-12);
      BOOST_TEST((map(r.p) - map(eigen.p)).cwiseAbs().maxCoeff() <= 1e-12);
      GeomintFree(&r.mem);
      SUNLinSolFree(ls);
      SUNMatDestroy(a);
    }
  }
}

BOOST_AUTO_TEST_CASE(force_evaluations_are_counted_and_printed) {
  circle_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, true, false, 0.1, GEOMINT_FORCE_POSITION);
  BOOST_TEST_REQUIRE(r.evolve(1.0) == GEOMINT_SUCCESS);
  long n = -1;
  BOOST_TEST(GeomintGetNumForceEvals(r.mem, &n) == GEOMINT_SUCCESS);
  BOOST_TEST(n > 10);  // at least one per step
  BOOST_TEST(GeomintGetNumForceEvals(r.mem, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetNumForceEvals(nullptr, &n) == GEOMINT_MEM_NULL);
}

BOOST_AUTO_TEST_CASE(bad_arguments_and_unsupported_methods_are_flags) {
  BOOST_TEST(GeomintSetForce(nullptr, push, GEOMINT_FORCE_POSITION) == GEOMINT_MEM_NULL);
  sun s;
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  BOOST_TEST(GeomintSetForce(mem, push, GEOMINT_FORCE_POSITION) == GEOMINT_NO_MALLOC);
  GeomintFree(&mem);

  circle_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, true, false, 0.1, GEOMINT_FORCE_POSITION);
  BOOST_TEST(GeomintSetForce(r.mem, push, 7) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetForce(r.mem, nullptr, 0) == GEOMINT_SUCCESS);  // removes it
  BOOST_TEST(GeomintSetForce(r.mem, push, GEOMINT_FORCE_POSITION) == GEOMINT_SUCCESS);
  for (int method : {GEOMINT_REICH_SYMMETRIC_2, GEOMINT_VARIATIONAL_MIDPOINT_2, GEOMINT_SHAKE_2}) {
    BOOST_TEST(GeomintSetMethod(r.mem, method) == GEOMINT_SUCCESS);
    BOOST_TEST(r.evolve(0.1) == GEOMINT_ILL_INPUT, "method " << method);
  }

  // A velocity-dependent force with a sparse G: refused by GeomintSetForce.
  circle_run sparse(GEOMINT_CONSTRAINED_RATTLE_2_2, true, false, 0.1, GEOMINT_FORCE_POSITION);
  SUNMatrix gs = SUNSparseMatrix(1, 2, 2, CSR_MAT, sparse.s.ctx());
  SM_INDEXPTRS_S(gs)[0] = 0;
  SM_INDEXPTRS_S(gs)[1] = 2;
  SM_INDEXVALS_S(gs)[0] = 0;
  SM_INDEXVALS_S(gs)[1] = 1;
  BOOST_TEST(GeomintSetForce(sparse.mem, nullptr, 0) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetConstraints(sparse.mem, circle, circle_sparse_jacobian, gs) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetForce(sparse.mem, push, GEOMINT_FORCE_GENERAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetForce(sparse.mem, push, GEOMINT_FORCE_POSITION) == GEOMINT_SUCCESS);  // the fast path
  BOOST_TEST(sparse.evolve(0.5) == GEOMINT_SUCCESS);
  SUNMatDestroy(gs);
}

BOOST_AUTO_TEST_CASE(a_failing_force_leaves_the_state_and_reports_its_flag) {
  circle_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, true, false, 0.1, GEOMINT_FORCE_POSITION);
  BOOST_TEST_REQUIRE(r.evolve(0.5) == GEOMINT_SUCCESS);
  const VectorXd q = map(r.q), p = map(r.p);
  r.d.force_calls = 0;
  r.d.fail_force_at = 1;
  BOOST_TEST(r.evolve(1.0) == GEOMINT_CALLBACK_RECOVERABLE);
  BOOST_TEST((map(r.q).array() == q.array()).all());
  BOOST_TEST((map(r.p).array() == p.array()).all());
  sunrealtype t = -1;
  BOOST_TEST(GeomintGetCurrentTime(r.mem, &t) == GEOMINT_SUCCESS);
  BOOST_TEST(std::fabs(t - 0.5) <= 1e-15);
}

BOOST_AUTO_TEST_CASE(no_allocation_per_step_with_a_force) {
  for (const bool damped : {false, true}) {
    circle_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, true, damped, 0.01, damped ? GEOMINT_FORCE_GENERAL : GEOMINT_FORCE_POSITION);
    r.d.record = false;
    BOOST_TEST_REQUIRE(r.evolve(0.01) == GEOMINT_SUCCESS);  // the first call sizes the workspaces
    const geomint::diagnostics::allocation_scope scope;
    BOOST_TEST_REQUIRE(r.evolve(1.0) == GEOMINT_SUCCESS);
    BOOST_TEST(scope.count() == 0, "damped = " << damped);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The general force path's cost (GEOMINT_FORCE_GENERAL, no second derivatives given): Lobatto 4_3
// on the forced, damped pendulum at h = 0.01 calls ∇V and the force at most 10 times per step
// (measured 7.0 and 9.0: two Newton iterations of three stages, the stage matrix reassembled per
// step from kept second derivatives; before, 24 of each), and its constraints stay at round-off.
BOOST_AUTO_TEST_CASE(general_force_path_costs_at_most_ten_calls_per_lobatto_step) {
  sun s;
  forced_pendulum::data d;
  N_Vector q = s.vector(VectorXd::Zero(2)), p = s.vector(VectorXd::Zero(2)), mass = s.vector(VectorXd::Ones(2));
  SUNMatrix g = SUNDenseMatrix(1, 2, s.ctx());
  void* mem = forced_pendulum::make(s.ctx(), d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, q, p, mass, g);
  BOOST_TEST_REQUIRE(mem != nullptr);
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(mem, 10.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  long steps = 0;
  GeomintGetNumSteps(mem, &steps);
  BOOST_TEST_REQUIRE(steps == 1000);
  const double gradient_per_step = double(d.count.gradient) / steps, force_per_step = double(d.count.force) / steps;
  BOOST_TEST_MESSAGE("per step: " << gradient_per_step << " grad V, " << force_per_step << " force");
  BOOST_TEST(gradient_per_step <= 10.0);
  BOOST_TEST(force_per_step <= 10.0);
  sunrealtype position = 1, velocity = 1;
  GeomintGetConstraintResidual(mem, &position, &velocity);
  BOOST_TEST(position <= 1e-14);
  BOOST_TEST(velocity <= 1e-13);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}
