// The first-order discrete Lagrangian (Marsden–Wendlandt 1997, eq. (51)):
//
//   L_d(q0, q1) = h L(q1, (q1 − q0)/h),
//
// first-order accurate for a general L (no cancellation in the h¹ term), but for
// L = ½q̇ᵀMq̇ − V(q) without constraints its DEL equations are explicit: it is the symplectic Euler
// method. Same conventions as midpoint_discrete_lagrangian.hpp. With v = (q1 − q0)/h and all
// derivatives of L at (q1, v):
//
//   D₁L_d = −L_v,    D₂L_d = h L_q + L_v,    D₁₂L_d = ∂(D₁L_d)/∂q1 = −L_qvᵀ − L_vv / h.
//
// The evaluator takes (q0, Δ = q1 − q0): the steppers carry the displacement as their unknown
// (the "summed form"), so the discrete velocity Δ/h and the momenta carry round-off ε|p| rather
// than ε|q|/h from the cancellation in q1 − q0.
#pragma once

#include "geomint/system/lagrangian_system.hpp"

namespace geomint {

struct first_order_discrete_lagrangian {
  static constexpr int order = 1;

  template <class System>
  class evaluator {
    static constexpr int N = lagrangian_traits<System>::n;

   public:
    void resize(int n) {
      pos_.resize(n);
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
      return h * sys.lagrangian(pos_, vel_);
    }
    template <class Q0, class D, class D1, class D2>
    void derivatives(const System& sys, const Q0& q0, const D& delta, double h, D1& d1, D2& d2) {
      at(q0, delta, h);
      sys.lagrangian_gradient(pos_, vel_, lq_, lv_);
      d1 = -lv_;
      d2 = h * lq_ + lv_;
    }
    template <class Q0, class D, class Out>
    void mixed_hessian(const System& sys, const Q0& q0, const D& delta, double h, Out& out) {
      at(q0, delta, h);
      sys.lagrangian_hessian(pos_, vel_, qq_, qv_, vv_);
      out = -qv_.transpose() - vv_ / h;
    }

   private:
    template <class Q0, class D>
    void at(const Q0& q0, const D& delta, double h) {
      pos_ = q0 + delta;
      vel_ = delta / h;
    }

    vector<N> pos_, vel_, lq_, lv_;
    matrix<N, N> qq_, qv_, vv_;
  };
};

}  // namespace geomint
