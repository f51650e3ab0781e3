// The variational family: variational_midpoint (one-step and two-step forms), the first-order
// discrete Lagrangian, shake, discrete momentum maps — on the quaternion rigid body and the double
// spherical pendulum of Marsden–Wendlandt 1997 §7.
#define BOOST_TEST_MODULE variational
#include <boost/numeric/odeint/integrate/integrate_n_steps.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "geomint/constrained/rattle.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/discrete_momentum_map.hpp"
#include "geomint/variational/legendre.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_first_order.hpp"
#include "geomint/variational/variational_midpoint.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/autodiff_models.hpp"

using namespace geomint;
namespace models = geomint::problems::ad_models;
using problems::quaternion_rigid_body;
using rb_state = quaternion_rigid_body::state_type;
using dsp_state = problems::double_spherical_pendulum::state_type;

namespace {

/// The paper's start of the two-step form for step h (§7): an Euler step of 1e-5 from q0, then
/// the DEL integrator with h = 1e-5 up to t = h. Returns (q(0), q(h)).
std::pair<vector<4>, vector<4>> paper_initial_pair(const quaternion_rigid_body& body, double h) {
  const double h_fine = 1e-5;
  std::pair<vector<4>, vector<4>> x = body.euler_start(h_fine);
  const vector<4> q0 = x.first;
  variational_midpoint_two_step<std::pair<vector<4>, vector<4>>> stepper;
  const int n = static_cast<int>(std::lround(h / h_fine));
  for (int k = 1; k < n; ++k) stepper.do_step(body, x, k * h_fine, h_fine);
  return {q0, x.second};
}

/// Two-step trajectory from the paper's start: positions at t = 0, dt_sample, 2 dt_sample, … ≤ T.
std::vector<vector<4>> paper_trajectory(const quaternion_rigid_body& body, double h, double t_end, double dt_sample) {
  std::pair<vector<4>, vector<4>> x = paper_initial_pair(body, h);
  std::vector<vector<4>> samples{x.first};
  const int every = static_cast<int>(std::lround(dt_sample / h));
  const int n = static_cast<int>(std::lround(t_end / h));
  variational_midpoint_two_step<std::pair<vector<4>, vector<4>>> stepper;
  for (int k = 1; k <= n; ++k) {  // x = (q_{k−1}, q_k)
    if (k % every == 0) samples.push_back(x.second);
    if (k < n) stepper.do_step(body, x, k * h, h);
  }
  return samples;
}

/// Consistent DSP start for the two-step forms: (q0, q1) with q1 from one RATTLE step.
std::pair<vector<6>, vector<6>> dsp_initial_pair(const problems::double_spherical_pendulum& dsp, double h) {
  dsp_state x = dsp.initial_state();
  const vector<6> q0 = x.first;
  rattle<dsp_state> stepper;
  stepper.do_step(dsp, x, 0.0, h);
  return {q0, x.first};
}

/// Tangent basis of the phase space at x = (q, p) ∈ P: the image of the derivative of the
/// projection onto P (a projector onto T_xP), by central differences, orthonormalized.
template <class System>
Eigen::MatrixXd phase_space_tangent_basis(const System& sys, const Eigen::VectorXd& x) {
  const int n = sys.position_count(), m = sys.constraint_count();
  auto project = [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd q = y.head(n), p = y.tail(n), out(2 * n);
    project_to_phase_space(sys, q, p, 1e-15);
    out << q, p;
    return out;
  };
  Eigen::MatrixXd d(2 * n, 2 * n);
  const double delta = 1e-6;
  for (int j = 0; j < 2 * n; ++j) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(2 * n);
    e(j) = delta;
    d.col(j) = (project(x + e) - project(x - e)) / (2 * delta);
  }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(d, Eigen::ComputeFullU);
  return svd.matrixU().leftCols(2 * n - 2 * m);
}

/// Symplecticity defect of a one-step map `step(q, p)` on the phase space of a Lagrangian system.
template <class System, class Step>
double phase_space_symplecticity_defect(const System& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                        Step step, double eps = 1e-5) {
  const int n = sys.position_count();
  Eigen::VectorXd x(2 * n);
  x << q, p;
  auto map = [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd a = y.head(n), b = y.tail(n), out(2 * n);
    step(a, b);
    out << a, b;
    return out;
  };
  auto to_manifold = [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd a = y.head(n), b = y.tail(n), out(2 * n);
    project_to_phase_space(sys, a, b, 1e-15);
    out << a, b;
    return out;
  };
  return geomint::diagnostics::symplecticity_defect(map, to_manifold, x, phase_space_tangent_basis(sys, x), eps);
}

double max_abs(const std::vector<double>& v, std::size_t begin, std::size_t end) {
  double m = 0;
  for (std::size_t i = begin; i < end; ++i) m = std::fmax(m, std::fabs(v[i]));
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(variational)

// ---------------------------------------------------------------------------------------------
// Forms and conventions
// ---------------------------------------------------------------------------------------------

// The one-step map is the two-step DEL recursion read through the discrete Legendre transforms:
// the positions agree to round-off (1e-13: Newton solves both to ~1e-15 per step, 200 steps), and
// momentum_from_positions recovers the one-step momenta.
template <class OneStep, class TwoStep, class Rule>
void check_forms_agree() {
  const quaternion_rigid_body body;
  rb_state x = body.initial_state();
  OneStep one;
  const double h = 0.02;
  std::vector<rb_state> states{x};
  for (int k = 0; k < 200; ++k) {
    one.do_step(body, x, k * h, h);
    states.push_back(x);
  }
  std::pair<vector<4>, vector<4>> y{states[0].first, states[1].first};
  TwoStep two;
  for (int k = 1; k < 200; ++k) {
    two.do_step(body, y, k * h, h);
    BOOST_TEST((y.second - states[k + 1].first).cwiseAbs().maxCoeff() <= 1e-13);
  }
  const vector<4> p = momentum_from_positions<Rule>(body, states[199].first, states[200].first, h);
  BOOST_TEST((p - states[200].second).cwiseAbs().maxCoeff() <= 1e-12 * states[200].second.norm());
}

BOOST_AUTO_TEST_CASE(one_step_and_two_step_forms_agree) {
  check_forms_agree<variational_midpoint<rb_state>, variational_midpoint_two_step<std::pair<vector<4>, vector<4>>>,
                    midpoint_discrete_lagrangian>();
  check_forms_agree<variational_first_order<rb_state>,
                    variational_first_order_two_step<std::pair<vector<4>, vector<4>>>, first_order_discrete_lagrangian>();
}

// The discrete Lagrangians' derivatives (eqs. (42), (51) differentiated in the headers) against
// central differences of their values, and D₁₂L_d against differences of D₁L_d, on the heavy top
// written as a Lagrangian (non-degenerate derivatives of every block). Differences with step
// 1e-6 are accurate to ~1e-9 relative; 1e-7 separates that from any wrong term.
template <class Rule, class System>
void check_discrete_lagrangian(const System& sys) {
  typename Rule::template evaluator<System> ld;
  ld.resize(4);
  const vector<4> q0 = vector<4>(0.4, 0.2, 0.4, 0.8), delta(0.01, -0.02, 0.015, 0.005);
  const double h = 0.05, eps = 1e-6;
  vector<4> d1, d2, fd1, fd2, e1, e2;
  matrix<4, 4> d12, fd12;
  ld.derivatives(sys, q0, delta, h, d1, d2);
  ld.mixed_hessian(sys, q0, delta, h, d12);
  for (int j = 0; j < 4; ++j) {
    const vector<4> e = eps * vector<4>::Unit(j);
    // L_d(q0, q1) with q1 = q0 + Δ: moving q0 alone changes Δ by −e, moving q1 changes it by +e
    fd1(j) = (ld.value(sys, q0 + e, delta - e, h) - ld.value(sys, q0 - e, delta + e, h)) / (2 * eps);
    fd2(j) = (ld.value(sys, q0, delta + e, h) - ld.value(sys, q0, delta - e, h)) / (2 * eps);
    ld.derivatives(sys, q0, delta + e, h, e1, e2);
    fd12.col(j) = e1;
    ld.derivatives(sys, q0, delta - e, h, e1, e2);
    fd12.col(j) = (fd12.col(j) - e1) / (2 * eps);
  }
  BOOST_TEST((d1 - fd1).cwiseAbs().maxCoeff() <= 1e-7 * d1.cwiseAbs().maxCoeff());
  BOOST_TEST((d2 - fd2).cwiseAbs().maxCoeff() <= 1e-7 * d2.cwiseAbs().maxCoeff());
  BOOST_TEST((d12 - fd12).cwiseAbs().maxCoeff() <= 1e-7 * d12.cwiseAbs().maxCoeff());
}

BOOST_AUTO_TEST_CASE(discrete_lagrangian_derivatives_match_differences) {
  const auto top = models::heavy_top_lagrangian();
  check_discrete_lagrangian<midpoint_discrete_lagrangian>(top);
  check_discrete_lagrangian<first_order_discrete_lagrangian>(top);
}

// Legendre transforms: the rigid body's momentum p = 2q ⋆ (0, Iω) and back; the energy of the
// Lagrangian heavy top equals the Hamiltonian heavy top's H on the shared phase space (round-off).
BOOST_AUTO_TEST_CASE(legendre_transforms_are_consistent) {
  const quaternion_rigid_body body;
  const rb_state x = body.initial_state();
  const vector<4> v = quaternion_rigid_body::velocity(x.first, body.parameters().body_angular_velocity);
  BOOST_TEST((momentum_from_velocity(body, x.first, v) - x.second).cwiseAbs().maxCoeff() <= 1e-14 * x.second.norm());
  BOOST_TEST((velocity_from_momentum(body, x.first, x.second) - v).cwiseAbs().maxCoeff() <= 1e-14 * v.norm());
  BOOST_TEST(std::fabs(energy(body, x.first, x.second) - body.energy(x.first, x.second)) <= 1e-13 * body.energy(x.first, x.second));
  const problems::heavy_top top;
  rb_state y = top.initial_state();
  variational_midpoint<rb_state> stepper;
  const auto top_lagrangian = models::heavy_top_lagrangian();
  for (int k = 0; k < 10; ++k) stepper.do_step(top_lagrangian, y, k * 0.1, 0.1);
  BOOST_TEST(std::fabs(energy(top_lagrangian, y.first, y.second) - top.hamiltonian(y.first, y.second)) <= 1e-13);
}

// The midpoint L_d satisfies L_d(q1, q0; −h) = −L_d(q0, q1; h): the method is symmetric,
// Φ₋ₕ ∘ Φₕ = id up to the solver tolerance.
BOOST_AUTO_TEST_CASE(variational_midpoint_is_symmetric) {
  const quaternion_rigid_body body;
  rb_state x = body.initial_state();
  const rb_state start = x;
  variational_midpoint<rb_state> stepper;
  stepper.do_step(body, x, 0.0, 0.1);
  stepper.do_step(body, x, 0.1, -0.1);
  BOOST_TEST((x.first - start.first).cwiseAbs().maxCoeff() <= 1e-13);
  BOOST_TEST((x.second - start.second).cwiseAbs().maxCoeff() <= 1e-13 * start.second.norm());
}

// Backward in time from (q, p) is forward from (q, −p) mirrored (the midpoint rule is symmetric
// and the body reversible): the same positions bit for bit and the same Newton iterations.
// Before, a negative previous step switched the O(h³) predictor and the multiplier guess off
// (1019 iterations against 804 over these 100 steps).
BOOST_AUTO_TEST_CASE(a_backward_run_mirrors_the_forward_one) {
  const quaternion_rigid_body body;
  rb_state back = body.initial_state(), forward = back;
  forward.second = -forward.second;
  variational_midpoint<rb_state> b, f;
  for (int k = 0; k < 100; ++k) {
    b.do_step(body, back, -k * 0.05, -0.05);
    f.do_step(body, forward, k * 0.05, 0.05);
  }
  BOOST_TEST((back.first.array() == forward.first.array()).all());
  BOOST_TEST(b.statistics().newton.iterations == f.statistics().newton.iterations);
}

// The steppers are odeint steppers: integrate_n_steps drives them, std::vector states work.
BOOST_AUTO_TEST_CASE(odeint_drives_the_steppers) {
  const quaternion_rigid_body body;
  const rb_state start = body.initial_state();
  using vec_state = std::pair<std::vector<double>, std::vector<double>>;
  vec_state x{std::vector<double>(start.first.data(), start.first.data() + 4),
              std::vector<double>(start.second.data(), start.second.data() + 4)};
  boost::numeric::odeint::integrate_n_steps(variational_midpoint<vec_state>(), std::cref(body), x, 0.0, 0.01, 100);
  rb_state y = start;
  variational_midpoint<rb_state> stepper;
  for (int k = 0; k < 100; ++k) stepper.do_step(body, y, k * 0.01, 0.01);
  for (int i = 0; i < 4; ++i) {
    BOOST_TEST(x.first[i] == y.first(i));
    BOOST_TEST(x.second[i] == y.second(i));
  }
}

// ---------------------------------------------------------------------------------------------
// Order of convergence
// ---------------------------------------------------------------------------------------------

// Marsden–Wendlandt Fig. 1: the two-step form started as in the paper, quaternion error (57)
// against the h = 1e-4 run, over [0, 3] s sampled every 0.1 s. The leading h² term dominates
// for these steps, so the log–log slope lies within ±0.1 of 2.
BOOST_AUTO_TEST_CASE(variational_midpoint_quaternion_error_is_second_order) {
  const quaternion_rigid_body body;
  const double t_end = 3.0, dt_sample = 0.1;
  const std::vector<vector<4>> standard = paper_trajectory(body, 1e-4, t_end, dt_sample);
  std::vector<double> hs{0.1, 0.05, 0.025, 0.0125}, errors;
  for (double h : hs) {
    const std::vector<vector<4>> run = paper_trajectory(body, h, t_end, dt_sample);
    BOOST_REQUIRE(run.size() == standard.size());
    double sum = 0;
    for (std::size_t i = 0; i < run.size(); ++i) sum += (run[i] - standard[i]).norm();
    errors.push_back(sum / (run.size() * 4.0));  // eq. (57), m = 4
  }
  BOOST_TEST_MESSAGE("quaternion errors (57): " << errors[0] << " " << errors[1] << " " << errors[2] << " " << errors[3]
                                                 << ", slope " << geomint::diagnostics::loglog_slope(hs, errors));
  BOOST_TEST(std::fabs(geomint::diagnostics::loglog_slope(hs, errors) - 2.0) <= 0.1);
}

// Observed order by self-convergence, e(h) = ‖x_h(T) − x_{h/2}(T)‖ ≈ C hᵖ(1 − 2⁻ᵖ), which needs no
// reference solution. The one-step forms on the heavy top written once as a Lagrangian (the
// rigid body (53) minus V; AD-built) from its exact initial state, T = 2: order 2 for the
// midpoint rule (42), 1 for the first-order rule (51); slopes within ±0.1 (the leading error
// term dominates at these h). On the free rigid body, or under uniform gravity, (51) and (42)
// differ by a discrete null Lagrangian on Q × Q and (51) is second order there too: a potential
// that is not linear is needed to see order 1.
template <class Stepper>
rb_state heavy_top_state(double h, double t_end) {
  const auto top = models::heavy_top_lagrangian();
  rb_state x = problems::heavy_top().initial_state();
  Stepper stepper;
  const int n = static_cast<int>(std::lround(t_end / h));
  for (int k = 0; k < n; ++k) stepper.do_step(top, x, k * h, h);
  return x;
}

template <class Stepper>
std::vector<double> self_convergence_errors(const std::vector<double>& hs, double t_end) {
  std::vector<double> errors;
  for (double h : hs) {
    const rb_state a = heavy_top_state<Stepper>(h, t_end), b = heavy_top_state<Stepper>(h / 2, t_end);
    errors.push_back(std::fmax((a.first - b.first).norm(), (a.second - b.second).norm() / b.second.norm()));
  }
  return errors;
}

BOOST_AUTO_TEST_CASE(one_step_forms_converge_at_their_order) {
  const std::vector<double> hs{0.04, 0.02, 0.01, 0.005}, hs_first{0.01, 0.005, 0.0025, 0.00125};
  const std::vector<double> mid = self_convergence_errors<variational_midpoint<rb_state>>(hs, 2.0);
  const std::vector<double> first = self_convergence_errors<variational_first_order<rb_state>>(hs_first, 2.0);
  const double mid_slope = geomint::diagnostics::loglog_slope(hs, mid), first_slope = geomint::diagnostics::loglog_slope(hs_first, first);
  BOOST_TEST_MESSAGE("heavy top self-convergence slopes: midpoint " << mid_slope << ", first order " << first_slope);
  BOOST_TEST(std::fabs(mid_slope - 2.0) <= 0.1);
  BOOST_TEST(std::fabs(first_slope - 1.0) <= 0.1);
}

// SHAKE on the double spherical pendulum by self-convergence (as above), started from (q0, q1)
// with q1 from one RATTLE step (local error O(h³)); positions at T = 1. Slope 2 ± 0.1.
BOOST_AUTO_TEST_CASE(shake_is_second_order) {
  const problems::double_spherical_pendulum dsp;
  auto positions = [&](double h) {
    std::pair<vector<6>, vector<6>> x = dsp_initial_pair(dsp, h);
    shake<std::pair<vector<6>, vector<6>>> stepper;
    const int n = static_cast<int>(std::lround(1.0 / h));
    for (int k = 1; k < n; ++k) stepper.do_step(dsp, x, k * h, h);
    return vector<6>(x.second);
  };
  std::vector<double> hs{0.01, 0.005, 0.0025, 0.00125}, errors;
  for (double h : hs) {
    const vector<6> a = positions(h), b = positions(h / 2);
    errors.push_back((a - b).norm() / b.norm());
  }
  BOOST_TEST_MESSAGE("SHAKE self-convergence slope " << geomint::diagnostics::loglog_slope(hs, errors));
  BOOST_TEST(std::fabs(geomint::diagnostics::loglog_slope(hs, errors) - 2.0) <= 0.1);
}

// With uniform gravity (∇V constant) the midpoint DEL equations are RATTLE's (§7): shake and
// variational_midpoint on the Lagrangian view of the same problem object reproduce RATTLE's
// trajectory. Differences are round-off, amplified by the motion's sensitivity over 1000 steps.
BOOST_AUTO_TEST_CASE(shake_and_variational_midpoint_reproduce_rattle_under_uniform_gravity) {
  const problems::double_spherical_pendulum dsp;
  const lagrangian_view<problems::double_spherical_pendulum> lagrangian(dsp);
  const double h = 0.005;
  dsp_state r = dsp.initial_state(), v = r;
  std::pair<vector<6>, vector<6>> s = dsp_initial_pair(dsp, h);
  rattle<dsp_state> rattle_stepper;
  variational_midpoint<dsp_state> midpoint;
  shake<std::pair<vector<6>, vector<6>>> shake_stepper;
  rattle_stepper.do_step(dsp, r, 0.0, h);
  midpoint.do_step(lagrangian, v, 0.0, h);
  for (int k = 1; k < 1000; ++k) {
    rattle_stepper.do_step(dsp, r, k * h, h);
    midpoint.do_step(lagrangian, v, k * h, h);
    shake_stepper.do_step(dsp, s, k * h, h);
  }
  const double scale = r.first.norm();
  BOOST_TEST((s.second - r.first).norm() <= 1e-11 * scale);
  BOOST_TEST((v.first - r.first).norm() <= 1e-11 * scale);
  BOOST_TEST((v.second - r.second).norm() <= 1e-11 * r.second.norm());
  const vector<6> p = shake_momentum(dsp, s.first, s.second, h);
  BOOST_TEST((p - r.second).norm() <= 1e-11 * r.second.norm());
}

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

/// Runs the rigid body for `steps` steps: max |‖q‖² − 1| over every step, max relative change
/// of the discrete momentum map (the spatial angular momentum, three generators).
void rigid_body_invariants(int steps, double h, double& constraint, double& momentum) {
  const quaternion_rigid_body body;
  rb_state x = body.initial_state();
  variational_midpoint<rb_state> stepper;
  const vector<3> pi0 = quaternion_rigid_body::spatial_angular_momentum(x.first, x.second);
  constraint = momentum = 0;
  for (int k = 0; k < steps; ++k) {
    const vector<4> q_k = x.first;
    stepper.do_step(body, x, k * h, h);
    constraint = std::fmax(constraint, std::fabs(x.first.squaredNorm() - 1));
    if (k % 97 == 0 || k == steps - 1) {  // eq. (41) from the pair (q_k, q_{k+1}), three generators
      for (int axis = 0; axis < 3; ++axis) {
        const double j = discrete_momentum_map(body, q_k, x.first, h,
                                               [axis](const vector<4>& q) { return quaternion_rigid_body::generator(axis, q); });
        momentum = std::fmax(momentum, std::fabs(j - pi0(axis)) / pi0.norm());
        // the one-step state carries the same value: ⟨p_{k+1}, ξ_Q(q_{k+1})⟩ (G ξ_Q = 0)
        const double jp = momentum_map(x.first, x.second, [axis](const vector<4>& q) { return quaternion_rigid_body::generator(axis, q); });
        momentum = std::fmax(momentum, std::fabs(jp - pi0(axis)) / pi0.norm());
      }
    }
  }
}

// Constraint: Newton solves g(q_{k+1}) = 0 to round-off at each step, ≤ 1e-12 (observed
// ~1e-16). Momentum map: Theorem 5.2 makes it exact, only round-off accumulates.
BOOST_AUTO_TEST_CASE(rigid_body_constraint_and_momentum_map) {
  double constraint = 0, momentum = 0;
  rigid_body_invariants(10000, 0.01, constraint, momentum);
  BOOST_TEST_MESSAGE("rigid body, 1e4 steps: constraint " << constraint << ", momentum map " << momentum);
  BOOST_TEST(constraint <= 1e-12);
  BOOST_TEST(momentum <= 1e-12);
}

BOOST_AUTO_TEST_CASE(rigid_body_invariants_over_1e5_steps, *boost::unit_test::label("slow")) {
  double constraint = 0, momentum = 0;
  rigid_body_invariants(100000, 0.01, constraint, momentum);
  BOOST_TEST_MESSAGE("rigid body, 1e5 steps: constraint " << constraint << ", momentum map " << momentum);
  BOOST_TEST(constraint <= 1e-12);
  BOOST_TEST(momentum <= 1e-12);
}

// DSP with SHAKE: the discrete momentum map of rotations about the vertical, eq. (41) on the
// pairs (q_k, q_{k+1}) of the Lagrangian view, conserved to round-off over 1e5 steps.
BOOST_AUTO_TEST_CASE(dsp_shake_momentum_map_over_1e5_steps, *boost::unit_test::label("slow")) {
  const problems::double_spherical_pendulum dsp;
  const lagrangian_view<problems::double_spherical_pendulum> lagrangian(dsp);
  auto rotation = [](const vector<6>& q) {  // ξ_Q(q) = (e_z × q1, e_z × q2)
    vector<6> xi;
    xi << -q(1), q(0), 0, -q(4), q(3), 0;
    return xi;
  };
  const double h = 0.005;
  std::pair<vector<6>, vector<6>> x = dsp_initial_pair(dsp, h);
  const double j0 = discrete_momentum_map(lagrangian, x.first, x.second, h, rotation);
  shake<std::pair<vector<6>, vector<6>>> stepper;
  double drift = 0, constraint = 0;
  vector<2> g;
  for (int k = 1; k <= 100000; ++k) {
    stepper.do_step(dsp, x, k * h, h);
    dsp.constraint(x.second, g);
    constraint = std::fmax(constraint, g.cwiseAbs().maxCoeff() / 16.0);  // relative to l1²
    if (k % 97 == 0) drift = std::fmax(drift, std::fabs(discrete_momentum_map(lagrangian, x.first, x.second, h, rotation) - j0));
  }
  BOOST_TEST_MESSAGE("DSP with SHAKE, 1e5 steps: momentum map " << drift / std::fabs(j0) << ", constraint " << constraint);
  BOOST_TEST(drift <= 1e-12 * std::fabs(j0));
  BOOST_TEST(constraint <= 1e-12);
}

// The discrete momentum J_d(q(0), q(h)) = ⟨−D₁L_d, ξ_Q(q0)⟩ of the paper's start differs from the
// continuous π = Q I ω_b = (0, 6, 12). Because J_d(q(t − h/2), q(t + h/2)) is even in h and π is
// conserved, J_d = π + c h² + O(h⁴): second order (the paper's observation), slope 2 ± 0.1.
BOOST_AUTO_TEST_CASE(discrete_momentum_converges_at_second_order) {
  const quaternion_rigid_body body;
  const vector<3> pi(0, 6, 12);
  std::vector<double> hs{0.1, 0.05, 0.025, 0.0125}, errors;
  for (double h : hs) {
    const std::pair<vector<4>, vector<4>> pair = paper_initial_pair(body, h);
    vector<3> j;
    for (int axis = 0; axis < 3; ++axis)
      j(axis) = discrete_momentum_map(body, pair.first, pair.second, h,
                                      [axis](const vector<4>& q) { return quaternion_rigid_body::generator(axis, q); });
    errors.push_back((j - pi).norm() / pi.norm());
  }
  BOOST_TEST_MESSAGE("momentum errors: " << errors[0] << " " << errors[1] << " " << errors[2] << " " << errors[3]
                                          << ", slope " << geomint::diagnostics::loglog_slope(hs, errors));
  BOOST_TEST(std::fabs(geomint::diagnostics::loglog_slope(hs, errors) - 2.0) <= 0.1);
}

// Energy error bounded without drift (as for the constrained family): max |ΔE| over [0, 10T] is at
// most 1.5× that over [0, T], with T spanning several periods of the motion.
BOOST_AUTO_TEST_CASE(energy_bounded_without_drift) {
  {  // heavy top as an AD Lagrangian, one-step form: T = 20 (several nutation periods). (On the
     // free rigid body the method conserves the energy to round-off, like Moser–Veselov.)
    const auto top = models::heavy_top_lagrangian();
    const problems::heavy_top hamiltonian;
    rb_state x = hamiltonian.initial_state();
    const double e0 = hamiltonian.hamiltonian(x.first, x.second), h = 0.05;
    variational_midpoint<rb_state> stepper;
    std::vector<double> de;
    for (int k = 0; k < 4000; ++k) {
      stepper.do_step(top, x, k * h, h);
      de.push_back(hamiltonian.hamiltonian(x.first, x.second) - e0);
    }
    BOOST_TEST(max_abs(de, 0, de.size()) <= 1.5 * max_abs(de, 0, 400));
    BOOST_TEST(max_abs(de, 0, 400) > 1e-6);  // a genuine O(h²) oscillation, not round-off
  }
  {  // double spherical pendulum with SHAKE: T = 20 s, energy from shake_momentum
    const problems::double_spherical_pendulum dsp;
    const double h = 0.01;
    std::pair<vector<6>, vector<6>> x = dsp_initial_pair(dsp, h);
    const dsp_state s0 = dsp.initial_state();
    const double e0 = dsp.hamiltonian(s0.first, s0.second);
    shake<std::pair<vector<6>, vector<6>>> stepper;
    std::vector<double> de;
    for (int k = 1; k <= 20000; ++k) {
      stepper.do_step(dsp, x, k * h, h);
      de.push_back(dsp.hamiltonian(x.second, shake_momentum(dsp, x.first, x.second, h)) - e0);
    }
    BOOST_TEST(max_abs(de, 0, de.size()) <= 1.5 * max_abs(de, 0, 2000));
  }
}

// Theorem 5.1: the (q, p) map is symplectic on the phase space. Central differences with ε = 1e-5
// leave O(ε²) ≈ 1e-10 truncation and ~1e-15/ε = 1e-10 solver noise: a defect ≤ 1e-7 is symplectic
// to that resolution. The control — the same positions, but p1 = ∂L/∂q̇(q1, (q1 − q0)/h)
// projected (a consistent momentum that is not the discrete Legendre transform) — must fail by
// orders of magnitude (≥ 1e-4).
BOOST_AUTO_TEST_CASE(variational_midpoint_is_symplectic_on_the_phase_space) {
  {
    const quaternion_rigid_body body;
    const rb_state x = body.initial_state();
    const double h = 0.1;
    auto midpoint_step = [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      std::pair<Eigen::VectorXd, Eigen::VectorXd> y{q, p};
      variational_midpoint<> stepper;
      stepper.do_step(body, y, 0.0, h);
      q = y.first;
      p = y.second;
    };
    auto secant_step = [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      const Eigen::VectorXd q0 = q;
      midpoint_step(q, p);
      p = momentum_from_velocity(body, q, (q - q0) / h);
      project_to_phase_space(body, q, p, 1e-15);
    };
    const double defect = phase_space_symplecticity_defect(body, x.first, x.second, midpoint_step);
    const double control = phase_space_symplecticity_defect(body, x.first, x.second, secant_step);
    BOOST_TEST_MESSAGE("rigid body symplecticity defect " << defect << ", control " << control);
    BOOST_TEST(defect <= 1e-7);
    BOOST_TEST(control >= 1e-4);
  }
  {  // the AD-built double spherical pendulum (Lagrangian written once)
    const auto dsp = models::dsp_lagrangian();
    const dsp_state x = problems::double_spherical_pendulum().initial_state();
    auto midpoint_step = [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      std::pair<Eigen::VectorXd, Eigen::VectorXd> y{q, p};
      variational_midpoint<> stepper;
      stepper.do_step(dsp, y, 0.0, 0.02);
      q = y.first;
      p = y.second;
    };
    const double defect = phase_space_symplecticity_defect(dsp, x.first, x.second, midpoint_step);
    BOOST_TEST_MESSAGE("DSP symplecticity defect " << defect);
    BOOST_TEST(defect <= 1e-7);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors and allocation
// ---------------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(inconsistent_states_are_rejected_and_projection_fixes_them) {
  const quaternion_rigid_body body;
  auto expect_inconsistent = [](auto&& step) {
    bool thrown = false;
    try {
      step();
    } catch (const step_error& e) {
      thrown = e.reason() == failure_reason::inconsistent_initial_state;
    }
    BOOST_TEST(thrown);
  };
  rb_state off_momentum = body.initial_state();
  off_momentum.second += 0.1 * off_momentum.first;  // q·p ≠ 0: off the phase space
  const rb_state kept = off_momentum;
  variational_midpoint<rb_state> stepper;
  expect_inconsistent([&] { stepper.do_step(body, off_momentum, 0.0, 0.01); });
  BOOST_TEST((off_momentum.second.array() == kept.second.array()).all());

  rb_state off_position = body.initial_state();
  off_position.first *= 1.001;
  expect_inconsistent([&] { stepper.do_step(body, off_position, 0.0, 0.01); });

  std::pair<vector<4>, vector<4>> pair{off_position.first, body.initial_state().first};
  variational_midpoint_two_step<std::pair<vector<4>, vector<4>>> two;
  expect_inconsistent([&] { two.do_step(body, pair, 0.0, 0.01); });

  const problems::double_spherical_pendulum dsp;
  std::pair<vector<6>, vector<6>> dsp_pair = dsp_initial_pair(dsp, 0.01);
  dsp_pair.second(0) += 1e-3;
  shake<std::pair<vector<6>, vector<6>>> shake_stepper;
  expect_inconsistent([&] { shake_stepper.do_step(dsp, dsp_pair, 0.0, 0.01); });

  project_to_phase_space(body, off_position.first, off_position.second);
  project_to_phase_space(body, off_momentum.first, off_momentum.second);
  stepper.do_step(body, off_position, 0.0, 0.01);  // accepted now
  stepper.do_step(body, off_momentum, 0.0, 0.01);
  BOOST_TEST(std::fabs(off_momentum.first.dot(off_momentum.second)) <= 1e-12 * off_momentum.second.norm());
}

// No heap allocation inside do_step after the first step, for fixed-size and dynamic states,
// analytic and AD-built systems.
BOOST_AUTO_TEST_CASE(steps_do_not_allocate) {
  using geomint::diagnostics::allocations_after_first_step;
  using pair4 = std::pair<vector<4>, vector<4>>;
  using pair6 = std::pair<vector<6>, vector<6>>;
  using dynamic_pair = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
  const quaternion_rigid_body body;
  const rb_state x = body.initial_state();
  long count = allocations_after_first_step(variational_midpoint<rb_state>(), body, x, 0.0, 0.01);
  BOOST_TEST(count == 0);
  count = allocations_after_first_step(variational_midpoint<dynamic_pair>(), body, dynamic_pair{x.first, x.second}, 0.0, 0.01);
  BOOST_TEST(count == 0);
  count = allocations_after_first_step(variational_midpoint_two_step<pair4>(), body, paper_initial_pair(body, 0.01), 0.0, 0.01);
  BOOST_TEST(count == 0);
  // AD-built Lagrangians (fixed-size derivative vectors: no allocation either)
  count = allocations_after_first_step(variational_midpoint<rb_state>(), models::heavy_top_lagrangian(), problems::heavy_top().initial_state(), 0.0, 0.01);
  BOOST_TEST(count == 0);
  const problems::double_spherical_pendulum dsp;
  const dsp_state s = dsp.initial_state();
  count = allocations_after_first_step(variational_midpoint<dynamic_pair>(), models::dsp_lagrangian(), dynamic_pair{s.first, s.second}, 0.0, 0.01);
  BOOST_TEST(count == 0);

  const pair6 dsp_pair = dsp_initial_pair(dsp, 0.01);
  count = allocations_after_first_step(shake<pair6>(), dsp, dsp_pair, 0.0, 0.01);
  BOOST_TEST(count == 0);
  count = allocations_after_first_step(shake<dynamic_pair>(), dsp, dynamic_pair{dsp_pair.first, dsp_pair.second}, 0.0, 0.01);
  BOOST_TEST(count == 0);

  // Every derivative an AD-built Hamiltonian system provides, separable and general.
  const auto ad_dsp = models::dsp_separable();
  const auto ad_top = models::heavy_top();
  vector<6> g6;
  matrix<6, 6> h6;
  matrix<2, 6> j6;
  vector<4> g4;
  matrix<4, 4> h4;
  matrix<1, 4> j4;
  const vector<2> l2(0.3, -0.2);
  const vector<1> l1(0.5);
  const rb_state t = problems::heavy_top().initial_state();
  geomint::diagnostics::allocation_scope scope;
  ad_dsp.dh_dq(s.first, s.second, g6);
  ad_dsp.h_qq(s.first, s.second, h6);
  ad_dsp.constraint_jacobian(s.first, j6);
  ad_dsp.constraint_hessian(s.first, l2, h6);
  ad_top.dh_dq(t.first, t.second, g4);
  ad_top.dh_dp(t.first, t.second, g4);
  ad_top.h_qq(t.first, t.second, h4);
  ad_top.h_qp(t.first, t.second, h4);
  ad_top.h_pp(t.first, t.second, h4);
  ad_top.constraint_jacobian(t.first, j4);
  ad_top.constraint_hessian(t.first, l1, h4);
  BOOST_TEST(scope.count() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
