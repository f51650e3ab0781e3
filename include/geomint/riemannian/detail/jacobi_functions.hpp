// Scalar functions of the curvature operator on spaces of constant curvature (Leimkuhler–Patrick
// 1996, §5.1), evaluated without cancellation near 0:
//   g1(z) = (z/sin z − 1)/z² = (z/sin z)·(z − sin z)/z³
//   g2(z) = (z cos z/sin z − 1)/z² = g1(z) − (sin z/z)/(1 + cos z)
// so that it is enough to evaluate sin z/z and (z − sin z)/z³ stably, as the paper shows.
// Also the rotation Exp(û) = I + (sin θ/θ) û + ((1 − cos θ)/θ²) û², θ = |u| (Rodrigues).
#pragma once

#include <Eigen/Geometry>
#include <cmath>

#include "geomint/core/types.hpp"

namespace geomint {
namespace detail {

/// sin z / z
inline double sinc(double z) {
  if (std::fabs(z) < 1e-4) return 1.0 - z * z / 6.0;  // next term z⁴/120 < 1e-18
  return std::sin(z) / z;
}

/// (z − sin z)/z³; Taylor series below |z| = 1 (truncation < 1e-19), where the direct formula
/// would lose digits to cancellation.
inline double sin_defect(double z) {
  const double x = z * z;
  if (std::fabs(z) < 1.0) {
    // Σ_k (−1)^k z^{2k}/(2k + 3)!, k = 0..8, by Horner
    constexpr double c[9] = {1.0 / 6,           -1.0 / 120,          1.0 / 5040,
                             -1.0 / 362880,     1.0 / 39916800,      -1.0 / 6227020800.0,
                             1.0 / 1307674368000.0, -1.0 / 355687428096000.0, 1.0 / 121645100408832000.0};
    double s = c[8];
    for (int k = 7; k >= 0; --k) s = s * x + c[k];
    return s;
  }
  return (z - std::sin(z)) / (x * z);
}

/// g1(z) = (z/sin z − 1)/z²  (Leimkuhler–Patrick §5.1)
inline double jacobi_g1(double z) { return sin_defect(z) / sinc(z); }

/// g2(z) = (z cos z/sin z − 1)/z²  (Leimkuhler–Patrick §5.1)
inline double jacobi_g2(double z) { return jacobi_g1(z) - sinc(z) / (1.0 + std::cos(z)); }

/// (1 − cos θ)/θ² = ½ (sin(θ/2)/(θ/2))²
inline double versine_ratio(double theta) {
  const double s = sinc(0.5 * theta);
  return 0.5 * s * s;
}

/// Exp(û) for u ∈ ℝ³ (rotation by |u| about u).
template <class U>
matrix<3, 3> rotation(const U& u) {
  const double theta = u.norm();
  matrix<3, 3> k;
  k << 0, -u(2), u(1), u(2), 0, -u(0), -u(1), u(0), 0;
  matrix<3, 3> r = matrix<3, 3>::Identity();
  r.noalias() += sinc(theta) * k;
  r.noalias() += versine_ratio(theta) * (k * k);
  return r;
}

/// out = v + c · R_w v with R_w v = (|w|² v − (v·w) w)/a² (the curvature operator of a sphere of
/// radius a, Leimkuhler–Patrick eq. (42)), i.e. f(R_w) v for f(R_w) = Id + c R_w.
template <class W, class V, class Out>
void add_curvature_term(const W& w, const V& v, double a, double c, Out&& out) {
  out = v + (c / (a * a)) * (w.squaredNorm() * v - v.dot(w) * w);
}

}  // namespace detail
}  // namespace geomint
