// composition<Base, Scheme>: the schemes' order conditions to full double precision, the stage
// times, failure handling, any odeint stepper as base, allocation.
#define BOOST_TEST_MODULE compose
#include <boost/test/unit_test.hpp>

#include <Eigen/Dense>
#include <array>
#include <boost/numeric/odeint/integrate/integrate_n_steps.hpp>
#include <boost/numeric/odeint/stepper/velocity_verlet.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/reversibility.hpp"

using namespace geomint;

namespace {

// ---- Order conditions ------------------------------------------------------------------------
// A generic symmetric method of order 2 is Φ_h = exp(hA + h³B + h⁵C + h⁷D) (a symmetric method
// has only odd powers in its modified vector field), here with fixed, generic (non-commuting)
// 5 × 5 matrices. The composition Ψ_h = Φ_{γ_s h} ⋯ Φ_{γ_1 h} has log Ψ_h = Σ_k h^k L_k, and it
// has order p exactly when L_1 = A and L_k = 0 for 2 ≤ k ≤ p. For generic matrices the L_k are
// independent combinations of all the order conditions of symmetric compositions (McLachlan
// 1995; Hairer–Lubich–Wanner §V.3.2), so this checks every condition up to order 8 at once.
// Truncated power series in h with long double matrix coefficients (64-bit mantissa) make the
// check exact up to the rounding of the coefficients themselves.
using mat = Eigen::Matrix<long double, 5, 5>;
constexpr int degree = 10;  // coefficients of h⁰ … h⁹
using series = std::array<mat, degree>;

series zero_series() {
  series s;
  for (auto& m : s) m.setZero();
  return s;
}
series multiply(const series& a, const series& b) {
  series c = zero_series();
  for (int i = 0; i < degree; ++i)
    for (int j = 0; i + j < degree; ++j) c[i + j].noalias() += a[i] * b[j];
  return c;
}
/// exp of a series without constant term.
series exponential(const series& x) {
  series result = zero_series(), term = zero_series();
  result[0].setIdentity();
  term[0].setIdentity();
  for (int k = 1; k < degree; ++k) {
    term = multiply(term, x);
    for (auto& m : term) m /= static_cast<long double>(k);
    for (int i = 0; i < degree; ++i) result[i] += term[i];
  }
  return result;
}
/// log of a series with constant term I.
series logarithm(const series& s) {
  series y = s;
  y[0].setZero();
  series result = zero_series(), power = y;
  for (int k = 1; k < degree; ++k) {
    const long double sign = (k % 2) ? 1.0L : -1.0L;
    for (int i = 0; i < degree; ++i) result[i] += sign / k * power[i];
    power = multiply(power, y);
  }
  return result;
}
mat generic_matrix(int seed) {
  mat m;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) m(i, j) = 0.35L * std::sin(1.0L + seed * 1.7L + 2.3L * i + 3.1L * j * j);
  return m;
}
/// max |L_k| entries for k = 1..9 (L_1 − A for k = 1).
template <std::size_t S>
std::array<long double, degree> log_coefficients(const std::array<double, S>& gamma) {
  const mat a = generic_matrix(1), b = generic_matrix(2), c = generic_matrix(3), d = generic_matrix(4);
  series psi = zero_series();
  psi[0].setIdentity();
  for (double g : gamma) {  // Ψ ← Φ_{γh} Ψ
    const long double y = g;
    series x = zero_series();
    x[1] = y * a;
    x[3] = y * y * y * b;
    x[5] = std::pow(y, 5) * c;
    x[7] = std::pow(y, 7) * d;
    psi = multiply(exponential(x), psi);
  }
  const series l = logarithm(psi);
  std::array<long double, degree> out{};
  out[1] = (l[1] - a).cwiseAbs().maxCoeff();
  for (int k = 2; k < degree; ++k) out[k] = l[k].cwiseAbs().maxCoeff();
  return out;
}

/// The order conditions hold to round-off: rounding the coefficients to double (|δγ| ≤ 1.1e-16|γ|)
/// perturbs e.g. Σγ³ by ≤ 3Σ|γ|³·1.1e-16 ≈ 2.4e-15 for the triple jump (|γ| up to 1.7), times
/// the matrix entries (≤ 0.35): tolerance 2e-15 (measured 3e-17 … 5e-16). The next coefficient
/// L_{p+1} is clearly nonzero (measured 1e-4 … 1.8; asserted > 1e-6): the order is exactly p.
template <class Scheme>
void check_order_conditions() {
  BOOST_TEST_CONTEXT(Scheme::order << "th order, " << Scheme::stages << " stages") {
    const auto& g = Scheme::coefficients;
    BOOST_TEST(g.size() == Scheme::stages);
    for (std::size_t i = 0; i < g.size(); ++i) BOOST_TEST(g[i] == g[g.size() - 1 - i]);  // palindrome
    long double sum = 0;
    for (double x : g) sum += x;
    BOOST_TEST(std::fabs(static_cast<double>(sum - 1)) < 4e-16);
    const auto l = log_coefficients(g);
    long double worst = 0;
    for (int k = 1; k <= Scheme::order; ++k) worst = std::max(worst, l[k]);
    BOOST_TEST_MESSAGE("order conditions, p = " << Scheme::order << ", s = " << Scheme::stages << ": max |L_k| (k ≤ p) = "
                                                << static_cast<double>(worst) << ", |L_{p+1}| = "
                                                << static_cast<double>(l[Scheme::order + 1]));
    BOOST_TEST(static_cast<double>(worst) < 2e-15);
    BOOST_TEST(static_cast<double>(l[Scheme::order + 1]) > 1e-6);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(schemes_satisfy_their_order_conditions_to_round_off) {
  check_order_conditions<yoshida4>();
  check_order_conditions<suzuki4>();
  check_order_conditions<yoshida6>();
  check_order_conditions<kahan_li6>();
  check_order_conditions<kahan_li8>();
}

// The check can fail: a coefficient off by 1e-12 (kept palindromic, Σγ = 1 restored through
// the middle stage) violates Σγ³ = 0 by ~1e-12, visible in L_3.
BOOST_AUTO_TEST_CASE(perturbed_coefficients_fail_the_order_conditions) {
  std::array<double, 17> g = kahan_li8::coefficients;
  g[0] += 1e-12;
  g[16] += 1e-12;
  g[8] -= 2e-12;
  const auto l = log_coefficients(g);
  BOOST_TEST(static_cast<double>(l[3]) > 1e-13);
  BOOST_TEST(static_cast<double>(l[1]) < 1e-15);  // Σγ = 1 still holds
}

// The compile-time check (composition_order.hpp, a free-algebra computation independent of the
// matrix one above) finds each shipped scheme's order exactly: its own, not one more, and a
// palindrome.
template <class Scheme>
void check_compile_time_order() {
  constexpr composition_order_report r = composition_order(Scheme::coefficients);
  BOOST_TEST_CONTEXT(Scheme::order << "th order, " << Scheme::stages << " stages") {
    BOOST_TEST(r.order == Scheme::order);
    BOOST_TEST(r.palindrome);
    for (int k = 1; k <= Scheme::order; ++k) BOOST_TEST(r.residual[k] <= r.tolerance[k]);
    if (Scheme::order < max_checked_composition_order)
      BOOST_TEST(r.residual[Scheme::order + 1] > 1e3 * r.tolerance[Scheme::order + 1]);
  }
}

BOOST_AUTO_TEST_CASE(the_compile_time_check_finds_each_schemes_order) {
  check_compile_time_order<yoshida4>();
  check_compile_time_order<suzuki4>();
  check_compile_time_order<yoshida6>();
  check_compile_time_order<kahan_li6>();
  check_compile_time_order<kahan_li8>();
  // The 1e-12 perturbation above: order 2, its weight-3 residual six times its tolerance.
  std::array<double, 17> g = kahan_li8::coefficients;
  g[0] += 1e-12;
  g[16] += 1e-12;
  g[8] -= 2e-12;
  const composition_order_report r = composition_order(g);
  BOOST_TEST(r.order == 2);
  BOOST_TEST(r.residual[3] > 4 * r.tolerance[3]);
}

// The rows of the declared-but-wrong table that coefficients known only at run time reach through
// require_composition_order: each a std::invalid_argument naming the failed condition.
BOOST_AUTO_TEST_CASE(run_time_coefficients_are_checked_against_their_declared_order) {
  auto message = [](auto gamma, int order) -> std::string {
    try {
      require_composition_order(gamma, order);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const std::string typo = message(std::array<double, 3>{0.3, 0.5, 0.3}, 2);
  BOOST_TEST(typo.find("must sum to 1") != std::string::npos);
  BOOST_TEST(typo.find("1.1") != std::string::npos);
  BOOST_TEST(message(std::array<double, 3>{0.5, 0.3, 0.2}, 4).find("fails the order-3 conditions") != std::string::npos);
  BOOST_TEST(message(yoshida4::coefficients, 6).find("fails the order-5 conditions") != std::string::npos);
  BOOST_TEST(message(yoshida4::coefficients, 9).find("must be 1 … 8") != std::string::npos);
  BOOST_CHECK_NO_THROW(require_composition_order(std::array<double, 3>{0.5, 0.3, 0.2}, 2));
  BOOST_CHECK_NO_THROW(require_composition_order(kahan_li8::coefficients, 8));
}

// A consistent scheme that is no palindrome composes, at the order it reaches, and is not
// symmetric: its properties say so, and Φ₋ₕ∘Φₕ visibly differs from the identity (relative
// defect ~ h² for an order-2 non-symmetric method; measured 1e-3 at h = 0.1), where the
// palindromic triple jump stays at the solver's round-off.
namespace {
struct skewed_scheme {
  static constexpr int order = 2;
  static constexpr std::array<double, 3> coefficients{0.5, 0.3, 0.2};
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_non_palindromic_scheme_is_not_symmetric) {
  using skewed = composition<rattle<>, skewed_scheme>;
  using triple = composition<rattle<>, yoshida4>;
  static_assert(!properties_of<skewed>.symmetric() && properties_of<skewed>.order() == 2);
  static_assert(properties_of<triple>.symmetric());
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  const std::pair<Eigen::VectorXd, Eigen::VectorXd> x(x0.first, x0.second);
  const double skew = geomint::diagnostics::reversibility_defect(skewed(), sys, x, 0.0, 0.1);
  const double sym = geomint::diagnostics::reversibility_defect(triple(), sys, x, 0.0, 0.1);
  BOOST_TEST_MESSAGE("reversibility defects at h = 0.1: skewed " << skew << ", triple jump " << sym);
  BOOST_TEST(skew > 1e-5);
  BOOST_TEST(sym < 1e-11);
}

// ---- The composition machinery ------------------------------------------------------------
namespace {
struct recorded_stage {
  double t, dt;
};
/// A base stepper that records its calls (and moves a scalar state by dt), or fails on call k.
struct recording_stepper {
  using state_type = std::pair<std::array<double, 1>, std::array<double, 1>>;
  using time_type = double;
  using value_type = double;
  std::vector<recorded_stage>* log = nullptr;
  int fail_on_call = -1;
  int calls = 0;
  unsigned short order() const { return 2; }
  template <class System>
  void do_step(System&&, state_type& x, double t, double dt) {
    if (calls++ == fail_on_call) throw step_error(failure_reason::max_iterations, t, dt, 50, 1.0, "test failure");
    log->push_back({t, dt});
    x.first[0] += dt;
    x.second[0] *= 2;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(stages_run_at_the_right_times_with_the_scheme_coefficients) {
  std::vector<recorded_stage> log;
  composition<declared_symmetric<recording_stepper, 2>, kahan_li6> c(declared_symmetric<recording_stepper, 2>(recording_stepper{&log}));
  recording_stepper::state_type x{{0.0}, {1.0}};
  c.do_step(0, x, 2.0, 0.5);
  BOOST_TEST(log.size() == 9u);
  double t = 2.0;
  for (std::size_t i = 0; i < log.size(); ++i) {
    BOOST_TEST(log[i].t == t, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(log[i].dt == kahan_li6::coefficients[i] * 0.5, boost::test_tools::tolerance(1e-15));
    t += log[i].dt;
  }
  BOOST_TEST(x.first[0] == 0.5, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(c.order() == 6);
}

// A stage that fails throws the base's step_error and the state is restored to its value before
// the step, although earlier stages had changed it.
BOOST_AUTO_TEST_CASE(a_failing_stage_restores_the_state) {
  std::vector<recorded_stage> log;
  recording_stepper base{&log};
  base.fail_on_call = 2;
  composition<declared_symmetric<recording_stepper, 2>, yoshida4> c(declared_symmetric<recording_stepper, 2>{base});
  recording_stepper::state_type x{{0.25}, {3.0}};
  BOOST_CHECK_THROW(c.do_step(0, x, 0.0, 0.1), step_error);
  BOOST_TEST(log.size() == 2u);  // two stages had run
  BOOST_TEST(x.first[0] == 0.25);
  BOOST_TEST(x.second[0] == 3.0);
}

// Any odeint stepper with do_step(system, x, t, dt) is a base: Boost.Odeint's velocity Verlet on
// the harmonic oscillator x'' = −x, whose exact flow is known. Orders 4, 4, 6, 6, 8 (slope within
// 0.2; errors between 1e-3 and 1e-12), driven by odeint's own integrate_n_steps.
namespace {
using coor = std::array<double, 1>;
using verlet = boost::numeric::odeint::velocity_verlet<coor>;
struct oscillator {
  void operator()(const coor& x, const coor&, coor& a, double) const { a[0] = -x[0]; }
};
template <class Scheme>
double oscillator_order(std::initializer_list<int> counts) {
  const double T = 2.0;
  std::vector<double> h, err;
  for (int n : counts) {
    composition<declared_symmetric<verlet, 2>, Scheme> c;  // velocity Verlet is symmetric; odeint does not say so
    verlet::state_type x{{1.0}, {0.0}};
    boost::numeric::odeint::integrate_n_steps(c, oscillator(), x, 0.0, T / n, n);
    h.push_back(T / n);
    err.push_back(std::hypot(x.first[0] - std::cos(T), x.second[0] + std::sin(T)));
  }
  return geomint::diagnostics::loglog_slope(h, err);
}
}  // namespace

BOOST_AUTO_TEST_CASE(an_odeint_stepper_composes_to_the_scheme_order) {
  const double o4 = oscillator_order<yoshida4>({10, 20, 40, 80});
  const double s4 = oscillator_order<suzuki4>({10, 20, 40, 80});
  const double o6 = oscillator_order<yoshida6>({8, 12, 16, 24});
  const double k6 = oscillator_order<kahan_li6>({8, 12, 16, 24});
  const double k8 = oscillator_order<kahan_li8>({4, 6, 8, 12});
  BOOST_TEST_MESSAGE("velocity Verlet composed: orders " << o4 << " " << s4 << " " << o6 << " " << k6 << " " << k8);
  BOOST_TEST(std::fabs(o4 - 4) < 0.2);
  BOOST_TEST(std::fabs(s4 - 4) < 0.2);
  BOOST_TEST(std::fabs(o6 - 6) < 0.2);
  BOOST_TEST(std::fabs(k6 - 6) < 0.2);
  BOOST_TEST(std::fabs(k8 - 8) < 0.2);
}

// No allocation after the first step, also with run-time sized states (the backup copy of the
// state is assigned into storage of the same size).
BOOST_AUTO_TEST_CASE(no_allocation_after_the_first_step) {
  const problems::double_spherical_pendulum sys;
  using fixed = problems::double_spherical_pendulum::state_type;
  using dyn = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
  const fixed x0 = sys.initial_state();
  auto count = [&](auto stepper, auto x) {
    return geomint::diagnostics::allocations_after_first_step(stepper, sys, x, 0.0, 0.01, 10);
  };
  BOOST_TEST(count(composition<rattle<fixed>, kahan_li8>(), x0) == 0);
  BOOST_TEST(count(composition<rattle<dyn>, yoshida4>(), dyn(x0.first, x0.second)) == 0);
}
