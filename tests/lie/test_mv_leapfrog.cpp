// Moser–Veselov / McLachlan–Scovel and the Lie–Poisson leapfrog of Leimkuhler–Patrick:
// conservation laws, order against odeint's dopri5, symmetry, the Poisson-map property, the
// generating function, failures; and the sine-Euler truncation at larger N.
#include <Eigen/Geometry>
#include <boost/test/unit_test.hpp>

#include <limits>
#include <optional>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "lie_test_support.hpp"

using namespace geomint;

namespace {

template <class Stepper, class System>
GEOMINT_NOINLINE double order_against_dopri5(Stepper prototype, const System& sys, const typename System::state_type& y0, double t_end,
                            std::vector<int> steps) {
  const Eigen::VectorXd ref = lie_test::reference_solution(sys, Eigen::VectorXd(y0), t_end);
  std::vector<double> h, err;
  for (int n : steps) {
    h.push_back(t_end / n);
    err.push_back(lie_test::global_error(prototype, sys, y0, ref, t_end, n));
  }
  return geomint::diagnostics::loglog_slope(h, err);
}

/// max_ij |DΦ J(y) DΦᵀ − J(Φ(y))| / max |J(Φ(y))|, DΦ by central differences (error ~1e-9):
/// Φ is a Poisson map (Engø–Faltinsen (2.11)) when this vanishes.
template <class Step, class Algebra>
GEOMINT_NOINLINE double poisson_defect(Step&& step, const Algebra& a, const typename Algebra::vector_type& y) {
  using vec = typename Algebra::vector_type;
  using op = typename Algebra::operator_type;
  const int d = a.dim();
  op dphi(d, d);
  const double eps = 1e-5;
  for (int j = 0; j < d; ++j) {
    vec plus = y, minus = y;
    plus(j) += eps;
    minus(j) -= eps;
    step(plus);
    step(minus);
    dphi.col(j) = (plus - minus) / (2 * eps);
  }
  vec image = y;
  step(image);
  const op target = a.poisson_tensor(image);
  const op pushed = dphi * a.poisson_tensor(y) * dphi.transpose();
  return (pushed - target).cwiseAbs().maxCoeff() / target.cwiseAbs().maxCoeff();
}

}  // namespace

// ---- McLachlan–Scovel / Moser–Veselov ----

BOOST_AUTO_TEST_CASE(moser_veselov_conserves_spatial_momentum_energy_and_casimirs) {
  // The spatial momentum q m qᵀ (Theorem 6: PQᵀ = pqᵀ), the energy (the discrete rigid body is
  // integrable) and |m| are conserved up to the rounding of each step, ~ε√n ≈ 2e-14 for n = 1e4
  // steps; bound 1e-13.
  const problems::free_rigid_body body;
  moser_veselov<so3> mv;
  vector<3> y = problems::free_rigid_body::engo_faltinsen_initial_state();
  matrix<3, 3> q = matrix<3, 3>::Identity();
  const vector<3> spatial0 = q * y;
  const double h0 = body.hamiltonian(y), c0 = y.norm();
  double spatial = 0, energy = 0, casimir = 0;
  for (int k = 0; k < 10000; ++k) {
    mv.do_step(body, q, y, 0.1 * k, 0.1);
    spatial = std::fmax(spatial, (q * y - spatial0).norm() / spatial0.norm());
    energy = std::fmax(energy, std::fabs(body.hamiltonian(y) - h0) / h0);
    casimir = std::fmax(casimir, std::fabs(y.norm() - c0) / c0);
  }
  BOOST_TEST_MESSAGE("Moser–Veselov so(3), 1e4 steps: spatial momentum " << spatial << ", energy " << energy
                                                                         << ", |y| " << casimir);
  BOOST_TEST(spatial <= 1e-13);
  BOOST_TEST(energy <= 1e-13);
  BOOST_TEST(casimir <= 1e-13);
  // q ← q ω rounds each step at a few ε; 1e4 steps accumulate at most linearly (1e4 · 4ε ≈ 9e-12).
  BOOST_TEST((q.transpose() * q - matrix<3, 3>::Identity()).cwiseAbs().maxCoeff() <= 1e4 * 4 * 2.2e-16);

  // so(5): the spatial momentum as a matrix.
  const problems::rigid_body_so_n<5> body5;
  const so_n<5> a;
  moser_veselov<so_n<5>> mv5;
  auto y5 = problems::rigid_body_so_n<5>::initial_state();
  matrix<5, 5> q5 = matrix<5, 5>::Identity();
  const matrix<5, 5> s0 = a.hat(y5);
  const double e5 = body5.hamiltonian(y5);
  double spatial5 = 0, energy5 = 0;
  for (int k = 0; k < 10000; ++k) {
    mv5.do_step(body5, q5, y5, 0.1 * k, 0.1);
    spatial5 = std::fmax(spatial5, (q5 * a.hat(y5) * q5.transpose() - s0).norm() / s0.norm());
    energy5 = std::fmax(energy5, std::fabs(body5.hamiltonian(y5) - e5) / e5);
  }
  BOOST_TEST_MESSAGE("Moser–Veselov so(5), 1e4 steps: spatial momentum " << spatial5 << ", energy " << energy5);
  BOOST_TEST(spatial5 <= 1e-13);
  BOOST_TEST(energy5 <= 1e-13);
}

BOOST_AUTO_TEST_CASE(lagrange_top_conserves_m12_to_round_off) {
  // α₁ = α₂, χ = (0, 0, ±1): both reduced heavy-top maps are equivariant under rotations about
  // the symmetry axis, so m₁₂ = −u₃ is conserved exactly (McLachlan–Scovel §6.2): to round-off,
  // ~ε√n·|u| for n = 1e4. An asymmetric top (α₁ ≠ α₂) changes u₃ by O(1).
  vector<6> y0;
  y0 << 0.3, -0.2, 0.8, 0.6, 0.0, 0.8;  // |v| = 1
  auto drift = [&](const problems::heavy_top_se3& top, auto mv) {
    vector<6> y = y0;
    double worst = 0;
    for (int k = 0; k < 10000; ++k) {
      mv.do_step(top, y, 0.05 * k, 0.05);
      worst = std::fmax(worst, std::fabs(y(2) - y0(2)) / y.head<3>().norm());
    }
    return worst;
  };
  for (int sign : {1, -1})
    for (const double d : {drift(problems::heavy_top_se3::lagrange_top(0.5, 1.0, 1.0, sign), moser_veselov<se3>()),
                           drift(problems::heavy_top_se3::lagrange_top(0.5, 1.0, 1.0, sign),
                                 moser_veselov<se3, heavy_top_scheme::constraint>())}) {
      BOOST_TEST_MESSAGE("Lagrange top m12 drift " << d);
      BOOST_TEST(d <= 1e-13);
    }
  // McLachlan–Scovel's nearby asymmetric top (α = (0.44, 0.5, 1)).
  const auto asymmetric = problems::heavy_top_se3::from_moments(vector<3>(0.44, 0.5, 1), 1.0, vector<3>(0, 0, 1));
  BOOST_TEST(drift(asymmetric, moser_veselov<se3>()) >= 1e-3);

  // Engø–Faltinsen's Lagrange top (I = diag(7, 7, 2)/8, χ = e₃) from their initial state at
  // h = 0.1: here ω's iteration grows once on its way to round-off on many steps, and it must not
  // stop there (a change of up to 1e-9 left ω non-orthogonal and moved u₃ by 1e-8 relative). The
  // bound is round-off accumulated over 1e4 steps, ~ε√n·|u|/|u| with |u| up to 5 (measured 2e-13).
  const problems::heavy_top_se3 engo_faltinsen;
  auto engo_faltinsen_drift = [&](auto mv) {
    vector<6> y = problems::heavy_top_se3::engo_faltinsen_initial_state();
    const double u3 = y(2);
    double worst = 0;
    for (int k = 0; k < 10000; ++k) {
      mv.do_step(engo_faltinsen, y, 0.1 * k, 0.1);
      worst = std::fmax(worst, std::fabs(y(2) - u3) / y.head<3>().norm());
    }
    return worst;
  };
  for (const double d : {engo_faltinsen_drift(moser_veselov<se3>()),
                         engo_faltinsen_drift(moser_veselov<se3, heavy_top_scheme::constraint>())}) {
    BOOST_TEST_MESSAGE("Engø–Faltinsen Lagrange top m12 drift " << d);
    BOOST_TEST(d <= 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(moser_veselov_agrees_with_dopri5_at_order_2) {
  // Against the Euler equations integrated by runge_kutta_dopri5 (tolerance 1e-14): free rigid
  // body and RATTLE heavy top converge at order 2, the constraint heavy-top map at order 1
  // (slopes ±0.25).
  const problems::free_rigid_body body;
  const problems::rigid_body_so_n<5> body5;
  const problems::heavy_top_se3 top = problems::heavy_top_se3::from_moments(vector<3>(0.44, 0.5, 1), 1.0, vector<3>(0, 0, 1));
  vector<6> y_top;
  y_top << 0.3, -0.2, 0.8, 0.6, 0.0, 0.8;
  const std::vector<int> n = {20, 40, 80, 160};
  const double rb = order_against_dopri5(moser_veselov<so3>{}, body,
                                         problems::free_rigid_body::engo_faltinsen_initial_state(), 2.0, n);
  const double so5 =
      order_against_dopri5(moser_veselov<so_n<5>>{}, body5, problems::rigid_body_so_n<5>::initial_state(), 1.0, n);
  const double rattle = order_against_dopri5(moser_veselov<se3>{}, top, y_top, 2.0, n);
  const double first = order_against_dopri5(moser_veselov<se3, heavy_top_scheme::constraint>{}, top, y_top, 2.0, n);
  BOOST_TEST_MESSAGE("Moser–Veselov orders: so3 " << rb << ", so5 " << so5 << ", heavy top RATTLE " << rattle
                                                  << ", constraint " << first);
  BOOST_TEST(std::fabs(rb - 2) <= 0.25);
  BOOST_TEST(std::fabs(so5 - 2) <= 0.25);
  BOOST_TEST(std::fabs(rattle - 2) <= 0.25);
  BOOST_TEST(std::fabs(first - 1) <= 0.25);
  BOOST_TEST((moser_veselov<se3, heavy_top_scheme::constraint>{}.order() == 1));
}

BOOST_AUTO_TEST_CASE(moser_veselov_rejects_bad_input) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  vector<3> y = y0;
  moser_veselov<so3> mv;
  // A step far beyond the O(t) contraction of iteration (i)–(ii).
  BOOST_CHECK_THROW(mv.do_step(body, y, 0.0, 50.0), step_error);
  BOOST_TEST((y.array() == y0.array()).all());
  // α₁ + α₂ = 0 (a degenerate body).
  const problems::free_rigid_body flat(vector<3>(1, 1, 0));
  BOOST_CHECK_THROW(mv.do_step(flat, y, 0.0, 0.1), std::invalid_argument);
  BOOST_TEST((y.array() == y0.array()).all());
}

// ---- Leimkuhler–Patrick leapfrog ----

BOOST_AUTO_TEST_CASE(leapfrog_is_second_order_symmetric_and_keeps_casimirs) {
  const problems::free_rigid_body body;
  const problems::rigid_body_so_n<5> body5;
  const problems::sine_euler<3> fluid;
  const auto y_rb = problems::free_rigid_body::engo_faltinsen_initial_state();
  const auto y5 = problems::rigid_body_so_n<5>::initial_state();
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  const std::vector<int> n = {20, 40, 80, 160};
  const double orders[] = {order_against_dopri5(lie_poisson_leapfrog<so3>{}, body, y_rb, 2.0, n),
                           order_against_dopri5(lie_poisson_leapfrog<so_n<5>>{}, body5, y5, 1.0, n),
                           order_against_dopri5(lie_poisson_leapfrog<su_n<3>>{}, fluid, y_fluid, 1.0, n)};
  for (double p : orders) {
    BOOST_TEST_MESSAGE("leapfrog order " << p);
    BOOST_TEST(std::fabs(p - 2) <= 0.25);
  }
  // Symmetric: Φ_{−h} ∘ Φ_h = id, up to the fixed-point tolerance (a few ulps).
  lie_poisson_leapfrog<su_n<3>> lf;
  auto y = y_fluid;
  lf.do_step(fluid, y, 0.0, 0.2);
  lf.do_step(fluid, y, 0.2, -0.2);
  BOOST_TEST((y - y_fluid).norm() <= 1e-14 * y_fluid.norm());
  // The update is a coadjoint action: Casimirs to round-off (scaled as in casimir_drift, 1e4 steps).
  auto yc = y_fluid;
  const su_n<3>& a = fluid.algebra();
  const auto c0 = a.casimirs(yc), scale = a.casimir_scales(yc);
  double worst = 0;
  for (int k = 0; k < 10000; ++k) {
    lf.do_step(fluid, yc, 0.1 * k, 0.1);
    worst = std::fmax(worst, (a.casimirs(yc) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
  }
  BOOST_TEST(worst <= 1e-13);
}

BOOST_AUTO_TEST_CASE(leapfrog_is_the_map_generated_by_leimkuhler_patricks_generating_function) {
  // On SO(3) with g̃ the bi-invariant metric, geodesics are q₂ = q₁ exp(ŵ) and (18) becomes
  // S(q₁, q₂) = (1/2t) wᵀ I w, w = log(q₁ᵀq₂). The map it generates sends the body momentum
  // Π₁ = −(left-trivialized ∂S/∂q₁) to Π₂ = ∂S/∂q₂; computed here by central differences of S
  // (error ~1e-9), independently of the stepper's formulas.
  const problems::free_rigid_body body;
  const so3 a;
  const double t = 0.3;
  const matrix<3, 3> q1 = a.exp(vector<3>(0.4, -1.0, 0.7));
  const vector<3> w(0.5, 0.2, -0.35);
  const matrix<3, 3> q2 = q1 * a.exp(w);
  auto log = [](const matrix<3, 3>& r) {
    const Eigen::AngleAxisd aa(r);
    return vector<3>(aa.angle() * aa.axis());
  };
  auto action = [&](const matrix<3, 3>& x, const matrix<3, 3>& z) {
    const vector<3> v = log(matrix<3, 3>(x.transpose() * z));
    return v.dot(body.inertia().cwiseProduct(v)) / (2 * t);
  };
  vector<3> pi1, pi2;
  const double eps = 1e-6;
  for (int j = 0; j < 3; ++j) {
    const vector<3> e = vector<3>::Unit(j) * eps;
    pi1(j) = -(action(q1 * a.exp(e), q2) - action(q1 * a.exp(vector<3>(-e)), q2)) / (2 * eps);
    pi2(j) = (action(q1, q2 * a.exp(e)) - action(q1, q2 * a.exp(vector<3>(-e)))) / (2 * eps);
  }
  vector<3> y = pi1;
  lie_poisson_leapfrog<so3>{}.do_step(body, y, 0.0, t);
  BOOST_TEST((y - pi2).norm() <= 1e-8 * pi2.norm());
}

BOOST_AUTO_TEST_CASE(leapfrog_and_moser_veselov_are_poisson_maps_rkmk_is_not) {
  // DΦ J(y) DΦᵀ = J(Φ(y)) (Engø–Faltinsen (2.11)) to the accuracy of the differences (1e-8) for
  // the symplectic methods; RKMK-RK4 (energy-drifting, not Lie–Poisson) misses it by ≥ 1e-6 at
  // h = 0.3, so the check can fail.
  const problems::free_rigid_body body;
  const problems::sine_euler<3> fluid;
  const problems::rigid_body_so_n<5> body5;
  const vector<3> y = problems::free_rigid_body::engo_faltinsen_initial_state();
  const double h = 0.3;
  const double leapfrog = poisson_defect([&](vector<3>& x) { lie_poisson_leapfrog<so3>{}.do_step(body, x, 0.0, h); },
                                         so3{}, y);
  const double leapfrog_su3 = poisson_defect(
      [&](vector<8>& x) { lie_poisson_leapfrog<su_n<3>>{}.do_step(fluid, x, 0.0, h); }, fluid.algebra(),
      problems::sine_euler<3>::random_initial_state());
  const double mv = poisson_defect([&](vector<3>& x) { moser_veselov<so3>{}.do_step(body, x, 0.0, h); }, so3{}, y);
  const double mv5 = poisson_defect([&](so_n<5>::vector_type& x) { moser_veselov<so_n<5>>{}.do_step(body5, x, 0.0, h); },
                                    so_n<5>{}, problems::rigid_body_so_n<5>::initial_state());
  const double rk4 = poisson_defect([&](vector<3>& x) { rkmk<so3, rk::rk4>{}.do_step(body, x, 0.0, h); }, so3{}, y);
  BOOST_TEST_MESSAGE("Poisson defect: leapfrog " << leapfrog << ", leapfrog su(3) " << leapfrog_su3 << ", M–V "
                                                 << mv << ", M–V so(5) " << mv5 << ", RKMK-RK4 " << rk4);
  BOOST_TEST(leapfrog <= 1e-8);
  BOOST_TEST(leapfrog_su3 <= 1e-8);
  BOOST_TEST(mv <= 1e-8);
  BOOST_TEST(mv5 <= 1e-8);
  BOOST_TEST(rk4 >= 1e-6);
}

BOOST_AUTO_TEST_CASE(leapfrog_rejects_bad_input) {
  // Not a quadratic kinetic energy: ∇H is affine (heavy top) or cubic.
  vector<6> y = problems::heavy_top_se3::engo_faltinsen_initial_state();
  const vector<6> y0 = y;
  lie_poisson_leapfrog<se3> lf;
  try {
    lf.do_step(problems::heavy_top_se3{}, y, 0.0, 0.1);
    BOOST_ERROR("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("quadratic") != std::string::npos);
  }
  BOOST_TEST((y.array() == y0.array()).all());
  // A step far beyond the O(t) contraction of the fixed-point iteration.
  const problems::free_rigid_body body;
  vector<3> z = problems::free_rigid_body::engo_faltinsen_initial_state();
  const vector<3> z0 = z;
  BOOST_CHECK_THROW(lie_poisson_leapfrog<so3>{}.do_step(body, z, 0.0, 40.0), step_error);
  BOOST_TEST((z.array() == z0.array()).all());
}

namespace {
/// A rigid body whose energy has a quartic term c|π|⁴/4 (c = 0: the quadratic free body).
struct quartic_body {
  using algebra_type = so3;
  using state_type = vector<3>;
  double c = 0;
  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return 0.5 * y.squaredNorm() + 0.25 * c * y.squaredNorm() * y.squaredNorm();
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const { out = (1 + c * y.squaredNorm()) * y; }
};
}  // namespace

// The check that H is quadratic is keyed on the system's value, not its address: a system
// rebuilt in place (std::optional::emplace) with a quartic term is refused. Before, the
// check was remembered by address and the second system was stepped as if quadratic.
BOOST_AUTO_TEST_CASE(leapfrog_checks_a_system_rebuilt_in_place_again) {
  std::optional<quartic_body> body;
  body.emplace(quartic_body{0.0});
  lie_poisson_leapfrog<so3> lf;
  vector<3> y(0.3, -0.2, 0.9);
  lf.do_step(*body, y, 0.0, 0.1);
  body.emplace(quartic_body{0.5});
  const vector<3> y1 = y;
  BOOST_CHECK_THROW(lf.do_step(*body, y, 0.1, 0.1), std::invalid_argument);
  BOOST_TEST((y.array() == y1.array()).all());
}

// At the state alone a quartic term hides near π = 0 (∇H(0) = 0 and ∇H(2·0) = 2∇H(0) for any
// H): the check also probes a fixed point of the state's size, so a step from rest is refused too.
BOOST_AUTO_TEST_CASE(leapfrog_refuses_a_quartic_hamiltonian_from_rest) {
  lie_poisson_leapfrog<so3> lf;
  vector<3> y = vector<3>::Zero();
  BOOST_CHECK_THROW(lf.do_step(quartic_body{0.5}, y, 0.0, 0.1), std::invalid_argument);
  BOOST_TEST(y.isZero(0));
  BOOST_CHECK_NO_THROW(lf.do_step(quartic_body{0.0}, y, 0.0, 0.1));  // quadratic: accepted from rest
}

namespace {
/// A body on so(3) (as so_n<3>, whose exponential is the scaled Taylor series) whose gradient
/// has overflowed: +∞ in every entry.
struct overflowing_body {
  using algebra_type = so_n<3>;
  using state_type = vector<3>;
  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const { return 0.5 * y.squaredNorm(); }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>&, Out& out) const { out.setConstant(std::numeric_limits<double>::infinity()); }
};
}  // namespace

// e^S − 1 of an infinite S is NaN (halving an infinite norm never ended: the step hung), and a
// step whose gradient overflowed throws non_finite_value with the state kept.
BOOST_AUTO_TEST_CASE(an_infinite_gradient_fails_the_step_instead_of_hanging) {
  const Eigen::Matrix3d infinite = Eigen::Matrix3d::Constant(std::numeric_limits<double>::infinity());
  BOOST_TEST(!geomint::detail::expm1(infinite).allFinite());
  using euler = rkmk<so_n<3>, rk::forward_euler>;
  vector<3> y(0.3, -0.2, 0.9);
  const vector<3> y0 = y;
  BOOST_CHECK_EXCEPTION(euler{}.do_step(overflowing_body{}, y, 0.0, 0.1), step_error,
                        [](const step_error& e) { return e.reason() == failure_reason::non_finite_value; });
  BOOST_TEST((y.array() == y0.array()).all());
}

// ---- sine-Euler at larger N (dynamic sizes) ----

BOOST_AUTO_TEST_CASE(sine_euler_su7_keeps_casimirs_and_energy) {
  // N = 7: 48 coordinates, stored dynamically. RKMK-RK4 keeps the six Casimirs tr(Wᵏ)/N, the
  // discrete gradient also the energy, to round-off (bound 1e-13, ~ε√n·scale for n ≤ 1000).
  // The discrete gradient runs 100 steps: each builds and factors a 48 × 48 Newton matrix, which
  // is slow in the sanitizer build.
  const problems::sine_euler<7> fluid;
  const su_n<7>& a = fluid.algebra();
  const auto y0 = problems::sine_euler<7>::random_initial_state(5);
  BOOST_TEST(y0.size() == 48);
  auto drift = [&](auto stepper, int steps) {
    auto y = y0;
    const auto c0 = a.casimirs(y0), scale = a.casimir_scales(y0);
    const double h0 = fluid.hamiltonian(y0);
    double c = 0, e = 0;
    for (int k = 0; k < steps; ++k) {
      stepper.do_step(fluid, y, 0.05 * k, 0.05);
      c = std::fmax(c, (a.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
      e = std::fmax(e, std::fabs(fluid.hamiltonian(y) - h0) / h0);
    }
    return std::make_pair(c, e);
  };
  const auto rk4 = drift(rkmk<su_n<7>, rk::rk4, cayley_coordinates>{}, 1000);
  const auto dg = drift(lie_discrete_gradient<su_n<7>>{}, 100);
  BOOST_TEST_MESSAGE("su(7): RK4 Casimirs " << rk4.first << "; discrete gradient Casimirs " << dg.first << ", energy "
                                            << dg.second);
  BOOST_TEST(rk4.first <= 1e-13);
  BOOST_TEST(dg.first <= 1e-13);
  BOOST_TEST(dg.second <= 1e-13);
}
