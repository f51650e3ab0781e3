// The geometry of the symmetric spaces: the functions g1, g2 of §5.1 evaluated stably near 0,
// exponential maps and parallel transport on spheres and SO(3).
#include <boost/test/unit_test.hpp>

#include <Eigen/Geometry>
#include <cmath>

#include "geomint/riemannian/detail/jacobi_functions.hpp"
#include "geomint/riemannian/so3_group.hpp"
#include "geomint/riemannian/sphere_product.hpp"

using namespace geomint;

namespace {
/// g1, g2 from their definitions in long double (64-bit mantissa), for z where the cancellation
/// in z/sin z − 1 costs fewer digits than long double has to spare (z ≥ 0.05).
long double g1_direct(long double z) { return (z / std::sin(z) - 1) / (z * z); }
long double g2_direct(long double z) { return (z * std::cos(z) / std::sin(z) - 1) / (z * z); }
double relative(double a, long double b) { return static_cast<double>(std::fabs((a - b) / b)); }
}  // namespace

// Leimkuhler–Patrick §5.1: g1(z) = (z/sin z − 1)/z², g2(z) = (z cos z/sin z − 1)/z², "care is
// required to avoid error in the numerical evaluation of these quantities, since |w| is near
// zero". Against long double definitions for z ∈ [0.05, 2.5] (including both sides of the
// series switch at z = 1): relative error ≤ 1e-15. Near 0 against their Taylor series
// g1 = 1/6 + 7z²/360 + 31z⁴/15120 + 127z⁶/604800, g2 = −1/3 − z²/45 − 2z⁴/945 − z⁶/4725 (next
// terms < 1e-19 for z ≤ 1e-2).
BOOST_AUTO_TEST_CASE(g1_and_g2_are_accurate_near_zero_and_away_from_it) {
  for (double z : {0.05, 0.3, 0.7, 0.999999, 1.0, 1.000001, 1.5, 2.5}) {
    BOOST_TEST_CONTEXT("z = " << z) {
      BOOST_TEST(relative(detail::jacobi_g1(z), g1_direct(z)) < 1e-15);
      BOOST_TEST(relative(detail::jacobi_g2(z), g2_direct(z)) < 1e-15);
    }
  }
  for (double z : {0.0, 1e-12, 1e-8, 1e-5, 1e-3, 1e-2}) {
    BOOST_TEST_CONTEXT("z = " << z) {
      const double x = z * z;
      BOOST_TEST(relative(detail::jacobi_g1(z), 1.0L / 6 + 7.0L * x / 360 + 31.0L * x * x / 15120 + 127.0L * x * x * x / 604800) < 1e-15);
      BOOST_TEST(relative(detail::jacobi_g2(z), -1.0L / 3 - x / 45.0L - 2.0L * x * x / 945 - x * x * x / 4725.0L) < 1e-15);
    }
  }
  // The naive formula at z = 1e-7 has lost all but one digit: what the stable form avoids.
  const double z = 1e-7;
  BOOST_TEST(std::fabs((z / std::sin(z) - 1) / (z * z) - 1.0 / 6) > 1e-3);
}

// exp_q(w) on a sphere of radius a is the great circle cos(|w|/a) q + a sin(|w|/a) w/|w|
// (eq. (40)); P_w transports tangent vectors to tangent vectors isometrically (eq. (41)), and
// P_w w is the velocity of the geodesic at its end. Round-off tolerances (a few ε of |q|).
BOOST_AUTO_TEST_CASE(sphere_exponential_and_transport) {
  const sphere s(1.7);
  const vector<3> q = 1.7 * vector<3>(0.36, -0.48, 0.8);
  const vector<3> w = vector<3>(0.8, 0.6, 0.0) * 0.9;  // ⟂ q
  vector<3> e, pw, pu;
  s.exp(q, w, e);
  const double theta = w.norm() / 1.7;
  const vector<3> circle = std::cos(theta) * q + 1.7 * std::sin(theta) * w / w.norm();
  BOOST_TEST((e - circle).norm() < 1e-15 * 1.7 * 4);
  BOOST_TEST(std::fabs(e.norm() - 1.7) < 1e-15 * 4);
  s.transport(q, w, w, pw);
  const vector<3> velocity = -std::sin(theta) * w.norm() * q / 1.7 + std::cos(theta) * w;
  BOOST_TEST((pw - velocity).norm() < 1e-15 * 4);
  const vector<3> u = q.cross(w).normalized() * 0.3 + w * 0.2;  // tangent at q
  s.transport(q, w, u, pu);
  BOOST_TEST(std::fabs(pu.dot(e)) < 1e-15 * 4);   // tangent at exp_q w
  BOOST_TEST(std::fabs(pu.norm() - u.norm()) < 1e-15 * 4);
  BOOST_TEST(std::fabs(pu.dot(pw) - u.dot(w)) < 1e-15 * 4);
  // Tiny steps: no loss near w = 0.
  const vector<3> tiny = 1e-9 * w;
  s.exp(q, tiny, e);
  BOOST_TEST((e - (q + tiny)).norm() < 1e-15 * 4);
  BOOST_TEST(s.point_residual(e) < 4e-16);
}

// Products act factor by factor, with their own radii.
BOOST_AUTO_TEST_CASE(sphere_products_act_factorwise) {
  const sphere_product<2> s2(std::array<double, 2>{4.0, 3.0});
  const sphere a(4.0), b(3.0);
  vector<6> q, w, e;
  q << 0, 0, -4, 1.8, 0, -2.4;
  w << 0.5, -0.2, 0, 0.4, 0.3, 0.3;  // ⟂ per factor
  s2.exp(q, w, e);
  vector<3> ea, eb;
  a.exp(vector<3>(q.head<3>()), vector<3>(w.head<3>()), ea);
  b.exp(vector<3>(q.tail<3>()), vector<3>(w.tail<3>()), eb);
  BOOST_TEST((e.head<3>() - ea).norm() == 0.0);
  BOOST_TEST((e.tail<3>() - eb).norm() == 0.0);
  BOOST_TEST(s2.point_residual(e) < 4e-16);
}

// SO(3): exp_q w = q Exp(ŵ) stays orthogonal; P_w w = w (transport along a one-parameter
// subgroup leaves its generator fixed, §5.2 item 3); the curvature operator is that of a sphere
// of radius 2: R_w w = 0, R_w v = |w|² v/4 for v ⟂ w.
BOOST_AUTO_TEST_CASE(so3_exponential_transport_and_curvature) {
  const so3_group g;
  vector<9> q, e;
  Eigen::Map<matrix<3, 3>>(q.data()) = detail::rotation(vector<3>(0.3, -1.1, 0.4));
  const vector<3> w(0.2, 0.5, -0.7), v = w.cross(vector<3>(1, 0, 0));
  g.exp(q, w, e);
  BOOST_TEST(g.point_residual(e) < 1e-15);
  const matrix<3, 3> expected = Eigen::Map<const matrix<3, 3>>(q.data()) *
                                Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix();
  BOOST_TEST((Eigen::Map<const matrix<3, 3>>(e.data()) - expected).cwiseAbs().maxCoeff() < 1e-15);
  vector<3> pw;
  g.transport(q, w, w, pw);
  BOOST_TEST((pw - w).norm() < 1e-16);
  vector<3> rw, rv;
  g.curvature_series(w, w, [](double) { return 1.0; }, rw);  // w + R_w w
  g.curvature_series(w, v, [](double) { return 1.0; }, rv);  // v + R_w v
  BOOST_TEST((rw - w).norm() < 1e-16);
  BOOST_TEST((rv - (1 + w.squaredNorm() / 4) * v).norm() < 1e-15);
  // Orthogonal but a reflection: off SO(3) by |det q − 1| = 2.
  vector<9> reflected = -q;
  BOOST_TEST(g.point_residual(reflected) == 2.0, boost::test_tools::tolerance(1e-14));
}
