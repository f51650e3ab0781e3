// The discrete Lagrangians that evaluate L at one point of the step,
//
//   L_d(q0, q1) = h L(q0 + θ(q1 − q0), (q1 − q0)/h),
//
// θ = 1/2: the midpoint rule (Marsden–Wendlandt 1997, eq. (42)); θ = 1: the first-order form (51).
// With m = q0 + θ(q1 − q0), v = (q1 − q0)/h, L's derivatives at (m, v) and
// L_qv(i, j) = ∂²L/∂q_i∂v_j:
//
//   D₁L_d = (1 − θ) h L_q − L_v,    D₂L_d = θ h L_q + L_v,
//   D₁₂L_d = ∂(D₁L_d)/∂q1 = θ(1 − θ) h L_qq + (1 − θ) L_qv − θ L_qvᵀ − L_vv / h.
//
// The evaluator takes (q0, Δ = q1 − q0): the steppers carry the displacement as their unknown
// (the "summed form"), so the discrete velocity Δ/h and the momenta carry round-off ε|p| rather
// than ε|q|/h from the cancellation in q1 − q0.
#pragma once

#include "geomint/system/lagrangian_system.hpp"

namespace geomint::detail {

/// The evaluator of L_d for θ = Numerator / Denominator.
template <class System, int Numerator, int Denominator>
class one_point_discrete_lagrangian {
  static constexpr int N = lagrangian_traits<System>::n;
  static constexpr double theta = static_cast<double>(Numerator) / Denominator;

 public:
  void resize(int n) {
    point_.resize(n);
    vel_.resize(n);
    lq_.resize(n);
    lv_.resize(n);
    qq_.resize(n, n);
    qv_.resize(n, n);
    vv_.resize(n, n);
  }

  template <class Q0, class D>
  double value(const System& sys, const Q0& q0, const D& delta, double h) {
    at(q0, delta, h);
    return h * sys.lagrangian(point_, vel_);
  }
  /// d1 = ∂L_d/∂q0, d2 = ∂L_d/∂q1.
  template <class Q0, class D, class D1, class D2>
  void derivatives(const System& sys, const Q0& q0, const D& delta, double h, D1& d1, D2& d2) {
    at(q0, delta, h);
    sys.lagrangian_gradient(point_, vel_, lq_, lv_);
    d1 = ((1 - theta) * h) * lq_ - lv_;
    d2 = (theta * h) * lq_ + lv_;
  }
  /// out(i, j) = ∂²L_d/∂q0_i∂q1_j.
  template <class Q0, class D, class Out>
  void mixed_hessian(const System& sys, const Q0& q0, const D& delta, double h, Out& out) {
    at(q0, delta, h);
    sys.lagrangian_hessian(point_, vel_, qq_, qv_, vv_);
    out = (theta * (1 - theta) * h) * qq_ + (1 - theta) * qv_ - theta * qv_.transpose() - vv_ / h;
  }

 private:
  template <class Q0, class D>
  void at(const Q0& q0, const D& delta, double h) {
    point_ = q0 + theta * delta;
    vel_ = delta / h;
  }

  vector<N> point_, vel_, lq_, lv_;
  matrix<N, N> qq_, qv_, vv_;
};

}  // namespace geomint::detail
