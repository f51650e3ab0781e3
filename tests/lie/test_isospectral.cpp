// The isospectral midpoint (lie/isospectral_midpoint.hpp) and the Anderson-accelerated
// fixed-point iteration (solvers/fixed_point.hpp) used by the implicit su(N) steps. A test
// executable of its own (test_lie_isospectral): it compiles in seconds, test_lie in minutes.
#define BOOST_TEST_MODULE lie_isospectral
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "geomint/solvers/fixed_point.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/sine_euler.hpp"
#include "geomint/diagnostics/count_allocations.hpp"  // the one TU of test_lie_isospectral
#include "lie_test_support.hpp"

using namespace geomint;

namespace {

/// A smooth vorticity ω_m ~ U/|m|² (as in bench_su_n_scaling): the fixed-point iterations
/// contract at h = 0.1 for every N.
template <int N>
typename su_n<N>::vector_type smooth_state(const su_n<N>& a, unsigned seed) {
  auto y = problems::sine_euler<N>::random_initial_state(seed);
  for (int i = 0; i < su_n<N>::mode_count; ++i) y.template segment<2>(2 * i) /= a.modes()[i].squared_norm();
  return y;
}

isospectral_midpoint_options iso_options(int depth, isospectral_iteration iteration) {
  isospectral_midpoint_options o;
  o.acceleration.anderson_depth = depth;
  o.iteration = iteration;
  return o;
}

lie_options accelerated(int depth) {
  lie_options o;
  o.stage_solver = lie_stage_solver::fixed_point;
  o.acceleration.anderson_depth = depth;
  return o;
}

/// z ← A z + b with a fixed 6 × 6 A of spectral radius 0.95 (a slow linear contraction).
struct linear_map {
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  int calls = 0;
  linear_map() : a(Eigen::MatrixXd::Zero(6, 6)), b(Eigen::VectorXd::LinSpaced(6, 1, 2)) {
    const double ev[6] = {0.95, -0.9, 0.8, 0.5, -0.3, 0.1};
    Eigen::MatrixXd r(6, 6);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) r(i, j) = std::sin(1.0 + 7 * i + 3 * j * j);  // fixed, well conditioned
    Eigen::MatrixXd q = r.householderQr().householderQ();
    a = q * Eigen::VectorXd::Map(ev, 6).asDiagonal() * q.transpose();
  }
  void map(const Eigen::VectorXd& z, Eigen::VectorXd& next) {
    ++calls;
    next = a * z + b;
  }
  double change_norm(const Eigen::VectorXd& next, const Eigen::VectorXd& z) const {
    return (next - z).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
  }
};

}  // namespace

// Anderson acceleration converges on a slow linear contraction in a few iterations (for a
// linear map of dimension 6 depth 6 is GMRES: exact after ≤ 7), to the same solution as the
// plain iteration; depth 0 through the accelerated entry point is the plain iteration, bit for bit.
BOOST_AUTO_TEST_CASE(anderson_acceleration_of_a_linear_contraction) {
  newton_options opt;
  opt.max_iterations = 2000;
  const newton_context ctx{0, 0, "test"};
  linear_map plain_map, aa_map, zero_map;
  Eigen::VectorXd z_plain = Eigen::VectorXd::Zero(6), z_aa = z_plain, z_zero = z_plain, next(6);
  fixed_point_statistics s_plain, s_aa, s_zero;
  anderson_workspace history;
  fixed_point_solve(plain_map, z_plain, next, opt, s_plain, ctx);
  fixed_point_acceleration depth6;
  depth6.anderson_depth = 6;
  fixed_point_solve(aa_map, z_aa, next, opt, s_aa, ctx, depth6, history);
  fixed_point_solve(zero_map, z_zero, next, opt, s_zero, ctx, fixed_point_acceleration{}, history);
  const Eigen::VectorXd exact = (Eigen::MatrixXd::Identity(6, 6) - plain_map.a).partialPivLu().solve(plain_map.b);
  // The plain iteration stops at a change of ~ε, an error of ~ε/(1 − 0.95); Anderson near ε.
  BOOST_TEST(lie_test::relative_difference(z_plain, exact) <= 1e-11);
  BOOST_TEST(lie_test::relative_difference(z_aa, exact) <= 1e-13);
  BOOST_TEST(s_plain.iterations > 300);  // 0.95ᵏ ≤ ε
  BOOST_TEST(s_aa.iterations <= 12);
  BOOST_TEST(s_zero.iterations == s_plain.iterations);
  BOOST_TEST((z_zero.array() == z_plain.array()).all());
}

// A map that blows up: the accelerated solve throws step_error like the plain one.
BOOST_AUTO_TEST_CASE(anderson_acceleration_reports_divergence) {
  struct growing {
    void map(const Eigen::VectorXd& z, Eigen::VectorXd& next) const { next = 3 * z + Eigen::VectorXd::Ones(z.size()); }
    double change_norm(const Eigen::VectorXd& next, const Eigen::VectorXd& z) const {
      return (next - z).cwiseAbs().maxCoeff();
    }
  } g;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(4), next(4);
  fixed_point_statistics stats;
  anderson_workspace history;
  fixed_point_acceleration depth1;
  depth1.anderson_depth = 1;
  // Depth 1 on a linear map of one eigenvalue solves it in two steps: a non-linear one is needed.
  struct nonlinear {
    void map(const Eigen::VectorXd& z, Eigen::VectorXd& next) const { next = (z.array() * z.array() + 5).matrix(); }
    double change_norm(const Eigen::VectorXd& next, const Eigen::VectorXd& z) const {
      return (next - z).cwiseAbs().maxCoeff();
    }
  } n;  // z = z² + 5 has no real fixed point
  BOOST_CHECK_THROW(fixed_point_solve(n, z, next, newton_options{}, stats, newton_context{}, depth1, history), step_error);
  z.setZero();
  BOOST_CHECK_THROW(fixed_point_solve(g, z, next, newton_options{}, stats, newton_context{}, fixed_point_acceleration{}, history),
                    step_error);
}

// Casimirs tr(Wᵏ)/N (k = 2..N) at round-off over 30 steps on su(17) (dynamic matrices, FFTs
// when the build has FFTW), plain and accelerated; the energy stays close (order 2, no drift
// over so short a run).
BOOST_AUTO_TEST_CASE(isospectral_midpoint_keeps_casimirs) {
  const problems::sine_euler<17> fluid;
  const auto& a = fluid.algebra();
  const auto y0 = smooth_state(a, 5);
  const auto c0 = a.casimirs(y0);
  const auto scale = a.casimir_scales(y0);
  for (auto [depth, iteration] : {std::pair{0, isospectral_iteration::cayley}, std::pair{3, isospectral_iteration::cayley},
                                   std::pair{0, isospectral_iteration::commutator},
                                   std::pair{3, isospectral_iteration::commutator}}) {
    isospectral_midpoint<su_n<17>> iso(iso_options(depth, iteration));
    auto y = y0;
    double worst = 0;
    for (int k = 0; k < 30; ++k) {
      iso.do_step(fluid, y, k * 0.1, 0.1);
      worst = std::fmax(worst, (a.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
    }
    BOOST_TEST(worst <= 1e-13, "depth " << depth << ": Casimir drift " << worst);
    BOOST_TEST(std::fabs(fluid.hamiltonian(y) / fluid.hamiltonian(y0) - 1) <= 1e-3);
    BOOST_TEST(iso.statistics().steps == 30);
  }
}

// su(17) has dynamic-size states (d = 288) and matrices (17 × 17): the su(N) steps write every
// change of basis into their own buffers (su_n::basis_buffers), so that after the first step
// neither the isospectral midpoint (both iterations, plain and Anderson-accelerated) nor RKMK's
// second-order tableaux (implicit midpoint, trapezoidal rule) in Cayley coordinates on the
// fixed-point path allocates (counted at malloc;
// 20 steps, beyond the six that fill the extrapolation history).
namespace {
template <class Stepper>
long allocations_after_the_first_step(Stepper stepper) {
  const problems::sine_euler<17> fluid;
  auto y = smooth_state(fluid.algebra(), 3);
  return geomint::diagnostics::allocations_after_first_step(stepper, fluid, y, 0.0, 0.1);
}
}  // namespace

BOOST_AUTO_TEST_CASE(su17_steps_allocate_nothing_after_the_first) {
  BOOST_TEST_REQUIRE(geomint::diagnostics::counting_includes_malloc());
  lie_options fixed_point = accelerated(3);
  fixed_point.stage_solver = lie_stage_solver::fixed_point;
  const long counts[] = {
      allocations_after_the_first_step(isospectral_midpoint<su_n<17>>(iso_options(0, isospectral_iteration::cayley))),
      allocations_after_the_first_step(isospectral_midpoint<su_n<17>>(iso_options(3, isospectral_iteration::cayley))),
      allocations_after_the_first_step(isospectral_midpoint<su_n<17>>(iso_options(3, isospectral_iteration::commutator))),
      allocations_after_the_first_step(rkmk<su_n<17>, rk::implicit_midpoint, cayley_coordinates>(fixed_point)),
      allocations_after_the_first_step(rkmk<su_n<17>, rk::trapezoidal, cayley_coordinates>(fixed_point)),
  };
  for (long c : counts) BOOST_TEST(c == 0);
}

// Order 2 against dopri5 on su(5) at T = 1, and the method's stated properties.
BOOST_AUTO_TEST_CASE(isospectral_midpoint_is_second_order) {
  const problems::sine_euler<5> fluid;
  const auto y0 = problems::sine_euler<5>::random_initial_state(11);
  const Eigen::VectorXd reference = lie_test::reference_solution(fluid, Eigen::VectorXd(y0), 1.0);
  using iso = isospectral_midpoint<su_n<5>>;
  const double e1 = lie_test::global_error(iso(), fluid, y0, reference, 1.0, 40);
  const double e2 = lie_test::global_error(iso(), fluid, y0, reference, 1.0, 80);
  const double order = std::log2(e1 / e2);
  BOOST_TEST(order >= 1.9, "observed order " << order);
  BOOST_TEST(order <= 2.1, "observed order " << order);
  BOOST_TEST(iso().order() == 2);
  BOOST_TEST((properties_of<iso>.symmetric() && properties_of<iso>.order() == 2));
}

// Symmetric: a step of h and then one of −h return to y₀ (to the solver's round-off); a
// non-symmetric method (GL2 RKMK in Cayley coordinates) leaves an O(h³) defect.
BOOST_AUTO_TEST_CASE(isospectral_midpoint_is_time_reversible) {
  const problems::sine_euler<7> fluid;
  const auto y0 = problems::sine_euler<7>::random_initial_state(2);
  const double h = 0.05;
  auto back_and_forth = [&](auto stepper) {
    auto y = y0;
    stepper.do_step(fluid, y, 0.0, h);
    stepper.do_step(fluid, y, h, -h);
    return lie_test::relative_difference(y, y0);
  };
  const double iso = back_and_forth(isospectral_midpoint<su_n<7>>(iso_options(3, isospectral_iteration::cayley)));
  const double iso_commutator = back_and_forth(isospectral_midpoint<su_n<7>>(iso_options(0, isospectral_iteration::commutator)));
  BOOST_TEST(iso_commutator <= 1e-14);
  const double gl2 = back_and_forth(rkmk<su_n<7>, rk::implicit_midpoint, cayley_coordinates>(accelerated(0)));
  BOOST_TEST(iso <= 1e-14);
  BOOST_TEST(gl2 >= 1e3 * iso);  // the check can tell a symmetric method from one that is not
}

// The Cayley sweep's matrix work (lie/detail/cayley_congruence.hpp): Δ_c(B) = (1 + ce)W₀(1 + ce)† − W₀,
// e = (1 − B)⁻¹B, for c = 1 (the isospectral midpoint's W̃) and c = 2 (the unitary Cayley action).
// A call close to the previous one is answered by a first-order correction, in double precision
// for a change of 4e-10 and in single precision for 5e-11 and 1e-15 (chained from the previous
// correction); a change of 1e-6 is beyond the bound and evaluated in full. Each answer must be
// the full evaluation at the same B, made independently (M = (1 − B)⁻¹ by a full-pivoting
// inverse), to within 64 ε ‖W₀‖_F: the rounding of two evaluations whose terms are of size
// ‖W₀‖ (a wrong correction term would be off by ~ the change, on the first two at least 1e3
// times the bound).
BOOST_AUTO_TEST_CASE(cayley_congruence_corrections_match_full_evaluations) {
  using mat = Eigen::MatrixXcd;
  const int n = 41;
  std::srand(5);
  const mat a = mat::Random(n, n);
  const mat w0 = a + a.adjoint();
  auto anti_hermitian = [&](double frobenius) {
    const mat r = mat::Random(n, n);
    const mat s = r - r.adjoint();
    return mat(s * (frobenius / s.norm()));
  };
  const mat b0 = anti_hermitian(1.5);  // ‖B‖₂ ~ 0.5
  auto independent = [&](const mat& b, int c) {
    const mat m = (mat::Identity(n, n) - b).fullPivLu().inverse();
    const mat g = mat::Identity(n, n) + double(c) * (m - mat::Identity(n, n));
    return mat(g * w0 * g.adjoint() - w0);
  };
  const double bound = 64 * std::numeric_limits<double>::epsilon() * w0.norm();
  for (int c : {1, 2}) {
    geomint::detail::cayley_congruence<mat> congruence;
    congruence.prepare(w0);
    mat b = b0;
    for (double change : {0.0, 4e-10, 5e-11, 1e-15, 1e-6}) {
      if (change > 0) b += anti_hermitian(change);
      const mat answer = congruence.increment(b, c);
      const mat lower_difference = mat((answer - independent(b, c)).triangularView<Eigen::Lower>());
      BOOST_TEST(lower_difference.norm() <= bound, "c = " << c << ", change " << change << ": "
                                                         << lower_difference.norm() << " > " << bound);
    }
    BOOST_TEST(congruence.double_corrections() == 1);
    BOOST_TEST(congruence.single_corrections() == 2);
  }
}

// Anderson-accelerated and plain iterations give the same steps to the solver's tolerance: the
// isospectral midpoint and the GL2 RKMK stages on su(17), 10 steps of h = 0.1 (continued steps
// start from extrapolated guesses), and the continued steps are the fresh-start steps.
BOOST_AUTO_TEST_CASE(accelerated_and_plain_iterations_agree) {
  const problems::sine_euler<17> fluid;
  const auto y0 = smooth_state(fluid.algebra(), 9);
  const double h = 0.1;
  auto run = [&](auto stepper, bool fresh_each_step, long* iterations) {
    auto y = y0;
    for (int k = 0; k < 10; ++k) {
      if (fresh_each_step) stepper.reset();
      stepper.do_step(fluid, y, k * h, h);
    }
    *iterations = stepper.statistics().fixed_point.iterations;
    return y;
  };
  using iso = isospectral_midpoint<su_n<17>>;
  using gl2 = rkmk<su_n<17>, rk::implicit_midpoint, cayley_coordinates>;
  long it_plain = 0, it_aa = 0, it_fresh = 0, it_cayley = 0, it_cayley_aa = 0, unused = 0;
  const auto iso_plain = run(iso(iso_options(0, isospectral_iteration::commutator)), false, &it_plain);
  const auto iso_aa = run(iso(iso_options(3, isospectral_iteration::commutator)), false, &it_aa);
  const auto iso_fresh = run(iso(iso_options(0, isospectral_iteration::commutator)), true, &it_fresh);
  const auto iso_cayley = run(iso(iso_options(0, isospectral_iteration::cayley)), false, &it_cayley);
  const auto iso_cayley_aa = run(iso(iso_options(3, isospectral_iteration::cayley)), false, &it_cayley_aa);
  long it_cayley_fresh = 0;
  const auto iso_cayley_fresh = run(iso(iso_options(0, isospectral_iteration::cayley)), true, &it_cayley_fresh);
  BOOST_TEST(lie_test::relative_difference(iso_cayley_fresh, iso_plain) <= 1e-14);
  BOOST_TEST(it_cayley < it_cayley_fresh, "extrapolated guesses " << it_cayley << " against fresh " << it_cayley_fresh);
  BOOST_TEST(lie_test::relative_difference(iso_aa, iso_plain) <= 1e-14);
  BOOST_TEST(lie_test::relative_difference(iso_fresh, iso_plain) <= 1e-14);
  BOOST_TEST(lie_test::relative_difference(iso_cayley, iso_plain) <= 1e-14);
  BOOST_TEST(lie_test::relative_difference(iso_cayley_aa, iso_plain) <= 1e-14);
  BOOST_TEST(it_aa < it_plain, "accelerated " << it_aa << " against plain " << it_plain << " iterations");
  BOOST_TEST(it_plain < it_fresh, "extrapolated guesses " << it_plain << " against fresh " << it_fresh);
  BOOST_TEST(it_cayley < it_plain, "cayley " << it_cayley << " against commutator " << it_plain << " iterations");
  BOOST_TEST(it_cayley_aa <= it_cayley);
  const auto gl2_plain = run(gl2(accelerated(0)), false, &unused);
  const auto gl2_aa = run(gl2(accelerated(3)), false, &unused);
  BOOST_TEST(lie_test::relative_difference(gl2_aa, gl2_plain) <= 1e-14);
  // The two methods are different second-order methods: close, not equal.
  const double methods = lie_test::relative_difference(iso_plain, gl2_plain);
  BOOST_TEST(methods <= 1e-2);
  BOOST_TEST(methods >= 1e-10);
}

// A step too large for the iteration fails with step_error and leaves the state as it was.
BOOST_AUTO_TEST_CASE(failed_isospectral_step_leaves_the_state) {
  const problems::sine_euler<17> fluid;
  const auto y0 = problems::sine_euler<17>::random_initial_state(4);  // rough: ‖W‖ ~ N
  for (auto iteration : {isospectral_iteration::cayley, isospectral_iteration::commutator})
  for (int depth : {0, 3}) {
    isospectral_midpoint<su_n<17>> iso(iso_options(depth, iteration));
    auto y = y0;
    BOOST_CHECK_THROW(iso.do_step(fluid, y, 0.0, 50.0), step_error);
    BOOST_TEST((y.array() == y0.array()).all());
  }
}

// At a step size at the edge of the iteration's contraction, the guess extrapolated from the
// previous steps can lie outside the region where the sweeps contract although the fresh guess
// does not; the step is then retried from the fresh guess. So a continued run lasts at least as
// long as a run restarted at every step, with the same states to round-off, and its failing step
// leaves the state as it was. (Both iterate to a change of one ulp, which at the edge, where a
// sweep contracts only by θ → 1, leaves up to θ/(1 − θ) ≈ 10 ulps per step: bound 1e-13 over
// ≤ 10 steps.) The isospectral midpoint
// on su(7) at h = 0.619: from the reflected guess the second step fails without the retry, a
// fresh start manages three. GL2's fixed-point stages at h = 0.3507: both fail at step 11, the
// continued run after retrying from the fresh guess.
BOOST_AUTO_TEST_CASE(a_step_that_fails_from_the_extrapolated_guess_is_retried_from_the_fresh_one) {
  const problems::sine_euler<7> fluid;
  const auto y0 = problems::sine_euler<7>::random_initial_state(3);
  auto check = [&](auto stepper, double h, std::size_t fresh_steps_at_least) {
    auto run = [&](bool fresh_each_step, std::vector<su_n<7>::vector_type>& states) {
      auto st = stepper;
      auto y = y0;
      for (int k = 0; k < 30; ++k) {
        if (fresh_each_step) st.reset();
        const auto before = y;
        try {
          st.do_step(fluid, y, k * h, h);
        } catch (const step_error&) {
          BOOST_TEST((y.array() == before.array()).all());
          return;
        }
        states.push_back(y);
      }
    };
    std::vector<su_n<7>::vector_type> continued, restarted;
    run(false, continued);
    run(true, restarted);
    BOOST_TEST_REQUIRE(restarted.size() >= fresh_steps_at_least);  // continued steps exist to be retried
    BOOST_TEST(continued.size() >= restarted.size());
    double difference = 0;
    for (std::size_t k = 0; k < restarted.size(); ++k)
      difference = std::fmax(difference, lie_test::relative_difference(continued[k], restarted[k]));
    BOOST_TEST_MESSAGE("h = " << h << ": steps continued " << continued.size() << ", restarted " << restarted.size()
                              << ", largest difference " << difference);
    BOOST_TEST(difference <= 1e-13);
  };
  check(isospectral_midpoint<su_n<7>>(), 0.619, 3);
  lie_options fixed;
  fixed.stage_solver = lie_stage_solver::fixed_point;
  check(rkmk<su_n<7>, rk::implicit_midpoint, cayley_coordinates>(fixed), 0.3507, 10);
}
