// Stage equations of a constrained PRK method for separable H = ½ pᵀM⁻¹p + V(q).
//
// Eliminating the momentum stages from Hairer 2003 (2.6)–(2.7) with B = â·a leaves, for
// i = 2..s and scaled multipliers Λ̃_k = h²Λ_k,
//
//   R_Q,i = Q_i − q0 − h c_i M⁻¹p0 + Σ_{k<s} B_ik M⁻¹ (h²∇V(Q_k) + G(Q_k)ᵀ Λ̃_k) = 0,
//   R_g,i = g(Q_i) = 0,                                       (Q_1 = q0, a_ks = 0)
//
// in the unknowns z = (Q_2..Q_s, Λ̃_1..Λ̃_{s−1}). The iteration matrix drops the O(h²) ∇²V term
// and freezes G at q0, so it is A ⊗ S0 in the multiplier block, A = B(2..s, 1..s−1) the
// coupling matrix of (2.10) and S0 = G(q0)M⁻¹G(q0)ᵀ: one m × m factorization, shared with the
// previous step's momentum projection. For RATTLE this is the classical SHAKE iteration on an
// m × m system. The contraction factor is O(h); if it is poor the stepper falls back to the
// general stage solver (full Newton).
//
// A position-only force f(t, q) (forced_system.hpp) enters as ∂H/∂q − f does in (2.6): ∇V(Q_k)
// becomes ∇V(Q_k) − f(t0 + c_k h, Q_k) throughout (net_gradient), c = the position tableau's
// row sums, so each stage sees its own time.
#pragma once

#include <array>
#include <cmath>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint {
namespace detail {

/// Thrown by a fast path when its iteration matrix is not good enough; caught by the stepper.
struct fast_path_declined {};

/// ∇V(q) − f(t, q): the separable path's gradient at a stage of time t, with a position-only
/// force if the system has one (`force`: scratch of size n).
template <class System, class Q, class Out, class Work>
void net_gradient(const System& sys, double t, const Q& q, Out& out, Work& force) {
  const system_at<System> at(sys, t);
  at.potential_gradient(q, out);
  if constexpr (system_traits<System>::has_position_force) {
    at.position_force(q, force);
    out -= force;
  }
}

template <class System, int S>
class separable_stages {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int ZN = size::fixed_if_small(size::product(S - 1, size::sum(N, M)));
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<ZN>;

  explicit separable_stages(const partitioned_tableau<S>& t) {
    const matrix<S, S> b = t.aq * t.ap;
    coupling_ = b;
    coupling_inverse_ = coupling_matrix(t).inverse();
    c_ = t.c();
    b_ = t.b;
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    v0_.resize(n);
    q_.resize(n, S);
    grad_.resize(n, S);
    lambda_.resize(m, S - 1);
    minv_f_.resize(n, S - 1);
    work_n_.resize(n);
    force_.resize(n);
    rho_.resize(m, S - 1);
    rhs_m_.resize(m);
    y_.resize(m, S - 1);
    effect_.resize(n);
    for (auto& g : jac_) g.resize(m, n);
  }
  int unknown_count() const { return (S - 1) * (n_ + m_); }

  /// Binds the step from time t: (q0, p0), ∇V(q0) (− f(t, q0)), G(q0) and the factorized
  /// S0 = G(q0)M⁻¹G(q0)ᵀ.
  template <class Q0, class P0>
  void begin(const System& sys, const Q0& q0, const P0& p0, const vector<N>& grad0,
             const jacobian_type& g0, constraint_gram<System>& gram0, double t, double h) {
    sys_ = &sys;
    t0_ = t;
    gram_ = &gram0;
    g0_ = &g0;
    h_ = h;
    sys.mass().apply_inverse(p0, v0_);
    q_.col(0) = q0;
    grad_.col(0) = grad0;
    q0_scale_ = std::fmax(q0.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  }

  /// Initial guess from the multipliers of the previous step (scaled to this step size).
  void guess(unknowns& z, const matrix<M, S - 1>& previous_lambda, double lambda_scale) {
    lambda_ = previous_lambda * lambda_scale;
    for (int k = 0; k < S - 1; ++k) {
      work_n_ = h_ * h_ * grad_.col(0);
      if (m_ > 0) work_n_.noalias() += g0_->transpose() * lambda_.col(k);
      sys_->mass().apply_inverse(work_n_, effect_);
      minv_f_.col(k) = effect_;
    }
    for (int i = 1; i < S; ++i) {
      auto qi = z.segment((i - 1) * n_, n_);
      qi = q_.col(0) + h_ * c_(i) * v0_;
      for (int k = 0; k < S - 1; ++k) qi -= coupling_(i, k) * minv_f_.col(k);
    }
    for (int k = 0; k < S - 1; ++k) z.segment((S - 1) * n_ + k * m_, m_) = lambda_.col(k);
  }

  // --- Newton problem interface ------------------------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    unpack(z);
    const System& sys = *sys_;
    interior_stages();
    for (int k = 0; k < S - 1; ++k) {
      work_n_ = h_ * h_ * grad_.col(k);
      if (m_ > 0) work_n_.noalias() += stage_jacobian(k).transpose() * lambda_.col(k);
      sys.mass().apply_inverse(work_n_, effect_);
      minv_f_.col(k) = effect_;
    }
    for (int i = 1; i < S; ++i) {
      auto ri = r.segment((i - 1) * n_, n_);
      ri = q_.col(i) - q_.col(0) - h_ * c_(i) * v0_;
      for (int k = 0; k < S - 1; ++k) ri += coupling_(i, k) * minv_f_.col(k);
      if (m_ > 0) {
        work_n_ = q_.col(i);
        system_at<System>(sys, stage_time(i)).constraint(work_n_, rhs_m_);
        r.segment((S - 1) * n_ + (i - 1) * m_, m_) = rhs_m_;
      }
    }
  }
  bool has_jacobian() const { return true; }  // S0 is factorized before the solve
  /// Sparse systems have no dense fallback: Newton keeps iterating with S0.
  static constexpr bool fixed_jacobian = traits::sparse_jacobian;
  anderson_workspace& acceleration_history() { return acceleration_; }
  void update_jacobian(const unknowns&) {
    if constexpr (!traits::sparse_jacobian) throw fast_path_declined{};
  }
  /// d ← J⁻¹ d for J = [I, (A⊗M⁻¹G0ᵀ); (I⊗G0), 0].
  void solve_in_place(unknowns& d) {
    effect_norm_ = 0;
    if (m_ == 0) return;
    const jacobian_type& g0 = *g0_;
    for (int i = 1; i < S; ++i) {  // ρ_i = G0 r_Q,i − r_g,i,  Y_i = S0⁻¹ ρ_i
      auto col = rho_.col(i - 1);
      col.noalias() = g0 * d.segment((i - 1) * n_, n_);
      col -= d.segment((S - 1) * n_ + (i - 1) * m_, m_);
    }
    for (int i = 0; i < S - 1; ++i) {
      rhs_m_ = rho_.col(i);
      gram_->solve_in_place(rhs_m_);
      y_.col(i) = rhs_m_;
    }
    for (int k = 0; k < S - 1; ++k) {  // dΛ̃ = Y A⁻ᵀ
      auto dl = d.segment((S - 1) * n_ + k * m_, m_);
      dl.setZero();
      for (int i = 0; i < S - 1; ++i) dl += coupling_inverse_(k, i) * y_.col(i);
    }
    for (int i = 1; i < S; ++i) {  // dQ_i = r_Q,i − M⁻¹G0ᵀ Y_i
      work_n_.noalias() = g0.transpose() * y_.col(i - 1);
      sys_->mass().apply_inverse(work_n_, effect_);
      d.segment((i - 1) * n_, n_) -= effect_;
      effect_norm_ = std::fmax(effect_norm_, effect_.cwiseAbs().maxCoeff());
    }
  }
  /// Position increments, and the multiplier increments' effect on positions, relative to q0.
  double increment_norm(const unknowns&, const unknowns& d) const {
    const double dq = d.head((S - 1) * n_).cwiseAbs().maxCoeff();
    return std::fmax(dq, effect_norm_) / q0_scale_;
  }
  // -----------------------------------------------------------------------------------------

  /// After convergence: stage positions, multipliers and gradients at the solution.
  /// Returns q1 = Q_s, leaves ∇V and G at q1 in grad1 / g1, and p̂ = p0 − h Σ b_i (∇V + GᵀΛ)_i
  /// (without the final multiplier) in p_hat.
  template <class P0>
  void finish(const unknowns& z, const P0& p0, const vector<N>&, vector<N>& q1, vector<N>& grad1,
              jacobian_type& g1, vector<N>& p_hat) {
    const System& sys = *sys_;
    unpack(z);
    interior_stages();
    q1 = q_.col(S - 1);
    net_gradient(sys, stage_time(S - 1), q1, grad1, force_);
    system_at<System>(sys, stage_time(S - 1)).constraint_jacobian(q1, g1);
    grad_.col(S - 1) = grad1;
    p_hat = p0;
    p_hat.noalias() -= h_ * (grad_ * b_);
    for (int k = 0; k < S - 1; ++k)
      if (m_ > 0) p_hat.noalias() -= (b_(k) / h_) * (stage_jacobian(k).transpose() * lambda_.col(k));
  }

  const matrix<M, S - 1>& multipliers() const { return lambda_; }
  /// After finish, for driven constraints: Σ_{k<s} (b_k/h) ∂g/∂t(Q_k, t0 + c_k h)·Λ̃_k, the work
  /// the stage multipliers' constraint forces do (the extended phase space's energy change).
  double stage_work() {
    double w = 0;
    for (int k = 0; k < S - 1 && m_ > 0; ++k) {
      work_n_ = q_.col(k);
      system_at<System>(*sys_, stage_time(k)).constraint_time_derivative(work_n_, rhs_m_);
      w += (b_(k) / h_) * rhs_m_.dot(lambda_.col(k));
    }
    return w;
  }

 private:
  void unpack(const unknowns& z) {
    for (int i = 1; i < S; ++i) q_.col(i) = z.segment((i - 1) * n_, n_);
    for (int k = 0; k < S - 1; ++k) lambda_.col(k) = z.segment((S - 1) * n_ + k * m_, m_);
  }
  const jacobian_type& stage_jacobian(int k) const { return k == 0 ? *g0_ : jac_[k]; }
  double stage_time(int i) const { return t0_ + c_(i) * h_; }
  /// Gradient (− force) and Jacobian at the interior stages Q_k, k = 2..s−1.
  void interior_stages() {
    for (int k = 1; k < S - 1; ++k) {
      work_n_ = q_.col(k);
      net_gradient(*sys_, stage_time(k), work_n_, effect_, force_);
      grad_.col(k) = effect_;
      system_at<System>(*sys_, stage_time(k)).constraint_jacobian(work_n_, jac_[k]);
    }
  }

  matrix<S, S> coupling_;                  // B = â a
  matrix<S - 1, S - 1> coupling_inverse_;  // A⁻¹
  vector<S> c_, b_;
  int n_ = 0, m_ = 0;
  double t0_ = 0, h_ = 0, q0_scale_ = 1, effect_norm_ = 0;
  const System* sys_ = nullptr;
  constraint_gram<System>* gram_ = nullptr;
  const jacobian_type* g0_ = nullptr;
  vector<N> v0_, work_n_, effect_, force_;
  vector<M> rhs_m_;
  matrix<N, S> q_, grad_;
  matrix<M, S - 1> lambda_, rho_, y_;
  matrix<N, S - 1> minv_f_;
  std::array<jacobian_type, S> jac_;  // G(Q_k) at interior stages (entry 0 unused: G0)
  anderson_workspace acceleration_;  // the fixed-matrix iteration's history (sparse G)
};

}  // namespace detail
}  // namespace geomint
