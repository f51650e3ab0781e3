// The constrained steppers as Boost.Odeint steppers, their state types, their errors, the
// projection helper, non-conservative forces and the no-allocation guarantee.
#include <boost/numeric/odeint.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <limits>
#include <string>

#include "common.hpp"
#include "geomint/odeint_support/invariant_monitor.hpp"
#include "geomint/diagnostics/count_allocations.hpp"

using namespace geomint;
using namespace test;
namespace ode = boost::numeric::odeint;

namespace {
constexpr double h = 0.01;

template <class Stepper>
void check_odeint_integrate_functions() {
  const problems::double_spherical_pendulum dsp;
  const auto x0 = dsp.initial_state();
  // Reference: a hand-written loop of 100 steps.
  Stepper manual;
  auto reference = x0;
  advance(manual, dsp, reference, h, 100);

  auto x = x0;
  std::size_t observed = 0;
  const std::size_t steps = ode::integrate_const(Stepper{}, std::cref(dsp), x, 0.0, 100 * h + h / 2, h,
                                                 [&](const dsp_state&, double) { ++observed; });
  BOOST_TEST(steps == 100u);
  BOOST_TEST(observed == 101u);
  BOOST_TEST((x.first - reference.first).norm() == 0.0);  // same arithmetic, bit for bit

  x = x0;
  ode::integrate_n_steps(Stepper{}, dsp, x, 0.0, h, 100);
  BOOST_TEST((x.first - reference.first).norm() == 0.0);
  BOOST_TEST((x.second - reference.second).norm() == 0.0);

  x = x0;
  std::vector<double> times{0.0, 0.25, 0.5, 1.0};
  std::vector<double> seen;
  ode::integrate_times(Stepper{}, dsp, x, times.begin(), times.end(), h,
                       [&](const dsp_state&, double t) { seen.push_back(t); });
  BOOST_TEST(seen == times, boost::test_tools::per_element());
  BOOST_TEST((x.first - reference.first).norm() <= 1e-12 * reference.first.norm());

  // integrate_adaptive with a plain stepper takes fixed steps and shortens the last one.
  x = x0;
  ode::integrate_adaptive(Stepper{}, dsp, x, 0.0, 1.0, h);
  BOOST_TEST((x.first - reference.first).norm() <= 1e-12 * reference.first.norm());

  // The invariant monitor as an observer.
  x = x0;
  geomint::odeint_support::invariant_monitor<problems::double_spherical_pendulum> monitor(
      dsp, [](const Eigen::VectorXd& q, const Eigen::VectorXd& p) {
        return problems::double_spherical_pendulum::vertical_angular_momentum(q, p);
      });
  ode::integrate_const(Stepper{}, dsp, x, 0.0, 1.0, h, monitor);
  BOOST_TEST(monitor.record().samples.size() == 101u);
  BOOST_TEST(monitor.record().max_position_residual() <= 1e-12);
  BOOST_TEST(monitor.record().max_velocity_residual() <= 1e-12);
  BOOST_TEST(monitor.record().max_momentum_error() <= 1e-12 * std::fabs(monitor.record().reference_momentum));
}
}  // namespace

BOOST_AUTO_TEST_CASE(odeint_integrate_functions_and_observers_work_with_every_stepper) {
  check_odeint_integrate_functions<rattle<dsp_state>>();
  check_odeint_integrate_functions<lobatto_iiia_iiib<3, dsp_state>>();
  check_odeint_integrate_functions<lobatto_iiia_iiib<5, dsp_state>>();
  check_odeint_integrate_functions<constrained_symplectic_euler<dsp_state>>();
}

BOOST_AUTO_TEST_CASE(odeint_stepper_concept) {
  using stepper = rattle<dsp_state>;
  static_assert(std::is_same_v<stepper::stepper_category, ode::stepper_tag>);
  static_assert(std::is_same_v<stepper::state_type, dsp_state>);
  static_assert(std::is_default_constructible_v<stepper> && std::is_copy_constructible_v<stepper>);
  BOOST_TEST(stepper{}.order() == 2);
  BOOST_TEST((lobatto_iiia_iiib<4, dsp_state>{}.order()) == 6);
  BOOST_TEST(constrained_symplectic_euler<dsp_state>{}.order() == 1);
}

BOOST_AUTO_TEST_CASE(std_vector_std_array_and_dynamic_eigen_states_give_identical_results) {
  const problems::double_spherical_pendulum dsp;
  auto x = dsp.initial_state();
  rattle<dsp_state> s1;
  advance(s1, dsp, x, h, 50);

  using vec_state = std::pair<std::vector<double>, std::vector<double>>;
  const auto x0 = dsp.initial_state();
  vec_state v{std::vector<double>(x0.first.data(), x0.first.data() + 6), std::vector<double>(x0.second.data(), x0.second.data() + 6)};
  rattle<vec_state> s2;
  advance(s2, dsp, v, h, 50);

  using arr_state = std::pair<std::array<double, 6>, std::array<double, 6>>;
  arr_state a;
  std::copy(x0.first.data(), x0.first.data() + 6, a.first.begin());
  std::copy(x0.second.data(), x0.second.data() + 6, a.second.begin());
  rattle<arr_state> s3;
  advance(s3, dsp, a, h, 50);

  std::pair<Eigen::VectorXd, Eigen::VectorXd> d{x0.first, x0.second};
  rattle<> s4;
  advance(s4, dsp, d, h, 50);

  for (int i = 0; i < 6; ++i) {
    BOOST_TEST(v.first[i] == x.first(i));
    BOOST_TEST(v.second[i] == x.second(i));
    BOOST_TEST(a.first[i] == x.first(i));
    BOOST_TEST(d.first(i) == x.first(i));
    BOOST_TEST(d.second(i) == x.second(i));
  }
}

BOOST_AUTO_TEST_CASE(a_state_of_the_wrong_size_is_rejected) {
  const problems::double_spherical_pendulum dsp;
  std::pair<Eigen::VectorXd, Eigen::VectorXd> x{Eigen::VectorXd::Zero(5), Eigen::VectorXd::Zero(6)};
  rattle<> stepper;
  BOOST_CHECK_EXCEPTION(stepper.do_step(dsp, x, 0.0, h), std::invalid_argument, [](const std::invalid_argument& e) {
    return std::string(e.what()).find("has 5 entries, the system expects 6") != std::string::npos;
  });
}

using test::expect_failure;

BOOST_AUTO_TEST_CASE(an_inconsistent_initial_state_is_rejected_with_its_residuals_and_can_be_projected) {
  const problems::double_spherical_pendulum dsp;
  auto x = dsp.initial_state();
  x.first(0) += 1e-3;
  x.second(1) += 0.1;
  rattle<dsp_state> stepper;
  const step_error e = expect_failure(stepper, dsp, x, 0.0, h);
  BOOST_TEST(e.reason() == failure_reason::inconsistent_initial_state);
  BOOST_TEST(std::string(e.what()).find("position residual") != std::string::npos);
  BOOST_TEST(e.residual() > 1e-5);

  const constraint_residuals r = project_to_manifold(dsp, x.first, x.second);
  BOOST_TEST(r.position <= 1e-14);
  BOOST_TEST(r.velocity <= 1e-14);
  BOOST_TEST((x.first - dsp.initial_state().first).norm() <= 2e-3);  // a small correction
  stepper.do_step(dsp, x, 0.0, h);

  // The general (non-separable) projection path.
  const problems::variable_mass_sphere vm;
  auto y = vm.initial_state();
  y.first *= 1.01;
  y.second(0) += 0.2;
  const constraint_residuals rv = project_to_manifold(vm, y.first, y.second);
  BOOST_TEST(rv.position <= 1e-14);
  BOOST_TEST(rv.velocity <= 1e-14);
}

// manifold_projection keeps its workspace: projecting again allocates nothing; a failure names
// the caller's time (not "t = 0") and leaves the state as it was.
BOOST_AUTO_TEST_CASE(manifold_projection_reuses_its_workspace_and_reports_the_callers_time) {
  const problems::double_spherical_pendulum dsp;
  manifold_projection<problems::double_spherical_pendulum> projection(dsp);
  auto x = dsp.initial_state();
  x.first(0) += 1e-4;
  projection.project(dsp, x.first, x.second);
  for (int k = 0; k < 5; ++k) {
    x.first(0) += 1e-4;
    x.second(1) += 1e-3;
    const geomint::diagnostics::allocation_scope scope;
    const constraint_residuals r = projection.project(dsp, x.first, x.second);
    BOOST_TEST(scope.count() == 0);
    BOOST_TEST(r.position <= 1e-14);
  }
  auto far = dsp.initial_state();
  far.first *= 5;  // Gauss–Newton needs more than one iteration
  const auto before = far;
  projection_options opt;
  opt.max_iterations = 1;
  opt.t = 12.5;
  try {
    projection.project(dsp, far.first, far.second, opt);
    BOOST_FAIL("projected in one iteration");
  } catch (const step_error& e) {
    BOOST_TEST(e.reason() == failure_reason::max_iterations);
    BOOST_TEST(std::string(e.what()).find("at t = 12.5") != std::string::npos, e.what());
    BOOST_TEST(std::string(e.what()).find("dt =") == std::string::npos, e.what());
  }
  BOOST_TEST((far.first.array() == before.first.array()).all());
  BOOST_TEST((far.second.array() == before.second.array()).all());
}

namespace {
/// The same constraint twice: G is rank deficient everywhere.
struct doubled_constraint {
  static constexpr int size = 2;
  int count() const { return 2; }
  template <class Q, class O> void value(const Q& q, O& o) const { o(0) = o(1) = q.squaredNorm() - 1; }
  template <class Q, class G> void jacobian(const Q& q, G& g) const { g.row(0) = g.row(1) = 2 * q.transpose(); }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_singular_constraint_jacobian_gives_a_clear_error) {
  const auto sys = make_separable_system(diagonal_mass<3>(vector<3>::Ones()), problems::uniform_gravity_3{9.81},
                                         doubled_constraint{});
  std::pair<vector<3>, vector<3>> x{vector<3>(0, 0, -1), vector<3>(1, 0, 0)};
  rattle<std::pair<vector<3>, vector<3>>> stepper;
  const step_error e = expect_failure(stepper, sys, x, 0.0, h);
  BOOST_TEST(e.reason() == failure_reason::singular_constraint_jacobian);
  BOOST_TEST(std::string(e.what()).find("singular") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_newton_failure_throws_step_error_and_keeps_the_state) {
  // Steps far beyond the dynamics' time scale (~0.3 s) have no nearby solution.
  const problems::double_spherical_pendulum dsp;
  auto x = dsp.initial_state();
  rattle<dsp_state> stepper;
  stepper.options().newton.max_iterations = 20;
  const step_error e = expect_failure(stepper, dsp, x, 0.5, 3.0);
  BOOST_TEST((e.reason() == failure_reason::newton_diverged || e.reason() == failure_reason::max_iterations ||
              e.reason() == failure_reason::non_finite_value));
  BOOST_TEST(e.time() == 0.5);
  BOOST_TEST(e.step_size() == 3.0);
  // The stepper is still usable.
  stepper.do_step(dsp, x, 0.5, h);

  const problems::variable_mass_sphere vm;
  auto y = vm.initial_state();
  lobatto_iiia_iiib<3, vm_state> general;
  general.options().newton.max_iterations = 8;
  const step_error g = expect_failure(general, vm, y, 0.0, 40.0);
  BOOST_TEST(g.iterations() >= 1);
}

namespace {
/// A model that turns non-finite: V(q) = −log(z_top − q_z) blows up when the bob rises to z_top.
struct wall_potential {
  double z_top = -0.5;
  template <class Q> double value(const Q& q) const { return -std::log(z_top - q(2)); }
  template <class Q, class O> void gradient(const Q& q, O& o) const {
    o << 0, 0, 1 / (z_top - q(2));
    if (q(2) >= z_top) o(2) = std::numeric_limits<double>::quiet_NaN();
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_non_finite_model_value_raises_non_finite_value) {
  const auto sys = make_separable_system(diagonal_mass<3>(vector<3>::Ones()), wall_potential{},
                                         problems::sphere_constraint{1.0});
  std::pair<vector<3>, vector<3>> x{vector<3>(0.6, 0, -0.8), vector<3>(0, 0, 0)};
  rattle<std::pair<vector<3>, vector<3>>> stepper;
  stepper.do_step(sys, x, 0.0, 0.01);       // fine below the wall
  x.first << 0, std::sqrt(1 - 0.16), -0.4;  // above the wall z_top = −0.5: ∇V is NaN here
  x.second.setZero();
  const step_error e = expect_failure(stepper, sys, x, 0.0, 0.01);
  BOOST_TEST(e.reason() == failure_reason::non_finite_value);
}

BOOST_AUTO_TEST_CASE(a_damping_force_dissipates_energy_at_the_rate_of_its_power) {
  // ṗ = −∂H/∂q − Gᵀλ − c q̇. Energy balance: dH/dt = −c |q̇|². The method applies the force at
  // its stage times; with h = 1e-3 the discrete balance holds to O(h²) ≈ 1e-6 relative.
  const problems::spherical_pendulum sp;
  const double c = 0.3;
  const auto damped = with_force(sp, [c](double, const auto&, const auto& p, auto& out) { out = -c * p; });
  using state = problems::spherical_pendulum::state_type;
  rattle<state> stepper;
  auto x = sp.initial_state();
  const double dt = 1e-3, h0 = sp.hamiltonian(x.first, x.second);
  double work = 0, previous_power = -c * x.second.squaredNorm(), previous_energy = h0;
  bool monotone = true;
  for (int i = 0; i < 5000; ++i) {
    stepper.do_step(damped, x, i * dt, dt);
    const double power = -c * x.second.squaredNorm();  // f·q̇ with m = 1
    work += 0.5 * dt * (power + previous_power);
    previous_power = power;
    const double e = sp.hamiltonian(x.first, x.second);
    monotone = monotone && e < previous_energy;
    previous_energy = e;
  }
  BOOST_TEST(monotone);
  BOOST_TEST(std::fabs((previous_energy - h0) - work) <= 1e-5 * std::fabs(work));
  const constraint_residuals r = constraint_residuals_of(sp, x.first, x.second);
  BOOST_TEST(r.position <= 1e-12);
  BOOST_TEST(r.velocity <= 1e-12);
  BOOST_TEST(stepper.statistics().general_solver_steps == 5000);  // forces use the general solver
}

// The counter sees Eigen's dynamic storage (malloc, not operator new): without it every test of
// a dynamic-size stepper below would pass whatever the stepper allocated.
BOOST_AUTO_TEST_CASE(the_allocation_counter_counts_eigen_storage) {
  BOOST_TEST_REQUIRE(geomint::diagnostics::counting_includes_malloc());
  const geomint::diagnostics::allocation_scope scope;
  Eigen::VectorXd v = Eigen::VectorXd::Ones(100);
  int* volatile one = new int(1);  // volatile: a new/delete pair may otherwise be elided
  BOOST_TEST(scope.count() == 2);
  BOOST_TEST(v.sum() + *one == 101);
  delete one;
}

BOOST_AUTO_TEST_CASE(no_heap_allocation_inside_do_step_after_the_first_step) {
  using geomint::diagnostics::allocations_after_first_step;
  // Fixed sizes (double spherical pendulum: fast path and general solver), dynamic dense sizes
  // (chain with a dense Jacobian) and the sparse path (its LDLᵀ refactorized in place) at sizes
  // whose scratch fits Eigen's stack buffers (up to 16 384 constraints); std::vector states.
  const problems::double_spherical_pendulum dsp;
  const general_view<problems::double_spherical_pendulum> general{{dsp}};
  BOOST_TEST(allocations_after_first_step(rattle<dsp_state>(), dsp, dsp.initial_state(), 0.0, h, 100) == 0);
  BOOST_TEST((allocations_after_first_step(lobatto_iiia_iiib<4, dsp_state>(), dsp, dsp.initial_state(), 0.0, h, 100)) == 0);
  BOOST_TEST(allocations_after_first_step(constrained_symplectic_euler<dsp_state>(), dsp, dsp.initial_state(), 0.0, h, 100) == 0);
  BOOST_TEST(allocations_after_first_step(rattle<dsp_state>(), general, dsp.initial_state(), 0.0, h, 100) == 0);
  BOOST_TEST((allocations_after_first_step(lobatto_iiia_iiib<3, dsp_state>(), general, dsp.initial_state(), 0.0, h, 100)) == 0);
  const problems::variable_mass_sphere vm;
  BOOST_TEST((allocations_after_first_step(lobatto_iiia_iiib<3, vm_state>(), vm, vm.initial_state(), 0.0, 0.05, 100)) == 0);

  const problems::pendulum_chain chain({8});
  const dense_chain dense = make_dense_chain(chain);
  BOOST_TEST(allocations_after_first_step(rattle<>(), dense, chain.initial_state(), 0.0, 0.005, 100) == 0);
  BOOST_TEST((allocations_after_first_step(lobatto_iiia_iiib<3>(), dense, chain.initial_state(), 0.0, 0.005, 100)) == 0);
  BOOST_TEST(allocations_after_first_step(rattle<>(), chain, chain.initial_state(), 0.0, 0.005, 100) == 0);
  BOOST_TEST((allocations_after_first_step(lobatto_iiia_iiib<3>(), chain, chain.initial_state(), 0.0, 0.005, 100)) == 0);
  const problems::pendulum_chain long_chain({2000});
  BOOST_TEST(allocations_after_first_step(rattle<>(), long_chain, long_chain.initial_state(), 0.0, 0.005, 10) == 0);

  using vec_state = std::pair<std::vector<double>, std::vector<double>>;
  const auto x0 = dsp.initial_state();
  vec_state v{std::vector<double>(x0.first.data(), x0.first.data() + 6), std::vector<double>(x0.second.data(), x0.second.data() + 6)};
  BOOST_TEST(allocations_after_first_step(rattle<vec_state>(), dsp, v, 0.0, h, 100) == 0);
}

BOOST_AUTO_TEST_CASE(copies_and_reset_start_afresh_and_reproduce_the_trajectory) {
  const problems::double_spherical_pendulum dsp;
  rattle<dsp_state> a;
  auto x = dsp.initial_state();
  advance(a, dsp, x, h, 10);
  rattle<dsp_state> b = a;  // copies drop cached factorizations but give the same steps
  auto y = x;
  advance(a, dsp, x, h, 10, 10 * h);
  advance(b, dsp, y, h, 10, 10 * h);
  BOOST_TEST((x.first - y.first).norm() <= 1e-14 * x.first.norm());
  a.reset();
  advance(a, dsp, x, h, 1);
  BOOST_TEST(a.statistics().steps == 21);
}
