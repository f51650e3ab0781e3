// The midpoint discrete Lagrangian (Marsden–Wendlandt 1997, eq. (42)):
//
//   L_d(q0, q1) = h L((q0 + q1)/2, (q1 − q0)/h)  ≈ ∫₀ʰ L dt,
//
// second-order accurate and symmetric. Convention: geomint writes L_d(q_k, q_{k+1}) with the factor
// h (the action sum ≈ ∫L dt); the paper's 𝕃(y, x) = L((y + x)/2, (y − x)/h) is L_d(x, y)/h, so
// −h D₂𝕃(q_{k+1}, q_k) = −D₁L_d(q_k, q_{k+1}) is the discrete momentum at q_k (eq. (31)).
// With m = (q0 + q1)/2, v = (q1 − q0)/h and L_qv(i, j) = ∂²L/∂q_i∂v_j:
//
//   D₁L_d = (h/2) L_q − L_v,    D₂L_d = (h/2) L_q + L_v,
//   D₁₂L_d = ∂(D₁L_d)/∂q1 = (h/4) L_qq + ½ (L_qv − L_qvᵀ) − L_vv / h.
//
// The evaluator takes (q0, Δ = q1 − q0): the steppers carry the displacement as their unknown
// (the "summed form"), so the discrete velocity Δ/h and the momenta carry round-off ε|p| rather
// than ε|q|/h from the cancellation in q1 − q0.
#pragma once

#include "geomint/system/lagrangian_system.hpp"

namespace geomint {

struct midpoint_discrete_lagrangian {
  static constexpr int order = 2;

  template <class System>
  class evaluator {
    static constexpr int N = lagrangian_traits<System>::n;

   public:
    void resize(int n) {
      mid_.resize(n);
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
      return h * sys.lagrangian(mid_, vel_);
    }
    /// d1 = ∂L_d/∂q0, d2 = ∂L_d/∂q1.
    template <class Q0, class D, class D1, class D2>
    void derivatives(const System& sys, const Q0& q0, const D& delta, double h, D1& d1, D2& d2) {
      at(q0, delta, h);
      sys.lagrangian_gradient(mid_, vel_, lq_, lv_);
      d1 = 0.5 * h * lq_ - lv_;
      d2 = 0.5 * h * lq_ + lv_;
    }
    /// out(i, j) = ∂²L_d/∂q0_i∂q1_j.
    template <class Q0, class D, class Out>
    void mixed_hessian(const System& sys, const Q0& q0, const D& delta, double h, Out& out) {
      at(q0, delta, h);
      sys.lagrangian_hessian(mid_, vel_, qq_, qv_, vv_);
      out = (0.25 * h) * qq_ + 0.5 * (qv_ - qv_.transpose()) - vv_ / h;
    }

   private:
    template <class Q0, class D>
    void at(const Q0& q0, const D& delta, double h) {
      mid_ = q0 + 0.5 * delta;
      vel_ = delta / h;
    }

    vector<N> mid_, vel_, lq_, lv_;
    matrix<N, N> qq_, qv_, vv_;
  };
};

}  // namespace geomint
