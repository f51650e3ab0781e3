// The C module's dense output and root finding (IDAGetDky, IDARootInit's behaviour): root times
// converge at the method's order as h is halved, direction filtering, roots at tout and at the
// initial time, the step grid unchanged by root finding, GeomintGetDky at the ends of a step
// and its flags.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "c_problems.hpp"
#include "geomint/diagnostics/observed_order.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

// g0 = q_y (the pendulum crosses the vertical xz plane), g1 = q_x.
int plane_roots(sunrealtype, N_Vector q, N_Vector, sunrealtype* g, void*) {
  g[0] = NV_Ith_S(q, 1);
  g[1] = NV_Ith_S(q, 0);
  return 0;
}
// A root exactly at t = 0.5 (and one at the initial time t = 0, not to be reported).
int time_roots(sunrealtype t, N_Vector, N_Vector, sunrealtype* g, void*) {
  g[0] = t - 0.5;
  g[1] = t;
  return 0;
}

struct root_report {
  double t;
  std::vector<int> found;
};

/// Evolve to t_end, collecting every GEOMINT_ROOT_RETURN; q, p end at t_end.
std::vector<root_report> run_with_roots(void* mem, double t_end, N_Vector q, N_Vector p, int count) {
  std::vector<root_report> out;
  for (;;) {
    sunrealtype t = 0;
    const int flag = GeomintEvolve(mem, t_end, q, p, &t, GEOMINT_NORMAL);
    if (flag == GEOMINT_SUCCESS) break;
    BOOST_TEST_REQUIRE(flag == GEOMINT_ROOT_RETURN, last_error(mem));
    root_report r{t, std::vector<int>(count)};
    BOOST_TEST_REQUIRE(GeomintGetRootInfo(mem, r.found.data()) == GEOMINT_SUCCESS);
    out.push_back(r);
  }
  return out;
}

/// The times at which the spherical pendulum crosses q_y = 0 over [0, 4].
std::vector<double> crossing_times(int method, double h, const int* direction = nullptr) {
  sun s;
  sp_data d;
  SUNMatrix g = nullptr;
  void* mem = make_sp(s, d, method, h, true, g);
  const auto x0 = d.initial_state();
  N_Vector q = s.vector(x0.first), p = s.vector(x0.second);
  BOOST_TEST_REQUIRE(GeomintRootInit(mem, 2, plane_roots) == GEOMINT_SUCCESS);
  if (direction) BOOST_TEST_REQUIRE(GeomintSetRootDirection(mem, direction) == GEOMINT_SUCCESS);
  std::vector<double> times;
  for (const root_report& r : run_with_roots(mem, 4.0, q, p, 2))
    if (r.found[0] != 0) times.push_back(r.t);
  GeomintFree(&mem);
  SUNMatDestroy(g);
  return times;
}

}  // namespace

BOOST_AUTO_TEST_CASE(root_times_converge_at_the_methods_order) {
  // Reference: Lobatto IIIA-IIIB 4 (order 6) at h = 0.005: its root times are off by ~1e-12.
  const std::vector<double> reference = crossing_times(GEOMINT_CONSTRAINED_LOBATTO_6_4, 0.005);
  BOOST_TEST_REQUIRE(reference.size() >= 3u);
  const std::vector<double> steps{0.04, 0.02, 0.01};
  std::vector<double> rattle_errors, lobatto_errors;
  for (double h : steps) {
    for (auto [method, errors] : {std::pair{GEOMINT_CONSTRAINED_RATTLE_2_2, &rattle_errors},
                                  std::pair{GEOMINT_CONSTRAINED_LOBATTO_4_3, &lobatto_errors}}) {
      const std::vector<double> times = crossing_times(method, h);
      BOOST_TEST_REQUIRE(times.size() == reference.size());
      double worst = 0;
      for (std::size_t i = 0; i < times.size(); ++i) worst = std::fmax(worst, std::fabs(times[i] - reference[i]));
      errors->push_back(worst);
    }
  }
  const double rattle = geomint::diagnostics::loglog_slope(steps, rattle_errors);
  const double lobatto = geomint::diagnostics::loglog_slope(steps, lobatto_errors);
  BOOST_TEST_MESSAGE("root time errors: RATTLE " << rattle_errors.front() << " … " << rattle_errors.back() << " (order "
                                                 << rattle << "), Lobatto 3 " << lobatto_errors.front() << " … "
                                                 << lobatto_errors.back() << " (order " << lobatto << ")");
  // The trajectory's error dominates the interpolant's (cubic/quintic): the method's order.
  BOOST_TEST(rattle >= 1.8);
  BOOST_TEST(lobatto >= 3.6);
}

BOOST_AUTO_TEST_CASE(direction_filters_the_roots_and_the_grid_stays) {
  const std::vector<double> both = crossing_times(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01);
  const int rising[2] = {1, 0}, falling[2] = {-1, 0};
  const std::vector<double> up = crossing_times(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, rising);
  const std::vector<double> down = crossing_times(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, falling);
  BOOST_TEST(up.size() + down.size() == both.size());
  // Rising and falling crossings alternate; merged they are the unfiltered list.
  std::vector<double> merged = up;
  merged.insert(merged.end(), down.begin(), down.end());
  std::sort(merged.begin(), merged.end());
  BOOST_TEST(merged == both, boost::test_tools::per_element());

  // Root finding does not move the grid: the final state is the one without roots, bit for bit.
  sun s;
  sp_data d;
  SUNMatrix g1 = nullptr, g2 = nullptr;
  void* with = make_sp(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, true, g1);
  void* without = make_sp(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, true, g2);
  const auto x0 = d.initial_state();
  N_Vector q1 = s.vector(x0.first), p1 = s.vector(x0.second), q2 = s.vector(x0.first), p2 = s.vector(x0.second);
  BOOST_TEST_REQUIRE(GeomintRootInit(with, 2, plane_roots) == GEOMINT_SUCCESS);
  BOOST_TEST(!run_with_roots(with, 4.0, q1, p1, 2).empty());
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(without, 4.0, q2, p2, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(((map(q1).array() == map(q2).array()).all() && (map(p1).array() == map(p2).array()).all()));
  for (void** m : {&with, &without}) GeomintFree(m);
  SUNMatDestroy(g1);
  SUNMatDestroy(g2);
}

BOOST_AUTO_TEST_CASE(roots_at_tout_and_at_the_initial_time) {
  sun s;
  sp_data d;
  SUNMatrix g = nullptr;
  void* mem = make_sp(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, true, g);
  const auto x0 = d.initial_state();
  N_Vector q = s.vector(x0.first), p = s.vector(x0.second);
  BOOST_TEST_REQUIRE(GeomintRootInit(mem, 2, time_roots) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  // g1 = t is zero at the initial time: not reported. g0 = t − 0.5 has its root at tout = 0.5,
  // a grid point: GEOMINT_ROOT_RETURN there (before GEOMINT_SUCCESS, as IDA), once.
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ROOT_RETURN);
  BOOST_TEST(t == 0.5);
  int found[2] = {0, 0};
  BOOST_TEST(GeomintGetRootInfo(mem, found) == GEOMINT_SUCCESS);
  BOOST_TEST(found[0] == 1);
  BOOST_TEST(found[1] == 0);
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 0.5);
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(t == 1.0);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

BOOST_AUTO_TEST_CASE(dense_output_at_the_ends_of_the_last_step_and_its_flags) {
  sun s;
  sp_data d;
  SUNMatrix g = nullptr;
  void* mem = make_sp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.05, true, g);
  const auto x0 = d.initial_state();
  N_Vector q = s.vector(x0.first), p = s.vector(x0.second), dq = s.vector(VectorXd::Zero(3)),
           dp = s.vector(VectorXd::Zero(3));
  BOOST_TEST(GeomintGetDky(mem, 0.0, 0, dq, dp) == GEOMINT_ILL_INPUT);  // no step yet
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.05, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  // k = 0 at the step's end: the grid state (the Hermite interpolant passes through it).
  BOOST_TEST_REQUIRE(GeomintGetDky(mem, 0.1, 0, dq, dp) == GEOMINT_SUCCESS, last_error(mem));
  BOOST_TEST((map(dq) - map(q)).cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST((map(dp) - map(p)).cwiseAbs().maxCoeff() <= 1e-15);
  // k = 1 at the end: the vector field there, dq/dt = p/m (separable H), to round-off.
  BOOST_TEST_REQUIRE(GeomintGetDky(mem, 0.1, 1, dq, dp) == GEOMINT_SUCCESS);
  BOOST_TEST((map(dq) - map(p) / d.mass).cwiseAbs().maxCoeff() <= 1e-13);
  // Mid-step: on the constraint |q| = l to the interpolant's error (order 4 locally, h = 0.05).
  BOOST_TEST_REQUIRE(GeomintGetDky(mem, 0.075, 0, dq, dp) == GEOMINT_SUCCESS);
  BOOST_TEST(std::fabs(map(dq).norm() - d.length) <= 1e-5);
  // Outside the last step, or a derivative it does not have.
  BOOST_TEST(GeomintGetDky(mem, 0.04, 0, dq, dp) == GEOMINT_BAD_T);
  BOOST_TEST(GeomintGetDky(mem, 0.11, 0, dq, dp) == GEOMINT_BAD_T);
  BOOST_TEST(GeomintGetDky(mem, 0.075, 2, dq, dp) == GEOMINT_BAD_K);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// ---- the Lie–Poisson lifecycle ----------------------------------------------------------------

namespace {
int rb_roots(sunrealtype, N_Vector y, sunrealtype* g, void*) {
  g[0] = NV_Ith_S(y, 1);  // y2 = 0
  return 0;
}
VectorXd rb_root_initial() { return geomint::vector<3>(std::cos(1.1), 0.1, std::sin(1.1)); }

/// Root times of y2 over [0, 20] with RKMK RK4 (exp) at h; |y| at each root into casimir.
std::vector<double> rb_root_times(double h, double* casimir = nullptr, double* residual = nullptr) {
  sun s;
  void* mem = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(rb_root_initial());
  BOOST_TEST_REQUIRE((mem && !GeomintLieInit(mem, rigid_body_gradient, nullptr, 0.0, y) && !GeomintLieSetFixedStep(mem, h)));
  BOOST_TEST_REQUIRE(GeomintLieRootInit(mem, 1, rb_roots) == GEOMINT_SUCCESS);
  std::vector<double> times;
  double worst = 0, off = 0;
  for (;;) {
    sunrealtype t = 0;
    const int flag = GeomintLieEvolve(mem, 20.0, y, &t, GEOMINT_NORMAL);
    if (flag == GEOMINT_SUCCESS) break;
    BOOST_TEST_REQUIRE(flag == GEOMINT_ROOT_RETURN);
    times.push_back(t);
    worst = std::fmax(worst, std::fabs(map(y).norm() - rb_root_initial().norm()));
    off = std::fmax(off, std::fabs(NV_Ith_S(y, 1)));
  }
  if (casimir) *casimir = worst;
  if (residual) *residual = off;
  GeomintLieFree(&mem);
  return times;
}
}  // namespace

BOOST_AUTO_TEST_CASE(lie_roots_lie_on_the_orbit_and_converge) {
  double casimir = 0, residual = 0;
  const std::vector<double> reference = rb_root_times(0.0125);
  const std::vector<double> coarse = rb_root_times(0.1, &casimir, &residual), fine = rb_root_times(0.05);
  BOOST_TEST_REQUIRE(reference.size() >= 4u);
  BOOST_TEST_REQUIRE((coarse.size() == reference.size() && fine.size() == reference.size()));
  double e1 = 0, e2 = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    e1 = std::fmax(e1, std::fabs(coarse[i] - reference[i]));
    e2 = std::fmax(e2, std::fabs(fine[i] - reference[i]));
  }
  BOOST_TEST_MESSAGE("Lie root times: errors " << e1 << ", " << e2 << "; |y| at the roots within " << casimir
                                               << ", |y2| there " << residual);
  // Interpolated states are coadjoint images of a grid state: |y| to round-off (the grid's
  // random-walk rounding over 200 steps, ~√200 ε, plus one action's few ε).
  BOOST_TEST(casimir <= 5e-14);
  BOOST_TEST(residual <= 1e-12);  // the root, to TOMS 748's 1e-14 of the step times |dy2/dt|
  BOOST_TEST(std::log(e1 / e2) / std::log(2.0) >= 3.5);  // RK4's order (extension O(h⁴) too)

  // GeomintLieGetDky: the grid state at the step's end, BAD_T outside.
  sun s;
  void* mem = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(rb_root_initial()), d = s.vector(VectorXd::Zero(3));
  BOOST_TEST_REQUIRE((mem && !GeomintLieInit(mem, rigid_body_gradient, nullptr, 0.0, y) && !GeomintLieSetFixedStep(mem, 0.1)));
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintLieEvolve(mem, 0.3, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintLieGetDky(mem, t, 0, d) == GEOMINT_SUCCESS);
  BOOST_TEST((map(d) - map(y)).cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST(GeomintLieGetDky(mem, 0.1, 0, d) == GEOMINT_BAD_T);
  GeomintLieFree(&mem);
}

namespace {
// g0 = y2 (crossing), g1 = t − 0.5 (a root at a grid point and tout), g2 = t (a root at the
// initial time, not to be reported).
int rb_time_and_plane_roots(sunrealtype t, N_Vector y, sunrealtype* g, void*) {
  g[0] = NV_Ith_S(y, 1);
  g[1] = t - 0.5;
  g[2] = t;
  return 0;
}

/// The rigid body over [0, 20] with GeomintLieSetRootDirection(direction) (null: both).
std::vector<root_report> rb_roots_with(const int* direction) {
  sun s;
  void* mem = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(rb_root_initial());
  BOOST_TEST_REQUIRE((mem && !GeomintLieInit(mem, rigid_body_gradient, nullptr, 0.0, y) && !GeomintLieSetFixedStep(mem, 0.05)));
  BOOST_TEST_REQUIRE(GeomintLieRootInit(mem, 3, rb_time_and_plane_roots) == GEOMINT_SUCCESS);
  if (direction) BOOST_TEST_REQUIRE(GeomintLieSetRootDirection(mem, direction) == GEOMINT_SUCCESS);
  std::vector<root_report> out;
  for (;;) {
    sunrealtype t = 0;
    const int flag = GeomintLieEvolve(mem, 20.0, y, &t, GEOMINT_NORMAL);
    if (flag == GEOMINT_SUCCESS) break;
    BOOST_TEST_REQUIRE(flag == GEOMINT_ROOT_RETURN, last_error(mem));
    root_report r{t, std::vector<int>(3)};
    BOOST_TEST_REQUIRE(GeomintLieGetRootInfo(mem, r.found.data()) == GEOMINT_SUCCESS);
    out.push_back(r);
  }
  GeomintLieFree(&mem);
  return out;
}
}  // namespace

// The Lie lifecycle mirrors IDA's root finding as the constrained one does: a root at a grid
// point reported once (t = 0.5), none at the initial time, the direction of each crossing in
// GeomintLieGetRootInfo, and GeomintLieSetRootDirection keeping only the crossings asked for.
BOOST_AUTO_TEST_CASE(lie_roots_direction_filtering_and_root_info) {
  const std::vector<root_report> both = rb_roots_with(nullptr);
  int at_half = 0;
  std::vector<double> crossings;
  for (const root_report& r : both) {
    BOOST_TEST(r.found[2] == 0, "a root of g2 = t at t = " << r.t);
    if (r.found[1] != 0) {
      ++at_half;
      BOOST_TEST(r.t == 0.5);
      BOOST_TEST(r.found[1] == 1);  // t − 0.5 rises
    }
    if (r.found[0] != 0) crossings.push_back(r.t);
  }
  BOOST_TEST(at_half == 1);
  BOOST_TEST_REQUIRE(crossings.size() >= 2u);

  const int rising[3] = {1, 0, 0}, falling[3] = {-1, 0, 0};
  std::vector<double> merged;
  for (const int* direction : {rising, falling}) {
    for (const root_report& r : rb_roots_with(direction)) {
      if (r.found[0] == 0) continue;
      BOOST_TEST(r.found[0] == direction[0], "a crossing against the direction asked for at t = " << r.t);
      merged.push_back(r.t);
    }
  }
  std::sort(merged.begin(), merged.end());
  BOOST_TEST(merged == crossings, boost::test_tools::per_element());
}

// GeomintLieGetDky: k = 1 at the end of the last step is the vector field ẏ = y × I⁻¹y there
// (the interpolant's end slope is dexp⁻¹ ∇H(y₁) by construction; its derivative is taken by a
// central difference of 1e-5 in the step fraction: error ~1e-10 h² |y⃛|), and k = 2 is BAD_K.
BOOST_AUTO_TEST_CASE(lie_dense_output_derivative_and_its_flags) {
  sun s;
  void* mem = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(rb_root_initial()), d = s.vector(VectorXd::Zero(3)), w = s.vector(VectorXd::Zero(3));
  BOOST_TEST_REQUIRE((mem && !GeomintLieInit(mem, rigid_body_gradient, nullptr, 0.0, y) && !GeomintLieSetFixedStep(mem, 0.1)));
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintLieEvolve(mem, 0.3, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintLieGetDky(mem, t, 1, d) == GEOMINT_SUCCESS, last_error(mem));
  rigid_body_gradient(t, y, w, nullptr);
  const Eigen::Vector3d field = Eigen::Vector3d(map(y)).cross(Eigen::Vector3d(map(w)));
  BOOST_TEST((map(d) - field).cwiseAbs().maxCoeff() <= 1e-8 * field.cwiseAbs().maxCoeff(), "ẏ " << map(d).transpose()
                                                                                                    << " vs " << field.transpose());
  BOOST_TEST(GeomintLieGetDky(mem, 0.25, 2, d) == GEOMINT_BAD_K);
  BOOST_TEST(GeomintLieGetDky(mem, 0.25, -1, d) == GEOMINT_BAD_K);
  GeomintLieFree(&mem);
}

// ---- edge cases: restarts, failing root functions, the side of a root ---------------------------

// GeomintReInit at the current time with another momentum (a kick, a bounce): the next step's
// interpolant starts from the new state's vector field. Before, the end derivatives kept from
// the last step's interpolation were reused because the step started at the same time, and
// GetDky(t, 1) at the kick gave the old velocity.
BOOST_AUTO_TEST_CASE(a_reinit_at_the_same_time_gives_the_interpolant_the_new_state) {
  sp_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.05);
  N_Vector dq = r.s.vector(VectorXd::Zero(3)), dp = r.s.vector(VectorXd::Zero(3));
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(r.mem, 0.1, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintGetDky(r.mem, 0.075, 0, dq, dp) == GEOMINT_SUCCESS);  // builds the extension
  const VectorXd kicked = -map(r.p);  // reversed: still tangent (G M⁻¹ p = 0)
  N_Vector pk = r.s.vector(kicked);
  BOOST_TEST_REQUIRE(GeomintReInit(r.mem, 0.1, r.q, pk) == GEOMINT_SUCCESS, last_error(r.mem));
  BOOST_TEST_REQUIRE(GeomintEvolve(r.mem, 0.15, r.q, pk, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintGetDky(r.mem, 0.1, 1, dq, dp) == GEOMINT_SUCCESS);
  BOOST_TEST((map(dq) - kicked / r.d.mass).cwiseAbs().maxCoeff() <= 1e-13);
}

namespace {
// Fails (returns 1) once t passes 0.3.
int failing_after(sunrealtype t, N_Vector q, N_Vector, sunrealtype* g, void*) {
  g[0] = NV_Ith_S(q, 1);
  return t > 0.3 ? 1 : 0;
}
// -1 at t = 0, +1 at t = 0.1, NaN in between (as sqrt of a quantity an interpolated state
// takes below zero).
int nan_inside(sunrealtype t, N_Vector, N_Vector, sunrealtype* g, void*) {
  g[0] = t == 0 ? -1.0 : t == 0.1 ? 1.0 : std::nan("");
  return 0;
}
}  // namespace

// A root function that fails after a step: that step stands, and q, p, tret report its end
// (before, they kept what the caller passed in while the integrator had moved on).
BOOST_AUTO_TEST_CASE(a_root_function_failing_after_a_step_reports_that_steps_end) {
  sp_run r(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.1);
  N_Vector qc = r.s.vector(VectorXd::Zero(3)), pc = r.s.vector(VectorXd::Zero(3));
  BOOST_TEST_REQUIRE(GeomintRootInit(r.mem, 1, failing_after) == GEOMINT_SUCCESS);
  sunrealtype t = -1, now = -2;
  BOOST_TEST(GeomintEvolve(r.mem, 1.0, r.q, r.p, &t, GEOMINT_NORMAL) == GEOMINT_CALLBACK_RECOVERABLE);
  BOOST_TEST_REQUIRE(GeomintGetCurrentTime(r.mem, &now) == GEOMINT_SUCCESS);
  BOOST_TEST_REQUIRE(GeomintGetCurrentState(r.mem, qc, pc) == GEOMINT_SUCCESS);
  BOOST_TEST(now > 0.3);
  BOOST_TEST(t == now);
  BOOST_TEST(bitwise_equal(r.q, qc));
  BOOST_TEST(bitwise_equal(r.p, pc));

  // NaN on the extension inside a step: an error naming it (before: read as "no root", SUCCESS).
  sp_run n(GEOMINT_CONSTRAINED_RATTLE_2_2, 0.1);
  BOOST_TEST_REQUIRE(GeomintRootInit(n.mem, 1, nan_inside) == GEOMINT_SUCCESS);
  t = -1;
  BOOST_TEST(GeomintEvolve(n.mem, 1.0, n.q, n.p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(n.mem).find("NaN") != std::string::npos, last_error(n.mem));
  BOOST_TEST(t == 0.1);
}

// The state returned at a root is past it (g ≥ 0 after a rise, ≤ 0 after a fall), as IDA's
// root is the end of its final bracket; with the bracket's midpoint about half were not.
BOOST_AUTO_TEST_CASE(the_state_at_a_root_is_on_the_new_side) {
  sp_run r(GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01);
  BOOST_TEST_REQUIRE(GeomintRootInit(r.mem, 2, plane_roots) == GEOMINT_SUCCESS);
  int roots = 0;
  for (;;) {
    sunrealtype t = 0;
    const int flag = GeomintEvolve(r.mem, 8.0, r.q, r.p, &t, GEOMINT_NORMAL);
    if (flag == GEOMINT_SUCCESS) break;
    BOOST_TEST_REQUIRE(flag == GEOMINT_ROOT_RETURN, last_error(r.mem));
    int found[2] = {0, 0};
    BOOST_TEST_REQUIRE(GeomintGetRootInfo(r.mem, found) == GEOMINT_SUCCESS);
    for (int i = 0; i < 2; ++i)
      if (found[i] != 0) {
        ++roots;
        const double gi = NV_Ith_S(r.q, 1 - i);  // g0 = q_y, g1 = q_x
        BOOST_TEST(found[i] * gi >= 0.0, "root of g" << i << " at t = " << t << ": g = " << gi);
      }
  }
  BOOST_TEST(roots >= 8);
}
