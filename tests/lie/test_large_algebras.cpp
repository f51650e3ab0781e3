// Lie–Poisson steppers on algebras whose elements are dynamic-size vectors: dimension above
// max_fixed_element_size = 256, su(N) for N ≥ 17 and so(n) for n ≥ 24. su_n and so_n write
// their operations into the steppers' buffers there (the algebra concept's optional forms,
// lie/algebra.hpp), so that a step allocates nothing after the first. A test executable of its
// own (test_lie_large_algebras): it counts malloc (count_allocations.hpp), one TU per binary.
#define BOOST_TEST_MODULE lie_large_algebras
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

static_assert(su_n<17>::dimension == dynamic && so_n<25>::dimension == dynamic, "dynamic-size elements");
static_assert(geomint::detail::writes_into<su_n<17>> && geomint::detail::writes_into<so_n<25>>, "the into-forms are used");
static_assert(!geomint::detail::writes_into<su_n<15>> && !geomint::detail::writes_into<so_n<9>>, "fixed sizes return values");

using geomint::diagnostics::allocations_after_first_step;
constexpr double h = 0.01;

/// The Newton Jacobians a stepper forms in the 20 steps after its first (the steps that
/// allocations_after_first_step counts).
template <class Stepper, class System>
long jacobians_after_first_step(Stepper stepper, const System& sys, typename System::state_type y) {
  stepper.do_step(sys, y, 0.0, h);
  const long first = stepper.statistics().newton.jacobian_updates;
  for (int k = 1; k <= 20; ++k) stepper.do_step(sys, y, k * h, h);
  return stepper.statistics().newton.jacobian_updates - first;
}

/// Sine-Euler on su(17) without its own D²H: the steppers take forward differences of ∇H.
struct fluid_without_hessian {
  using algebra_type = su_n<17>;
  using state_type = problems::sine_euler<17>::state_type;
  problems::sine_euler<17> fluid;
  const algebra_type& algebra() const { return fluid.algebra(); }
  double hamiltonian(const state_type& y) const { return fluid.hamiltonian(y); }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const { fluid.gradient(y, out); }
};

lie_options fixed_point() {
  lie_options o;
  o.stage_solver = lie_stage_solver::fixed_point;
  return o;
}

/// max |a − b| relative to max |b|.
template <class A, class B>
double relative_difference(const A& a, const B& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

/// Every into-form against its value form, on random arguments, with a scratch the caller keeps
/// (sized by earlier calls, as a stepper's is); out is a block of a larger vector once (as RKMK's
/// stage slopes are), a reused vector otherwise, and y itself for an action. The value forms run
/// the same arithmetic with fresh buffers (so_n's actions and su_n's: through the into-forms), so
/// any difference is a stale buffer, a write beside the block or an aliasing error; 4 ulps of the
/// largest entry leave room for a compiler that orders a sum differently.
template <class Algebra>
void check_into_forms(const Algebra& a, typename Algebra::scratch& s) {
  using vec = typename Algebra::vector_type;
  const int d = a.dim();
  const vec u = vec::Random(d), v = vec::Random(d), y = 3 * vec::Random(d), sigma = 0.1 * vec::Random(d);
  const double tol = 4 * std::numeric_limits<double>::epsilon();
  vec out(d);
  Eigen::VectorXd slopes = Eigen::VectorXd::Zero(3 * d);
  a.bracket(u, v, slopes.segment(d, d), s);
  BOOST_TEST(relative_difference(slopes.segment(d, d), a.bracket(u, v)) <= tol);
  BOOST_TEST(slopes.head(d).cwiseAbs().maxCoeff() == 0.0);  // nothing written beside the block
  BOOST_TEST(slopes.tail(d).cwiseAbs().maxCoeff() == 0.0);
  a.ad_star(u, y, out, s);
  BOOST_TEST(relative_difference(out, a.ad_star(u, y)) <= tol);
  a.exp_coadjoint(sigma, y, out, s);
  BOOST_TEST(relative_difference(out, a.exp_coadjoint(sigma, y)) <= tol);
  a.cayley_coadjoint(sigma, y, out, s);
  BOOST_TEST(relative_difference(out, a.cayley_coadjoint(sigma, y)) <= tol);
  for (int q = 0; q <= 2; ++q) {
    a.dcay_inv(sigma, v, q, out, s);
    BOOST_TEST(relative_difference(out, a.dcay_inv(sigma, v, q)) <= tol, "q = " << q);
  }
  out = y;  // the actions may write over their y
  a.exp_coadjoint(sigma, out, out, s);
  BOOST_TEST(relative_difference(out, a.exp_coadjoint(sigma, y)) <= tol);
}

}  // namespace

BOOST_AUTO_TEST_CASE(into_forms_compute_the_value_forms) {
  const su_n<17> su17;
  su_n<17>::scratch s;
  check_into_forms(su17, s);
  check_into_forms(su17, s);  // with buffers sized by the first call
  using vec = su_n<17>::vector_type;
  const vec sigma = 0.1 * vec::Random(su17.dim()), y = vec::Random(su17.dim());
  vec out(su17.dim());
  su17.exp_coadjoint_double(sigma, y, out, s);
  BOOST_TEST(relative_difference(out, su17.exp_coadjoint_double(sigma, y)) <= 4 * std::numeric_limits<double>::epsilon());
  su17.cayley_coadjoint_double(sigma, y, out, s);
  BOOST_TEST(relative_difference(out, su17.cayley_coadjoint_double(sigma, y)) <= 4 * std::numeric_limits<double>::epsilon());
  const so_n<25> so25;
  so_n<25>::scratch none;
  check_into_forms(so25, none);
}

// On su(17) (d = 288) and so(25) (d = 300) every Lie–Poisson stepper but the discrete gradient
// allocates nothing after its first step: explicit RKMK (exp and Cayley, RK4's two-commutator
// form), implicit RKMK by Newton (the default up to s·d = 1000: its matrix is kept while h is)
// and by fixed-point iteration (Gauss methods of order 4 in both coordinates: dexp⁻¹'s and
// dcay⁻¹'s terms), the leapfrog, Moser–Veselov.
BOOST_AUTO_TEST_CASE(steps_above_dimension_256_allocate_nothing_after_the_first) {
  BOOST_TEST_REQUIRE(geomint::diagnostics::counting_includes_malloc());
  const problems::sine_euler<17> fluid;
  const auto yf = problems::sine_euler<17>::random_initial_state();
  const problems::rigid_body_so_n<25> body;
  const auto yb = problems::rigid_body_so_n<25>::initial_state();
  const long counts[] = {
      allocations_after_first_step(rkmk<su_n<17>, rk::rk4>{}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<su_n<17>, rk::rk4_two_commutators>{}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<su_n<17>, rk::rk4, cayley_coordinates>{}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<su_n<17>, rk::implicit_midpoint>{}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<su_n<17>, rk::gauss_legendre<2>>{fixed_point()}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<su_n<17>, rk::gauss_legendre<2>, cayley_coordinates>{fixed_point()}, fluid, yf, 0.0, h),
      allocations_after_first_step(lie_poisson_leapfrog<su_n<17>>{}, fluid, yf, 0.0, h),
      allocations_after_first_step(rkmk<so_n<25>, rk::rk4>{}, body, yb, 0.0, h),
      allocations_after_first_step(rkmk<so_n<25>, rk::rk4, cayley_coordinates>{}, body, yb, 0.0, h),
      allocations_after_first_step(rkmk<so_n<25>, rk::trapezoidal, cayley_coordinates>{fixed_point()}, body, yb, 0.0, h),
      allocations_after_first_step(lie_poisson_leapfrog<so_n<25>>{}, body, yb, 0.0, h),
      allocations_after_first_step(moser_veselov<so_n<25>>{}, body, yb, 0.0, h),
  };
  for (long c : counts) BOOST_TEST(c == 0);
}

// The discrete gradient forms its d × d Newton matrix in every iteration (the exact Jacobian
// (5.28)): J(y₁) and dcay⁻¹'s matrix column by column through the into-forms, D²H from the system
// or by forward differences into the workspace's vectors. What remains is the product D²H · J(y₁):
// Eigen's matrix product packs blocks of its operands into a workspace that it takes from the
// heap above 128 KB (a 288 × 288 double matrix is 648 KB), two buffers per product.
BOOST_AUTO_TEST_CASE(discrete_gradient_above_dimension_256_allocates_only_the_product_workspace) {
  BOOST_TEST_REQUIRE(geomint::diagnostics::counting_includes_malloc());
  const problems::sine_euler<17> fluid;
  const fluid_without_hessian differenced;
  const auto yf = problems::sine_euler<17>::random_initial_state();
  for (int with_hessian = 0; with_hessian < 2; ++with_hessian) {
    const lie_discrete_gradient<su_n<17>, cayley_coordinates> stepper;
    const long count = with_hessian ? allocations_after_first_step(stepper, fluid, yf, 0.0, h)
                                    : allocations_after_first_step(stepper, differenced, yf, 0.0, h);
    const long jacobians = with_hessian ? jacobians_after_first_step(stepper, fluid, yf)
                                        : jacobians_after_first_step(stepper, differenced, yf);
    BOOST_TEST(jacobians > 0);
    BOOST_TEST(count <= 2 * jacobians, "with the system's D²H: " << with_hessian);
  }
}
