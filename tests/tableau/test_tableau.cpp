// Tableau generators: Jay's conditions (2.10), symplecticity (2.11), order conditions.
#define BOOST_TEST_MODULE tableau
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"
#include "geomint/tableau/named_tableaux.hpp"
#include "geomint/tableau/order_conditions.hpp"

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
  plain.order = 1;       // (and it has order 1 only: the tree q[p] fails)
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

// ---- Order conditions by trees (order_conditions.hpp) -------------------------------------------
// The generated trees are the rooted trees (OEIS A000081) and the bicoloured rooted trees (twice
// A000151), order by order.
BOOST_AUTO_TEST_CASE(the_trees_are_counted_as_in_the_literature) {
  const int rooted[] = {1, 1, 2, 4, 9, 20, 48, 115, 286, 719, 1842, 4766};
  const int bicoloured[] = {2, 4, 14, 52, 214, 916, 4116, 18996};
  const auto& r = detail::rooted_trees();
  const auto& b = detail::bicoloured_trees();
  for (int n = 1; n <= max_tree_order; ++n)
    BOOST_TEST(r.end_of_order[n] - r.end_of_order[n - 1] == rooted[n - 1], "order " << n);
  for (int n = 1; n <= max_bicoloured_tree_order; ++n)
    BOOST_TEST(b.end_of_order[n] - b.end_of_order[n - 1] == bicoloured[n - 1], "order " << n);
  BOOST_TEST(r.name(r.end_of_order[3] - 1, 1) == "[τ,τ]");  // the last tree of order 3: the bushy one
}

namespace {
/// The tableau reaches its declared order and not the next (where the next is checked by trees).
template <class Tableau, class Check>
void reaches_exactly(const Tableau& t, Check check, int max_checked) {
  BOOST_TEST_CONTEXT("declared order " << t.order) {
    BOOST_CHECK_NO_THROW(require_declared_order(t));
    if (t.order < max_checked) {
      const tableau_order_report r = check(t, t.order + 1);
      BOOST_TEST(r.order == t.order);
      BOOST_TEST(!r.failed_tree.empty());
    }
  }
}
template <int S>
void butcher_exactly(const butcher_tableau<S>& t) {
  reaches_exactly(t, [](const auto& x, int p) { return butcher_order_conditions(x, p); }, max_tree_order);
}
template <int S>
void partitioned_exactly(const partitioned_tableau<S>& t) {
  reaches_exactly(t, [](const auto& x, int p) { return partitioned_order_conditions(x, p); }, max_bicoloured_tree_order);
}
}  // namespace

// Every shipped tableau reaches exactly the order it declares: the explicit ones, Gauss–Legendre,
// Lobatto IIIA and IIIB (by trees to order 12, above by B, C, D: Gauss with 7 stages, order 14),
// the Lobatto IIIA–IIIB pairs (bicoloured trees to order 8; the 6-stage pair, order 10, also by
// each part's trees and quadrature) and constrained symplectic Euler.
BOOST_AUTO_TEST_CASE(shipped_tableaux_reach_exactly_their_declared_order) {
  butcher_exactly(forward_euler_tableau());
  butcher_exactly(heun_tableau());
  butcher_exactly(rk4_tableau());
  butcher_exactly(gauss_legendre<1>());
  butcher_exactly(gauss_legendre<3>());
  butcher_exactly(gauss_legendre<5>());
  butcher_exactly(gauss_legendre<7>());
  butcher_exactly(lobatto_iiia<2>());
  butcher_exactly(lobatto_iiia<4>());
  butcher_exactly(lobatto_iiib<5>());
  partitioned_exactly(rattle_tableau());
  partitioned_exactly(lobatto_iiia_iiib_tableau<3>());
  partitioned_exactly(lobatto_iiia_iiib_tableau<4>());
  partitioned_exactly(lobatto_iiia_iiib_tableau<5>());
  partitioned_exactly(lobatto_iiia_iiib_tableau<6>());
  partitioned_exactly(constrained_symplectic_euler_tableau());
}

namespace {
template <class F>
std::string refusal(F&& construct) {
  try {
    construct();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}
bool says(const std::string& message, const char* what) { return message.find(what) != std::string::npos; }
}  // namespace

// The tableau rows of the declared-but-wrong table: each one refused at construction, the message
// naming what fails.
BOOST_AUTO_TEST_CASE(a_tableau_is_refused_below_its_declared_order) {
  // A partitioned tableau with Σb = 1.2 that satisfies Jay's (2.10): RATTLE's with b = (0.6, 0.6).
  partitioned_tableau<2> heavy = rattle_tableau();
  heavy.b << 0.6, 0.6;
  heavy.aq.row(1) = heavy.b.transpose();
  BOOST_TEST(check_prk_conditions(heavy).jay_conditions(tight));
  const std::string sum = refusal([&] { constrained_prk<2> s(heavy); });
  BOOST_TEST(says(sum, "weights sum to 1.2"), sum);

  // RATTLE's tableau claiming order 4, or 0.
  partitioned_tableau<2> claim = rattle_tableau();
  claim.order = 4;
  const std::string four = refusal([&] { constrained_prk<2> s(claim); });
  BOOST_TEST(says(four, "declares order 4 but fails the order-3 condition of the tree"), four);
  claim.order = 0;
  BOOST_TEST(says(refusal([&] { constrained_prk<2> s(claim); }), "declares no order"));

  // Kutta's third-order method claiming order 5: its first failed tree has order 4.
  butcher_tableau<3> kutta;
  kutta.a << 0, 0, 0, 0.5, 0, 0, -1, 2, 0;
  kutta.b << 1.0 / 6, 2.0 / 3, 1.0 / 6;
  kutta.c << 0, 0.5, 1;
  kutta.order = 3;
  BOOST_CHECK_NO_THROW(require_consistent_tableau(kutta));
  kutta.order = 5;
  const std::string five = refusal([&] { require_consistent_tableau(kutta); });
  BOOST_TEST(says(five, "declares order 5 but fails the order-4 condition"), five);

  // Consistent, of order 2 and Σ b_i a_ij c_j = 1/6 (the tree [[τ]]), but Σbc² = 3/8, not 1/3,
  // claiming order 3: the bushy tree [τ,τ] fails.
  butcher_tableau<3> second;
  second.a << 0, 0, 0, 0.5, 0, 0, -1.0 / 3, 4.0 / 3, 0;
  second.b << 0.25, 0.5, 0.25;
  second.c << 0, 0.5, 1;
  second.order = 2;
  BOOST_CHECK_NO_THROW(require_consistent_tableau(second));
  second.order = 3;
  const std::string three = refusal([&] { require_consistent_tableau(second); });
  BOOST_TEST(says(three, "the tree [τ,τ]: its elementary weight is 0.375"), three);
}
