// The solvers beside the core: the Newton driver (convergence to round-off, Jacobian refresh, fallback,
// failures), the linear-solve policies (singularity detection, block elimination, sparse solves)
// and the extrapolated starting guesses (sequence_extrapolation).
#define BOOST_TEST_MODULE core
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>

#include "geomint/diagnostics/count_allocations.hpp"  // the one TU of test_core that counts allocations
#include "geomint/solvers/block_lu.hpp"
#include "geomint/core/step_record.hpp"
#include "geomint/solvers/extrapolation.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/system/mass.hpp"

using namespace geomint;

namespace {
/// F(z) = (z0² + z1² − 4, z0 − z1³): a root near (1.6, 1.17). `stale` seeds the solve with
/// the Jacobian of a distant point, as when a factorization is reused from an earlier step.
struct circle_cubic {
  dense_lu<2> lu;
  bool have = false;
  int updates = 0;
  void residual(const vector<2>& z, vector<2>& r) { r << z(0) * z(0) + z(1) * z(1) - 4, z(0) - z(1) * z(1) * z(1); }
  bool has_jacobian() const { return have; }
  void update_jacobian(const vector<2>& z) {
    lu.system_matrix() << 2 * z(0), 2 * z(1), 1, -3 * z(1) * z(1);
    BOOST_REQUIRE(lu.factorize());
    have = true;
    ++updates;
  }
  void solve_in_place(vector<2>& d) { lu.solve_in_place(d); }
  double increment_norm(const vector<2>& z, const vector<2>& d) const { return d.cwiseAbs().maxCoeff() / z.cwiseAbs().maxCoeff(); }
};

/// F(z) = (I − M) z, root 0, solved with a factorization of I kept from an earlier solve: the
/// iteration's error goes e ← M e, and the increments are (I − M) e.
struct kept_identity {
  matrix<2, 2> a;
  dense_lu<2> lu;
  int updates = 0;
  explicit kept_identity(const matrix<2, 2>& m) : a(matrix<2, 2>::Identity() - m) {
    lu.system_matrix().setIdentity();
    BOOST_REQUIRE(lu.factorize());
  }
  void residual(const vector<2>& z, vector<2>& r) { r.noalias() = a * z; }
  bool has_jacobian() const { return true; }
  void update_jacobian(const vector<2>&) {
    lu.system_matrix() = a;
    BOOST_REQUIRE(lu.factorize());
    ++updates;
  }
  void solve_in_place(vector<2>& d) { lu.solve_in_place(d); }
  double increment_norm(const vector<2>&, const vector<2>& d) const { return d.cwiseAbs().maxCoeff(); }
};

/// F(z) = z² + 1: no real root.
struct no_root {
  dense_lu<1> lu;
  bool have = false;
  void residual(const vector<1>& z, vector<1>& r) { r(0) = z(0) * z(0) + 1; }
  bool has_jacobian() const { return have; }
  void update_jacobian(const vector<1>& z) {
    lu.system_matrix()(0, 0) = 2 * z(0) + 1e-3;
    lu.factorize();
    have = true;
  }
  void solve_in_place(vector<1>& d) { lu.solve_in_place(d); }
  double increment_norm(const vector<1>& z, const vector<1>& d) const { return std::fabs(d(0)) / std::fmax(std::fabs(z(0)), 1.0); }
};

/// F(z) = log(z): non-finite once the iterate goes negative.
struct log_residual : no_root {
  void residual(const vector<1>& z, vector<1>& r) { r(0) = std::log(z(0)) + 50; }
  void update_jacobian(const vector<1>&) {
    lu.system_matrix()(0, 0) = 1e-30;  // a wild step sends z negative
    lu.factorize();
    have = true;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(newton_converges_to_roundoff) {
  circle_cubic p;
  vector<2> z(1.6, 1.2), z0, r;  // a predictor-quality guess, as in a time step
  newton_statistics stats;
  const newton_report rep = newton_solve(p, z, z0, r, newton_options{}, stats, {});
  p.residual(z, r);
  // Near round-off: the residual is a few ulps of the terms (≈ 4).
  BOOST_TEST(r.cwiseAbs().maxCoeff() <= 8 * std::numeric_limits<double>::epsilon() * 4);
  BOOST_TEST(rep.iterations <= 12);  // linear contraction ≈ 0.03 per iteration with the frozen matrix
  BOOST_TEST(stats.jacobian_updates == 1);  // simplified Newton: one factorization sufficed
}

BOOST_AUTO_TEST_CASE(a_stale_jacobian_is_refreshed_when_convergence_slows) {
  circle_cubic p;
  vector<2> z(3, -2), z0, r;
  p.update_jacobian(z);  // the factorization of a far-away point, as if reused across steps
  p.updates = 0;
  z << 1.5, 1.0;
  newton_statistics stats;
  newton_solve(p, z, z0, r, newton_options{}, stats, {});
  p.residual(z, r);
  BOOST_TEST(r.cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST(p.updates >= 1);
  BOOST_TEST(stats.jacobian_updates == p.updates);
}

BOOST_AUTO_TEST_CASE(a_kept_jacobian_survives_a_transient_first_contraction_but_not_a_slow_one) {
  // M = [0 0; a μ]: the first unknown is corrected at once, the second, which depends on it, an
  // iteration later (a constrained step's multipliers after its positions). From e₀ = (1, 0)·1e-3
  // the increments are (1, −a), (0, (1 − μ)a), (0, (1 − μ)μa), …·1e-3: θ₂ = 0.4, then θ = μ.
  const double a = 0.4 / 0.95, mu = 0.05;
  matrix<2, 2> m;
  m << 0, 0, a, mu;
  kept_identity transient(m);
  vector<2> z(1e-3, 0), z0, r;
  newton_statistics stats;
  newton_solve(transient, z, z0, r, newton_options{}, stats, {});
  BOOST_TEST(z.cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST(transient.updates == 0);  // θ₂ = 0.4 ≤ first_ratio_bound: kept, then θ = 0.05
  BOOST_TEST(newton_options{}.refresh_contraction < 0.4);  // the rule for later ratios would refresh

  // M = 0.45 I: θ = 0.45 at every iteration; kept after the first ratio, refreshed at the second.
  kept_identity slow(0.45 * matrix<2, 2>::Identity());
  z << 1e-3, 1e-3;
  newton_statistics slow_stats;
  const newton_report rep = newton_solve(slow, z, z0, r, newton_options{}, slow_stats, {});
  BOOST_TEST(z.cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST(slow.updates == 1);
  BOOST_TEST(rep.iterations <= 6);  // three with the kept matrix, then the exact one
}

BOOST_AUTO_TEST_CASE(failures_throw_step_error_with_context) {
  no_root p;
  vector<1> z(0.5), z0, r;
  newton_statistics stats;
  newton_options opt;
  opt.max_iterations = 30;
  try {
    newton_solve(p, z, z0, r, opt, stats, newton_context{2.5, 0.125, "test equations"});
    BOOST_FAIL("no exception");
  } catch (const step_error& e) {
    BOOST_TEST((e.reason() == failure_reason::newton_diverged || e.reason() == failure_reason::max_iterations));
    BOOST_TEST(e.time() == 2.5);
    BOOST_TEST(e.step_size() == 0.125);
    BOOST_TEST(e.iterations() >= 1);
    const std::string what = e.what();
    BOOST_TEST(what.find("test equations") != std::string::npos);
    BOOST_TEST(what.find("t = 2.5") != std::string::npos);
  }

  log_residual l;
  vector<1> y(1.0);
  BOOST_CHECK_EXCEPTION(newton_solve(l, y, z0, r, opt, stats, {}), step_error,
                        [](const step_error& e) { return e.reason() == failure_reason::non_finite_value; });
}

BOOST_AUTO_TEST_CASE(dense_factorizations_report_singular_matrices) {
  dense_lu<3> lu;
  lu.system_matrix() << 1, 2, 3, 4, 5, 6, 7, 8, 9;  // rank 2
  BOOST_TEST(!lu.factorize());
  lu.system_matrix() << 4, 1, 0, 1, 3, 1, 0, 1, 2;
  BOOST_TEST(lu.factorize());
  vector<3> b(1, 2, 3), x = b;
  lu.solve_in_place(x);
  BOOST_TEST((lu.system_matrix() * x - b).norm() <= 1e-15);

  dense_ldlt<dynamic> ldlt;
  ldlt.resize(2);
  ldlt.system_matrix() << 1, 1, 1, 1;  // the same constraint twice: G M⁻¹ Gᵀ singular
  BOOST_TEST(!ldlt.factorize());
  ldlt.system_matrix() << 2, 1, 1, 2;
  BOOST_TEST(ldlt.factorize());
}

// Block elimination solves what the whole-matrix LU solves (both backward stable here: the
// leading block is I + O(0.1), the matrix a stage Jacobian's shape with a saddle-point tail), and
// falls back to the whole-matrix LU when the leading block is singular. With k > 0 the leading
// block ends in unit columns, [B 0; C I] (the last momentum stage of a Lobatto IIIA–IIIB pair),
// and only B is factorized.
template <int n, int n1, int k>
void check_block_lu() {
  matrix<n, n> a = 0.1 * matrix<n, n>::Random();
  a.template topLeftCorner<n1, n1>() += matrix<n1, n1>::Identity();
  a.template block<n1 - k, k>(0, n1 - k).setZero();
  a.template block<k, k>(n1 - k, n1 - k).setIdentity();
  a.template bottomRightCorner<4, 4>().setZero();  // multiplier rows: a zero block, as in (2.6)–(2.7)
  const vector<n> b = vector<n>::Random();
  block_lu<n, n1, k> blocks;
  dense_lu<n> whole;
  blocks.system_matrix() = a;
  whole.system_matrix() = a;
  BOOST_TEST(blocks.factorize());
  BOOST_TEST(blocks.used_blocks());  // these sizes are blocked, and B and S are regular
  BOOST_TEST(whole.factorize());
  vector<n> x = b, y = b;
  blocks.solve_in_place(x);
  whole.solve_in_place(y);
  // Both residuals at round-off (cond(a) ~ 1e2 here): 1e-13 leaves a margin of ~10.
  BOOST_TEST((a * x - b).norm() <= 1e-13 * b.norm());
  BOOST_TEST((x - y).norm() <= 1e-12 * y.norm());

  // A singular leading block: the whole matrix can still be regular (the fallback solves it).
  matrix<n, n> c = a;
  c.row(0).head(n1).setZero();
  c.row(0).tail(n - n1).setOnes();
  blocks.system_matrix() = c;
  BOOST_TEST(blocks.factorize());
  BOOST_TEST(!blocks.used_blocks());
  x = b;
  blocks.solve_in_place(x);
  BOOST_TEST((c * x - b).norm() <= 1e-12 * b.norm());

  // A singular matrix with a regular leading block: the Schur complement reports it.
  matrix<n, n> d = a;
  d.row(n - 1) = d.row(n - 2);
  blocks.system_matrix() = d;
  BOOST_TEST(!blocks.factorize());
  BOOST_TEST(!blocks.used_blocks());
}

// The sparse Gram matrix S = G M⁻¹ Gᵀ is assembled from a plan of G's stored positions. Two
// Jacobians with as many entries in other columns — rows {q0 − q1, q1 − q2} and then
// {q0 − q1, q0 − q2} — have S = [[2, −1], [−1, 2]] and [[2, 1], [1, 2]] (unit masses); the
// second must not be assembled from the first one's plan (both are positive definite, so a stale
// plan would factorize without an error).
BOOST_AUTO_TEST_CASE(the_sparse_gram_matrix_follows_a_change_of_the_jacobians_pattern) {
  using sparse = system_traits<problems::pendulum_chain>::jacobian_type;
  auto jacobian = [](int second_row_first_column) {
    sparse g(2, 3);
    g.insert(0, 0) = 1;
    g.insert(0, 1) = -1;
    g.insert(1, second_row_first_column) = 1;
    g.insert(1, 2) = -1;
    g.makeCompressed();
    return g;
  };
  const diagonal_mass<dynamic> unit(Eigen::VectorXd::Ones(3));
  detail::constraint_gram<problems::pendulum_chain> gram;
  const Eigen::Vector2d b(1, 3);
  for (int first : {1, 0, 1}) {  // A, then B (same number of entries), then A again
    const sparse g = jacobian(first);
    BOOST_REQUIRE(gram.factorize_with(unit, g));
    Eigen::VectorXd x = b;
    gram.solve_in_place(x);
    const Eigen::MatrixXd s = Eigen::MatrixXd(g) * Eigen::MatrixXd(g).transpose();
    BOOST_TEST((s * x - b).norm() <= 1e-14 * b.norm());
  }
}

BOOST_AUTO_TEST_CASE(a_mass_matrix_that_is_not_symmetric_is_rejected) {
  matrix<2, 2> m;
  m << 2, 5, 0, 2;  // LLT would read only its lower triangle, diag(2, 2)
  BOOST_CHECK_THROW(dense_mass<2>{m}, std::invalid_argument);
  m << 2, 0.5, 0.5, 2;
  BOOST_CHECK_NO_THROW(dense_mass<2>{m});
}

// The heavy top's stage systems with three and four stages, without and with the unit columns
// (the last has a Schur complement of 15).
BOOST_AUTO_TEST_CASE(block_lu_agrees_with_the_dense_lu_and_reports_singular_matrices) {
  static_assert(block_lu<22, 12, 0>::blocked && block_lu<31, 16, 4>::blocked, "the sizes tested take the blocks");
  static_assert(!block_lu<dynamic, 12, 0>::blocked && !block_lu<40, 12, 0>::blocked, "whole-matrix sizes");
  check_block_lu<22, 12, 0>();
  check_block_lu<22, 12, 4>();
  check_block_lu<31, 16, 4>();
}

BOOST_AUTO_TEST_CASE(sparse_ldlt_solves_a_tridiagonal_system_and_copies_refactorize) {
  const int n = 1000;
  sparse_ldlt s;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.5);
    if (i > 0) t.emplace_back(i, i - 1, -1), t.emplace_back(i - 1, i, -1);
  }
  s.system_matrix().resize(n, n);
  s.system_matrix().setFromTriplets(t.begin(), t.end());
  BOOST_TEST(s.factorize());
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, 0, 1), x = b;
  s.solve_in_place(x);
  BOOST_TEST((s.system_matrix() * x - b).norm() <= 1e-13);
  sparse_ldlt copy = s;
  BOOST_TEST(copy.factorize());
  Eigen::VectorXd y = b;
  copy.solve_in_place(y);
  BOOST_TEST((y - x).norm() == 0.0);
}

// The polynomial through the last m of equally spaced values predicts a polynomial sequence of
// degree < m exactly (to the rounding of binomial weights ≤ 20 applied to values ~ 1: bound
// 1e-12), and a smooth one with an error O(h^m), the remainder h^m u⁽ᵐ⁾(ξ): halving h must shrink
// the error by ~2⁶ once the choice has climbed to six points (bound 30, where a stuck quadratic,
// O(h³), would give 8).
BOOST_AUTO_TEST_CASE(sequence_extrapolation_climbs_to_the_degree_the_data_support) {
  auto quintic = [](double t) { return vector<2>(1 - t + 2 * t * t - std::pow(t, 5), 0.5 + std::pow(t, 4)); };
  sequence_extrapolation<vector<2>> poly;
  for (int k = 0; k < 8; ++k) poly.record(quintic(0.3 * k));
  BOOST_TEST(poly.points() == 6);
  vector<2> next;
  poly.predict(next);
  BOOST_TEST((next - quintic(0.3 * 8)).cwiseAbs().maxCoeff() <= 1e-12);

  auto prediction_error = [](double h) {
    sequence_extrapolation<Eigen::VectorXd> smooth;
    auto u = [](double t) { return Eigen::VectorXd(Eigen::Vector3d(std::sin(t), std::cos(2 * t), std::exp(-t))); };
    for (int k = 12; k >= 1; --k) smooth.record(u(1 - k * h));  // predicting u(1) at both h
    BOOST_TEST(smooth.points() == 6);
    Eigen::VectorXd guess(3);
    smooth.predict(guess);
    return (guess - u(1)).cwiseAbs().maxCoeff();
  };
  const double coarse = prediction_error(0.1), fine = prediction_error(0.05);
  BOOST_TEST_MESSAGE("prediction errors at h = 0.1, 0.05: " << coarse << ", " << fine);
  BOOST_TEST(coarse <= 64 * std::pow(0.1, 6));  // the remainder h⁶ u⁽⁶⁾(ξ), |u⁽⁶⁾| ≤ 2⁶
  BOOST_TEST(coarse >= 30 * fine);

  // A sequence the spacing does not resolve (independent random values): higher degrees only
  // amplify the scatter, so the choice stays at two or three points; after forget(), one value.
  sequence_extrapolation<Eigen::VectorXd> rough;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  int points = 0;
  for (int k = 0; k < 200; ++k) {
    Eigen::VectorXd v(50);
    for (int i = 0; i < 50; ++i) v(i) = uniform(gen);
    rough.record(v);
    if (k >= 10) points += rough.points();
  }
  BOOST_TEST(points <= 3 * 190);
  rough.forget();
  rough.record(Eigen::VectorXd::Ones(50));
  BOOST_TEST(rough.size() == 1);
  BOOST_TEST(rough.latest()(0) == 1.0);
}

// The continuation rule's key (core/step_record.hpp): a system's address and its value — its
// own bytes, or its parameter_version() where it declares one.
namespace {
struct plain_system {
  double gravity;
};
struct versioned_system {  // parameters behind a pointer: only the version shows a change
  std::unique_ptr<double> gravity;
  long version;
  long parameter_version() const { return version; }
};
struct large_system {  // beyond the 256 bytes kept verbatim: the rest is hashed
  std::array<double, 100> c{};
};
}  // namespace

BOOST_AUTO_TEST_CASE(system_fingerprints_see_the_parameters_in_the_object_or_its_version) {
  system_fingerprint key;
  plain_system a{9.81};
  key.record(a);
  BOOST_TEST(key.matches(a));
  const plain_system twin{9.81};
  BOOST_TEST(!key.matches(twin), "another object with the same value");
  a.gravity = 1.62;
  BOOST_TEST(!key.matches(a), "the same object with another value");

  versioned_system v{std::make_unique<double>(9.81), 0};
  key.record(v);
  *v.gravity = 1.62;
  BOOST_TEST(key.matches(v), "a change behind a pointer is the system's to declare");
  ++v.version;
  BOOST_TEST(!key.matches(v));

  large_system l;
  key.record(l);
  BOOST_TEST(key.matches(l));
  l.c[99] = 1;
  BOOST_TEST(!key.matches(l), "a change in the hashed tail");
  key.clear();
  l.c[99] = 0;
  BOOST_TEST(!key.matches(l), "a cleared key matches nothing");
}

// Numbers in messages: the shortest decimal that reads back as the same double, so that a failed
// step can be repeated from its message without 17-digit noise.
BOOST_AUTO_TEST_CASE(messages_print_the_shortest_exact_decimal) {
  BOOST_TEST(detail::decimal(0.1) == "0.1");
  BOOST_TEST(detail::decimal(-2.5e-300) == "-2.5e-300");
  BOOST_TEST(detail::decimal(0.0) == "0");
  for (double x : {1.0 / 3, 0.1 + 0.2, 6.02214076e23, std::nextafter(1.0, 2.0)})
    BOOST_TEST(std::strtod(detail::decimal(x).c_str(), nullptr) == x, detail::decimal(x));
  const step_error e(failure_reason::max_iterations, 0.30000000000000004, 0.1, 3, 1e-9, "why");
  BOOST_TEST(std::string(e.what()).find("at t = 0.30000000000000004, dt = 0.1 after 3 iterations") != std::string::npos,
             e.what());
}
