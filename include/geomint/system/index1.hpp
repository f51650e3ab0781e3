// The index-1 (acceleration-level) form of a constrained Hamiltonian system: the multipliers
// λ(q, p) from differentiating the hidden constraint once more (Hairer 2003, eq. (2.3)),
//
//   (G H_pp Gᵀ) λ = [vᵀ∇²g_k v]_k + G H_pq v + G H_pp (f − ∂H/∂q),   v = ∂H/∂p,
//
// plus, for driven constraints g(q, t) = 0 (hidden constraint G v + ∂g/∂t = 0), the terms
// 2 (∂G/∂t) v + ∂²g/∂t² = d/ds [G(q, t + s) v + ∂g/∂t(q + s v, t + s)] at s = 0, by a central
// difference in s (the system gives ∂g/∂t only; the difference's O(δ²) error is far below the
// interpolation error of the dense output that uses it).
//
// turn (2.1) into an ODE for (q, p). This is what users integrate with a standard ODE solver
// today; its solutions drift off g = 0 (the constraints are only invariants). geomint uses it
// as the "odeint / IDA index-1" baseline.
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "geomint/system/evaluation.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {

/// Evaluates q̇ and ṗ of the index-1 ODE. Holds its own workspace (sized at construction): an
/// evaluation allocates nothing.
template <class System>
class index1_vector_field {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;

 public:
  explicit index1_vector_field(const System& sys) : sys_(&sys) { resize(); }

  const System& system() const { return *sys_; }

  /// (q̇, ṗ) at (t, q, p); also returns the multipliers in lambda().
  template <class Q, class P, class DQ, class DP>
  void operator()(double t, const Q& q_in, const P& p_in, DQ& dq, DP& dp) {
    const system_at<System> sys(*sys_, t);
    q_ = q_in;
    p_ = p_in;
    if constexpr (traits::has_gradients) {
      sys.gradients(q_, p_, f_, v_);
    } else {
      sys.dh_dp(q_, p_, v_);
      sys.dh_dq(q_, p_, f_);
    }
    f_ = -f_;
    if constexpr (traits::has_force) {
      sys.force(q_, p_, work_);
      f_ += work_;
    }
    if (m_ > 0) {
      sys.constraint_jacobian(q_, g_);
      dense_g_ = g_;
      // right-hand side: [vᵀ∇²g_k v]_k + G H_pq v + G H_pp (f − H_q)
      curvature(sys);
      if constexpr (traits::rheonomic) driving_terms(t);
      second_.mixed_and_momentum(sys, q_, p_, hqq_, hess_, hpp_);
      // (noalias: products of dynamic size added without a temporary; nothing is allocated here)
      work_.noalias() = hess_.transpose() * v_;  // H_pq v, H_pq = ∂(∂H/∂p)/∂q = H_qpᵀ
      rhs_.noalias() += dense_g_ * work_;
      work_.noalias() = hpp_ * f_;
      rhs_.noalias() += dense_g_ * work_;
      w_.noalias() = dense_g_ * hpp_;
      a_.noalias() = w_ * dense_g_.transpose();
      lu_.compute(a_);
      lambda_ = lu_.solve(rhs_);
      f_.noalias() -= dense_g_.transpose() * lambda_;
    }
    dq = v_;
    dp = f_;
  }

  const vector<M>& lambda() const { return lambda_; }

 private:
  void resize() {
    const int n = sys_->position_count(), m = sys_->constraint_count();
    m_ = m;
    q_.resize(n);
    p_.resize(n);
    v_.resize(n);
    f_.resize(n);
    work_.resize(n);
    qs_.resize(n);
    g_.resize(m, n);
    g2_.resize(m, n);
    dense_g_.resize(m, n);
    rhs_.resize(m);
    lambda_.resize(m);
    unit_.resize(m);
    rate_.resize(m);
    hess_.resize(n, n);
    hqq_.resize(n, n);
    hpp_.resize(n, n);
    w_.resize(m, n);
    a_.resize(m, m);
    second_.resize(n);
  }

  /// rhs_ = [vᵀ∇²g_k v]_k: from the constraint Hessian if the system has one, else by central
  /// differences of G along v.
  void curvature(const system_at<System>& sys) {
    if constexpr (traits::has_constraint_hessian) {
      for (int k = 0; k < m_; ++k) {
        unit_.setZero();
        unit_(k) = 1;
        sys.constraint_hessian(q_, unit_, hess_);
        qs_.noalias() = hess_ * v_;
        rhs_(k) = v_.dot(qs_);
      }
    } else {
      const double d = 1e-5 * std::fmax(q_.norm(), 1.0) / std::fmax(v_.norm(), 1e-300);
      qs_ = q_ + d * v_;
      sys.constraint_jacobian(qs_, g_);
      rhs_.noalias() = g_ * v_;
      qs_ = q_ - d * v_;
      sys.constraint_jacobian(qs_, g2_);
      rhs_.noalias() -= g2_ * v_;
      rhs_ /= 2 * d;
    }
  }

  /// rhs_ += 2 (∂G/∂t) v + ∂²g/∂t² (see above).
  void driving_terms(double t) {
    const double d = 1e-5 * std::fmax(std::fabs(t), 1.0);
    for (const double s : {d, -d}) {
      const system_at<System> at(*sys_, t + s);
      at.constraint_jacobian(q_, g_);
      qs_ = q_ + s * v_;
      at.constraint_time_derivative(qs_, rate_);
      rate_.noalias() += g_ * v_;
      rhs_.noalias() += (s > 0 ? 1 / (2 * d) : -1 / (2 * d)) * rate_;
    }
  }

  const System* sys_;
  int m_ = 0;
  vector<N> q_, p_, v_, f_, work_, qs_;
  typename traits::jacobian_type g_, g2_;
  matrix<M, N> dense_g_;
  vector<M> rhs_, lambda_, unit_, rate_;
  matrix<N, N> hess_, hqq_, hpp_;  // hqq_: scratch for hessians(), which forms ∂²H/∂q² too
  matrix<M, N> w_;
  matrix<M, M> a_;
  Eigen::PartialPivLU<matrix<M, M>> lu_;
  detail::second_derivatives<System> second_;
};

}  // namespace geomint
