// IDA references (ida_reference.hpp): agreement with a high-order geomint stepper, constraint
// behaviour of the GGL and index-1 formulations over long times, tight tolerances, the Jacobian
// assembled from the structure of G, and failure reporting.
#define BOOST_TEST_MODULE sundials
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/sundials/ida_reference.hpp"

#include <ida/ida.h>

using namespace geomint;
using namespace geomint::sundials;

namespace {

problems::pendulum_chain chain(int links) {
  problems::pendulum_chain_parameters p;
  p.links = links;
  return problems::pendulum_chain(p);
}

/// lobatto_iiia_iiib<4> (order 6) with `steps` equal steps over [0, t].
template <class System>
typename System::state_type lobatto4(const System& sys, double t, int steps) {
  typename System::state_type x = sys.initial_state();
  lobatto_iiia_iiib<4, typename System::state_type> stepper;
  for (int i = 0; i < steps; ++i) stepper.do_step(sys, x, i * t / steps, t / steps);
  return x;
}

template <class X>
double max_difference(const ida_sample& s, const X& x) {
  return std::fmax((s.q - x.first).cwiseAbs().maxCoeff(), (s.p - x.second).cwiseAbs().maxCoeff());
}

template <class System>
double max_constraint(const System& sys, const Eigen::VectorXd& q) {
  Eigen::VectorXd g(sys.constraint_count());
  sys.constraint(q, g);
  return g.cwiseAbs().maxCoeff();
}

ida_options options(double tol, dae_formulation f, ida_linear_solver ls, std::vector<double> times) {
  ida_options o;
  o.rtol = o.atol = tol;
  o.formulation = f;
  o.linear_solver = ls;
  o.output_times = std::move(times);
  return o;
}

std::vector<double> uniform_times(double t_end, int count) {
  std::vector<double> t;
  for (int i = 1; i <= count; ++i) t.push_back(t_end * i / count);
  return t;
}

const ida_linear_solver all_solvers[] = {ida_linear_solver::dense, ida_linear_solver::band, ida_linear_solver::klu};
const dae_formulation all_formulations[] = {dae_formulation::ggl, dae_formulation::index1};

}  // namespace

// IDA at rtol = atol = 1e-10 against lobatto_iiia_iiib<4> with h = 1e-3 (order 6: the stepper's
// error is below 1e-13 — halving h changes its state at t = 1 by 2e-14 on the chain). IDA's own
// global error at this tolerance is 1e-8..5e-8 (measured); 1e-7 is asserted for
// both formulations and all three linear solvers.
BOOST_AUTO_TEST_CASE(agrees_with_lobatto_on_the_double_spherical_pendulum) {
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  const auto reference = lobatto4(sys, 1.0, 1000);
  for (dae_formulation f : all_formulations)
    for (ida_linear_solver ls : all_solvers) {
      const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, f, ls, {0.5, 1.0}));
      BOOST_TEST_CONTEXT("formulation " << int(f) << ", linear solver " << int(ls)) {
        BOOST_TEST_REQUIRE(r.ok(), r.flag_name << ": " << r.message);
        BOOST_TEST(r.flag_name == "IDA_SUCCESS");
        BOOST_TEST_REQUIRE(r.samples.size() == 2u);
        BOOST_TEST(r.samples.back().t == 1.0);
        BOOST_TEST(max_difference(r.samples.back(), reference) <= 1e-7);
        BOOST_TEST(r.statistics.steps > 0);
        BOOST_TEST(r.statistics.residual_evaluations >= r.statistics.nonlinear_iterations);
        BOOST_TEST(r.statistics.jacobian_evaluations > 0);
        BOOST_TEST(r.cpu_seconds > 0);  // measured (the solve takes milliseconds), and bounded
        BOOST_TEST(r.cpu_seconds < 60);
      }
    }
}

BOOST_AUTO_TEST_CASE(agrees_with_lobatto_on_a_20_link_chain) {
  const problems::pendulum_chain sys = chain(20);
  const auto x0 = sys.initial_state();
  const auto reference = lobatto4(sys, 1.0, 1000);
  for (dae_formulation f : all_formulations)
    for (ida_linear_solver ls : all_solvers) {
      const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, f, ls, {1.0}));
      BOOST_TEST_CONTEXT("formulation " << int(f) << ", linear solver " << int(ls)) {
        BOOST_TEST_REQUIRE(r.ok(), r.flag_name << ": " << r.message);
        BOOST_TEST(max_difference(r.samples.back(), reference) <= 1e-7);
      }
    }
}

// rtol down to 1e-12 runs (IDA's default weighting failed here with IDA_CONV_FAIL at t ≈ 1e-12,
// see ida_reference.hpp). At 1e-12 the global error is 2.5e-10..5e-10 (measured); 1e-9 is asserted.
BOOST_AUTO_TEST_CASE(tight_tolerances_run) {
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  const auto reference = lobatto4(sys, 1.0, 1000);
  for (ida_linear_solver ls : all_solvers) {
    const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-12, dae_formulation::ggl, ls, {1.0}));
    BOOST_TEST_REQUIRE(r.ok(), r.flag_name << ": " << r.message);
    BOOST_TEST(max_difference(r.samples.back(), reference) <= 1e-9);
  }
}

// The failure the multiplier weighting avoids: with IDA's uniform weighting (multipliers
// weighted like q and p) the first step fails at rtol = 1e-10 with repeated corrector
// convergence failures near t = 0.
BOOST_AUTO_TEST_CASE(uniform_multiplier_weights_fail_at_tight_tolerances) {
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  ida_options o = options(1e-10, dae_formulation::ggl, ida_linear_solver::dense, {1.0});
  o.multiplier_atol = o.atol;
  const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, o);
  BOOST_TEST(r.flag_name == "IDA_CONV_FAIL", r.flag_name << ": " << r.message);
  BOOST_TEST(r.samples.empty());
  BOOST_TEST(r.statistics.steps < 100);
}

// Over [0, 100] at rtol = atol = 1e-10 the GGL formulation holds g to 2e-10 (measured), below
// 1e-8, while the index-1 formulation drifts: |g| grows from 4e-7 over the first tenth to
// 3e-5 (measured). Asserted: the index-1 drift exceeds 1e-6 and grows tenfold after the first
// tenth, i.e. it is not noise at the GGL level.
BOOST_AUTO_TEST_CASE(ggl_holds_the_constraint_and_index1_drifts) {
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  const std::vector<double> times = uniform_times(100.0, 100);
  const ida_result ggl = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, dae_formulation::ggl, ida_linear_solver::dense, times));
  const ida_result index1 = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, dae_formulation::index1, ida_linear_solver::dense, times));
  BOOST_TEST_REQUIRE(ggl.ok(), ggl.message);
  BOOST_TEST_REQUIRE(index1.ok(), index1.message);
  BOOST_TEST_REQUIRE(ggl.samples.size() == 100u);
  BOOST_TEST_REQUIRE(index1.samples.size() == 100u);
  double ggl_max = 0, drift_early = 0, drift_max = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    ggl_max = std::fmax(ggl_max, max_constraint(sys, ggl.samples[i].q));
    const double g = max_constraint(sys, index1.samples[i].q);
    drift_max = std::fmax(drift_max, g);
    if (i < 10) drift_early = std::fmax(drift_early, g);
  }
  BOOST_TEST(ggl_max <= 1e-8);
  BOOST_TEST(drift_max >= 1e-6);
  BOOST_TEST(drift_max >= 10 * drift_early);
}

// The same on the 20-link chain at rtol = atol = 1e-8 with KLU: GGL |g| ≤ 2.8e-9, index 1
// drifts to 1.3e-3 (measured).
BOOST_AUTO_TEST_CASE(ggl_holds_the_constraint_and_index1_drifts_on_the_chain, *boost::unit_test::label("slow")) {
  const problems::pendulum_chain sys = chain(20);
  const auto x0 = sys.initial_state();
  const std::vector<double> times = uniform_times(100.0, 50);
  const ida_result ggl = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-8, dae_formulation::ggl, ida_linear_solver::klu, times));
  const ida_result index1 = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-8, dae_formulation::index1, ida_linear_solver::klu, times));
  BOOST_TEST_REQUIRE(ggl.ok(), ggl.message);
  BOOST_TEST_REQUIRE(index1.ok(), index1.message);
  double ggl_max = 0, drift_early = 0, drift_max = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    ggl_max = std::fmax(ggl_max, max_constraint(sys, ggl.samples[i].q));
    const double g = max_constraint(sys, index1.samples[i].q);
    drift_max = std::fmax(drift_max, g);
    if (i < 5) drift_early = std::fmax(drift_early, g);
  }
  BOOST_TEST(ggl_max <= 1e-8);
  BOOST_TEST(drift_max >= 1e-5);
  BOOST_TEST(drift_max >= 10 * drift_early);
}

// λ(t) of the spherical pendulum in closed form: d²/dt² |q|² = 0 gives
// λ = m(|v|² − γ q_z) / (2 l²). The multipliers are algebraic (index 2 for GGL) and less
// accurate than q, p: relative errors 7e-8 (GGL) and 2.5e-8 (index 1) were measured at
// rtol = 1e-10; 1e-6 is asserted. The first sample at t = 0.1 also checks λ(t0).
BOOST_AUTO_TEST_CASE(multipliers_are_the_constraint_forces) {
  const problems::spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  for (dae_formulation f : all_formulations) {
    const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, f, ida_linear_solver::dense, uniform_times(1.0, 10)));
    BOOST_TEST_REQUIRE(r.ok(), r.message);
    for (const ida_sample& s : r.samples) {
      const double m = sys.parameters().mass, l = sys.parameters().length, gamma = sys.parameters().gravity;
      const double exact = m * ((s.p / m).squaredNorm() - gamma * s.q(2)) / (2 * l * l);
      BOOST_TEST(std::fabs(s.lambda(0) - exact) <= 1e-6 * std::fabs(exact));
    }
  }
}

// General H(q, p) (non-separable, dh_dp depends on q): both formulations agree with
// lobatto_iiia_iiib<4> at h = 1e-3 (its general stage solver; converged to 2e-14) to 2e-9 and
// 3e-9 at t = 1 (measured; 1e-7 asserted), with each other over [0, 2], and conserve H to the
// tolerance's level (1e-7 asserted).
BOOST_AUTO_TEST_CASE(general_hamiltonian) {
  const problems::variable_mass_sphere sys;
  const auto x0 = sys.initial_state();
  const double h0 = sys.hamiltonian(x0.first, x0.second);
  const auto reference = lobatto4(sys, 1.0, 1000);
  ida_result r[2];
  for (int i = 0; i < 2; ++i) {
    r[i] = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-10, all_formulations[i], ida_linear_solver::dense, uniform_times(2.0, 4)));
    BOOST_TEST_REQUIRE(r[i].ok(), r[i].message);
    BOOST_TEST(max_difference(r[i].samples[1], reference) <= 1e-7);  // t = 1
    for (const ida_sample& s : r[i].samples) BOOST_TEST(std::fabs(sys.hamiltonian(s.q, s.p) - h0) <= 1e-7);
  }
  for (int k = 0; k < 4; ++k) {
    BOOST_TEST((r[0].samples[k].q - r[1].samples[k].q).cwiseAbs().maxCoeff() <= 1e-7);
    BOOST_TEST((r[0].samples[k].p - r[1].samples[k].p).cwiseAbs().maxCoeff() <= 1e-7);
  }
}

// The Jacobian handed to IDA against forward differences of the residual along
// (e_j, cj e_j), i.e. ∂F/∂y + cj ∂F/∂ẏ. For these problems (quadratic constraints, analytic or
// vanishing ∂²V) the assembled blocks, curvature terms included, are exact; forward differences
// with a relative step of 1e-7 are accurate to ~1e-7 of a row's largest entry, and 1e-5 is
// asserted row by row. The index-1 rows F_λ keep only their cj-scaled part (the O(1) remainder
// is left to Newton), so they are checked at cj = 1e6, where that remainder is ~1e-6 of the row.
template <class System>
void check_jacobian(const System& sys, bool ggl) {
  const auto x0 = sys.initial_state();
  geomint::sundials::detail::constrained_dae<System> model(sys, ggl, x0.first, x0.second, 0.0);
  const int n = model.size();
  // A point off the initial state so that no block vanishes by symmetry.
  Eigen::VectorXd y = model.initial_y(), yp = model.initial_yp();
  for (int i = 0; i < n; ++i) {
    y(i) += 1e-2 * std::sin(1.0 + i);
    yp(i) += 1e-2 * std::cos(2.0 + i);
  }
  const double cj = ggl ? 37.0 : 1e6;
  Eigen::SparseMatrix<double> jac;
  BOOST_TEST_REQUIRE(model.jacobian(0.0, cj, y.data(), yp.data(), jac) == 0);
  const Eigen::MatrixXd assembled(jac);
  Eigen::MatrixXd numeric(n, n);
  Eigen::VectorXd r0(n), r1(n);
  BOOST_TEST_REQUIRE(model.residual(0.0, y.data(), yp.data(), r0.data()) == 0);
  for (int j = 0; j < n; ++j) {
    const double d = 1e-7 * std::fmax(1.0, std::fabs(y(j)));
    Eigen::VectorXd yj = y, ypj = yp;
    yj(j) += d;
    ypj(j) += cj * d;
    BOOST_TEST_REQUIRE(model.residual(0.0, yj.data(), ypj.data(), r1.data()) == 0);
    numeric.col(j) = (r1 - r0) / d;
  }
  for (int i = 0; i < n; ++i) {
    const double scale = std::fmax(numeric.row(i).cwiseAbs().maxCoeff(), 1e-300);
    BOOST_TEST((assembled.row(i) - numeric.row(i)).cwiseAbs().maxCoeff() <= 1e-5 * scale, "row " << i);
  }
}

BOOST_AUTO_TEST_CASE(jacobian_matches_differences_of_the_residual) {
  for (bool ggl : {true, false}) {
    BOOST_TEST_CONTEXT("GGL " << ggl) {
      check_jacobian(problems::double_spherical_pendulum(), ggl);
      check_jacobian(chain(5), ggl);
      check_jacobian(problems::variable_mass_sphere(), ggl);
    }
  }
}

// The unknowns are interleaved so that a banded G gives a banded Jacobian: the half-bandwidths
// for a chain do not grow with its length (a q, p, λ, μ block ordering would give ~2n).
BOOST_AUTO_TEST_CASE(chain_jacobian_is_banded_independently_of_the_length) {
  auto bandwidth = [](int links) {
    const problems::pendulum_chain sys = chain(links);
    const auto x0 = sys.initial_state();
    geomint::sundials::detail::constrained_dae<problems::pendulum_chain> model(sys, true, x0.first, x0.second, 0.0);
    Eigen::SparseMatrix<double> jac;
    model.jacobian(0.0, 1.0, model.initial_y().data(), model.initial_yp().data(), jac);
    long width = 0;
    for (int j = 0; j < jac.outerSize(); ++j)
      for (Eigen::SparseMatrix<double>::InnerIterator it(jac, j); it; ++it) width = std::max<long>(width, std::labs(it.row() - j));
    return width;
  };
  const long w20 = bandwidth(20), w80 = bandwidth(80);
  BOOST_TEST(w20 == w80);
  BOOST_TEST(w20 <= 20);
}

// Failures come back with IDA's flag name and the samples reached, never an abort.
BOOST_AUTO_TEST_CASE(ida_failures_are_reported_with_their_flag_name) {
  const problems::double_spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  ida_options o = options(1e-8, dae_formulation::ggl, ida_linear_solver::dense, {1e-6, 10.0});
  o.max_steps = 20;
  const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, o);
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.flag == IDA_TOO_MUCH_WORK);
  BOOST_TEST(r.flag_name == "IDA_TOO_MUCH_WORK");
  BOOST_TEST(!r.message.empty());
  BOOST_TEST(r.samples.size() == 1u);  // t = 1e-6 was reached, t = 10 not within 20 steps
  BOOST_TEST(ida_flag_name(IDA_CONV_FAIL) == "IDA_CONV_FAIL");
}

namespace {
/// The double pendulum whose potential gradient throws after `limit` calls.
struct failing_pendulum : problems::double_spherical_pendulum {
  mutable long calls = 0;
  long limit = 0;
  template <class Q, class P, class Out>
  void dh_dq(const Q& q, const P& p, Out& out) const {
    if (++calls > limit) throw std::runtime_error("potential out of range");
    double_spherical_pendulum::dh_dq(q, p, out);
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_throwing_system_becomes_an_ida_residual_failure) {
  failing_pendulum sys;
  sys.limit = 400;
  const auto x0 = sys.initial_state();
  const ida_result r = solve_ida(sys, x0.first, x0.second, 0.0, options(1e-8, dae_formulation::ggl, ida_linear_solver::dense, uniform_times(1.0, 10)));
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.flag_name == "IDA_RES_FAIL");
  BOOST_TEST(r.message.find("potential out of range") != std::string::npos, r.message);
  BOOST_TEST(!r.samples.empty());
}

BOOST_AUTO_TEST_CASE(input_errors_throw) {
  const problems::double_spherical_pendulum sys;
  auto x0 = sys.initial_state();
  BOOST_CHECK_THROW(solve_ida(sys, x0.first, x0.second, 0.0, options(1e-8, dae_formulation::ggl, ida_linear_solver::dense, {})),
                    std::invalid_argument);
  BOOST_CHECK_THROW(solve_ida(sys, x0.first, x0.second, 0.0, options(-1, dae_formulation::ggl, ida_linear_solver::dense, {1.0})),
                    std::invalid_argument);
  BOOST_CHECK_THROW(solve_ida(sys, x0.first, x0.second, 1.0, options(1e-8, dae_formulation::ggl, ida_linear_solver::dense, {0.5})),
                    std::invalid_argument);
  x0.first(0) += 1e-3;  // off the manifold
  try {
    solve_ida(sys, x0.first, x0.second, 0.0, options(1e-8, dae_formulation::ggl, ida_linear_solver::dense, {1.0}));
    BOOST_FAIL("an inconsistent initial state was accepted");
  } catch (const step_error& e) {
    BOOST_TEST(int(e.reason()) == int(failure_reason::inconsistent_initial_state));
  }
}
