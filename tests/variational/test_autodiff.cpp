// Automatic differentiation (geomint/system/autodiff.hpp, ad_system.hpp, ad_lagrangian_system.hpp):
// derivatives equal the analytic ones on the reference problems, AD-built systems drive the
// steppers exactly as the analytic ones do, and a model turning non-finite fails a step cleanly.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"
#include "geomint/problems/autodiff_models.hpp"

using namespace geomint;
namespace models = geomint::problems::ad_models;

namespace {

// AD evaluates the same arithmetic as the hand-written derivatives in another order: they agree
// to a few ulps times the terms' cancellation (≤ 1e-14 here). 1e-12 leaves two orders of margin while still catching any wrong term (those are O(1)).
constexpr double derivative_tolerance = 1e-12;

template <class A, class B>
double relative_difference(const A& ad_value, const B& analytic) {
  const double scale = std::fmax(Eigen::MatrixXd(analytic).cwiseAbs().maxCoeff(), 1e-300);
  return (Eigen::MatrixXd(ad_value) - Eigen::MatrixXd(analytic)).cwiseAbs().maxCoeff() / scale;
}

template <int N>
vector<N> random_vector(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1, 1);
  vector<N> v;
  for (int i = 0; i < N; ++i) v(i) = scale * u(rng);
  return v;
}

/// Compares every member of two constrained Hamiltonian systems at random points.
template <int N, int M, class AD, class Analytic>
void check_hamiltonian_derivatives(const AD& ad_sys, const Analytic& exact) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const vector<N> q = random_vector<N>(rng, 2.0), p = random_vector<N>(rng, 3.0);
    const vector<M> lambda = random_vector<M>(rng);
    vector<N> a(N), b(N);
    matrix<N, N> ha(N, N), hb(N, N);
    matrix<M, N> ga(M, N), gb(M, N);
    vector<M> va(M), vb(M);
    BOOST_TEST(std::fabs(ad_sys.hamiltonian(q, p) - exact.hamiltonian(q, p)) <=
               derivative_tolerance * std::fmax(1.0, std::fabs(exact.hamiltonian(q, p))));
    ad_sys.dh_dq(q, p, a), exact.dh_dq(q, p, b);
    BOOST_TEST(relative_difference(a, b) <= derivative_tolerance);
    ad_sys.dh_dp(q, p, a), exact.dh_dp(q, p, b);
    BOOST_TEST(relative_difference(a, b) <= derivative_tolerance);
    ad_sys.h_qq(q, p, ha), exact.h_qq(q, p, hb);
    BOOST_TEST(relative_difference(ha, hb) <= derivative_tolerance);
    ad_sys.h_qp(q, p, ha), exact.h_qp(q, p, hb);
    BOOST_TEST(relative_difference(ha, hb) <= derivative_tolerance);
    ad_sys.h_pp(q, p, ha), exact.h_pp(q, p, hb);
    BOOST_TEST(relative_difference(ha, hb) <= derivative_tolerance);
    ad_sys.constraint(q, va), exact.constraint(q, vb);
    BOOST_TEST(relative_difference(va, vb) <= derivative_tolerance);
    ad_sys.constraint_jacobian(q, ga), exact.constraint_jacobian(q, gb);
    BOOST_TEST(relative_difference(ga, gb) <= derivative_tolerance);
    ad_sys.constraint_hessian(q, lambda, ha), exact.constraint_hessian(q, lambda, hb);
    BOOST_TEST(relative_difference(ha, hb) <= derivative_tolerance);
  }
}

/// Compares every member of two Lagrangian systems at random points.
template <int N, int M, class AD, class Analytic>
void check_lagrangian_derivatives(const AD& ad_sys, const Analytic& exact) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    const vector<N> q = random_vector<N>(rng, 2.0), v = random_vector<N>(rng, 3.0);
    vector<N> a1, a2, b1, b2;
    matrix<N, N> aqq, aqv, avv, bqq, bqv, bvv;
    BOOST_TEST(std::fabs(ad_sys.lagrangian(q, v) - exact.lagrangian(q, v)) <=
               derivative_tolerance * std::fmax(1.0, std::fabs(exact.lagrangian(q, v))));
    ad_sys.lagrangian_gradient(q, v, a1, a2);
    exact.lagrangian_gradient(q, v, b1, b2);
    BOOST_TEST(relative_difference(a1, b1) <= derivative_tolerance);
    BOOST_TEST(relative_difference(a2, b2) <= derivative_tolerance);
    ad_sys.lagrangian_hessian(q, v, aqq, aqv, avv);
    exact.lagrangian_hessian(q, v, bqq, bqv, bvv);
    BOOST_TEST(relative_difference(aqq, bqq) <= derivative_tolerance);
    BOOST_TEST(relative_difference(aqv, bqv) <= derivative_tolerance);
    BOOST_TEST(relative_difference(avv, bvv) <= derivative_tolerance);
    ad_sys.lagrangian_velocity_hessian(q, v, avv);
    BOOST_TEST(relative_difference(avv, bvv) <= derivative_tolerance);
    matrix<M, N> ga, gb;
    ad_sys.constraint_jacobian(q, ga);
    exact.constraint_jacobian(q, gb);
    BOOST_TEST(relative_difference(ga, gb) <= derivative_tolerance);
  }
}

template <class Q, class P>
double state_distance(const Q& qa, const P& pa, const Q& qb, const P& pb) {
  return std::fmax((qa - qb).cwiseAbs().maxCoeff() / qb.cwiseAbs().maxCoeff(),
                   (pa - pb).cwiseAbs().maxCoeff() / pb.cwiseAbs().maxCoeff());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(autodiff)

BOOST_AUTO_TEST_CASE(separable_builder_matches_analytic_reference_problems) {
  const problems::spherical_pendulum sp;
  check_hamiltonian_derivatives<3, 1>(models::spherical_pendulum(), sp);
  const problems::double_spherical_pendulum dsp;
  check_hamiltonian_derivatives<6, 2>(models::dsp_separable(), dsp);

  // The chain's analytic Jacobian is sparse: compare it densely.
  problems::pendulum_chain_parameters cp;
  cp.links = 3;
  const problems::pendulum_chain chain(cp);
  const auto ad_chain = models::chain3(cp.mass, cp.length, cp.gravity);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const vector<9> q = random_vector<9>(rng, 2.0);
    const vector<3> lambda = random_vector<3>(rng);
    vector<9> a, b;
    ad_chain.dh_dq(q, q, a);
    chain.dh_dq(Eigen::VectorXd(q), Eigen::VectorXd(q), b);
    BOOST_TEST(relative_difference(a, b) <= derivative_tolerance);
    matrix<3, 9> ga;
    problems::chain_constraints::jacobian_type gb;
    ad_chain.constraint_jacobian(q, ga);
    chain.constraint_jacobian(Eigen::VectorXd(q), gb);
    BOOST_TEST(relative_difference(ga, Eigen::MatrixXd(gb)) <= derivative_tolerance);
    matrix<9, 9> ha;
    Eigen::MatrixXd hb(9, 9);
    ad_chain.constraint_hessian(q, lambda, ha);
    chain.constraint_hessian(Eigen::VectorXd(q), Eigen::VectorXd(lambda), hb);
    BOOST_TEST(relative_difference(ha, hb) <= derivative_tolerance);
  }
}

BOOST_AUTO_TEST_CASE(general_hamiltonian_matches_analytic_second_derivatives) {
  check_hamiltonian_derivatives<3, 1>(models::variable_mass_sphere(), problems::variable_mass_sphere());
  check_hamiltonian_derivatives<4, 1>(models::heavy_top(), problems::heavy_top());
  problems::heavy_top_parameters free_body;
  free_body.gravity = 0;
  free_body.radial_inertia = 2.5;
  free_body.inertia << 1, 2, 3;
  check_hamiltonian_derivatives<4, 1>(models::heavy_top(free_body), problems::heavy_top(free_body));
}

BOOST_AUTO_TEST_CASE(lagrangian_builder_matches_analytic_derivatives) {
  check_lagrangian_derivatives<4, 1>(models::rigid_body(), problems::quaternion_rigid_body());
  const problems::double_spherical_pendulum dsp;
  check_lagrangian_derivatives<6, 2>(models::dsp_lagrangian(), lagrangian_view<problems::double_spherical_pendulum>(dsp));

  // The pendulum's potential is linear (∂²V = 0), so the view's ∂²L/∂q² = −∂²V is checked again
  // on a potential with curvature in every entry: V = ½|q|² + q₀q₁³ + q₁q₂, masses (1, 2, 3),
  // against L = ½q̇ᵀMq̇ − V differentiated by AD.
  auto v = [](const auto& q) {
    using T = ad::scalar_of<decltype(q)>;
    return T(0.5 * (q(0) * q(0) + q(1) * q(1) + q(2) * q(2)) + q(0) * q(1) * q(1) * q(1) + q(1) * q(2));
  };
  auto g = [](const auto& q, auto& out) { out(0) = q(0) * q(0) + q(1) * q(1) + q(2) * q(2) - 1; };
  const vector<3> masses(1, 2, 3);
  auto l = [masses, v](const auto& q, const auto& qdot) {
    using T = ad::scalar_of<decltype(q)>;
    T kinetic(0.0);
    for (int i = 0; i < 3; ++i) kinetic += 0.5 * masses(i) * qdot(i) * qdot(i);
    return T(kinetic - v(q));
  };
  const auto curved = make_ad_separable_system<1>(diagonal_mass<3>(masses), v, g);
  check_lagrangian_derivatives<3, 1>(make_ad_lagrangian_system<3, 1>(l, g), lagrangian_view<decltype(curved)>(curved));
}

// Same arithmetic on the fast path (∇V and G are linear and quadratic: AD reproduces them to the
// last bit or nearly), so the trajectories agree to round-off; 1e-12 after 1000 steps allows
// the round-off growth of this mildly chaotic motion.
BOOST_AUTO_TEST_CASE(rattle_on_ad_double_spherical_pendulum_matches_analytic) {
  using ad_type = decltype(models::dsp_separable());
  static_assert(system_traits<ad_type>::separable, "the separable builder with AD parts must stay separable");
  static_assert(system_traits<ad_type>::has_h_qq && system_traits<ad_type>::has_constraint_hessian,
                "AD systems provide the second derivatives Newton uses");
  static_assert(system_traits<decltype(models::dsp_general())>::has_h_qp, "general AD systems provide ∂²H/∂q∂p");
  const problems::double_spherical_pendulum dsp;
  const auto ad_dsp = models::dsp_separable();
  using state = problems::double_spherical_pendulum::state_type;
  state xa = dsp.initial_state(), xb = xa;
  rattle<state> sa, sb;
  const double h = 0.005;
  for (int k = 0; k < 1000; ++k) {
    sa.do_step(ad_dsp, xa, k * h, h);
    sb.do_step(dsp, xb, k * h, h);
  }
  BOOST_TEST(sa.statistics().general_solver_steps == 0);  // the fast path applied
  BOOST_TEST(state_distance(xa.first, xa.second, xb.first, xb.second) <= 1e-12);
}

// The general path with exact AD Hessians against the analytic heavy top (same method, same
// solver path): round-off agreement over 1000 steps.
BOOST_AUTO_TEST_CASE(lobatto_on_ad_heavy_top_matches_analytic) {
  const problems::heavy_top top;
  const auto ad_top = models::heavy_top();
  using state = problems::heavy_top::state_type;
  state xa = top.initial_state(), xb = xa;
  lobatto_iiia_iiib<3, state> sa, sb;
  const double h = 0.05;
  for (int k = 0; k < 1000; ++k) {
    sa.do_step(ad_top, xa, k * h, h);
    sb.do_step(top, xb, k * h, h);
  }
  BOOST_TEST(state_distance(xa.first, xa.second, xb.first, xb.second) <= 1e-12);
}

// A spherical pendulum whose potential V = mg z + k √(c − z) is not finite above z = c: a step
// that carries the mass across z = c must fail with non_finite_value and leave the state alone.
namespace {
constexpr double ceiling = -0.45;  // z of the singularity; the start is at z = −0.5403
auto fragile_potential() {
  return [](const auto& q) {
    using T = ad::scalar_of<decltype(q)>;
    using std::sqrt;
    return T(9.81 * q(2) + 0.01 * sqrt(ceiling - q(2)));
  };
}
auto sphere_constraint() {
  return [](const auto& q, auto& out) { out(0) = q.squaredNorm() - 1.0; };
}
/// On the unit sphere at polar angle 1 from the bottom, moving up fast enough to cross z = c in a
/// step of 0.1.
std::pair<vector<3>, vector<3>> rising_state() {
  std::pair<vector<3>, vector<3>> x;
  x.first << std::sin(1.0), 0, -std::cos(1.0);
  x.second << std::cos(1.0) * 3, 0, std::sin(1.0) * 3;  // tangent, pointing up
  return x;
}
template <class Step, class State>
void expect_non_finite_failure(Step&& step, State& x) {
  const State before = x;
  bool thrown = false;
  try {
    step();
  } catch (const step_error& e) {
    thrown = true;
    BOOST_TEST(to_string(e.reason()) == std::string("non_finite_value"));
  }
  BOOST_TEST(thrown);
  BOOST_TEST((x.first.array() == before.first.array()).all());
  BOOST_TEST((x.second.array() == before.second.array()).all());
}
}  // namespace

BOOST_AUTO_TEST_CASE(non_finite_model_fails_the_step_and_keeps_the_state) {
  using state = std::pair<vector<3>, vector<3>>;
  const double h = 0.1;
  {  // RATTLE and SHAKE on the AD separable system
    const auto sys = make_ad_separable_system<1>(diagonal_mass<3>(vector<3>::Ones()), fragile_potential(), sphere_constraint());
    state x = rising_state();
    rattle<state> stepper;
    expect_non_finite_failure([&] { stepper.do_step(sys, x, 0.0, h); }, x);
    const state s = rising_state();
    state y{s.first, (s.first + h * s.second).normalized()};  // a step later, rising at the same speed
    shake<state> shake_stepper;
    expect_non_finite_failure([&] { shake_stepper.do_step(sys, y, 0.0, h); }, y);
  }
  {  // the variational midpoint, one-step and two-step forms, on an AD Lagrangian
    auto v = fragile_potential();
    auto lagrangian = [v](const auto& q, const auto& qdot) {
      using T = ad::scalar_of<decltype(q)>;
      return T(0.5 * qdot.squaredNorm() - v(q));
    };
    const auto sys = make_ad_lagrangian_system<3, 1>(lagrangian, sphere_constraint());
    state x = rising_state();
    variational_midpoint<state> stepper;
    expect_non_finite_failure([&] { stepper.do_step(sys, x, 0.0, h); }, x);
    const state s = rising_state();
    state y{s.first, (s.first + h * s.second).normalized()};
    variational_midpoint_two_step<state> two_step;
    expect_non_finite_failure([&] { two_step.do_step(sys, y, 0.0, h); }, y);
  }
}

BOOST_AUTO_TEST_SUITE_END()
