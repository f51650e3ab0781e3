// Driven (rheonomic) constraints g(q, t) = 0, integrated in the extended phase space by RATTLE,
// the Lobatto IIIA–IIIB pairs and constrained symplectic Euler, against closed-form references:
//   - a bead on a uniformly rotating rod: r(t) = r0 cosh ωt + (ṙ0/ω) sinh ωt, λ = −2mωṙ;
//   - a bead on a hoop turning about its vertical diameter: the Jacobi integral, the relative
//     equilibrium cos θ* = γ/(Rω²);
//   - two particles at a prescribed distance d0 + vt: angular momentum, tension L²/(μd³);
//   - a slider crank driven at constant crank speed: the closed-form kinematics, the inverse
//     dynamics' multipliers and motor work.
// Tolerances: constraint residuals at the rounding of |q| (a few ε); orders within 0.15 of the
// method's (the errors lie between 1e-12 and 1e-2, where the log-log slope is the leading term's);
// symmetry to 1e-12 (the Newton iterations stop at ~10ε of the unknowns, and two steps compound it).
#define BOOST_TEST_MODULE constrained_driven
#include <boost/test/unit_test.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/bead_on_rotating_hoop.hpp"
#include "geomint/problems/bead_on_rotating_rod.hpp"
#include "geomint/problems/driven_slider_crank.hpp"
#include "geomint/problems/prescribed_distance_pair.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"

using namespace geomint;
using problems::bead_on_rotating_hoop;
using problems::bead_on_rotating_rod;
using problems::prescribed_distance_pair;

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();
using state2 = std::pair<vector<2>, vector<2>>;
using state3 = std::pair<vector<3>, vector<3>>;
using state6 = std::pair<vector<6>, vector<6>>;

/// The rod as a general (non-separable) system: no mass() and no potential_gradient(), so the
/// steppers take the general stage solver and the Newton iteration for the hidden constraint.
struct rod_as_general_system {
  static constexpr int position_size = 2, constraint_size = 1;
  static constexpr bool takes_time = true;
  bead_on_rotating_rod rod;
  int position_count() const { return 2; }
  int constraint_count() const { return 1; }
  template <class Q, class P> double hamiltonian(double t, const Q& q, const P& p) const { return rod.hamiltonian(t, q, p); }
  template <class Q, class P, class O> void dh_dq(double, const Q&, const P&, O& out) const { out.setZero(); }
  template <class Q, class P, class O> void dh_dp(double, const Q&, const P& p, O& out) const {
    out = p / rod.parameters().mass;
  }
  template <class Q, class O> void constraint(double t, const Q& q, O& out) const { rod.constraint(t, q, out); }
  template <class Q, class G> void constraint_jacobian(double t, const Q& q, G& g) const { rod.constraint_jacobian(t, q, g); }
  template <class Q, class O> void constraint_time_derivative(double t, const Q& q, O& out) const {
    rod.constraint_time_derivative(t, q, out);
  }
};
static_assert(system_traits<rod_as_general_system>::rheonomic && !system_traits<rod_as_general_system>::separable);
static_assert(system_traits<bead_on_rotating_rod>::rheonomic && system_traits<bead_on_rotating_rod>::separable);

template <class Stepper, class System, class State>
State run(Stepper& stepper, const System& sys, State x, double t_end, int n) {
  const double h = t_end / n;
  for (int i = 0; i < n; ++i) stepper.do_step(sys, x, i * h, h);
  return x;
}

template <class Stepper, class Rod>
void check_rod_order(const Rod& sys, const bead_on_rotating_rod& rod, double expected, const std::vector<int>& counts) {
  const state2 x0 = rod.exact_state(0, 1.0, 0.3), exact = rod.exact_state(1.0, 1.0, 0.3);
  const auto r = diagnostics::observed_order(Stepper(), sys, x0, exact, 1.0, counts);
  BOOST_TEST_MESSAGE("rod: order " << r.order << ", errors " << r.errors.front() << " .. " << r.errors.back());
  BOOST_TEST(std::fabs(r.order - expected) < 0.15);
  // On the manifold of time 1: g(q, 1) = 0 and G q̇ + ∂g/∂t = 0 at the rounding of the state.
  const state2 x = diagnostics::integrate_steps(Stepper(), sys, x0, 1.0, counts.back());
  const constraint_residuals res = constraint_residuals_of(sys, x.first, x.second, 1.0);
  BOOST_TEST(res.position <= 4 * eps);
  BOOST_TEST(res.velocity <= 8 * eps);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_rod_follows_cosh_at_each_methods_order) {
  const bead_on_rotating_rod rod({1.0, 2.0});
  check_rod_order<rattle<state2>>(rod, rod, 2, {20, 40, 80});
  check_rod_order<lobatto_iiia_iiib<3, state2>>(rod, rod, 4, {20, 40, 80});
  check_rod_order<lobatto_iiia_iiib<4, state2>>(rod, rod, 6, {10, 20, 40});
  // A composition's sub-steps start at their own times: Yoshida's triple jump keeps order 4.
  check_rod_order<composition<rattle<state2>, yoshida4>>(rod, rod, 4, {20, 40, 80});
  // Symplectic Euler has order 1 in general; on this problem (V = 0, a linear constraint in q)
  // its first-order terms cancel and it shows 2 — checked against the hoop below.
  check_rod_order<constrained_symplectic_euler<state2>>(rod, rod, 2, {20, 40, 80});
}

BOOST_AUTO_TEST_CASE(the_general_stage_solver_and_hidden_constraint_newton_agree) {
  // The same rod through the general path: the same orders, and the same solution as the
  // separable path to the Newton tolerance.
  const rod_as_general_system general{bead_on_rotating_rod({1.0, 2.0})};
  check_rod_order<rattle<state2>>(general, general.rod, 2, {20, 40, 80});
  check_rod_order<lobatto_iiia_iiib<3, state2>>(general, general.rod, 4, {20, 40, 80});
  const state2 x0 = general.rod.exact_state(0, 1.0, 0.3);
  const state2 a = diagnostics::integrate_steps(lobatto_iiia_iiib<3, state2>(), general, x0, 1.0, 40);
  const state2 b = diagnostics::integrate_steps(lobatto_iiia_iiib<3, state2>(), general.rod, x0, 1.0, 40);
  BOOST_TEST(diagnostics::state_distance(a, b) <= 1e-12 * b.second.norm());
}

BOOST_AUTO_TEST_CASE(the_energy_changes_by_the_reported_driving_work) {
  // In the extended phase space H + e is conserved, e − e0 = −work: H(t) − H(0) − work is the
  // method's energy error, O(h^p). On the rod H grows from 2.2 to ~33 by t = 1.
  const bead_on_rotating_rod rod({1.0, 2.0});
  const state2 x0 = rod.exact_state(0, 1.0, 0.3);
  auto imbalance = [&](auto stepper, int n) {
    const state2 x = run(stepper, rod, x0, 1.0, n);
    const double gain = rod.hamiltonian(1.0, x.first, x.second) - rod.hamiltonian(0.0, x0.first, x0.second);
    BOOST_TEST(gain > 30);
    return std::fabs(gain - stepper.statistics().driving_work);
  };
  rattle<state2> r1, r2;
  lobatto_iiia_iiib<3, state2> l1, l2;
  BOOST_TEST(std::log2(imbalance(r1, 40) / imbalance(r2, 80)) == 2.0, boost::test_tools::tolerance(0.05));
  BOOST_TEST(std::log2(imbalance(l1, 40) / imbalance(l2, 80)) == 4.0, boost::test_tools::tolerance(0.05));
  BOOST_TEST(imbalance(l1, 80) < 1e-6);
}

BOOST_AUTO_TEST_CASE(the_hoops_jacobi_integral_and_energy_balance_do_not_drift) {
  // 10⁵ steps of h = 0.01 (ω = 5: 8000 turns of the hoop): the Jacobi integral's error and
  // H − H0 − work stay bounded; the largest error over the second half is no larger than over
  // the first (a drift would double it).
  const bead_on_rotating_hoop hoop;
  state3 x = hoop.state(0, 0.5, 1.0);
  const double j0 = hoop.jacobi_integral(0, x.first, x.second), h0 = hoop.hamiltonian(0, x.first, x.second);
  rattle<state3> stepper;
  const int n = 100000;
  const double h = 0.01;
  double j_first = 0, j_second = 0, e_first = 0, e_second = 0, g_worst = 0;
  for (int i = 0; i < n; ++i) {
    stepper.do_step(hoop, x, i * h, h);
    const double t = i * h + h;  // the step's end time as the stepper computes it (ωt ~ 5000: its ulp is 1e-12)
    const double dj = std::fabs(hoop.jacobi_integral(t, x.first, x.second) - j0);
    const double de = std::fabs(hoop.hamiltonian(t, x.first, x.second) - h0 - stepper.statistics().driving_work);
    (i < n / 2 ? j_first : j_second) = std::fmax(i < n / 2 ? j_first : j_second, dj);
    (i < n / 2 ? e_first : e_second) = std::fmax(i < n / 2 ? e_first : e_second, de);
    g_worst = std::fmax(g_worst, constraint_residuals_of(hoop, x.first, x.second, t).position);
  }
  BOOST_TEST_MESSAGE("hoop: Jacobi integral error " << j_first << " then " << j_second << "; imbalance " << e_first
                                                    << " then " << e_second);
  BOOST_TEST(j_first < 1e-2 * std::fabs(j0));
  BOOST_TEST(j_second < 1.1 * j_first);
  BOOST_TEST(e_second < 1.1 * e_first);
  BOOST_TEST(g_worst <= 4 * eps);
}

BOOST_AUTO_TEST_CASE(the_hoops_relative_equilibrium_stays_put_to_second_order) {
  const bead_on_rotating_hoop hoop;
  const double theta = hoop.equilibrium_angle();
  BOOST_TEST(std::cos(theta) == 9.81 / 25, boost::test_tools::tolerance(1e-14));
  auto deviation = [&](double h) {
    state3 x = hoop.state(0, theta, 0.0);
    rattle<state3> stepper;
    double worst = 0;
    for (int i = 0; i < static_cast<int>(std::lround(20 / h)); ++i) {
      stepper.do_step(hoop, x, i * h, h);
      worst = std::fmax(worst, std::fabs(hoop.angle((i + 1) * h, x.first) - theta));
    }
    return worst;
  };
  // No relative equilibrium off the bottom when Rω² ≤ γ.
  BOOST_TEST(std::isnan(bead_on_rotating_hoop({1.0, 1.0, 3.0, 9.81}).equilibrium_angle()));
  const double coarse = deviation(0.01), fine = deviation(0.005);
  BOOST_TEST_MESSAGE("hoop equilibrium: largest deviation " << coarse << " (h = 0.01), " << fine << " (h = 0.005)");
  BOOST_TEST(coarse < 1e-3);
  BOOST_TEST(std::log2(coarse / fine) == 2.0, boost::test_tools::tolerance(0.1));
}

BOOST_AUTO_TEST_CASE(the_multipliers_are_the_constraint_forces) {
  // RATTLE's two multipliers at a point (the end one of a step, the start one of the next) are
  // each first-order approximations of λ; by symmetry their mean is second order.
  const bead_on_rotating_rod rod({1.0, 2.0});
  auto mean_error = [&](int n) {
    const double h = 1.0 / n;
    rattle<state2> stepper;
    state2 x = run(stepper, rod, rod.exact_state(0, 1.0, 0.3), 1.0 - h, n - 1);
    const double end = stepper.last_multipliers<bead_on_rotating_rod>()(0, 1);
    stepper.do_step(rod, x, 1.0 - h, h);
    const double start = stepper.last_multipliers<bead_on_rotating_rod>()(0, 0);
    return std::fabs(0.5 * (end + start) - rod.exact_multiplier(1.0 - h, 1.0, 0.3));
  };
  const double coarse = mean_error(100), fine = mean_error(200);
  BOOST_TEST(coarse < 1e-3 * 2 * 2 * 7);  // λ ≈ −2mωṙ ≈ −28 at t = 1
  BOOST_TEST(std::log2(coarse / fine) == 2.0, boost::test_tools::tolerance(0.1));

  // Symplectic Euler (b_s = 0): its two columns act at (nearly) the same configuration, each
  // with weight h, and neither alone is λ; their sum is, to first order.
  auto euler_error = [&](int n) {
    const double h = 1.0 / n;
    constrained_symplectic_euler<state2> stepper;
    run(stepper, rod, rod.exact_state(0, 1.0, 0.3), 1.0, n);
    const auto lambda = stepper.last_multipliers<bead_on_rotating_rod>();
    return std::fabs(lambda(0, 0) + lambda(0, 1) - rod.exact_multiplier(1.0 - h, 1.0, 0.3));
  };
  const double euler_coarse = euler_error(100), euler_fine = euler_error(200);
  BOOST_TEST_MESSAGE("symplectic Euler: the columns' sum misses λ by " << euler_coarse << ", " << euler_fine);
  BOOST_TEST(euler_coarse < 0.05 * 33.5);                // λ ≈ −33.5 at t = 1
  BOOST_TEST(std::log2(euler_coarse / euler_fine) > 0.9);  // at least first order

  // Before a step there are no multipliers to read.
  BOOST_CHECK_THROW(rattle<state2>().last_multipliers<bead_on_rotating_rod>(), std::logic_error);

  // Two particles pulled apart at a constant rate: the tension L²/(μd³) from the multiplier,
  // the distance exact at every step, the angular momentum conserved to round-off.
  const prescribed_distance_pair pair;
  state6 y = pair.initial_state(1.0);
  const vector<3> l0 = pair.angular_momentum(y.first, y.second);
  rattle<state6> stepper;
  const double h = 0.01;
  double d_worst = 0, end = 0, mean_worst = 0;
  for (int i = 0; i < 1000; ++i) {
    stepper.do_step(pair, y, i * h, h);
    const auto lambda = stepper.last_multipliers<prescribed_distance_pair>();
    if (i > 0) mean_worst = std::fmax(mean_worst, std::fabs(0.5 * (end + lambda(0, 0)) / pair.exact_multiplier(i * h, l0.norm()) - 1));
    end = lambda(0, 1);
    d_worst = std::fmax(d_worst, std::fabs((y.first.head<3>() - y.first.tail<3>()).norm() - pair.constraints().distance((i + 1) * h)));
  }
  BOOST_TEST_MESSAGE("pair: tension's relative error " << mean_worst);
  BOOST_TEST(mean_worst < 1e-4);
  BOOST_TEST(d_worst <= 8 * eps);
  BOOST_TEST((pair.angular_momentum(y.first, y.second) - l0).norm() <= 16 * eps * l0.norm());
}

namespace {
/// The symplecticity defect of one step in the extended phase space (q, t; p, e) of the hoop,
/// e ← e − work (with_work = false drops it: the map is then not symplectic, the control).
template <class Stepper>
double extended_defect(const bead_on_rotating_hoop& hoop, const state3& x, double t, double h, bool with_work) {
  using Eigen::VectorXd;
  auto pack = [](const vector<3>& q, double time, const vector<3>& p, double e) {
    VectorXd y(8);
    y << q, time, p, e;
    return y;
  };
  auto split = [](const VectorXd& y) { return state3{y.head<3>(), y.segment<3>(4)}; };
  auto map = [&](const VectorXd& y) {
    Stepper stepper;
    state3 z = split(y);
    stepper.do_step(hoop, z, y(3), h);
    return pack(z.first, y(3) + h, z.second, y(7) - (with_work ? stepper.statistics().driving_work : 0.0));
  };
  auto to_manifold = [&](const VectorXd& y) {
    state3 z = split(y);
    projection_options opt;
    opt.t = y(3);
    manifold_projection<bead_on_rotating_hoop>(hoop).project(hoop, z.first, z.second, opt);
    return pack(z.first, y(3), z.second, y(7));
  };
  // The tangent space of {g(q, t) = 0, G ∂H/∂p + ∂g/∂t = 0}: the kernel of its Jacobian in
  // (q, t, p, e), by central differences.
  auto constraints = [&](const VectorXd& y) {
    const state3 z = split(y);
    vector<2> g, rate;
    matrix<2, 3> jac;
    hoop.constraint(y(3), z.first, g);
    hoop.constraint_jacobian(y(3), z.first, jac);
    hoop.constraint_time_derivative(y(3), z.first, rate);
    VectorXd c(4);
    c << g, jac * z.second / hoop.parameters().mass + rate;
    return c;
  };
  const VectorXd y0 = pack(x.first, t, x.second, 0.0);
  Eigen::MatrixXd jac(4, 8);
  for (int j = 0; j < 8; ++j) {
    VectorXd d = VectorXd::Zero(8);
    d(j) = 1e-6;
    jac.col(j) = (constraints(y0 + d) - constraints(y0 - d)) / 2e-6;
  }
  const Eigen::MatrixXd kernel = Eigen::FullPivLU<Eigen::MatrixXd>(jac).kernel();
  const Eigen::MatrixXd basis = Eigen::HouseholderQR<Eigen::MatrixXd>(kernel).householderQ() *
                                Eigen::MatrixXd::Identity(8, kernel.cols());
  return diagnostics::symplecticity_defect(map, to_manifold, y0, basis);
}
}  // namespace

BOOST_AUTO_TEST_CASE(every_method_that_takes_driven_constraints_keeps_its_structure) {
  // Written once for each catalogue method that takes driven constraints, on the hoop (nonlinear),
  // with the order and symmetry the method declares (core/properties.hpp):
  //   - the observed order against a reference from Lobatto IIIA–IIIB 4 at 1/4000;
  //   - symmetry: Φ₋ₕ(Φₕ(x, t), t + h) = x, back with the constraints of those times (to 1e-12);
  //     the non-symmetric symplectic Euler is the control: its round trip misses by O(h²);
  //   - symplecticity in the extended phase space (q, t; p, e), e ← e − work: central differences
  //     of 1e-5 leave ~1e-10 (diagnostics/symplecticity.hpp); the map without the work in e is
  //     off by O(h), the control.
  const bead_on_rotating_hoop hoop;
  const state3 x0 = hoop.state(0, 0.5, 1.0);
  const state3 reference = diagnostics::integrate_steps(lobatto_iiia_iiib<4, state3>(), hoop, x0, 1.0, 4000);
  const state3 xs = hoop.state(0.3, 0.7, -2.0);
  auto check = [&](auto stepper, const char* name, const std::vector<int>& counts) {
    using stepper_type = decltype(stepper);
    constexpr method_properties declared = properties_of<stepper_type>;
    const auto r = diagnostics::observed_order(stepper, hoop, x0, reference, 1.0, counts);
    BOOST_TEST_MESSAGE(name << ": order " << r.order << " (declared " << declared.order() << "), errors "
                            << r.errors.front() << " .. " << r.errors.back());
    BOOST_TEST(std::fabs(r.order - declared.order()) < 0.15, name);
    state3 x = xs;
    stepper_type there_and_back;
    there_and_back.do_step(hoop, x, 0.3, 0.05);
    there_and_back.do_step(hoop, x, 0.35, -0.05);
    const double round_trip = diagnostics::state_distance(x, xs) / xs.second.norm();
    if (declared.symmetric()) BOOST_TEST(round_trip < 1e-12, name << ": round trip " << round_trip);
    else BOOST_TEST(round_trip > 1e-6, name << ": round trip " << round_trip);
    const double defect = extended_defect<stepper_type>(hoop, xs, 0.3, 0.05, true);
    BOOST_TEST_MESSAGE(name << ": extended symplecticity defect " << defect);
    BOOST_TEST(defect < 1e-8, name);
  };
  check(rattle<state3>(), "rattle", {100, 200, 400});
  check(lobatto_iiia_iiib<2, state3>(), "lobatto2", {100, 200, 400});
  check(lobatto_iiia_iiib<3, state3>(), "lobatto3", {50, 100, 200});
  check(lobatto_iiia_iiib<4, state3>(), "lobatto4", {25, 50, 100});
  check(lobatto_iiia_iiib<5, state3>(), "lobatto5", {10, 20, 40});
  check(constrained_symplectic_euler<state3>(), "symplectic_euler", {400, 800, 1600});
  check(composition<rattle<state3>, yoshida4>(), "rattle_yoshida4", {50, 100, 200});
  check(composition<rattle<state3>, kahan_li6>(), "rattle_kahan_li6", {20, 40, 80});
  BOOST_TEST((extended_defect<rattle<state3>>(hoop, xs, 0.3, 0.05, false) > 1e-4));
}

BOOST_AUTO_TEST_CASE(a_state_off_the_moving_manifold_is_rejected_then_projected) {
  // At rest on the hoop at t = 0 satisfies G q̇ = 0 but not G q̇ + ∂g/∂t = 0 (the hoop moves).
  const bead_on_rotating_hoop hoop;
  state3 x = hoop.state(0, 0.5, 0.0);
  x.second.setZero();
  const state3 before = x;
  rattle<state3> stepper;
  BOOST_CHECK_EXCEPTION(stepper.do_step(hoop, x, 0.0, 0.01), step_error,
                        [](const step_error& e) { return e.reason() == failure_reason::inconsistent_initial_state; });
  BOOST_TEST((x.first == before.first && x.second == before.second));
  projection_options opt;
  opt.t = 0.0;
  const constraint_residuals res = manifold_projection<bead_on_rotating_hoop>(hoop).project(hoop, x.first, x.second, opt);
  BOOST_TEST(res.velocity <= 8 * eps);
  // The projected momentum turns with the hoop: ρω along the hoop's normal.
  BOOST_TEST(x.second(1) == 1.0 * std::sin(0.5) * 5.0, boost::test_tools::tolerance(1e-12));
  BOOST_CHECK_NO_THROW(stepper.do_step(hoop, x, 0.0, 0.01));
}

BOOST_AUTO_TEST_CASE(a_step_from_another_time_starts_afresh) {
  // The end point's G(q1, t1) serves only a step that starts at t1. One period of the hoop later
  // the same state is on the manifold again (to the rounding of sin ωt): a step from there is a
  // fresh start, a new stepper's bit for bit.
  const bead_on_rotating_hoop hoop;
  const state3 x0 = hoop.state(0, 0.5, 1.0);
  const double later = 0.01 + 2 * std::acos(-1.0) / hoop.parameters().omega;

  rattle<state3> continuing;  // the positive control: from the end state at the end time
  state3 x = x0;
  continuing.do_step(hoop, x, 0.0, 0.01);
  continuing.do_step(hoop, x, 0.01, 0.01);
  BOOST_TEST(continuing.last_step_continued());

  rattle<state3> stepper;
  state3 x1 = x0;
  stepper.do_step(hoop, x1, 0.0, 0.01);
  state3 shifted = x1, fresh = x1;
  stepper.do_step(hoop, shifted, later, 0.01);
  BOOST_TEST(!stepper.last_step_continued());
  rattle<state3>().do_step(hoop, fresh, later, 0.01);
  BOOST_TEST((shifted.first == fresh.first && shifted.second == fresh.second));
}

BOOST_AUTO_TEST_CASE(dense_output_follows_the_moving_constraint) {
  // Lobatto 3 stages (order 4: the quintic extension) at h = 0.05 on the rod: between the grid
  // points the interpolant is as accurate as the grid (its error ≤ 10× the grid's), and projected
  // it lies on the manifold of its own time (the end derivatives' ṗ holds the index-1
  // multiplier with the driving terms 2(∂G/∂t)v + ∂²g/∂t²: the Coriolis force).
  const bead_on_rotating_rod rod({1.0, 2.0});
  dense_output<lobatto_iiia_iiib<3, state2>> dense;
  dense.initialize(rod.exact_state(0, 1.0, 0.3), 0.0, 0.05);
  double grid = 0, between = 0;
  while (dense.current_time() < 1.0 - 1e-12) {
    dense.do_step(rod);
    grid = std::fmax(grid, diagnostics::state_distance(dense.current_state(), rod.exact_state(dense.current_time(), 1.0, 0.3)));
    const double t = dense.current_time() - 0.5 * 0.05 + 0.01;
    state2 x = rod.exact_state(0);
    dense.calc_state(t, x);
    between = std::fmax(between, diagnostics::state_distance(x, rod.exact_state(t, 1.0, 0.3)));
  }
  BOOST_TEST_MESSAGE("dense output: grid error " << grid << ", between " << between);
  BOOST_TEST(between < 10 * grid);
  dense.set_projection(true);
  state2 x = rod.exact_state(0);
  const double t = dense.current_time() - 0.02;
  dense.calc_state(t, x);
  BOOST_TEST(constraint_residuals_of(rod, x.first, x.second, t).velocity <= 8 * eps);
}

BOOST_AUTO_TEST_CASE(the_driven_slider_crank_follows_its_kinematics_and_inverse_dynamics) {
  // The motor takes the mechanism's one degree of freedom: positions and momenta are fixed by
  // g(q, t) = 0 and G M⁻¹p + ∂g/∂t = 0, so every method lands on the closed form to round-off;
  // the multipliers (RATTLE's mean at a point, second order) give the inverse dynamics, and the
  // energy follows the motor's work — here to round-off (measured 1.6e-13 after 400 steps, 3.3e-13
  // after 800: the rounding of the running sum), since the constraints fix the motion exactly.
  using state4 = std::pair<vector<4>, vector<4>>;
  const problems::driven_slider_crank crank;
  auto run_crank = [&](int n, double& state_error, double& multiplier_error, double& imbalance) {
    const double h = 2.0 / n;  // two turns
    rattle<state4> stepper;
    state4 x = crank.exact_state(0);
    const double h0 = crank.hamiltonian(0, x.first, x.second);
    state_error = multiplier_error = 0;
    double end = 0;
    vector<4> last_end = vector<4>::Zero();
    for (int i = 0; i < n; ++i) {
      stepper.do_step(crank, x, i * h, h);
      const double t = i * h + h;
      state_error = std::fmax(state_error, diagnostics::state_distance(x, crank.exact_state(t)));
      const auto lambda = stepper.last_multipliers<problems::driven_slider_crank>();
      if (i > 0) {
        const vector<4> exact = crank.exact_multipliers(i * h);
        multiplier_error = std::fmax(multiplier_error, (0.5 * (last_end + lambda.col(0)) - exact).cwiseAbs().maxCoeff() /
                                                           exact.cwiseAbs().maxCoeff());
      }
      last_end = lambda.col(1);
      end = crank.hamiltonian(t, x.first, x.second);
    }
    imbalance = std::fabs(end - h0 - stepper.statistics().driving_work);
  };
  double s1, m1, e1, s2, m2, e2;
  run_crank(400, s1, m1, e1);
  run_crank(800, s2, m2, e2);
  BOOST_TEST_MESSAGE("slider crank: state error " << s1 << ", multipliers " << m1 << " then " << m2 << ", energy imbalance "
                                                  << e1 << " then " << e2);
  BOOST_TEST(s1 <= 1e-12);
  BOOST_TEST(m1 < 1e-3);
  BOOST_TEST(std::log2(m1 / m2) == 2.0, boost::test_tools::tolerance(0.1));
  BOOST_TEST(e1 <= 1e-11);
  BOOST_TEST(e2 <= 1e-11);
}
