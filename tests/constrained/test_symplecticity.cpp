// Symplecticity on the tangent space of the constraint manifold, by finite differences:
// (DΦU)ᵀJ(DΦU) = UᵀJU for an orthonormal basis U of T_xM. The same check must
// reject a non-symplectic method: explicit midpoint on the index-1 ODE followed by projection.
#include <boost/test/unit_test.hpp>

#include "common.hpp"
#include "geomint/system/index1.hpp"
#include "geomint/diagnostics/symplecticity.hpp"

using namespace geomint;
using namespace test;
using Eigen::VectorXd;

namespace {
// Central differences with ε = 1e-5 have truncation error ~ε² ≈ 1e-10 and round-off
// ~1e-16/ε ≈ 1e-11 in DΦ; measured defects of the symplectic methods are 2e-10 to 7e-10.
// A non-symplectic second-order method violates the identity at O(h³) per step (≥ 1e-5 here).
constexpr double symplectic_tolerance = 1e-8;
constexpr double non_symplectic_floor = 1e-6;

template <class Stepper, class System>
double defect(const System& sys, const VectorXd& q, const VectorXd& p, double h) {
  return geomint::diagnostics::manifold_map_symplecticity_defect(sys, q, p, [&](VectorXd& a, VectorXd& b) {
    Stepper stepper;
    std::pair<VectorXd, VectorXd> x{a, b};
    stepper.do_step(sys, x, 0.0, h);
    a = x.first;
    b = x.second;
  });
}

/// Explicit midpoint rule on the index-1 ODE, then projection onto M: second order, consistent
/// with M, but not symplectic.
template <class System>
double explicit_midpoint_defect(const System& sys, const VectorXd& q, const VectorXd& p, double h) {
  return geomint::diagnostics::manifold_map_symplecticity_defect(sys, q, p, [&](VectorXd& a, VectorXd& b) {
    index1_vector_field<System> f(sys);
    const Eigen::Index n = a.size();
    VectorXd dq(n), dp(n);
    f(0.0, a, b, dq, dp);
    VectorXd qm = a + 0.5 * h * dq, pm = b + 0.5 * h * dp;
    f(0.5 * h, qm, pm, dq, dp);
    a += h * dq;
    b += h * dp;
    project_to_manifold(sys, a, b, 1e-15);
  });
}
}  // namespace

BOOST_AUTO_TEST_CASE(rattle_and_lobatto_are_symplectic_on_the_constraint_manifold) {
  const problems::double_spherical_pendulum dsp;
  const auto x = dsp.initial_state();
  const VectorXd q = x.first, p = x.second;
  for (double h : {0.01, 0.05}) {
    BOOST_TEST(defect<rattle<>>(dsp, q, p, h) <= symplectic_tolerance);
    BOOST_TEST(defect<lobatto_iiia_iiib<3>>(dsp, q, p, h) <= symplectic_tolerance);
    BOOST_TEST(defect<constrained_symplectic_euler<>>(dsp, q, p, h) <= symplectic_tolerance);
    BOOST_TEST(explicit_midpoint_defect(dsp, q, p, h) >= non_symplectic_floor);
  }
  // Non-separable H: the general stage solver.
  const problems::variable_mass_sphere vm;
  const auto y = vm.initial_state();
  BOOST_TEST(defect<rattle<>>(vm, y.first, y.second, 0.1) <= symplectic_tolerance);
  BOOST_TEST(defect<lobatto_iiia_iiib<3>>(vm, y.first, y.second, 0.1) <= symplectic_tolerance);
  BOOST_TEST(explicit_midpoint_defect(vm, y.first, y.second, 0.1) >= non_symplectic_floor);
}
