// One SHAKE step for L = ½q̇ᵀMq̇ − V(q), the position-only DEL equations of the midpoint discrete
// Lagrangian (Marsden–Wendlandt 1997, the equations after (47)):
//
//   M (q_{k+1} − 2q_k + q_{k−1}) / h² + ½ (∇V(m₊) + ∇V(m₋)) − G(q_k)ᵀλ_k = 0,   g(q_{k+1}) = 0,
//   m₊ = (q_{k+1} + q_k)/2,  m₋ = (q_k + q_{k−1})/2,
//
// in the unknowns z = (Δ_{k+1}, Λ), Δ_{k+1} = q_{k+1} − q_k and Λ = h²λ, with the first block
// multiplied by h²M⁻¹ (the summed form: differences of positions are never formed by cancellation):
//
//   R_q = Δ_{k+1} − Δ_k + (h²/2) M⁻¹(∇V(q_k + Δ_{k+1}/2) + ∇V(m₋)) − M⁻¹G_kᵀΛ,   R_g = g(q_k + Δ_{k+1}).
//
// The iteration matrix [[I, −M⁻¹G_kᵀ], [G_k, 0]] drops the O(h²) ∇²V term and freezes G at q_k: it
// is solved through S_k = G_k M⁻¹ G_kᵀ (m × m), dΛ = S_k⁻¹(r_g − G_k r_q), dq = r_q + M⁻¹G_kᵀdΛ —
// the classical SHAKE iteration. If it contracts slowly, Newton refreshes the Jacobian and this
// class switches to the full matrix [[I + (h²/4)M⁻¹∇²V(m₊), −M⁻¹G_kᵀ], [G(q_{k+1}), 0]] (dense LU).
#pragma once

#include <cmath>
#include <limits>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/second_derivatives.hpp"
#include "geomint/system/separable_lagrangian.hpp"

namespace geomint {
namespace detail {

template <class System>
class shake_equations {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int K = size::fixed_if_small(size::sum(N, M));
  using jacobian_type = typename traits::jacobian_type;
  static_assert(takes_variational_system<System>::value);

 public:
  using unknowns = vector<K>;

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    base_.resize(n);
    grad_minus_.resize(n);
    grad_plus_.resize(n);
    mid_.resize(n);
    work_.resize(n);
    effect_.resize(n);
    gval_.resize(m);
    rho_.resize(m);
    g1_.resize(m, n);
    w_.resize(n, m);
    hess_.resize(n, n);
    minv_.resize(n, n);
    gram_.resize(n, m);
    lu_.resize(n + m);
    second_.resize(n);
  }
  int unknown_count() const { return n_ + m_; }

  /// Binds the step: Δ_k = q_k − q_{k−1}, q_k, ∇V(m₋), G(q_k) (S_k factorized by factorize_gram).
  void begin(const System& sys, const vector<N>& delta, const vector<N>& q, const vector<N>& grad_minus,
             const jacobian_type& g, double h, double t) {
    sys_ = &sys;
    q_ = &q;
    g_ = &g;
    h_ = h;
    t_ = t;
    full_ = false;
    base_ = delta;
    grad_minus_ = grad_minus;
    if (m_ > 0) {
      work_.setZero();
      for (int j = 0; j < m_; ++j) {  // W = M⁻¹G_kᵀ, column by column
        work_ = g.row(j).transpose();
        sys.mass().apply_inverse(work_, effect_);
        w_.col(j) = effect_;
      }
    }
    q_scale_ = std::fmax(q.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  }
  /// S_k = G_k M⁻¹ G_kᵀ; false if singular.
  bool factorize_gram(const System& sys, const jacobian_type& g) { return gram_.factorize(sys, g); }

  // --- Newton problem interface (solvers/newton.hpp) ------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    mid_ = *q_ + 0.5 * z.head(n_);
    sys_->potential_gradient(mid_, grad_plus_);
    work_ = 0.5 * h_ * h_ * (grad_plus_ + grad_minus_);
    sys_->mass().apply_inverse(work_, effect_);
    r.head(n_) = z.head(n_) - base_ + effect_;
    if (m_ > 0) {
      r.head(n_).noalias() -= w_ * z.tail(m_);
      work_ = *q_ + z.head(n_);
      sys_->constraint(work_, gval_);
      r.tail(m_) = gval_;
    }
  }
  bool has_jacobian() const { return true; }  // S_k is factorized before the solve
  void update_jacobian(const unknowns& z) {
    full_ = true;
    work_ = *q_ + z.head(n_);
    mid_ = *q_ + 0.5 * z.head(n_);
    second_.h_qq(system_at<System>(*sys_, t_), mid_, mid_, hess_);  // ∂²H/∂q² = ∇²V (p unused)
    sys_->mass().inverse_matrix(minv_);
    auto& jm = lu_.system_matrix();
    jm.topLeftCorner(n_, n_).setIdentity();
    jm.topLeftCorner(n_, n_).noalias() += (0.25 * h_ * h_) * (minv_ * hess_);
    if (m_ > 0) {
      sys_->constraint_jacobian(work_, g1_);
      jm.topRightCorner(n_, m_) = -w_;
      jm.bottomLeftCorner(m_, n_) = g1_;
      jm.bottomRightCorner(m_, m_).setZero();
    }
    if (!jm.allFinite())
      throw step_error(failure_reason::non_finite_value, t_, h_, 0, 0, "∇²V or G is not finite");
    if (!lu_.factorize())
      throw step_error(failure_reason::singular_constraint_jacobian, t_, h_, 0, 0,
                       "the SHAKE Jacobian is singular: are two constraints dependent?");
  }
  void solve_in_place(unknowns& d) {
    if (full_) {
      lu_.solve_in_place(d);
      return;
    }
    if (m_ == 0) return;
    rho_ = d.tail(m_);
    rho_.noalias() -= *g_ * d.head(n_);
    gram_.solve_in_place(rho_);
    d.head(n_).noalias() += w_ * rho_;
    d.tail(m_) = rho_;
  }
  /// Position increments and the multipliers' effect on positions, relative to q_k.
  double increment_norm(const unknowns&, const unknowns& d) {
    double e = d.head(n_).cwiseAbs().maxCoeff();
    if (m_ > 0) {
      effect_.noalias() = w_ * d.tail(m_);
      e = std::fmax(e, effect_.cwiseAbs().maxCoeff());
    }
    return e / q_scale_;
  }
  // -----------------------------------------------------------------------------------------

  /// Whether the last solve switched to full Newton.
  bool used_full_newton() const { return full_; }

 private:
  int n_ = 0, m_ = 0;
  bool full_ = false;
  const System* sys_ = nullptr;
  const vector<N>* q_ = nullptr;
  const jacobian_type* g_ = nullptr;
  double h_ = 0, t_ = 0, q_scale_ = 1;
  vector<N> base_, grad_minus_, grad_plus_, mid_, work_, effect_;
  vector<M> gval_, rho_;
  jacobian_type g1_;
  matrix<N, M> w_;
  matrix<N, N> hess_, minv_;
  constraint_gram<System> gram_;
  dense_lu<K> lu_;
  second_derivatives<System> second_;
};

}  // namespace detail
}  // namespace geomint
