// Second derivatives for Newton's Jacobians: the system's own when it provides them, forward
// differences of its first derivatives otherwise, at a time (system_at, system/evaluation.hpp).
// They only shape the iteration matrix, never the converged result.
#pragma once

#include <cmath>
#include <limits>

#include "geomint/system/constrained_system.hpp"
#include "geomint/system/evaluation.hpp"

namespace geomint {
namespace detail {

/// Forward-difference step for component x_j: √ε relative to the larger of |x_j| and ‖x‖∞.
template <class V>
double difference_step(const V& x, int j) {
  const double scale = std::fmax(std::fabs(x(j)), x.size() ? x.cwiseAbs().maxCoeff() : 0.0);
  return std::sqrt(std::numeric_limits<double>::epsilon()) * (scale > 0 ? scale : 1.0);
}

/// Scratch for forward differences, sized once.
template <int N>
struct difference_workspace {
  vector<N> x, f0, f1;
  void resize(int n) { x.resize(n); f0.resize(n); f1.resize(n); }
};

/// out(:, j) ≈ ∂F/∂x_j at x, for F: ℝⁿ → ℝⁿ given as eval(x, out).
template <class Eval, class X, class Out, int N>
void forward_difference_jacobian(Eval&& eval, const X& x, Out& out, difference_workspace<N>& w) {
  w.x = x;
  eval(w.x, w.f0);
  for (int j = 0; j < x.size(); ++j) {
    const double d = difference_step(x, j);
    w.x(j) = x(j) + d;
    eval(w.x, w.f1);
    out.col(j) = (w.f1 - w.f0) / d;
    w.x(j) = x(j);
  }
}

/// Access to ∂²H and Σλ∇²g for one system type, with the forward-difference fallbacks.
template <class System>
class second_derivatives {
  using traits = system_traits<System>;
  static constexpr int N = traits::n;

 public:
  void resize(int n) {
    work_.resize(n);
    grad_.resize(n);
  }

  template <class Q, class P, class Out>
  void h_qq(const system_at<System>& s, const Q& q, const P& p, Out& out) {
    if constexpr (traits::has_h_qq) {
      s.h_qq(q, p, out);
    } else {
      forward_difference_jacobian([&](const vector<N>& x, vector<N>& f) { s.dh_dq(x, p, f); }, q, out, work_);
    }
  }
  /// out(i, j) = ∂²H/∂q_i∂p_j
  template <class Q, class P, class Out>
  void h_qp(const system_at<System>& s, const Q& q, const P& p, Out& out) {
    if constexpr (traits::has_h_qp) {
      s.h_qp(q, p, out);
    } else {  // column j: ∂(∂H/∂q)/∂p_j
      forward_difference_jacobian([&](const vector<N>& x, vector<N>& f) { s.dh_dq(q, x, f); }, p, out, work_);
    }
  }
  template <class Q, class P, class Out>
  void h_pp(const system_at<System>& s, const Q& q, const P& p, Out& out) {
    if constexpr (traits::has_h_pp) {
      s.h_pp(q, p, out);
    } else {
      forward_difference_jacobian([&](const vector<N>& x, vector<N>& f) { s.dh_dp(q, x, f); }, p, out, work_);
    }
  }
  /// All three at (q, p): in one call when the system has hessians(q, p, qq, qp, pp) (they
  /// share most of their work for a non-separable H), else one by one.
  template <class Q, class P, class QQ, class QP, class PP>
  void all(const system_at<System>& s, const Q& q, const P& p, QQ& qq, QP& qp, PP& pp) {
    if constexpr (!traits::has_hessians) h_qq(s, q, p, qq);
    mixed_and_momentum(s, q, p, qq, qp, pp);  // with hessians(), this fills qq too
  }
  /// ∂²H/∂q∂p and ∂²H/∂p² at (q, p), for users that need no ∂²H/∂q²: from one hessians() call
  /// when the system has it (∂²H/∂q² then lands in `scratch`), else one by one.
  template <class Q, class P, class S, class QP, class PP>
  void mixed_and_momentum(const system_at<System>& s, const Q& q, const P& p, S& scratch, QP& qp, PP& pp) {
    if constexpr (traits::has_hessians) {
      s.hessians(q, p, scratch, qp, pp);
    } else {
      h_qp(s, q, p, qp);
      h_pp(s, q, p, pp);
    }
  }
  /// out = Σ_k λ_k ∇²g_k(q) = ∂(G(q)ᵀλ)/∂q
  template <class Q, class L, class G, class Out>
  void constraint_hessian(const system_at<System>& s, const Q& q, const L& lambda, G& jac, Out& out) {
    if constexpr (traits::has_constraint_hessian) {
      s.constraint_hessian(q, lambda, out);
    } else {
      forward_difference_jacobian(
          [&](const vector<N>& x, vector<N>& f) {
            s.constraint_jacobian(x, jac);
            f.noalias() = jac.transpose() * lambda;
          },
          q, out, work_);
    }
  }
  /// ∂f/∂q and ∂f/∂p of the non-conservative force (always by differences).
  template <class Q, class P, class Out>
  void force_q(const system_at<System>& s, const Q& q, const P& p, Out& out) {
    forward_difference_jacobian([&](const vector<N>& x, vector<N>& f) { s.force(x, p, f); }, q, out, work_);
  }
  template <class Q, class P, class Out>
  void force_p(const system_at<System>& s, const Q& q, const P& p, Out& out) {
    forward_difference_jacobian([&](const vector<N>& x, vector<N>& f) { s.force(q, x, f); }, p, out, work_);
  }

 private:
  difference_workspace<N> work_;
  vector<N> grad_;
};

}  // namespace detail
}  // namespace geomint
