// Composed constrained methods on the double spherical pendulum (Marsden–Wendlandt §7 data):
// observed orders 4, 6, 8 with the constraints held to round-off; the composed methods are
// symmetric and symplectic.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/symplecticity.hpp"

using namespace geomint;
using problems::double_spherical_pendulum;
using state = double_spherical_pendulum::state_type;

namespace {

/// Not a palindrome: Σγ = 1 but γ_1 ≠ γ_2.
struct lopsided {
  static constexpr int order = 2;
  static constexpr std::size_t stages = 2;
  static constexpr std::array<double, 2> coefficients{0.3, 0.7};
};

struct order_result {
  double order;
  double worst_residual;  ///< max scaled constraint residual over every step of every run
};

/// Slope of the endpoint error on [0, 1] against a kahan_li8 ∘ RATTLE reference with 400 steps
/// (its own error < 1e-13, below every error measured here).
template <class Stepper>
order_result composed_order(std::initializer_list<int> counts) {
  const double_spherical_pendulum sys;
  const state x0 = sys.initial_state();
  const double T = 1.0;
  state ref = x0;
  composition<rattle<state>, kahan_li8> r;
  for (int i = 0; i < 400; ++i) r.do_step(sys, ref, i * T / 400, T / 400);
  std::vector<double> h, err;
  double worst = 0;
  for (int n : counts) {
    Stepper stepper;
    state x = x0;
    for (int i = 0; i < n; ++i) {
      stepper.do_step(sys, x, i * T / n, T / n);
      const constraint_residuals res = constraint_residuals_of(sys, x.first, x.second);
      worst = std::fmax(worst, std::fmax(res.position, res.velocity));
    }
    h.push_back(T / n);
    err.push_back((x.first - ref.first).norm());
  }
  return {geomint::diagnostics::loglog_slope(h, err), worst};
}

/// Asserts the order within ±tol and constraint residuals ≤ 1e-12 (measured ≤ 1e-15: each
/// stage ends on the manifold to round-off).
template <class Stepper>
void check_order(const char* name, int expected, std::initializer_list<int> counts, double tol) {
  const order_result r = composed_order<Stepper>(counts);
  BOOST_TEST_MESSAGE(name << ": observed order " << r.order << ", max constraint residual " << r.worst_residual);
  BOOST_TEST(std::fabs(r.order - expected) < tol, name << ": order " << r.order);
  BOOST_TEST(r.worst_residual <= 1e-12, name << ": residual " << r.worst_residual);
}

}  // namespace

// Errors span 1e-3 … 1e-7 (order 4), 1e-4 … 1e-9 (order 6), 1e-8 … 1e-11 (order 8), in the
// asymptotic range (measured slopes 4.0, 6.0–6.1, 8.0–8.2); tolerance ±0.3.
BOOST_AUTO_TEST_CASE(observed_orders_4_6_8_with_constraints_to_round_off) {
  check_order<composition<rattle<state>, yoshida4>>("yoshida4 ∘ RATTLE", 4, {20, 40, 80, 160}, 0.3);
  check_order<composition<reich_symmetric<state>, suzuki4>>("suzuki4 ∘ Reich pair", 4, {20, 40, 80, 160}, 0.3);
  check_order<composition<rattle<state>, yoshida6>>("yoshida6 ∘ RATTLE", 6, {16, 20, 24, 32}, 0.3);
  check_order<composition<reich_symmetric<state>, kahan_li6>>("kahan_li6 ∘ Reich pair", 6, {16, 20, 24, 32}, 0.3);
  check_order<composition<rattle<state>, kahan_li8>>("kahan_li8 ∘ RATTLE", 8, {12, 16, 20, 24}, 0.3);
  check_order<composition<reich_symmetric<state>, kahan_li8>>("kahan_li8 ∘ Reich pair", 8, {12, 16, 20, 24}, 0.3);
}

// The composition of a symmetric method with palindromic coefficients is symmetric:
// Ψ_{−h} ∘ Ψ_h = id to round-off (17 stages each way; momenta fixed to ε‖q‖‖M‖/h_stage per
// stage ≈ 1e-13 relative; tolerance 1e-11).
BOOST_AUTO_TEST_CASE(composed_methods_are_symmetric) {
  const double_spherical_pendulum sys;
  const state x0 = sys.initial_state();
  auto defect = [&](auto stepper) {
    state x = x0;
    stepper.do_step(sys, x, 0.0, 0.05);
    stepper.do_step(sys, x, 0.05, -0.05);
    return std::fmax((x.first - x0.first).cwiseAbs().maxCoeff() / x0.first.cwiseAbs().maxCoeff(),
                     (x.second - x0.second).cwiseAbs().maxCoeff() / x0.second.cwiseAbs().maxCoeff());
  };
  const double d1 = defect(composition<rattle<state>, yoshida4>());
  const double d2 = defect(composition<reich_symmetric<state>, kahan_li8>());
  const double d3 = defect(composition<lobatto_iiia_iiib<3, state>, yoshida6>());
  BOOST_TEST_MESSAGE("symmetry defects " << d1 << " " << d2 << " " << d3);
  BOOST_TEST(d1 < 1e-11);
  BOOST_TEST(d2 < 1e-11);
  BOOST_TEST(d3 < 1e-11);
  // Control: non-palindromic coefficients give a non-symmetric method (Φ_{0.7h} ∘ Φ_{0.3h} has
  // the adjoint Φ_{0.3h} ∘ Φ_{0.7h}), and the check sees it.
  BOOST_TEST(defect(composition<reich_symmetric<state>, lopsided>()) > 1e-6);
}

// Symplecticity on the constraint manifold (central differences, step 1e-5; truncation ~1e-10,
// rounding ≈ 1e-9; tolerance 1e-7).
BOOST_AUTO_TEST_CASE(composed_methods_are_symplectic) {
  const double_spherical_pendulum sys;
  const state x0 = sys.initial_state();
  const Eigen::VectorXd q0 = x0.first, p0 = x0.second;
  auto defect = [&](auto stepper) {
    return geomint::diagnostics::manifold_map_symplecticity_defect(sys, q0, p0, [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      state x{q, p};
      auto s = stepper;
      s.do_step(sys, x, 0.0, 0.05);
      q = x.first;
      p = x.second;
    });
  };
  const double d1 = defect(composition<rattle<state>, yoshida4>());
  const double d2 = defect(composition<reich_symmetric<state>, kahan_li6>());
  const double d3 = defect(composition<reich_symmetric<state>, kahan_li8>());
  BOOST_TEST_MESSAGE("symplecticity defects " << d1 << " " << d2 << " " << d3);
  BOOST_TEST(d1 < 1e-7);
  BOOST_TEST(d2 < 1e-7);
  BOOST_TEST(d3 < 1e-7);
}
