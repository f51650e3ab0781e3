// RKMK and the energy-conserving discrete-gradient methods: observed order, the energy
// behaviour of §6.1 (GL2 bounded in exp coordinates, drifting in Cayley coordinates and for
// Heun), failures, and allocations. The runs over 1e5 steps are in test_long_runs.cpp.
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <boost/mpl/list.hpp>
#include <boost/numeric/odeint/integrate/integrate_const.hpp>
#include <boost/test/unit_test.hpp>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/structure_constants.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"
#include "geomint/diagnostics/count_allocations.hpp"  // the one TU of test_lie that counts allocations
#include "geomint/diagnostics/observed_order.hpp"
#include "lie_test_support.hpp"
#include "rkmk_test_methods.hpp"

using namespace geomint;
using geomint::diagnostics::allocations_after_first_step;
using lie_test::energy_drift;
using lie_test::rigid_body_on_constants;
using lie_test::rkmk_methods;

namespace {

/// A rigid body with a quartic term, H = ½ yᵀI⁻¹y + ¼ y₁⁴: not quadratic.
struct quartic_rigid_body : problems::free_rigid_body {
  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return free_rigid_body::hamiltonian(y) + 0.25 * std::pow(y(0), 4);
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const {
    free_rigid_body::gradient(y, out);
    out(0) += std::pow(y(0), 3);
  }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>& y, Out& out) const {
    free_rigid_body::hessian(y, out);
    out(0, 0) += 3 * y(0) * y(0);
  }
};

/// The heavy top on se(3)* with a quartic term in the angular momentum and a cubic one in the
/// direction of gravity: a second non-quadratic energy, on another algebra.
struct anharmonic_heavy_top : problems::heavy_top_se3 {
  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return heavy_top_se3::hamiltonian(y) + 0.1 * std::pow(y.template head<3>().squaredNorm(), 2) + 0.2 * std::pow(y(5), 3);
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const {
    heavy_top_se3::gradient(y, out);
    out.template head<3>() += 0.4 * y.template head<3>().squaredNorm() * y.template head<3>();
    out(5) += 0.6 * y(5) * y(5);
  }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>& y, Out& out) const {
    heavy_top_se3::hessian(y, out);
    const vector<3> u = y.template head<3>();
    out.template topLeftCorner<3, 3>() += 0.4 * (u.squaredNorm() * matrix<3, 3>::Identity() + 2 * u * u.transpose());
    out(5, 5) += 1.2 * y(5);
  }
};

/// A rigid body whose gradient turns NaN once `poisoned` is set.
struct poisoned_rigid_body : problems::free_rigid_body {
  bool poisoned = false, poisoned_hessian = false;
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const {
    free_rigid_body::gradient(y, out);
    if (poisoned) out(1) = std::numeric_limits<double>::quiet_NaN();
  }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>& y, Out& out) const {
    free_rigid_body::hessian(y, out);
    if (poisoned_hessian) out(1, 1) = std::numeric_limits<double>::quiet_NaN();
  }
};

template <class Stepper, class System>
GEOMINT_NOINLINE double observed_order(const System& sys, const typename System::state_type& y0, double t_end, std::vector<int> steps) {
  const Eigen::VectorXd ref = lie_test::reference_solution(sys, Eigen::VectorXd(y0), t_end);
  std::vector<double> h, err;
  for (int n : steps) {
    h.push_back(t_end / n);
    err.push_back(lie_test::global_error(Stepper{}, sys, y0, ref, t_end, n));
  }
  return geomint::diagnostics::loglog_slope(h, err);
}


}  // namespace

BOOST_AUTO_TEST_CASE(named_tableaux_satisfy_their_order_conditions) {
  auto check = [](const auto& t, int p) {
    const double tight = 1e-15;
    BOOST_TEST(t.is_explicit());
    BOOST_TEST(std::fabs(t.b.sum() - 1) <= tight);
    BOOST_TEST((t.a.rowwise().sum() - t.c).cwiseAbs().maxCoeff() <= tight);
    if (p >= 2) BOOST_TEST(std::fabs(t.b.dot(t.c) - 0.5) <= tight);
    if (p >= 4) {
      BOOST_TEST(std::fabs(t.b.dot(t.c.cwiseAbs2()) - 1.0 / 3) <= tight);
      BOOST_TEST(std::fabs(t.b.dot(t.a * t.c) - 1.0 / 6) <= tight);
      BOOST_TEST(std::fabs(t.b.dot(t.c.cwiseAbs2().cwiseProduct(t.c)) - 0.25) <= tight);
      BOOST_TEST(std::fabs(t.b.dot(t.c.cwiseProduct(t.a * t.c)) - 0.125) <= tight);
      BOOST_TEST(std::fabs(t.b.dot(t.a * t.c.cwiseAbs2()) - 1.0 / 12) <= tight);
      BOOST_TEST(std::fabs(t.b.dot(t.a * t.a * t.c) - 1.0 / 24) <= tight);
    }
    BOOST_TEST(t.order == p);
  };
  check(forward_euler_tableau(), 1);
  check(heun_tableau(), 2);
  check(rk4_tableau(), 4);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rkmk_observed_order_on_the_rigid_body, M, rkmk_methods) {
  // Global error at t = 2 against dopri5 (tolerance 1e-14), h = 0.1 … 0.0125: the log–log slope
  // is the order of the tableau (±0.25: the step sizes are in the asymptotic range, errors
  // ≥ 1e-10 stay far above the reference's).
  const problems::free_rigid_body body;
  const double slope = observed_order<typename M::template type<so3>>(
      body, problems::free_rigid_body::engo_faltinsen_initial_state(), 2.0, {20, 40, 80, 160});
  BOOST_TEST_MESSAGE("rigid body, order " << M::p << ": observed " << slope);
  BOOST_TEST(std::fabs(slope - M::p) <= 0.25);
}

namespace {
/// The explicit three-stage tableaux of order 3 with nodes (0, c₂, c₃), c₂ ≠ c₃, c₂ ≠ 2/3:
/// Kutta (½, 1), Ralston (½, ¾), Heun (⅓, ⅔), or any other member (a user's).
butcher_tableau<3> third_order(double c2, double c3) {
  butcher_tableau<3> t;
  t.a.setZero();
  t.c << 0, c2, c3;
  // Order conditions Σb = 1, Σbc = 1/2, Σbc² = 1/3, b₃ a₃₂ c₂ = 1/6.
  t.b(2) = (2 - 3 * c2) / (6 * c3 * (c3 - c2));
  t.b(1) = (2 - 3 * c3) / (6 * c2 * (c2 - c3));
  t.b(0) = 1 - t.b(1) - t.b(2);
  t.a(1, 0) = c2;
  t.a(2, 1) = 1 / (6 * t.b(2) * c2);
  t.a(2, 0) = c3 - t.a(2, 1);
  t.order = 3;
  return t;
}
template <class Coordinates>
double third_order_slope(const butcher_tableau<3>& t) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  const vector<3> ref = lie_test::reference_solution(body, y0, 2.0);
  std::vector<double> h, err;
  for (int n : {20, 40, 80, 160}) {
    h.push_back(2.0 / n);
    err.push_back(lie_test::global_error(rkmk_method<so3, 3, Coordinates>(t), body, y0, ref, 2.0, n));
  }
  return geomint::diagnostics::loglog_slope(h, err);
}
}  // namespace

// A third-order tableau keeps its order in both coordinates: Cayley coordinates keep all of
// dcay⁻¹ (truncating its degree-2 term, as exp's rule would, gave 2.00). ±0.25.
BOOST_AUTO_TEST_CASE(third_order_tableaux_in_exp_and_cayley_coordinates) {
  for (const auto& [name, t] : {std::make_pair("Kutta", third_order(0.5, 1.0)), std::make_pair("Ralston", third_order(0.5, 0.75)),
                                 std::make_pair("Heun", third_order(1.0 / 3, 2.0 / 3)), std::make_pair("user (0, 0.4, 0.9)", third_order(0.4, 0.9))}) {
    const double e = third_order_slope<exp_coordinates>(t), c = third_order_slope<cayley_coordinates>(t);
    BOOST_TEST_MESSAGE(name << " RK3: exp " << e << ", Cayley " << c);
    BOOST_TEST(std::fabs(e - 3) <= 0.25, name);
    BOOST_TEST(std::fabs(c - 3) <= 0.25, name);
  }
  BOOST_TEST(cayley_coordinates::truncation(3) == 2);
  BOOST_TEST(exp_coordinates::truncation(3) == 1);
}

// A user tableau is checked at construction: an order must be declared, Σb = 1, row sums = c.
BOOST_AUTO_TEST_CASE(inconsistent_butcher_tableaux_are_rejected) {
  butcher_tableau<3> no_order = third_order(0.5, 1.0);
  no_order.order = 0;
  BOOST_CHECK_THROW((rkmk_method<so3, 3>(no_order)), std::invalid_argument);
  butcher_tableau<3> weights = third_order(0.5, 1.0);
  weights.b(0) += 1e-3;
  BOOST_CHECK_THROW((rkmk_method<so3, 3>(weights)), std::invalid_argument);
  butcher_tableau<3> rows = third_order(0.5, 1.0);
  rows.c(1) = 0.4;
  try {
    rkmk_method<so3, 3> m(rows);
    BOOST_FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("row 2") != std::string::npos, e.what());
  }
  BOOST_CHECK_NO_THROW((rkmk_method<so3, 3>(third_order(0.5, 1.0))));

  // A method tag with constant coefficients (rk::rk4) forms its stages from them: another tableau
  // with as many stages (Kutta's 3/8 rule) is refused, not silently replaced by the tag's.
  butcher_tableau<4> three_eighths;
  three_eighths.a << 0, 0, 0, 0, 1.0 / 3, 0, 0, 0, -1.0 / 3, 1, 0, 0, 1, -1, 1, 0;
  three_eighths.b << 1.0 / 8, 3.0 / 8, 3.0 / 8, 1.0 / 8;
  three_eighths.c << 0, 1.0 / 3, 2.0 / 3, 1;
  three_eighths.order = 4;
  BOOST_CHECK_NO_THROW((rkmk_method<so3, 4>(three_eighths)));
  BOOST_CHECK_THROW((rkmk_method<so3, 4, exp_coordinates, rk::rk4>(three_eighths)), std::invalid_argument);
  BOOST_CHECK_NO_THROW((rkmk_method<so3, 4, exp_coordinates, rk::rk4>(rk4_tableau())));
}

BOOST_AUTO_TEST_CASE(rkmk_fourth_order_on_heavy_top_sine_euler_so5_and_structure_constants) {
  // The commutator corrections of dexp⁻¹ / dcay⁻¹ in every algebra: RK4 and two-stage Gauss keep
  // order 4 in both coordinates, RK4's two-commutator form in exp coordinates.
  const problems::heavy_top_se3 top;
  const problems::sine_euler<3> fluid;
  const problems::rigid_body_so_n<5> body5;
  const rigid_body_on_constants body_c;
  const auto y_top = problems::heavy_top_se3::engo_faltinsen_initial_state();
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  const auto y5 = problems::rigid_body_so_n<5>::initial_state();
  const auto y_c = problems::free_rigid_body::engo_faltinsen_initial_state();
  const std::vector<int> n = {20, 40, 80, 160};
  const double s[] = {
      observed_order<rkmk<se3, rk::rk4>>(top, y_top, 0.5, n),
      observed_order<rkmk<se3, rk::rk4, cayley_coordinates>>(top, y_top, 0.5, n),
      observed_order<rkmk<se3, rk::gauss_legendre<2>, cayley_coordinates>>(top, y_top, 0.5, n),
      observed_order<rkmk<su_n<3>, rk::rk4>>(fluid, y_fluid, 1.0, n),
      observed_order<rkmk<su_n<3>, rk::rk4, cayley_coordinates>>(fluid, y_fluid, 1.0, n),
      observed_order<rkmk<so_n<5>, rk::rk4>>(body5, y5, 1.0, n),
      observed_order<rkmk<so_n<5>, rk::rk4, cayley_coordinates>>(body5, y5, 1.0, n),
      observed_order<rkmk<structure_constants<3>, rk::rk4>>(body_c, y_c, 2.0, n),
      observed_order<rkmk<se3, rk::rk4_two_commutators>>(top, y_top, 0.5, n),
      observed_order<rkmk<su_n<3>, rk::rk4_two_commutators>>(fluid, y_fluid, 1.0, n),
      observed_order<rkmk<so_n<5>, rk::rk4_two_commutators>>(body5, y5, 1.0, n),
      observed_order<rkmk<structure_constants<3>, rk::rk4_two_commutators>>(body_c, y_c, 2.0, n),
  };
  for (double slope : s) {
    BOOST_TEST_MESSAGE("order 4: observed " << slope);
    BOOST_TEST(std::fabs(slope - 4) <= 0.25);
  }
}

namespace {
/// One step of RK4's two-commutator form (Munthe-Kaas–Owren) written out with the algebra's
/// own operations, F_i = h ∇H(y_i).
template <class System>
typename System::state_type two_commutator_step(const System& sys, const typename System::state_type& y0, double h) {
  const auto& a = geomint::detail::algebra_of(sys);
  using vec = typename System::state_type;
  auto f = [&](const vec& y) {
    vec g(y.size());
    sys.gradient(y, g);
    return vec(h * g);
  };
  const vec f1 = f(y0);
  const vec f2 = f(a.exp_coadjoint(vec(f1 / 2), y0));
  const vec f3 = f(a.exp_coadjoint(vec(f2 / 2 - a.bracket(f1, f2) / 8), y0));
  const vec f4 = f(a.exp_coadjoint(f3, y0));
  return a.exp_coadjoint(vec((f1 + 2 * f2 + 2 * f3 + f4) / 6 - a.bracket(f1, f4) / 12), y0);
}
}  // namespace

BOOST_AUTO_TEST_CASE(rk4_two_commutators_is_the_published_scheme_and_differs_from_rkmk_rk4_at_order_five) {
  // The step equals the formulas of Munthe-Kaas–Owren written out with the algebra's operations
  // (so3's specialised action; su(3)'s matrix one) to a few ulps; it is another method than
  // rkmk<rk::rk4> (dexp⁻¹ per stage): one-step difference O(h⁵), ratio 2⁵ = 32 on halving h.
  const problems::free_rigid_body body;
  const problems::sine_euler<3> fluid;
  const vector<3> y_body = problems::free_rigid_body::engo_faltinsen_initial_state();
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  auto one_step = [](auto stepper, const auto& sys, auto y, double h) {
    stepper.do_step(sys, y, 0.0, h);
    return y;
  };
  for (double h : {0.1, 0.3}) {
    const vector<3> a = one_step(rkmk<so3, rk::rk4_two_commutators>{}, body, y_body, h);
    BOOST_TEST((a - two_commutator_step(body, y_body, h)).norm() <= 4e-16 * y_body.norm(), h);
    const auto b = one_step(rkmk<su_n<3>, rk::rk4_two_commutators>{}, fluid, y_fluid, h);
    BOOST_TEST((b - two_commutator_step(fluid, y_fluid, h)).norm() <= 4e-16 * y_fluid.norm(), h);
  }
  double previous = 0;
  for (double h : {0.1, 0.05, 0.025}) {
    const double d = (one_step(rkmk<so3, rk::rk4_two_commutators>{}, body, y_body, h) -
                      one_step(rkmk<so3, rk::rk4>{}, body, y_body, h)).norm();
    BOOST_TEST_MESSAGE("h = " << h << ": two commutators - dexp^-1 per stage = " << d);
    if (previous > 0) BOOST_TEST((previous / d >= 24 && previous / d <= 40), previous / d);
    previous = d;
  }
}

BOOST_AUTO_TEST_CASE(discrete_gradient_is_second_order) {
  const problems::free_rigid_body body;
  const problems::heavy_top_se3 top;
  const quartic_rigid_body quartic;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  const std::vector<int> n = {20, 40, 80, 160};
  const double s[] = {
      observed_order<lie_discrete_gradient<so3>>(body, y0, 2.0, n),
      observed_order<lie_discrete_gradient<so3, cayley_coordinates>>(body, y0, 2.0, n),
      observed_order<lie_discrete_gradient<se3>>(top, problems::heavy_top_se3::engo_faltinsen_initial_state(), 0.5, n),
      observed_order<lie_discrete_gradient<so3, exp_coordinates, gonzalez_gradient>>(quartic, y0, 2.0, n),
  };
  for (double slope : s) BOOST_TEST(std::fabs(slope - 2) <= 0.25);
}

BOOST_AUTO_TEST_CASE(gonzalez_gradient_conserves_a_non_quadratic_energy) {
  // For H with a quartic term the trapezoidal average is no discrete gradient and the energy
  // moves (≥ 1e-6 here); Gonzalez's discrete gradient keeps it to round-off (1e4 steps: ~1e-14).
  const quartic_rigid_body body;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  lie_discrete_gradient<so3, exp_coordinates, gonzalez_gradient> gonzalez;
  lie_discrete_gradient<so3, cayley_coordinates, gonzalez_gradient> gonzalez_cay;
  lie_discrete_gradient<so3> trapezoidal;
  BOOST_TEST(energy_drift(gonzalez, body, y0, 0.1, 10000) <= 3e-14);
  BOOST_TEST(energy_drift(gonzalez_cay, body, y0, 0.1, 10000) <= 3e-14);
  BOOST_TEST(energy_drift(trapezoidal, body, y0, 0.1, 10000) >= 1e-6);

  // The same on se(3)* (its Hessian shapes Newton's matrix only): Gonzalez to round-off, the trapezoidal average
  // (a discrete gradient for quadratic H only) drifts.
  const anharmonic_heavy_top top;
  const auto y_top = problems::heavy_top_se3::engo_faltinsen_initial_state();
  lie_discrete_gradient<se3, exp_coordinates, gonzalez_gradient> top_gonzalez;
  lie_discrete_gradient<se3, cayley_coordinates, gonzalez_gradient> top_gonzalez_cay;
  lie_discrete_gradient<se3> top_trapezoidal;
  const double g = energy_drift(top_gonzalez, top, y_top, 0.05, 10000), gc = energy_drift(top_gonzalez_cay, top, y_top, 0.05, 10000),
               tr = energy_drift(top_trapezoidal, top, y_top, 0.05, 10000);
  BOOST_TEST_MESSAGE("anharmonic heavy top: energy drift Gonzalez " << g << " / " << gc << ", trapezoidal " << tr);
  // Round-off only: each step solves for the discrete gradient to ~10ε relative, so over 1e4 steps
  // the energy walks randomly by ~√1e4 · 10ε ≈ 2e-13 at most (measured 1e-14 at -O1, 4e-14 at
  // -Og); a Newton tolerance of 1e-8 would move it by ≥ 1e-9.
  BOOST_TEST(g <= 2e-13);
  BOOST_TEST(gc <= 2e-13);
  BOOST_TEST(tr >= 1e-6);
}

BOOST_AUTO_TEST_CASE(energy_bounded_for_gl2_exp_and_drifting_for_gl2_cayley_and_heun) {
  // Engø–Faltinsen §6.1 (Fig. 3): GL2 in exponential coordinates is self-adjoint and its energy
  // error stays in a band; GL2 in Cayley coordinates and Heun's method drift linearly. Compared
  // as max |H − H₀| over [0, T] and [0, 10T], T = 25, h = 0.1: a band gives a ratio near 1, a
  // linear drift a ratio near 10.
  const problems::free_rigid_body body;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  auto ratio = [&](auto stepper) {
    auto copy = stepper;
    return energy_drift(copy, body, y0, 0.1, 2500) / energy_drift(stepper, body, y0, 0.1, 250);
  };
  const double gl2_exp = ratio(rkmk<so3, rk::implicit_midpoint, exp_coordinates>{});
  const double gl2_cay = ratio(rkmk<so3, rk::implicit_midpoint, cayley_coordinates>{});
  const double heun_exp = ratio(rkmk<so3, rk::heun, exp_coordinates>{});
  const double heun_cay = ratio(rkmk<so3, rk::heun, cayley_coordinates>{});
  BOOST_TEST_MESSAGE("energy error ratio [0,10T]/[0,T]: GL2 exp " << gl2_exp << ", GL2 Cayley " << gl2_cay
                                                                  << ", Heun exp " << heun_exp << ", Heun Cayley "
                                                                  << heun_cay);
  BOOST_TEST(gl2_exp <= 1.5);
  BOOST_TEST(gl2_cay >= 5);
  BOOST_TEST(heun_exp >= 5);
  BOOST_TEST(heun_cay >= 5);
}

BOOST_AUTO_TEST_CASE(rkmk_trapezoidal_is_the_discrete_gradient_method) {
  // With q = 0 the RKMK trapezoidal rule solves σ = (h/2)(∇H(y₀) + ∇H(y₁)): the same map as
  // lie_discrete_gradient, both solved to round-off (agreement to 1e-13 after 100 steps).
  const problems::free_rigid_body body;
  const auto y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  vector<3> a = y0, b = y0, c = y0, d = y0;
  rkmk<so3, rk::trapezoidal> r;
  lie_discrete_gradient<so3> g;
  rkmk<so3, rk::trapezoidal, cayley_coordinates> rc;
  lie_discrete_gradient<so3, cayley_coordinates> gc;
  for (int k = 0; k < 100; ++k) {
    r.do_step(body, a, 0.1 * k, 0.1);
    g.do_step(body, b, 0.1 * k, 0.1);
    rc.do_step(body, c, 0.1 * k, 0.1);
    gc.do_step(body, d, 0.1 * k, 0.1);
  }
  BOOST_TEST((a - b).norm() <= 1e-13);
  BOOST_TEST((c - d).norm() <= 1e-13);
  BOOST_TEST((a - c).norm() >= 1e-6);  // the coordinates do matter
}

BOOST_AUTO_TEST_CASE(frozen_and_exact_jacobians_solve_the_same_equation) {
  // (5.28) at the iterate and the frozen Dg(0) of §5.3 converge to the same σ (to round-off); the
  // frozen matrix is refreshed once per step and needs more iterations.
  const problems::heavy_top_se3 top;
  const auto y0 = problems::heavy_top_se3::engo_faltinsen_initial_state();
  auto frozen = lie_discrete_gradient<se3>::default_options();
  frozen.jacobian = lie_jacobian::frozen;
  lie_discrete_gradient<se3> exact_stepper, frozen_stepper(frozen);
  vector<6> a = y0, b = y0;
  for (int k = 0; k < 200; ++k) {
    exact_stepper.do_step(top, a, 0.1 * k, 0.1);
    frozen_stepper.do_step(top, b, 0.1 * k, 0.1);
  }
  BOOST_TEST((a - b).norm() <= 1e-12 * a.norm());
  const auto& se = exact_stepper.statistics().newton;
  const auto& sf = frozen_stepper.statistics().newton;
  BOOST_TEST_MESSAGE("Newton iterations per step: exact " << double(se.iterations) / 200 << ", frozen "
                                                          << double(sf.iterations) / 200);
  // Newton with (5.28) converges quadratically: from σ⁰ = h∇H(y₀) (relative error O(h) ~ 0.1)
  // the errors go 1e-2, 1e-4, 1e-8, 1e-16, and one more increment confirms round-off: at most 5
  // iterations per step; the frozen matrix contracts linearly.
  BOOST_TEST(se.iterations < sf.iterations);
  BOOST_TEST(se.iterations <= 5 * 200);
  BOOST_TEST(sf.jacobian_updates == 200);
  // Exact mode is full Newton by request: (5.28) at the guess and at every iterate but the
  // accepted one, with no fallback counted (a fallback is a frozen matrix that failed).
  BOOST_TEST(se.jacobian_updates == se.iterations);
  BOOST_TEST(se.full_newton_fallbacks == 0);
}

// ---- bad input ----

BOOST_AUTO_TEST_CASE(newton_failure_throws_step_error_and_leaves_y_unchanged) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  lie_options few;
  few.newton.max_iterations = 1;  // one iteration cannot reach round-off
  lie_discrete_gradient_options few_dg;
  few_dg.newton.max_iterations = 1;
  auto check = [&](auto stepper) {
    vector<3> y = y0;
    try {
      stepper.do_step(body, y, 0.0, 0.1);
      BOOST_ERROR("expected step_error");
    } catch (const step_error& e) {
      BOOST_TEST((e.reason() == failure_reason::max_iterations));
      BOOST_TEST(e.step_size() == 0.1);
      BOOST_TEST(std::string(e.what()).find("max_iterations") != std::string::npos);
    }
    BOOST_TEST((y.array() == y0.array()).all());
  };
  check(rkmk<so3, rk::implicit_midpoint>(few));
  check(rkmk<so3, rk::trapezoidal, cayley_coordinates>(few));
  check(lie_discrete_gradient<so3>(few_dg));
}

// A NaN in ∇H, or in D²H (which only Newton's matrix uses), is a non-finite value, not a
// singular matrix; the state is left as it was.
BOOST_AUTO_TEST_CASE(non_finite_derivatives_throw_step_error_and_leave_y_unchanged) {
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  for (bool in_hessian : {false, true}) {
    poisoned_rigid_body body;
    body.poisoned = !in_hessian;
    body.poisoned_hessian = in_hessian;
    auto check = [&](auto stepper) {
      vector<3> y = y0;
      try {
        stepper.do_step(body, y, 0.0, 0.1);
        BOOST_ERROR("expected step_error");
      } catch (const step_error& e) {
        BOOST_TEST((e.reason() == failure_reason::non_finite_value), e.what());
      }
      BOOST_TEST((y.array() == y0.array()).all());
    };
    BOOST_TEST_CONTEXT((in_hessian ? "D²H" : "∇H") << " not finite") {
      if (!in_hessian) check(rkmk<so3, rk::rk4>());
      check(rkmk<so3, rk::implicit_midpoint>());
      check(rkmk<so3, rk::gauss_legendre<2>, cayley_coordinates>());
      check(lie_discrete_gradient<so3>());
      check(lie_discrete_gradient<so3, cayley_coordinates>());
    }
  }
}

// The Lie–Poisson leapfrog and Moser–Veselov with a gradient that turns NaN inside the step
// (after the fresh start's checks at the state): non_finite_value, as in every other stepper —
// the leapfrog's series f(−ad*_w) then fails to converge, which is not a divergence of the step.
struct late_poisoned_rigid_body : problems::free_rigid_body {
  mutable int calls = 0;
  int poison_after = 0;
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const {
    free_rigid_body::gradient(y, out);
    if (++calls > poison_after) out(0) = std::numeric_limits<double>::quiet_NaN();
  }
};

BOOST_AUTO_TEST_CASE(a_nan_from_the_model_inside_a_step_is_a_non_finite_value) {
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  for (int after : {0, 5}) {  // at the fresh start's linearity check, or inside the iteration (5 checks)
    late_poisoned_rigid_body body;
    body.poison_after = after;
    vector<3> y = y0;
    try {
      lie_poisson_leapfrog<so3>().do_step(body, y, 0.0, 0.1);
      BOOST_ERROR("expected step_error");
    } catch (const step_error& e) {
      BOOST_TEST((e.reason() == failure_reason::non_finite_value), e.what());
    }
    BOOST_TEST((y.array() == y0.array()).all());
  }
}

BOOST_AUTO_TEST_CASE(wrong_state_size_is_rejected_with_a_clear_message) {
  const problems::free_rigid_body body;
  Eigen::VectorXd y = Eigen::VectorXd::Ones(4);
  rkmk<so3, rk::rk4> stepper;
  try {
    stepper.do_step(body, y, 0.0, 0.1);
    BOOST_ERROR("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("has 4 entries") != std::string::npos);
    BOOST_TEST(what.find("so3 has dimension 3") != std::string::npos);
  }
  BOOST_TEST((y.array() == 1).all());
  std::vector<double> z(5, 1.0);
  lie_discrete_gradient<se3> dg;
  BOOST_CHECK_THROW(dg.do_step(problems::heavy_top_se3{}, z, 0.0, 0.1), std::invalid_argument);
  // The right size in a std::vector or std::array works.
  std::vector<double> w = {0.875, 0.625, 0.25};
  std::array<double, 3> v = {0.875, 0.625, 0.25};
  stepper.do_step(body, w, 0.0, 0.1);
  stepper.do_step(body, v, 0.0, 0.1);
  BOOST_TEST(std::fabs(w[0] - v[0]) == 0);
}

// ---- odeint, allocations ----

BOOST_AUTO_TEST_CASE(rkmk_runs_under_odeint_integrate_const) {
  namespace odeint = boost::numeric::odeint;
  const problems::free_rigid_body body;
  vector<3> a = problems::free_rigid_body::engo_faltinsen_initial_state(), b = a;
  const std::size_t steps = odeint::integrate_const(rkmk<so3, rk::rk4>{}, std::cref(body), a, 0.0, 1.0, 0.1);
  rkmk<so3, rk::rk4> manual;
  for (int k = 0; k < 10; ++k) manual.do_step(body, b, 0.1 * k, 0.1);
  BOOST_TEST(steps == 10u);
  BOOST_TEST((a - b).norm() <= 1e-15);
}

BOOST_AUTO_TEST_CASE(no_heap_allocation_after_the_first_step_for_fixed_size_algebras) {
  const problems::free_rigid_body rb;
  const problems::heavy_top_se3 top;
  const problems::sine_euler<3> fluid;
  const problems::rigid_body_so_n<5> body5;
  const rigid_body_on_constants rbc;
  const auto y_rb = problems::free_rigid_body::engo_faltinsen_initial_state();
  const auto y_top = problems::heavy_top_se3::engo_faltinsen_initial_state();
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  const auto y5 = problems::rigid_body_so_n<5>::initial_state();
  auto frozen = lie_discrete_gradient<se3, cayley_coordinates>::default_options();
  frozen.jacobian = lie_jacobian::frozen;
  const long counts[] = {
      allocations_after_first_step(rkmk<so3, rk::rk4>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(rkmk<so3, rk::rk4_two_commutators>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(rkmk<so3, rk::implicit_midpoint, cayley_coordinates>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(rkmk<so3, rk::trapezoidal>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(rkmk<se3, rk::rk4, cayley_coordinates>{}, top, y_top, 0.0, 0.1),
      allocations_after_first_step(rkmk<se3, rk::gauss_legendre<2>>{}, top, y_top, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<3>, rk::rk4>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<3>, rk::rk4_two_commutators>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<3>, rk::implicit_midpoint, cayley_coordinates>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<so_n<5>, rk::rk4, cayley_coordinates>{}, body5, y5, 0.0, 0.1),
      allocations_after_first_step(rkmk<so_n<5>, rk::trapezoidal>{}, body5, y5, 0.0, 0.1),
      allocations_after_first_step(rkmk<structure_constants<3>, rk::rk4>{}, rbc, y_rb, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<so3>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<se3, cayley_coordinates>{frozen}, top, y_top, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<su_n<3>>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<so_n<5>, cayley_coordinates>{}, body5, y5, 0.0, 0.1),
      allocations_after_first_step(moser_veselov<so3>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(moser_veselov<se3>{}, top, y_top, 0.0, 0.1),
      allocations_after_first_step(moser_veselov<so_n<5>>{}, body5, y5, 0.0, 0.1),
      allocations_after_first_step(lie_poisson_leapfrog<so3>{}, rb, y_rb, 0.0, 0.1),
      allocations_after_first_step(lie_poisson_leapfrog<su_n<3>>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(lie_poisson_leapfrog<so_n<5>>{}, body5, y5, 0.0, 0.1),
  };
  for (long c : counts) BOOST_TEST(c == 0);
}

// Algebras of dimension up to 256 keep their elements in fixed-size vectors (algebra.hpp) and
// their d × d operators on the heap above 32: su(7) (d = 48) and so(9) (d = 36) allocate
// nothing after the first step either — the explicit and implicit RKMK steps (Newton's matrix
// assembled into the stepper's own), the discrete gradient (its exact Jacobian, dexp⁻¹'s matrix
// included, rebuilt in every iteration), Moser–Veselov and the leapfrog.
BOOST_AUTO_TEST_CASE(no_heap_allocation_after_the_first_step_up_to_dimension_256) {
  BOOST_TEST_REQUIRE(geomint::diagnostics::counting_includes_malloc());
  const problems::sine_euler<7> fluid;
  const problems::rigid_body_so_n<9> body;
  const auto y_fluid = problems::sine_euler<7>::random_initial_state();
  const auto y_body = problems::rigid_body_so_n<9>::initial_state();
  static_assert(su_n<7>::dimension == 48 && so_n<9>::dimension == 36, "fixed-size elements");
  const long counts[] = {
      allocations_after_first_step(rkmk<su_n<7>, rk::rk4>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<7>, rk::rk4_two_commutators>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<7>, rk::implicit_midpoint, cayley_coordinates>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<su_n<7>, rk::gauss_legendre<2>>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<su_n<7>>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(lie_poisson_leapfrog<su_n<7>>{}, fluid, y_fluid, 0.0, 0.1),
      allocations_after_first_step(rkmk<so_n<9>, rk::rk4, cayley_coordinates>{}, body, y_body, 0.0, 0.1),
      allocations_after_first_step(lie_discrete_gradient<so_n<9>, cayley_coordinates>{}, body, y_body, 0.0, 0.1),
      allocations_after_first_step(moser_veselov<so_n<9>>{}, body, y_body, 0.0, 0.1),
      allocations_after_first_step(lie_poisson_leapfrog<so_n<9>>{}, body, y_body, 0.0, 0.1),
  };
  for (long c : counts) BOOST_TEST(c == 0);
}

// The matrix-free stage solver (lie_stage_solver::fixed_point) solves the same stage equations
// as simplified Newton, both to about one ulp of the stage slopes: the steps agree to a few
// ulps. 1e-14 relative leaves room for ~50 ulps of differing rounding.
BOOST_AUTO_TEST_CASE(fixed_point_stage_solver_matches_newton) {
  lie_options newton, fixed;
  newton.stage_solver = lie_stage_solver::newton;
  fixed.stage_solver = lie_stage_solver::fixed_point;
  auto agree = [](auto a, auto b, const auto& sys, auto y0, double h) {
    auto ya = y0, yb = y0;
    for (int k = 0; k < 10; ++k) {
      a.do_step(sys, ya, k * h, h);
      b.do_step(sys, yb, k * h, h);
    }
    BOOST_TEST(b.statistics().fixed_point.iterations > 0);        // the fixed point ran
    BOOST_TEST(b.statistics().newton.iterations == 0);  // and Newton did not
    return (ya - yb).cwiseAbs().maxCoeff() / ya.cwiseAbs().maxCoeff();
  };
  const problems::free_rigid_body body;
  const vector<3> yb = problems::free_rigid_body::engo_faltinsen_initial_state();
  BOOST_TEST(agree(rkmk<so3, rk::implicit_midpoint>(newton), rkmk<so3, rk::implicit_midpoint>(fixed), body, yb, 0.1) <= 1e-14);
  BOOST_TEST(agree(rkmk<so3, rk::trapezoidal, cayley_coordinates>(newton),
                   rkmk<so3, rk::trapezoidal, cayley_coordinates>(fixed), body, yb, 0.1) <= 1e-14);
  BOOST_TEST(agree(rkmk<so3, rk::gauss_legendre<2>>(newton), rkmk<so3, rk::gauss_legendre<2>>(fixed), body, yb, 0.1) <= 1e-14);
  const problems::sine_euler<3> fluid;
  const auto yf = problems::sine_euler<3>::random_initial_state();
  BOOST_TEST(agree(rkmk<su_n<3>, rk::implicit_midpoint, cayley_coordinates>(newton),
                   rkmk<su_n<3>, rk::implicit_midpoint, cayley_coordinates>(fixed), fluid, yf, 0.02) <= 1e-14);
}

// su(15) (dynamic-size matrices, double-precision actions): GL2 in Cayley coordinates with
// fixed-point stages against Newton, and its Casimirs tr(Wᵏ)/N over 20 steps. Each step rounds
// the state once, perturbing C_k by ~ε·N·scale_k (products of N × N matrices); 20 steps stay
// well below 1e-13 (measured ~1e-15).
BOOST_AUTO_TEST_CASE(fixed_point_gl2_on_su15_keeps_casimirs) {
  const problems::sine_euler<15> fluid;
  const auto& a = fluid.algebra();
  auto y = problems::sine_euler<15>::random_initial_state(3);
  lie_options newton, fixed;
  newton.stage_solver = lie_stage_solver::newton;
  fixed.stage_solver = lie_stage_solver::fixed_point;
  rkmk<su_n<15>, rk::implicit_midpoint, cayley_coordinates> fp(fixed), nt(newton);
  auto yn = y;
  const auto c0 = a.casimirs(y);
  const auto scale = a.casimir_scales(y);
  const double h = 0.01;
  for (int k = 0; k < 20; ++k) {
    fp.do_step(fluid, y, k * h, h);
    nt.do_step(fluid, yn, k * h, h);
  }
  BOOST_TEST((a.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff() <= 1e-13);
  BOOST_TEST((y - yn).cwiseAbs().maxCoeff() / y.cwiseAbs().maxCoeff() <= 1e-13);
  BOOST_TEST(fp.statistics().fixed_point.iterations < 20 * fixed.newton.max_iterations);
}

// su(17): the first size with dynamic matrices, where state ↔ matrix go through FFTs when the
// build has FFTW (su_n::uses_fft). (1) hermitian() against its definition entry by entry,
// W_{(j+m₂) mod N, j} = Σ_{m₁} ω_m ε^{m₁(2j+m₂)} over m and −m (ω_{−m} = ω_m*), summed directly;
// (2) coefficients() inverts it; (3) the prepared Cayley action of an implicit RKMK step equals
// cayley_coadjoint_double. Each side rounds sums of ≤ N² terms of size ≤ max|x| (or products of
// N × N matrices of norm ~1), an error ≲ N ε ≈ 4e-15 relative; bound 1e-13.
BOOST_AUTO_TEST_CASE(su17_matrix_of_a_state_and_prepared_cayley_action) {
  constexpr int N = 17;
  const problems::sine_euler<N> fluid;
  const su_n<N>& a = fluid.algebra();
  const auto x = problems::sine_euler<N>::random_initial_state(7);
  const double two_pi = 6.283185307179586476925286766559;
  Eigen::MatrixXcd w = Eigen::MatrixXcd::Zero(N, N);
  for (int i = 0; i < su_n<N>::mode_count; ++i) {
    const auto m = a.modes()[i];
    for (int sign : {1, -1}) {
      const std::complex<double> om(x(2 * i), sign * x(2 * i + 1));
      const int m1 = sign * m.m1, m2 = sign * m.m2;
      for (int j = 0; j < N; ++j)
        w((((j + m2) % N) + N) % N, j) += om * std::polar(1.0, two_pi * double(m1 * (2 * j + m2)) / N);
    }
  }
  const double scale = x.cwiseAbs().maxCoeff();
  BOOST_TEST((a.hermitian(x) - w).cwiseAbs().maxCoeff() / (N * scale) <= 1e-13);
  BOOST_TEST((a.coefficients(a.hermitian(x)) - x).cwiseAbs().maxCoeff() / scale <= 1e-13);

  // The same changes of basis into the caller's matrices and vectors (what steppers use).
  su_n<N>::basis_buffers buffers;
  su_n<N>::matrix_type w_into;
  su_n<N>::vector_type x_into(a.dim());
  a.hermitian(x, w_into, buffers);
  a.coefficients_of_lower(w_into, x_into, buffers);
  BOOST_TEST((w_into - w).cwiseAbs().maxCoeff() / (N * scale) <= 1e-13);
  BOOST_TEST((x_into - x).cwiseAbs().maxCoeff() / scale <= 1e-13);

  su_n<N>::cayley_action act;
  act.prepare(a, x);
  const auto sigma = (0.05 * problems::sine_euler<N>::random_initial_state(8)).eval();
  const auto expected = a.cayley_coadjoint_double(sigma, x);
  su_n<N>::vector_type y(a.dim());
  act.stage(a, sigma, y);
  BOOST_TEST((y - expected).cwiseAbs().maxCoeff() / scale <= 1e-13);
  act.act(a, sigma, y);
  BOOST_TEST((y - expected).cwiseAbs().maxCoeff() / scale <= 1e-13);
  // Stage points close to the last one, as the sweeps of a fixed-point iteration make them, are
  // corrections of it (lie/detail/cayley_congruence.hpp), here one in double precision (a change
  // of 2e-10) and one in single precision (1e-14): the same action to the same bound (a wrong
  // correction would be off by ~ the first change, ~1e-9 relative, 1e4 times the bound).
  auto near = sigma;
  for (double change : {2e-10, 1e-14}) {
    near += change * problems::sine_euler<N>::random_initial_state(9);
    act.stage(a, near, y);
    BOOST_TEST((y - a.cayley_coadjoint_double(near, x)).cwiseAbs().maxCoeff() / scale <= 1e-13);
  }
  BOOST_TEST(act.double_corrections() == 1);
  BOOST_TEST(act.single_corrections() == 2);  // act(σ) at the last stage point, then the 1e-14
}

// The fixed point starts from stages extrapolated from the previous step when the state
// continues it with the same h: it must reach the same stages (both iterate to round-off, so
// 20 steps agree to ~ε·N per step; bound 1e-13 as above) in fewer iterations than the
// ∇H(y₀) start that reset() forces, and a state changed between steps must not reuse them.
BOOST_AUTO_TEST_CASE(fixed_point_extrapolated_start_saves_iterations_and_changes_nothing) {
  const problems::sine_euler<15> fluid;
  const auto y0 = problems::sine_euler<15>::random_initial_state(5);
  lie_options fixed;
  fixed.stage_solver = lie_stage_solver::fixed_point;
  rkmk<su_n<15>, rk::implicit_midpoint, cayley_coordinates> continued(fixed), restarted(fixed);
  auto yc = y0, yr = y0;
  const double h = 0.01;
  for (int k = 0; k < 20; ++k) {
    continued.do_step(fluid, yc, k * h, h);
    restarted.reset();
    restarted.do_step(fluid, yr, k * h, h);
  }
  BOOST_TEST((yc - yr).cwiseAbs().maxCoeff() / yr.cwiseAbs().maxCoeff() <= 1e-13);
  BOOST_TEST_MESSAGE("fixed-point iterations in 20 steps: extrapolated " << continued.statistics().fixed_point.iterations
                                                                         << ", restarted " << restarted.statistics().fixed_point.iterations);
  BOOST_TEST(continued.statistics().fixed_point.iterations < restarted.statistics().fixed_point.iterations);
  // A state that is not the previous step's end point: the same step as from a fresh stepper.
  auto ya = yc, yb = yc;
  ya(0) += 1e-3;
  yb(0) += 1e-3;
  continued.do_step(fluid, ya, 0.0, h);
  restarted.reset();
  restarted.do_step(fluid, yb, 0.0, h);
  BOOST_TEST((ya.array() == yb.array()).all());
}

BOOST_AUTO_TEST_CASE(diverging_fixed_point_throws_step_error_and_leaves_y_unchanged) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  lie_options fixed;
  fixed.stage_solver = lie_stage_solver::fixed_point;
  rkmk<so3, rk::implicit_midpoint> stepper(fixed);
  vector<3> y = y0;
  BOOST_CHECK_THROW(stepper.do_step(body, y, 0.0, 20.0), step_error);  // contraction ~ h‖D²H J‖ ≫ 1
  BOOST_TEST((y.array() == y0.array()).all());
}
