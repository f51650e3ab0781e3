// dense_output<Stepper>: Boost.Odeint's dense-output stepper concept, the same grid states as a
// plain fixed-step loop, and the order of the continuous extensions; events (events.hpp).
#define BOOST_TEST_MODULE dense_output
#include <boost/test/unit_test.hpp>

#include <utility>  // before odeint
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/integrate/integrate_const.hpp>
#include <boost/numeric/odeint/integrate/integrate_times.hpp>
#include <optional>
#include <random>
#include <vector>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/diagnostics/allocation_counter.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/riemannian/riemannian_system.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"

using namespace geomint;
namespace odeint = boost::numeric::odeint;
using dsp = problems::double_spherical_pendulum;
using dsp_state = dsp::state_type;

namespace {

bool same_bits(const dsp_state& a, const dsp_state& b) {
  return (a.first.array() == b.first.array()).all() && (a.second.array() == b.second.array()).all();
}

/// The largest error of the interpolant in the middle of one step of h from a point of a
/// reference trajectory, against the reference (a kahan_li8 composition of RATTLE with steps
/// h/32): the local error of the method and of its extension.
template <class Stepper, class System, class State>
double local_interpolation_error(const System& sys, const State& x0, double h) {
  dense_output<Stepper> dense;
  dense.initialize(x0, 0.0, h);
  dense.do_step(sys);
  State mid = x0, ref = x0;
  dense.calc_state(0.5 * h, mid);
  composition<rattle<State>, kahan_li8> exact;
  for (int k = 0; k < 16; ++k) exact.do_step(sys, ref, k * h / 32, h / 32);
  return std::fmax((mid.first - ref.first).cwiseAbs().maxCoeff(), (mid.second - ref.second).cwiseAbs().maxCoeff());
}

template <class Stepper, class System, class State>
double local_order(const System& sys, const State& x0, std::vector<double> steps) {
  std::vector<double> errors;
  for (double h : steps) errors.push_back(local_interpolation_error<Stepper>(sys, x0, h));
  BOOST_TEST_MESSAGE("local interpolation errors " << errors.front() << " … " << errors.back());
  return diagnostics::loglog_slope(steps, errors);
}

}  // namespace

BOOST_AUTO_TEST_CASE(models_odeints_dense_output_stepper) {
  using dense = dense_output<rattle<dsp_state>>;
  static_assert(std::is_same_v<dense::stepper_category, odeint::dense_output_stepper_tag>);
  const dsp sys;
  dense d;
  d.initialize(sys.initial_state(), 1.0, 0.01);
  BOOST_TEST(d.current_time() == 1.0);
  const auto interval = d.do_step(sys);
  BOOST_TEST(interval.first == 1.0);
  BOOST_TEST(interval.second == 1.01);
  BOOST_TEST(d.current_time_step() == 0.01);
  dsp_state x;
  d.calc_state(1.0, x);
  BOOST_TEST((x.first - d.previous_state().first).cwiseAbs().maxCoeff() <= 1e-15);
  d.calc_state(1.01, x);
  BOOST_TEST((x.first - d.current_state().first).cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_CHECK_THROW(d.calc_state(1.5, x), std::invalid_argument);
}

// integrate_times at 1000 irregular times: the grid states are the plain loop's bit for bit.
// (h = 2⁻⁷ makes every grid time exact, so odeint never shortens the last step to land on the
// last output time 10.)
BOOST_AUTO_TEST_CASE(integrate_times_keeps_the_fixed_step_sequence) {
  const dsp sys;
  const double h = 1.0 / 128;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  std::vector<double> times(1000);
  for (double& t : times) t = u(gen);
  std::sort(times.begin(), times.end());
  times.front() = 0.0;
  times.back() = 10.0;

  dense_output<lobatto_iiia_iiib<3, dsp_state>> d;
  dsp_state x = sys.initial_state();
  std::vector<dsp_state> observed;
  odeint::integrate_times(std::ref(d), std::cref(sys), x, times.begin(), times.end(), h,
                          [&](const dsp_state& s, double) { observed.push_back(s); });
  BOOST_TEST(observed.size() == times.size());

  BOOST_TEST(d.current_time() == 10.0);
  lobatto_iiia_iiib<3, dsp_state> plain;
  dsp_state y = sys.initial_state();
  for (long k = 0; k < 1280; ++k) plain.do_step(sys, y, k * h, h);
  BOOST_TEST(same_bits(y, d.current_state()), "the grid states differ from the plain loop's");

  // Interpolated values against the plain loop's grid states bracketing them: the cubic/quintic
  // extension is within the method's own error (~1e-9 at h = 0.01 for order 4) of the
  // trajectory; check the constraint residual as a bound on their quality.
  double worst = 0;
  for (const dsp_state& s : observed) {
    const constraint_residuals r = constraint_residuals_of(sys, s.first, s.second);
    worst = std::fmax(worst, r.position);
  }
  BOOST_TEST_MESSAGE("largest position residual of interpolated states " << worst);
  BOOST_TEST(worst <= 1e-8);
}

// The values integrate_times observes between grid points agree with the exact solution to the
// method's order: lobatto3 is of order 4 and its quintic extension's local error O(h⁵), so the
// largest error over 200 irregular times falls as h⁴ (least-squares slope over a factor 4 in h;
// 0.3 allows the next error term). Reference: a kahan_li8 composition of RATTLE (order 8) at
// h = 2⁻¹⁰, observed through its own quintic extension (local error ~1e-17).
BOOST_AUTO_TEST_CASE(integrate_times_observes_to_the_methods_order) {
  const dsp sys;
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(0.0, 2.0);
  std::vector<double> times(200);
  for (double& t : times) t = u(gen);
  std::sort(times.begin(), times.end());
  times.front() = 0.0;
  times.back() = 2.0;
  auto observe = [&](auto dense, double h, auto&& observer) {
    dsp_state x = sys.initial_state();
    odeint::integrate_times(std::ref(dense), std::cref(sys), x, times.begin(), times.end(), h, observer);
  };
  std::vector<dsp_state> reference;
  observe(dense_output<composition<rattle<dsp_state>, kahan_li8>>(), 1.0 / 1024,
          [&](const dsp_state& s, double) { reference.push_back(s); });
  BOOST_TEST_REQUIRE(reference.size() == times.size());
  std::vector<double> steps, errors;
  for (double h : {1.0 / 16, 1.0 / 32, 1.0 / 64}) {
    std::size_t i = 0;
    double worst = 0;
    observe(dense_output<lobatto_iiia_iiib<3, dsp_state>>(), h, [&](const dsp_state& s, double) {
      worst = std::fmax(worst, std::fmax((s.first - reference[i].first).cwiseAbs().maxCoeff(),
                                         (s.second - reference[i].second).cwiseAbs().maxCoeff()));
      ++i;
    });
    steps.push_back(h);
    errors.push_back(worst);
  }
  const double order = diagnostics::loglog_slope(steps, errors);
  BOOST_TEST_MESSAGE("observed values: errors " << errors[0] << ", " << errors[1] << ", " << errors[2] << "; order "
                                                << order);
  BOOST_TEST(std::fabs(order - 4) <= 0.3);
}

BOOST_AUTO_TEST_CASE(integrate_const_and_adaptive_observe_on_the_grid) {
  // integrate_const with the observation step equal to the step observes the grid states: the
  // same bits as the plain loop; integrate_adaptive steps the fixed grid to the end.
  const dsp sys;
  dense_output<rattle<dsp_state>> d;
  dsp_state x = sys.initial_state();
  int observations = 0;
  odeint::integrate_const(std::ref(d), std::cref(sys), x, 0.0, 1.0, 0.05, [&](const dsp_state&, double) { ++observations; });
  BOOST_TEST(observations == 21);
  rattle<dsp_state> plain;
  dsp_state y = sys.initial_state();
  for (int k = 0; k < 20; ++k) plain.do_step(sys, y, k * 0.05, 0.05);
  BOOST_TEST(same_bits(x, y), "integrate_const's final state differs from the plain loop's");

  dense_output<rattle<dsp_state>> a;
  dsp_state z = sys.initial_state(), w = z;
  odeint::integrate_adaptive(std::ref(a), std::cref(sys), z, 0.0, 1.0, 0.01);
  rattle<dsp_state> plain_fine;
  for (int k = 0; k < 100; ++k) plain_fine.do_step(sys, w, k * 0.01, 0.01);
  BOOST_TEST(a.current_time() == 1.0);
  BOOST_TEST(same_bits(a.current_state(), w), "integrate_adaptive's grid differs from the plain loop's");
  // z is the interpolant at t = 1.0 = a grid time: the grid state itself.
  BOOST_TEST(same_bits(z, w));
}

// Local interpolation error in mid-step: the method's local error h^{p+1} and the extension's
// (cubic h⁴ for order ≤ 3, quintic h⁶ above): slope ≥ min(p + 1, 6) − 0.3 — at least
// min(p, 3) + 1, and above what a cubic could give for the order-4 and order-6 methods, so the
// quintic is shown to be used (measured: rattle 2.91, reich 2.84, lobatto3 5.44, kahan_li6 5.59,
// lobatto3 on the variable-mass sphere 4.66).
BOOST_AUTO_TEST_CASE(interpolation_error_orders) {
  const dsp sys;
  const dsp_state x0 = sys.initial_state();
  const std::vector<double> steps{0.08, 0.04, 0.02, 0.01};
  const double rattle_order = local_order<rattle<dsp_state>>(sys, x0, steps);
  const double lobatto3 = local_order<lobatto_iiia_iiib<3, dsp_state>>(sys, x0, steps);
  const double reich = local_order<reich_symmetric<dsp_state>>(sys, x0, steps);
  const double composed = local_order<composition<rattle<dsp_state>, kahan_li6>>(sys, x0, {0.16, 0.08, 0.04, 0.02});
  BOOST_TEST_MESSAGE("local interpolation orders: rattle " << rattle_order << ", lobatto3 " << lobatto3 << ", reich "
                                                            << reich << ", kahan_li6 " << composed);
  BOOST_TEST(rattle_order >= 2.7);  // local error h³
  BOOST_TEST(reich >= 2.7);
  BOOST_TEST(lobatto3 >= 4.7);  // the method's local error h⁵ (a cubic extension: h⁴)
  BOOST_TEST(composed >= 5.3);  // the quintic's h⁶ ahead of the method's h⁷ (pre-asymptotic: 5.6)

  const problems::variable_mass_sphere vm;  // general H
  const double general = local_order<lobatto_iiia_iiib<3, problems::variable_mass_sphere::state_type>>(
      vm, vm.initial_state(), {0.16, 0.08, 0.04, 0.02});
  BOOST_TEST_MESSAGE("lobatto3 on the variable-mass sphere: " << general);
  BOOST_TEST(general >= 4.3);  // h⁵, pre-asymptotic on this problem (4.66)
}

// A weightless spherical pendulum at rest, pushed sideways by sin(2t): at t = 0 the vector field
// is zero but its time derivative is not. The quintic's second derivative is a difference along
// (f, 1); with a time shift scaled by 1/|f| it was evaluated at t ≈ 1e295, and the interpolant
// of the first step had an error O(h²) (8e-4 at h = 0.16, 1.3e-5 at 0.02; now 6e-7 and 1.8e-11).
BOOST_AUTO_TEST_CASE(a_state_at_rest_under_a_time_dependent_force_keeps_the_interpolation_order) {
  using state = problems::spherical_pendulum::state_type;
  problems::spherical_pendulum_parameters weightless;
  weightless.gravity = 0;
  const problems::spherical_pendulum pendulum(weightless);
  const auto driven = with_position_force(pendulum, [](double t, const auto&, auto& out) { out << 0, std::sin(2 * t), 0; });
  const double order = local_order<lobatto_iiia_iiib<3, state>>(driven, pendulum.initial_state(1.0, 0.0),
                                                                {0.16, 0.08, 0.04, 0.02});
  BOOST_TEST_MESSAGE("lobatto3 from rest under sin(2t) forcing: local interpolation order " << order);
  BOOST_TEST(order >= 3.7);  // as on the pendulum above; 2 before
}

// A step that throws (a NaN force) leaves the last good step as it was: its two states, its
// times and its interpolant, bit for bit those of a run that never failed; the next step goes on.
// Before, the failing step had already copied the current state over the previous one.
BOOST_AUTO_TEST_CASE(a_failed_step_keeps_the_last_step_and_its_interpolant) {
  const dsp sys;
  bool poison = false;
  const auto forced = with_position_force(sys, [&poison](double, const auto&, auto& out) {
    out.setConstant(poison ? std::nan("") : 0.0);
  });
  dense_output<rattle<dsp_state>> d, ref;
  for (auto* s : {&d, &ref}) {
    s->initialize(sys.initial_state(), 0.0, 0.01);
    s->do_step(forced);
    s->do_step(forced);
  }
  poison = true;
  BOOST_CHECK_THROW(d.do_step(forced), step_error);
  poison = false;
  BOOST_TEST(d.previous_time() == ref.previous_time());
  BOOST_TEST(d.current_time() == ref.current_time());
  BOOST_TEST(same_bits(d.previous_state(), ref.previous_state()));
  BOOST_TEST(same_bits(d.current_state(), ref.current_state()));
  dsp_state a, b;
  d.calc_state(0.015, a);
  ref.calc_state(0.015, b);
  BOOST_TEST(same_bits(a, b));
  d.do_step(forced);  // afresh (the failure dropped the stepper's caches): equal to round-off
  ref.do_step(forced);
  BOOST_TEST((d.current_state().first - ref.current_state().first).cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST((d.current_state().second - ref.current_state().second).cwiseAbs().maxCoeff() <= 1e-13);
}

// Interpolated states are off the manifold by O(h⁴) without projection, on it with.
BOOST_AUTO_TEST_CASE(projection_puts_interpolated_states_on_the_manifold) {
  const dsp sys;
  dense_output<rattle<dsp_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.05);
  d.do_step(sys);
  dsp_state x;
  d.calc_state(0.025, x);
  const constraint_residuals off = constraint_residuals_of(sys, x.first, x.second);
  d.set_projection(true);
  d.calc_state(0.025, x);
  const constraint_residuals on = constraint_residuals_of(sys, x.first, x.second);
  BOOST_TEST_MESSAGE("interpolated residuals without / with projection: " << off.position << " / " << on.position);
  BOOST_TEST(off.position >= 1e-10);
  BOOST_TEST(on.position <= 1e-14);
  BOOST_TEST(on.velocity <= 1e-14);
}

namespace {
/// A spherical pendulum as a user may write it: concrete Eigen types in every signature
/// (constrained_system.hpp allows them), H = ½|p|² + 9.81 q_z, g = ½(|q|² − 1).
struct concrete_pendulum {
  static constexpr int position_size = 3, constraint_size = 1;
  int position_count() const { return 3; }
  int constraint_count() const { return 1; }
  double hamiltonian(const Eigen::Vector3d& q, const Eigen::Vector3d& p) const { return 0.5 * p.squaredNorm() + 9.81 * q(2); }
  void dh_dq(const Eigen::Vector3d&, const Eigen::Vector3d&, Eigen::Vector3d& out) const { out << 0, 0, 9.81; }
  void dh_dp(const Eigen::Vector3d&, const Eigen::Vector3d& p, Eigen::Vector3d& out) const { out = p; }
  void constraint(const Eigen::Vector3d& q, Eigen::Matrix<double, 1, 1>& out) const { out(0) = 0.5 * (q.squaredNorm() - 1); }
  void constraint_jacobian(const Eigen::Vector3d& q, Eigen::Matrix<double, 1, 3>& g) const { g = q.transpose(); }
};
}  // namespace

// Such a system gets the Hamiltonian extension (quintic Hermite, optional projection) like one
// written with templates: the extension is the stepper's, whatever the system's signatures.
BOOST_AUTO_TEST_CASE(a_system_written_with_concrete_types_gets_the_hamiltonian_extension) {
  using state = std::pair<vector<3>, vector<3>>;
  const concrete_pendulum sys;
  state x0{vector<3>(std::sin(1.0), 0, -std::cos(1.0)), vector<3>(0, 1.5, 0)};
  dense_output<rattle<state>> d;
  d.set_projection(true);
  d.initialize(x0, 0.0, 0.05);
  d.do_step(sys);
  state x;
  d.calc_state(0.025, x);
  const constraint_residuals r = constraint_residuals_of(sys, x.first, x.second);
  // Projected (the branch that honours set_projection): round-off, a few ulps of |q| = 1
  // (measured 9.9e-15 and 9e-18); unprojected the quintic's own 1.4e-7 and 1.9e-6.
  BOOST_TEST(r.position <= 5e-14);
  BOOST_TEST(r.velocity <= 5e-14);

  // The stepper's options, statistics and reset through dense_output (as every stepper has them).
  BOOST_TEST(&d.options() == &d.stepper().options());
  BOOST_TEST(d.statistics().steps == 1);
  d.reset();  // the next step is a fresh start: checked, and the same step as a fresh stepper's
  const state x1 = d.current_state();
  d.do_step(sys);
  state y = x1;
  rattle<state> fresh;
  fresh.do_step(sys, y, 0.05, 0.05);
  BOOST_TEST(d.statistics().steps == 2);
  BOOST_TEST((d.current_state().first - y.first).cwiseAbs().maxCoeff() == 0.0);
  BOOST_TEST((d.current_state().second - y.second).cwiseAbs().maxCoeff() == 0.0);
}

// The fixed-step loop through dense_output allocates nothing per step, interpolating or not.
BOOST_AUTO_TEST_CASE(no_allocation_per_step) {
  const dsp sys;
  dense_output<lobatto_iiia_iiib<3, dsp_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.01);
  dsp_state x;
  d.do_step(sys);
  d.calc_state(0.005, x);
  const diagnostics::allocation_scope scope;
  for (int k = 0; k < 100; ++k) {
    d.do_step(sys);
    d.calc_state(d.current_time() - 0.003, x);
  }
  BOOST_TEST(scope.count() == 0);
}

// SHAKE's state is two configurations, (q_{k−1}, q_k): dense_output interpolates it as
// (q(t − h), q(t)) with the velocities of the discrete Legendre transforms at the grid points.
// From exact positions (q(−h), q(0)), one step, both components in mid-step against the
// reference: local error O(h³) at least (measured 3.9: the Hermite's O(h⁴) with velocities
// accurate to O(h²)), and the derivative at t = 0 is the velocity M⁻¹p(0) to O(h²).
BOOST_AUTO_TEST_CASE(shake_interpolates_its_two_configurations) {
  using pair6 = std::pair<vector<6>, vector<6>>;
  const dsp sys;
  const dsp_state x0 = sys.initial_state();
  auto reference = [&](double t, double h) {  // positions at |t| ≤ h by kahan_li8 steps of h/32
    composition<rattle<dsp_state>, kahan_li8> exact;
    dsp_state x = x0;
    const double dt = std::copysign(h / 32, t);
    for (long k = 0; k < std::lround(t / dt); ++k) exact.do_step(sys, x, k * dt, dt);
    return vector<6>(x.first);
  };
  const std::vector<double> steps{0.08, 0.04, 0.02, 0.01};
  std::vector<double> position_errors, velocity_errors;
  const vector<6> v0 = sys.mass().inverse_diagonal().cwiseProduct(x0.second);
  for (double h : steps) {
    dense_output<shake<pair6>> d;
    d.initialize(pair6{reference(-h, h), x0.first}, 0.0, h);
    d.do_step(sys);
    pair6 mid, slope;
    d.calc_state(0.5 * h, mid);
    position_errors.push_back(std::fmax((mid.first - reference(-0.5 * h, h)).cwiseAbs().maxCoeff(),
                                        (mid.second - reference(0.5 * h, h)).cwiseAbs().maxCoeff()));
    d.calc_derivative(0.0, slope);
    velocity_errors.push_back((slope.second - v0).cwiseAbs().maxCoeff());
  }
  const double order = diagnostics::loglog_slope(steps, position_errors);
  const double velocity_order = diagnostics::loglog_slope(steps, velocity_errors);
  BOOST_TEST_MESSAGE("SHAKE's extension: position order " << order << ", velocity order " << velocity_order);
  BOOST_TEST(order >= 2.7);
  BOOST_TEST(velocity_order >= 1.7);
}

// A system rebuilt in place with other parameters (std::optional::emplace: the same address) is
// interpolated with its new parameters: the last step's end derivative, computed with the old
// gravity, is not reused as the next step's start derivative. The interpolant equals a fresh
// dense_output's from the same state (the geometric step is a fresh start too).
BOOST_AUTO_TEST_CASE(a_system_rebuilt_in_place_is_interpolated_with_its_new_parameters) {
  problems::double_spherical_pendulum_parameters moon;
  moon.gravity = 1.62;
  const double h = 0.01;
  std::optional<dsp> sys;
  sys.emplace();
  dense_output<rattle<dsp_state>> d;
  d.initialize(sys->initial_state(), 0.0, h);
  dsp_state x, y;
  d.do_step(*sys);
  d.calc_state(0.5 * h, x);  // the extension now holds the field at the end point
  sys.emplace(moon);
  d.do_step(*sys);
  dense_output<rattle<dsp_state>> fresh;
  fresh.initialize(d.previous_state(), d.previous_time(), h);
  fresh.do_step(*sys);
  BOOST_TEST_REQUIRE(fresh.current_time() == d.current_time());
  for (double s : {0.25, 0.5, 0.75}) {
    d.calc_state(d.previous_time() + s * h, x);
    fresh.calc_state(fresh.previous_time() + s * h, y);
    BOOST_TEST((x.first - y.first).cwiseAbs().maxCoeff() <= 1e-15, "positions at s = " << s);
    BOOST_TEST((x.second - y.second).cwiseAbs().maxCoeff() <= 1e-14, "momenta at s = " << s);
  }
}

// The extension from the stepper's own flow (Riemannian and Lagrangian steppers), on the
// ellipsoid and on the same motion 1e5 times faster (speeds ×1e5, potential ×1e10, steps down to
// 1e-7): the flow is differenced over min(1e-5, 1e-3 h); a fixed 1e-5 spanned a hundred steps there.
BOOST_AUTO_TEST_CASE(riemannian_leapfrog_extension) {
  using state = problems::particle_on_ellipsoid::state_type;
  for (double speed : {1.0, 1e5}) {
    const problems::particle_on_ellipsoid ellipsoid({1.0, 1.0, 0.8, 1.3, speed * speed});
    const auto sphere_system = on_space(ellipsoid, ellipsoid.space());
    const state x0 = ellipsoid.initial_state(2.0, 1.3 * speed, 0.4 * speed);
    std::vector<double> steps, errors;
    for (double h : {0.08, 0.04, 0.02, 0.01}) {
      steps.push_back(h / speed);
      dense_output<riemannian_leapfrog<state>> d;
      d.initialize(x0, 0.0, steps.back());
      d.do_step(sphere_system);
      state mid, ref = x0;
      d.calc_state(0.5 * steps.back(), mid);
      composition<rattle<state>, kahan_li8> exact;
      for (int k = 0; k < 16; ++k) exact.do_step(ellipsoid, ref, k * steps.back() / 32, steps.back() / 32);
      errors.push_back((mid.first - ref.first).cwiseAbs().maxCoeff());
    }
    const double order = diagnostics::loglog_slope(steps, errors);
    BOOST_TEST_MESSAGE("Riemannian leapfrog local interpolation order " << order << " at speed " << speed
                                                                        << ", errors " << errors.front() << " … "
                                                                        << errors.back());
    BOOST_TEST(order >= 2.7);
    BOOST_TEST(errors.back() <= 1e-5);
  }
}
