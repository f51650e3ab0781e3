// The implicit part of the Reich / McLachlan–Scovel constraint algorithm for a general H(q, p),
// as Newton problems in z = (unknown ∈ ℝⁿ, ν ∈ ℝᵐ); G0 = G(q) at the start point.
//
// γ(t), eq. (9) (cotangent form, ν = tμ):
//   R_p = p̃ − p + t ∂H/∂q(q, p̃) − G0ᵀν,   R_g = g(q + t ∂H/∂p(q, p̃))       unknowns (p̃, ν)
//   Jacobian [[I + t H_qp, −G0ᵀ], [t G(Q) H_pp, 0]]
//
// γ⁻¹(−t), eq. (10) (ν = tμ):
//   p̃ = p + G0ᵀν,   R_Q = Q − q − t ∂H/∂p(Q, p̃),   R_g = g(Q)                  unknowns (Q, ν)
//   Jacobian [[I − t H_qpᵀ, −t H_pp G0ᵀ], [G(Q), 0]]
//
// (H_qp(i, j) = ∂²H/∂q_i∂p_j.) The second derivatives are the system's or forward differences;
// they only shape Newton's matrix.
#pragma once

#include <cmath>
#include <limits>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {
namespace detail {

template <class System, bool Adjoint>
class reich_general_problem {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int ZN = size::fixed_if_small(size::sum(N, M));
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<ZN>;

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    q0_.resize(n);
    p0_.resize(n);
    x_.resize(n);
    y_.resize(n);
    f_.resize(n);
    work_.resize(n);
    gval_.resize(m);
    g0_.resize(m, n);
    gq_.resize(m, n);
    hess_.resize(n, n);
    gh_.resize(m, n);
    second_.resize(n);
    lu_.resize(n + m);
  }
  int unknown_count() const { return n_ + m_; }

  template <class Q, class P>
  void begin(const System& sys, const Q& q, const P& p, const jacobian_type& g0, double t, const newton_context& ctx) {
    sys_ = system_at<System>(sys, ctx.t);
    ctx_ = ctx;
    q0_ = q;
    p0_ = p;
    g0_ = g0;
    t_ = t;
    q_scale_ = std::fmax(q.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    p_scale_ = p.cwiseAbs().maxCoeff();
  }

  /// Explicit first guess: γ: p̃ = p − t ∂H/∂q(q, p); adjoint: Q = q + t ∂H/∂p(q, p); ν given.
  template <class Nu>
  void guess(unknowns& z, const Nu& nu) {
    if constexpr (Adjoint) {
      sys_.dh_dp(q0_, p0_, f_);
      z.head(n_) = q0_ + t_ * f_;
    } else {
      sys_.dh_dq(q0_, p0_, f_);
      z.head(n_) = p0_ - t_ * f_;
    }
    z.tail(m_) = nu;
  }

  void residual(const unknowns& z, unknowns& r) {
    if constexpr (Adjoint) {
      momentum_of(z, y_);  // p̃
      x_ = z.head(n_);     // Q
      sys_.dh_dp(x_, y_, f_);
      r.head(n_) = x_ - q0_ - t_ * f_;
    } else {
      y_ = z.head(n_);  // p̃
      sys_.dh_dq(q0_, y_, f_);
      work_.noalias() = g0_.transpose() * z.tail(m_);
      r.head(n_) = y_ - p0_ + t_ * f_ - work_;
      position_of(z, x_);  // Q
    }
    if (m_ > 0) {
      sys_.constraint(x_, gval_);
      r.tail(m_) = gval_;
    }
  }
  /// Kept across steps of one size only (the matrix scales with t).
  bool has_jacobian() const { return have_jacobian_ && jacobian_t_ == t_; }
  void update_jacobian(const unknowns& z) {
    auto& j = lu_.system_matrix();
    j.setZero();
    if constexpr (Adjoint) {
      momentum_of(z, y_);
      x_ = z.head(n_);
      second_.h_qp(sys_, x_, y_, hess_);
      j.topLeftCorner(n_, n_).noalias() = -t_ * hess_.transpose();
      j.topLeftCorner(n_, n_).diagonal().array() += 1.0;
      if (m_ > 0) {
        second_.h_pp(sys_, x_, y_, hess_);
        hpp_scale_ = hess_.cwiseAbs().maxCoeff();
        gh_.noalias() = g0_ * hess_;  // (H_pp G0ᵀ)ᵀ = G0 H_pp
        j.topRightCorner(n_, m_).noalias() = -t_ * gh_.transpose();
        sys_.constraint_jacobian(x_, gq_);
        j.bottomLeftCorner(m_, n_) = gq_;
      }
    } else {
      y_ = z.head(n_);
      second_.h_qp(sys_, q0_, y_, hess_);
      j.topLeftCorner(n_, n_).noalias() = t_ * hess_;
      j.topLeftCorner(n_, n_).diagonal().array() += 1.0;
      if (m_ > 0) {
        j.topRightCorner(n_, m_) = -g0_.transpose();
        position_of(z, x_);
        sys_.constraint_jacobian(x_, gq_);
        second_.h_pp(sys_, q0_, y_, hess_);
        hpp_scale_ = hess_.cwiseAbs().maxCoeff();
        j.bottomLeftCorner(m_, n_).noalias() = t_ * gq_ * hess_;
      }
    }
    if (!lu_.factorize()) {
      if (!j.allFinite())
        throw step_error(failure_reason::non_finite_value, ctx_.t, ctx_.dt, 0, 0,
                         "the constraint-algorithm matrix is not finite: a second derivative of H or "
                         "the constraint Jacobian returned NaN or Inf");
      throw step_error(failure_reason::singular_constraint_jacobian, ctx_.t, ctx_.dt, 0, 0,
                       "the constraint-algorithm equations are singular: G(q) ∂²H/∂p² G(q)ᵀ is not "
                       "invertible (Reich's nondegeneracy condition, McLachlan–Scovel §2)");
    }
    have_jacobian_ = true;
    jacobian_t_ = t_;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  /// Scaled increment. The multiplier, and with it the component of p̃ along G0ᵀ, is fixed by
  /// the position constraint g(Q) = 0 only to ε|q|/(t‖H_pp‖): its increments are measured by
  /// their effect on Q (t H_pp G0ᵀdν), the remaining momentum increments in momentum units.
  double increment_norm(const unknowns& z, const unknowns& d) {
    double p_scale = p_scale_;
    if constexpr (!Adjoint) p_scale = std::fmax(p_scale, z.head(n_).cwiseAbs().maxCoeff());
    p_scale = std::fmax(p_scale, std::numeric_limits<double>::min());
    work_.setZero();
    if (m_ > 0) work_.noalias() = g0_.transpose() * d.tail(m_);  // G0ᵀdν
    double e = std::fabs(t_) * hpp_scale_ * work_.cwiseAbs().maxCoeff() / q_scale_;
    if constexpr (Adjoint) {
      e = std::fmax(e, d.head(n_).cwiseAbs().maxCoeff() / q_scale_);
    } else {
      work_ = d.head(n_) - work_;  // dp̃ − G0ᵀdν: fixed by R_p in momentum units
      e = std::fmax(e, work_.cwiseAbs().maxCoeff() / p_scale);
    }
    return e;
  }

  /// After convergence: Q and the momentum p̂ to be projected (γ: p̃; adjoint: p̃ − t ∂H/∂q(Q, p̃)).
  template <class QOut, class POut>
  void finish(const unknowns& z, QOut& q, POut& p_hat) {
    if constexpr (Adjoint) {
      momentum_of(z, y_);
      x_ = z.head(n_);
      sys_.dh_dq(x_, y_, f_);
      q = x_;
      p_hat = y_ - t_ * f_;
    } else {
      y_ = z.head(n_);
      position_of(z, x_);
      q = x_;
      p_hat = y_;
    }
  }
  void invalidate() { have_jacobian_ = false; }

 private:
  /// Adjoint: p̃ = p + G0ᵀν
  template <class Out>
  void momentum_of(const unknowns& z, Out& out) {
    out = p0_;
    if (m_ > 0) out.noalias() += g0_.transpose() * z.tail(m_);
  }
  /// γ: Q = q + t ∂H/∂p(q, p̃), p̃ = z.head(n)
  template <class Out>
  void position_of(const unknowns& z, Out& out) {
    y_ = z.head(n_);
    sys_.dh_dp(q0_, y_, f_);
    out = q0_ + t_ * f_;
  }

  system_at<System> sys_;  // the system at the half step's start time
  newton_context ctx_;
  int n_ = 0, m_ = 0;
  double t_ = 0, q_scale_ = 1, p_scale_ = 0, hpp_scale_ = 0;
  bool have_jacobian_ = false;
  double jacobian_t_ = 0;  // the substep t the factorization was formed at
  vector<N> q0_, p0_, x_, y_, f_, work_;
  vector<M> gval_;
  jacobian_type g0_, gq_;
  matrix<N, N> hess_;
  matrix<M, N> gh_;
  second_derivatives<System> second_;
  dense_lu<ZN> lu_;
};

}  // namespace detail
}  // namespace geomint
