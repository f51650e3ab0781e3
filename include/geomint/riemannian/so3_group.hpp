// The rotation group SO(3) with its bi-invariant metric ⟨u, v⟩ = u·v on so(3) ≅ ℝ³ (hat map),
// a symmetric space (Leimkuhler–Patrick 1996, §5.2). Points are rotation matrices stored as 9
// entries (column-major 3 × 3); tangent vectors are left-trivialized, i.e. body angular
// velocities w ∈ ℝ³ with q̇ = q ŵ, and covectors are body vectors (e.g. the body angular
// momentum K ω).
//
//   exp_q w   = q Exp(ŵ)                                  (item 1)
//   P_w u     = Ad_{Exp(−w/2)} u = Exp(−ŵ/2) u            (item 3; in particular P_w w = w)
//   R_w       = −¼ ad_w² : R_w v = (|w|² v − (v·w) w)/4   (item 4: a sphere of "radius" 2)
//   (∇_v h)(w, w) = d/dε h(q Exp(εv̂))(w, w) + h(w, ad_w v),  ad_w v = w × v   (eq. (44))
#pragma once

#include <cmath>

#include "geomint/riemannian/detail/jacobi_functions.hpp"

namespace geomint {

class so3_group {
 public:
  static constexpr int point_size = 9;
  static constexpr int tangent_size = 3;
  static constexpr int normal_count = 0;
  /// R_w = (|w|² Id − w wᵀ)/curvature_radius²
  static constexpr double curvature_radius = 2.0;

  template <class Q, class Nm>
  void normals(const Q&, Nm&) const {}

  /// out = q Exp(ŵ). The product of rotations drifts from orthogonality by a few ε per call;
  /// one step of the polar iteration, r ← r (3I − rᵀr)/2, removes that rounding-level drift.
  template <class Q, class W, class Out>
  void exp(const Q& q, const W& w, Out& out) const {
    const matrix<3, 3> r = Eigen::Map<const matrix<3, 3>>(q.data()) * detail::rotation(w);
    const matrix<3, 3> c = 1.5 * matrix<3, 3>::Identity() - 0.5 * (r.transpose() * r);
    Eigen::Map<matrix<3, 3>>(out.data()) = r * c;
  }
  template <class Q, class W, class U, class Out>
  void transport(const Q&, const W& w, const U& u, Out& out) const {
    out = detail::rotation(vector<3>(-0.5 * w)) * u;
  }
  template <class Q, class W, class Z, class Out>
  void transport_transpose(const Q&, const W& w, const Z& z, Out& out) const {
    out = detail::rotation(vector<3>(0.5 * w)) * z;
  }
  template <class W, class V, class C, class Out>
  void curvature_series(const W& w, const V& v, C&& c, Out& out) const {
    detail::add_curvature_term(w, v, curvature_radius, c(w.norm() / curvature_radius), out);
  }
  /// out += ½ h(w, ad_w v) as a covector in v: ½ (h w) × w
  template <class Q, class W, class HW, class Out>
  void add_connection_term(const Q&, const W& w, const HW& hw, Out& out) const {
    out += 0.5 * vector<3>(hw).cross(vector<3>(w));
  }
  /// max(max |qᵀq − I|, |det q − 1|): an orthogonal q with det −1 (a reflection, −R) is off SO(3),
  /// and exp keeps it on that component of O(3) for good.
  template <class Q>
  double point_residual(const Q& q) const {
    const Eigen::Map<const matrix<3, 3>> r(q.data());
    return std::fmax((r.transpose() * r - matrix<3, 3>::Identity()).cwiseAbs().maxCoeff(), std::fabs(r.determinant() - 1));
  }
  template <class Q, class V>
  double tangent_residual(const Q&, const V&) const { return 0; }
};

}  // namespace geomint
