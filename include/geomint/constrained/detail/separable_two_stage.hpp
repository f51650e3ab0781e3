// Stage equations of a two-stage constrained PRK method (RATTLE, symplectic Euler) for
// separable H = ½ pᵀM⁻¹p + V(q). With two stages the position stage is an explicit affine
// function of the single scaled multiplier Λ̃ = h²Λ_1 (separable_stages.hpp with s = 2):
//
//   Q(Λ̃) = q̃ − B W Λ̃,   q̃ = q0 + h c_2 M⁻¹p0 − h² B M⁻¹∇V(q0),   W = M⁻¹G(q0)ᵀ,  B = (â a)_21,
//
// so the unknown is Λ̃ alone and g(Q(Λ̃)) = 0 is the m × m nonlinear system of SHAKE, iterated
// with the matrix −B S0, S0 = G(q0)M⁻¹G(q0)ᵀ factorized once (and shared with the previous
// step's momentum projection). With a position-only force f(t, q), ∇V is ∇V − f at the
// stage times t0 and t0 + c_2 h (net_gradient in separable_stages.hpp).
//
// Sparse G (long chains) has no dense solver to fall back on when that iteration fails; exact()
// is Newton with the exact Jacobian −B G(Q) M⁻¹G0ᵀ instead, factorized by a sparse LU.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include <Eigen/SparseLU>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/constrained/detail/separable_stages.hpp"

namespace geomint {
namespace detail {

template <class System>
class separable_two_stage {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<M>;

  explicit separable_two_stage(const partitioned_tableau<2>& t)
      : coupling_((t.aq * t.ap)(1, 0)), minus_inverse_coupling_(-1 / coupling_), c2_(t.aq.row(1).sum()), b_(t.b) {}

  void resize(int n, int m) {
    m_ = m;
    q_free_.resize(n);
    q_.resize(n);
    work_.resize(n);
    y_effect_.resize(n);
    force_.resize(n);
    lambda_.resize(m);
    if constexpr (traits::rheonomic) {
      q0_.resize(n);
      rate_.resize(m);
    }
    if constexpr (!traits::sparse_jacobian) bw_.resize(n, m);
  }
  int unknown_count() const { return m_; }

  template <class Q0, class P0>
  void begin(const System& sys, const Q0& q0, const P0& p0, const vector<N>& grad0, const jacobian_type& g0,
             constraint_gram<System>& gram0, double t, double h) {
    sys_ = &sys;
    t0_ = t;
    t1_ = t + c2_ * h;
    if constexpr (traits::rheonomic) q0_ = q0;
    g0_ = &g0;
    gram_ = &gram0;
    h_ = h;
    work_ = (h * c2_) * p0 - (h * h * coupling_) * grad0;
    sys.mass().apply_inverse_add(work_, q0, q_free_);
    if constexpr (traits::sparse_jacobian) {
      bw_dense_ = false;
    } else {  // B W = B M⁻¹G0ᵀ, dense and small: one product per iteration afterwards
      bw_ = coupling_ * gram0.weighted_jacobian().transpose();  // S0's factorization holds G0 M⁻¹
      bw_dense_ = true;
    }
    inverse_q_scale_ = 1 / std::max(q0.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  }
  void guess(unknowns& z, const matrix<M, 1>& previous, double scale) { z = scale * previous; }

  // --- Newton problem interface ------------------------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    positions(z);
    system_at<System>(*sys_, t1_).constraint(q_, r);
  }
  bool has_jacobian() const { return true; }
  /// Sparse systems have no dense fallback: Newton keeps iterating with S0 (exact() below is
  /// what the workspace falls back to).
  static constexpr bool fixed_jacobian = traits::sparse_jacobian;
  anderson_workspace& acceleration_history() { return acceleration_; }
  void update_jacobian(const unknowns&) {
    if constexpr (!traits::sparse_jacobian) throw fast_path_declined{};
  }
  /// d ← J⁻¹ d with J = −B S0.
  void solve_in_place(unknowns& d) {
    gram_->solve_in_place(d);
    d *= minus_inverse_coupling_;
    // Effect of the increment on the positions, B W d, for the convergence test.
    apply_bw(d, y_effect_);
    effect_ = y_effect_.cwiseAbs().maxCoeff();
  }
  double increment_norm(const unknowns&, const unknowns&) const { return effect_ * inverse_q_scale_; }
  // -----------------------------------------------------------------------------------------

  /// q1 = Q(Λ̃), ∇V and G at q1, and p̂ = p0 − h(b1 ∇V(q0) + b2 ∇V(q1)) − (b1/h) G0ᵀΛ̃.
  template <class P0>
  void finish(const unknowns& z, const P0& p0, const vector<N>& grad0, vector<N>& q1, vector<N>& grad1,
              jacobian_type& g1, vector<N>& p_hat) {
    positions(z);
    q1 = q_;
    net_gradient(*sys_, t1_, q1, grad1, force_);
    system_at<System>(*sys_, t1_).constraint_jacobian(q1, g1);
    p_hat = p0 - (h_ * b_(0)) * grad0 - (h_ * b_(1)) * grad1;
    if (m_ > 0) p_hat.noalias() -= (b_(0) / h_) * (g0_->transpose() * z);
    lambda_ = z;
  }
  const vector<M>& multipliers() const { return lambda_; }
  /// After finish, for driven constraints: (b_1/h) ∂g/∂t(q0, t0)·Λ̃, the work the first stage's
  /// constraint force does (the extended phase space's energy change).
  double stage_work() {
    if (m_ == 0) return 0;
    system_at<System>(*sys_, t0_).constraint_time_derivative(q0_, rate_);
    return (b_(0) / h_) * rate_.dot(lambda_);
  }

  /// Newton with the exact Jacobian J(z) = −B G(Q(z)) M⁻¹G0ᵀ, factorized by Eigen's sparse LU
  /// (sparse G only). The fixed matrix −B S0 of the iteration above contracts only while G(Q) is
  /// close to G0; energetic motion at a coarse step can take it out of that range, where a dense
  /// system's solver falls back to full Newton (first steps from 1000 random 2–5-link chain
  /// states, |p| ≤ 10, h = 0.04: one failed on the sparse path only; with this fallback the
  /// sparse and dense paths fail on the same steps). Only the steps that need it use it, and
  /// those allocate (the LU's storage).
  class exact_newton {
   public:
    explicit exact_newton(separable_two_stage& s) : s_(s) {}
    void residual(const unknowns& z, unknowns& r) { s_.residual(z, r); }
    bool has_jacobian() const { return false; }
    void update_jacobian(const unknowns& z) { s_.factorize_exact(z); }
    void solve_in_place(unknowns& d) { s_.solve_exact(d); }
    double increment_norm(const unknowns& z, const unknowns& d) const { return s_.increment_norm(z, d); }

   private:
    separable_two_stage& s_;
  };
  exact_newton exact() {
    static_assert(traits::sparse_jacobian, "geomint: the exact sparse Newton is for sparse constraint Jacobians");
    return exact_newton(*this);
  }

 private:
  using sparse_matrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
  /// The sparse case's exact Jacobian and its LU (empty types for dense G).
  struct exact_jacobian {
    jacobian_type g;  // G(Q)
    sparse_matrix j;
    vector<M> rhs;
    /// Eigen's SparseLU cannot be copied; a copied stepper starts without one (made when needed).
    struct lu_holder {
      using lu_type = Eigen::SparseLU<sparse_matrix, Eigen::COLAMDOrdering<int>>;
      std::unique_ptr<lu_type> lu;
      lu_holder() = default;
      lu_holder(const lu_holder&) {}
      lu_holder& operator=(const lu_holder&) {
        lu.reset();
        return *this;
      }
      lu_type& operator*() {
        if (!lu) lu = std::make_unique<lu_type>();
        return *lu;
      }
    } lu;
  };
  struct no_exact_jacobian {};

  void factorize_exact(const unknowns& z) {
    positions(z);
    system_at<System>(*sys_, t1_).constraint_jacobian(q_, exact_.g);
    const auto& w = sys_->mass().inverse_diagonal();  // sparse G requires a diagonal mass
    exact_.j = (exact_.g * w.asDiagonal()) * g0_->transpose();
    exact_.j *= -coupling_;
    auto& lu = *exact_.lu;
    lu.compute(exact_.j);
    if (lu.info() != Eigen::Success)
      throw step_error(failure_reason::singular_iteration_matrix, t1_ - c2_ * h_, h_, 0, 0,
                       "the exact stage Jacobian -B G(Q) M^-1 G0^T is singular");
  }
  void solve_exact(unknowns& d) {
    exact_.rhs = d;
    d = (*exact_.lu).solve(exact_.rhs);
    apply_bw(d, y_effect_);
    effect_ = y_effect_.cwiseAbs().maxCoeff();
  }

  void positions(const unknowns& z) {  // Q = q̃ − B M⁻¹G0ᵀΛ̃
    apply_bw(z, y_effect_);
    q_ = q_free_ - y_effect_;
  }
  /// out = B M⁻¹G0ᵀ v
  void apply_bw(const unknowns& v, vector<N>& out) {
    if (bw_dense_) {
      out.noalias() = bw_ * v;
    } else {
      work_.noalias() = g0_->transpose() * v;
      sys_->mass().apply_inverse(work_, out);
      out *= coupling_;
    }
  }

  double coupling_, minus_inverse_coupling_, c2_;
  vector<2> b_;
  int m_ = 0;
  double h_ = 0, t0_ = 0, t1_ = 0, inverse_q_scale_ = 1, effect_ = 0;
  const System* sys_ = nullptr;
  const jacobian_type* g0_ = nullptr;
  constraint_gram<System>* gram_ = nullptr;
  vector<N> q_free_, q_, work_, y_effect_, force_;
  vector<M> lambda_;
  vector<N> q0_;    // q0 and ∂g/∂t there (driven constraints: stage_work)
  vector<M> rate_;
  matrix<N, M> bw_;  // B M⁻¹G0ᵀ
  bool bw_dense_ = false;
  anderson_workspace acceleration_;  // the fixed-matrix iteration's history (sparse G)
  std::conditional_t<traits::sparse_jacobian, exact_jacobian, no_exact_jacobian> exact_;
};

}  // namespace detail
}  // namespace geomint
