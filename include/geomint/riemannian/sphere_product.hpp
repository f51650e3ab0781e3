// Products of round spheres S²_{a_1} × … × S²_{a_K} ⊂ ℝ³ᴷ with the product of the round metrics
// (the Euclidean metric of ℝ³ᴷ restricted): the symmetric space of Leimkuhler–Patrick 1996, §5.1.
// Points and tangent vectors are ambient vectors of ℝ³ᴷ, factor i in entries 3i..3i+2; a tangent
// vector w at q has q_i·w_i = 0 for each factor. `sphere` is the single sphere S²_a.
//
//   exp_q w       = Exp((q_i × w_i)^/a_i²) q_i per factor        (eq. (40): the great circle)
//   P_w u         = Exp((q_i × w_i)^/a_i²) u_i per factor        (eq. (41): parallel transport)
//   R_w v         = (|w_i|² v_i − (v_i·w_i) w_i)/a_i² per factor (eq. (42): curvature operator)
//   f(R_w)        = f(0) Id + (f(θ_i²) − f(0)) R_w/θ_i², θ_i = |w_i|/a_i (eq. (43)),
//                   hence (1/f₂)(R_w) = Id + g1(θ) R_w and (f₁/f₂)(R_w) = Id + g2(θ) R_w
//   connection    a parallel field along a curve with velocity v changes along the normal only:
//                 Γ(q, v) w = −(v_i·w_i) q_i/a_i², so for a symmetric form h on ℝ³ᴷ
//                 (∇_v h)(w, w) = ∂_q(h(q)(w, w))·v + 2 h(Γ(q, v) w, w)
//                              = ∂_q(h(q)(w, w))·v − 2 Σ_i (v_i·w_i)(q_i·(h w)_i)/a_i².
//                 (§5.1 prints the last term with coefficient 1/a² instead of 2/a² although its
//                 own previous line has the factor 2; with 1/a² the leapfrog measurably is not
//                 symplectic — a defect O(h) — with 2/a² it is, to round-off.)
#pragma once

#include <array>
#include <cmath>
#include <stdexcept>

#include "geomint/riemannian/detail/jacobi_functions.hpp"

namespace geomint {

template <int K>
class sphere_product {
  static_assert(K >= 1, "a product of at least one sphere");

 public:
  static constexpr int factors = K;
  static constexpr int point_size = 3 * K;    ///< entries of a point (ambient ℝ³ᴷ)
  static constexpr int tangent_size = 3 * K;  ///< entries of a tangent vector
  static constexpr int normal_count = K;      ///< codimension in ℝ³ᴷ

  sphere_product() { radii_.fill(1.0); }
  explicit sphere_product(const std::array<double, K>& radii) : radii_(radii) {
    for (double a : radii_)
      if (!(a > 0)) throw std::invalid_argument("geomint: sphere radii must be positive");
  }

  double radius(int i) const { return radii_[static_cast<std::size_t>(i)]; }

  /// Unit normals: column i is q_i/a_i in block i (3K × K).
  template <class Q, class Nm>
  void normals(const Q& q, Nm& n) const {
    n.setZero();
    for (int i = 0; i < K; ++i) n.template block<3, 1>(3 * i, i) = q.template segment<3>(3 * i) / radius(i);
  }
  /// out = exp_q(w)  (eq. (40)). The exact exp_q w lies on the sphere; the computed rotation
  /// leaves a radial rounding error of a few ε per call, which would random-walk over many steps,
  /// so it is removed by rescaling to the radius (a correction at the rounding level only).
  template <class Q, class W, class Out>
  void exp(const Q& q, const W& w, Out& out) const {
    for (int i = 0; i < K; ++i) {
      auto oi = out.template segment<3>(3 * i);
      oi = turn(q, w, i) * q.template segment<3>(3 * i);
      oi *= radius(i) / oi.norm();
    }
  }
  /// out = P_w u: parallel transport of u ∈ T_qQ along t ↦ exp_q(tw), t ∈ [0, 1]  (eq. (41))
  template <class Q, class W, class U, class Out>
  void transport(const Q& q, const W& w, const U& u, Out& out) const {
    for (int i = 0; i < K; ++i) out.template segment<3>(3 * i) = turn(q, w, i) * u.template segment<3>(3 * i);
  }
  /// out = P_wᵀ z (the adjoint of the transport, applied to an ambient covector z)
  template <class Q, class W, class Z, class Out>
  void transport_transpose(const Q& q, const W& w, const Z& z, Out& out) const {
    for (int i = 0; i < K; ++i)
      out.template segment<3>(3 * i) = turn(q, w, i).transpose() * z.template segment<3>(3 * i);
  }
  /// out = v + c(θ_i) R_w v per factor, θ_i = |w_i|/a_i, for a scalar function c (g1, −g2, …).
  template <class W, class V, class C, class Out>
  void curvature_series(const W& w, const V& v, C&& c, Out& out) const {
    for (int i = 0; i < K; ++i) {
      const auto wi = w.template segment<3>(3 * i);
      detail::add_curvature_term(wi, v.template segment<3>(3 * i), radius(i), c(wi.norm() / radius(i)),
                                 out.template segment<3>(3 * i));
    }
  }
  /// out += ½ Σ_i (connection part of (∇_v h)(w, w)) as a covector in v: −(q_i·(hw)_i) w_i/a_i²
  template <class Q, class W, class HW, class Out>
  void add_connection_term(const Q& q, const W& w, const HW& hw, Out& out) const {
    for (int i = 0; i < K; ++i) {
      const double a2 = radius(i) * radius(i);
      out.template segment<3>(3 * i) -=
          (q.template segment<3>(3 * i).dot(hw.template segment<3>(3 * i)) / a2) * w.template segment<3>(3 * i);
    }
  }
  /// max_i ||q_i| − a_i|/a_i: how far q is from the space.
  template <class Q>
  double point_residual(const Q& q) const {
    double r = 0;
    for (int i = 0; i < K; ++i) r = std::fmax(r, std::fabs(q.template segment<3>(3 * i).norm() - radius(i)) / radius(i));
    return r;
  }
  /// max_i |q_i·v_i|/(a_i |v|): how far v is from T_qQ (cosine of the angle to the tangent space).
  template <class Q, class V>
  double tangent_residual(const Q& q, const V& v) const {
    const double scale = v.norm();
    if (scale == 0) return 0;
    double r = 0;
    for (int i = 0; i < K; ++i)
      r = std::fmax(r, std::fabs(q.template segment<3>(3 * i).dot(v.template segment<3>(3 * i))) / (radius(i) * scale));
    return r;
  }

 private:
  /// The rotation of factor i taking q_i to exp_q(w)_i: Exp((q_i × w_i)/a_i²).
  template <class Q, class W>
  matrix<3, 3> turn(const Q& q, const W& w, int i) const {
    const double a2 = radius(i) * radius(i);
    const vector<3> axis = q.template segment<3>(3 * i).cross(vector<3>(w.template segment<3>(3 * i))) / a2;
    return detail::rotation(axis);
  }

  std::array<double, K> radii_;
};

/// The round sphere S²_a ⊂ ℝ³.
class sphere : public sphere_product<1> {
 public:
  sphere() = default;
  explicit sphere(double radius) : sphere_product<1>(std::array<double, 1>{radius}) {}
};

}  // namespace geomint
