// Tableau generators: Jay's conditions (2.10), symplecticity (2.11), order conditions.
#define BOOST_TEST_MODULE tableau
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

using namespace geomint;

namespace {
// Rounded to double, a tableau satisfies its algebraic conditions to a few ulps.
constexpr double tight = 1e-14;

/// Σ_i b_i c_i^{k−1} = 1/k for k = 1..K: the quadrature order of the weights.
template <int S>
double quadrature_defect(const vector<S>& b, const vector<S>& c, int k_max) {
  double worst = 0;
  for (int k = 1; k <= k_max; ++k) {
    double sum = 0;
    for (int i = 0; i < S; ++i) sum += b(i) * std::pow(c(i), k - 1);
    worst = std::fmax(worst, std::fabs(sum - 1.0 / k));
  }
  return worst;
}

template <int S>
void check_lobatto_pair() {
  BOOST_TEST_CONTEXT("S = " << S) {
    const partitioned_tableau<S>& t = lobatto_iiia_iiib_tableau<S>();
    const prk_condition_report r = check_prk_conditions(t);
    BOOST_TEST(r.first_position_row <= tight);
    BOOST_TEST(r.last_position_row <= tight);
    BOOST_TEST(r.last_momentum_column <= tight);
    BOOST_TEST(r.last_weight > 0.01);
    BOOST_TEST(r.coupling_pivot_ratio > 1e-3);
    BOOST_TEST(r.symplecticity <= tight);
    BOOST_TEST(r.jay_conditions(tight));
    // Lobatto quadrature is exact for degree 2S − 3.
    BOOST_TEST(quadrature_defect<S>(t.b, t.c(), 2 * S - 2) <= tight);
    BOOST_TEST(quadrature_defect<S>(t.b, t.c(), 2 * S - 1) > 1e-6);
    BOOST_TEST(t.order == 2 * S - 2);
    // IIIA is collocation at the Lobatto nodes: Σ_j â_ij = c_i, with c_1 = 0 and c_s = 1.
    BOOST_TEST(std::fabs(t.c()(0)) <= tight);
    BOOST_TEST(std::fabs(t.c()(S - 1) - 1) <= tight);
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(lobatto_pairs_satisfy_jay_and_symplecticity_for_2_to_6_stages) {
  check_lobatto_pair<2>();
  check_lobatto_pair<3>();
  check_lobatto_pair<4>();
  check_lobatto_pair<5>();
  check_lobatto_pair<6>();
}

BOOST_AUTO_TEST_CASE(rattle_is_table_1) {
  const partitioned_tableau<2>& t = rattle_tableau();
  matrix<2, 2> aq, ap;
  aq << 0, 0, 0.5, 0.5;
  ap << 0.5, 0, 0.5, 0;
  BOOST_TEST((t.aq - aq).cwiseAbs().maxCoeff() <= tight);
  BOOST_TEST((t.ap - ap).cwiseAbs().maxCoeff() <= tight);
  BOOST_TEST((t.b - vector<2>(0.5, 0.5)).cwiseAbs().maxCoeff() <= tight);
}

BOOST_AUTO_TEST_CASE(lobatto_three_stage_matches_the_closed_form) {
  // Lobatto IIIA/IIIB with S = 3 (Hairer–Wanner II, Tables IV.5.7 and IV.5.9).
  const partitioned_tableau<3>& t = lobatto_iiia_iiib_tableau<3>();
  matrix<3, 3> aq, ap;
  aq << 0, 0, 0, 5.0 / 24, 1.0 / 3, -1.0 / 24, 1.0 / 6, 2.0 / 3, 1.0 / 6;
  ap << 1.0 / 6, -1.0 / 6, 0, 1.0 / 6, 1.0 / 3, 0, 1.0 / 6, 5.0 / 6, 0;
  BOOST_TEST((t.aq - aq).cwiseAbs().maxCoeff() <= tight);
  BOOST_TEST((t.ap - ap).cwiseAbs().maxCoeff() <= tight);
}

BOOST_AUTO_TEST_CASE(symplectic_euler_has_b_s_zero_and_is_symplectic) {
  const partitioned_tableau<2> t = constrained_symplectic_euler_tableau();
  const prk_condition_report r = check_prk_conditions(t);
  BOOST_TEST(r.jay_conditions(tight, /*require_last_weight=*/false));
  BOOST_TEST(!r.jay_conditions(tight, /*require_last_weight=*/true));  // Example 2.3
  BOOST_TEST(r.symplectic(tight));
}

BOOST_AUTO_TEST_CASE(a_non_symplectic_pair_is_detected) {
  // Lobatto IIIA for both parts (not the IIIA–IIIB pair) violates (2.11) and a_is = 0.
  partitioned_tableau<3> t = lobatto_iiia_iiib_tableau<3>();
  t.ap = t.aq;
  const prk_condition_report r = check_prk_conditions(t);
  BOOST_TEST(r.symplecticity > 1e-3);
  BOOST_TEST(r.last_momentum_column > 1e-3);
  BOOST_TEST(!r.jay_conditions(tight));
}

BOOST_AUTO_TEST_CASE(gauss_legendre_is_symplectic_and_of_order_2s) {
  const butcher_tableau<1> g1 = gauss_legendre<1>();
  BOOST_TEST(std::fabs(g1.a(0, 0) - 0.5) <= tight);
  BOOST_TEST(std::fabs(g1.b(0) - 1.0) <= tight);
  const butcher_tableau<3> g3 = gauss_legendre<3>();
  BOOST_TEST(quadrature_defect<3>(g3.b, g3.c, 6) <= tight);
  // Symplectic RK: b_i a_ij + b_j a_ji = b_i b_j.
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      worst = std::fmax(worst, std::fabs(g3.b(i) * g3.a(i, j) + g3.b(j) * g3.a(j, i) - g3.b(i) * g3.b(j)));
  BOOST_TEST(worst <= tight);
  BOOST_TEST(!g3.is_explicit());
}

// constrained_prk checks its tableau at construction and names the violated condition of (2.10)
// (rather than run, ignoring an entry of â).
BOOST_AUTO_TEST_CASE(constrained_prk_rejects_tableaux_violating_jays_conditions) {
  using state = std::pair<vector<3>, vector<3>>;
  auto rejection = [](const partitioned_tableau<2>& t) -> std::string {
    try {
      constrained_prk<2, state> stepper(t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  BOOST_TEST(rejection(rattle_tableau()).empty());
  BOOST_TEST(rejection(constrained_symplectic_euler_tableau()).empty());  // b_s = 0 is Example 2.3
  partitioned_tableau<2> t = rattle_tableau();
  t.aq(0, 1) = 0.1;  // the first position stage must be explicit
  BOOST_TEST(rejection(t).find("first row of the position tableau") != std::string::npos, rejection(t));
  t = rattle_tableau();
  t.aq(1, 0) = 0.6;  // last row of â ≠ b
  BOOST_TEST(rejection(t).find("last row") != std::string::npos, rejection(t));
  t = rattle_tableau();
  t.ap(0, 1) = 0.2;  // a_is ≠ 0
  BOOST_TEST(rejection(t).find("last column of the momentum tableau") != std::string::npos, rejection(t));
  // A tableau satisfying (2.10) but not the symplecticity condition (2.11) runs and says so.
  partitioned_tableau<2> plain = rattle_tableau();
  plain.ap(1, 0) = 1.0;  // b_1 â_12 + b_2 a_21 − b_1 b_2 = 1/4
  BOOST_TEST(rejection(plain).empty());
  BOOST_TEST((!constrained_prk<2, state>(plain).symplectic()));
  BOOST_TEST((constrained_prk<2, state>(rattle_tableau()).symplectic()));
  BOOST_TEST((constrained_prk<3, state>(lobatto_iiia_iiib_tableau<3>()).symplectic()));
  BOOST_TEST((!is_symplectic_v<constrained_prk<2, state>>));  // unknown until the tableau is seen
  partitioned_tableau<3> singular = lobatto_iiia_iiib_tableau<3>();
  singular.ap.col(0).setZero();  // the coupling matrix (Σ_k â_ik a_kj) loses its first column
  try {
    constrained_prk<3, state> stepper(singular);
    BOOST_FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("coupling matrix") != std::string::npos, e.what());  // the tableau, not the system, is blamed
  }
}

// Butcher tableaux: an order must be declared, Σb = 1, row sums = c.
BOOST_AUTO_TEST_CASE(butcher_tableaux_are_checked_for_consistency) {
  butcher_tableau<2> t = gauss_legendre<2>();
  BOOST_CHECK_NO_THROW(require_consistent_tableau(t));
  t.order = 0;
  BOOST_CHECK_THROW(require_consistent_tableau(t), std::invalid_argument);
  t = gauss_legendre<2>();
  t.b(0) += 1e-6;
  BOOST_CHECK_THROW(require_consistent_tableau(t), std::invalid_argument);
  t = gauss_legendre<2>();
  t.c(1) += 1e-6;
  BOOST_CHECK_THROW(require_consistent_tableau(t), std::invalid_argument);
}
