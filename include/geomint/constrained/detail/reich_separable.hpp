// The implicit part of the Reich / McLachlan–Scovel constraint algorithm for separable
// H = ½ pᵀM⁻¹p + V(q) with constant M. Both the step γ(t) (eq. (9)) and its adjoint (eq. (10))
// reduce to one constrained drift from q with a known momentum p₀:
//
//   Q = q + t M⁻¹ (p₀ + G(q)ᵀμ̃),   g(Q) = 0,          p̃ = p₀ + G(q)ᵀμ̃
//
// with p₀ = p − t∇V(q) for γ and p₀ = p for the adjoint (whose kick −t∇V(Q) follows). Two
// equivalent formulations of this drift are solved by simplified Newton:
//
//   multipliers (eq. (9)):  unknown ν = tμ̃ ∈ ℝᵐ, Q = q + t M⁻¹p₀ + M⁻¹G(q)ᵀν, residual g(Q),
//                           Jacobian G(Q) M⁻¹ G(q)ᵀ (m × m);
//   positions  (eq. (12)):  unknown Q ∈ ℝⁿ, μ eliminated by the projection ψ(q, ·) = Π:
//                           Π (M(Q − q) − t p₀) = 0 and g(Q) = 0, solved as the square system
//                           F(Q) = Π (M(Q − q) − t p₀) + c G(q)ᵀ g(Q) = 0 (the two terms lie in
//                           complementary subspaces, so F = 0 ⟺ both vanish; Newton's iterates
//                           do not depend on the scale c, which only balances the matrix);
//                           then p̃ = M (Q − q)/t. Jacobian Π M + c G(q)ᵀ G(Q) (n × n).
#pragma once

#include <cmath>
#include <limits>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/constrained_system.hpp"

namespace geomint {
namespace detail {

inline step_error singular_drift(const newton_context& ctx) {
  return step_error(failure_reason::singular_constraint_jacobian, ctx.t, ctx.dt, 0, 0,
                    "G(Q) M⁻¹ G(q)ᵀ is singular: the constraints are dependent, or the step is so "
                    "large that the drift leaves the region where they are independent");
}

/// Multiplier formulation: unknown ν ∈ ℝᵐ.
template <class System>
class reich_multiplier_problem {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<M>;

  void resize(int n, int m) {
    base_.resize(n);
    q_.resize(n);
    dq_.resize(n);
    b_.resize(n, m);
    gmi_.resize(m, n);
    gq_.resize(m, n);
    lu_.resize(m);
  }
  /// base = q + t M⁻¹ p₀; g0 = G(q).
  template <class Q>
  void begin(const System& sys, const Q& base, const jacobian_type& g0, double q_scale, const newton_context& ctx) {
    sys_ = system_at<System>(sys, ctx.t);
    ctx_ = ctx;
    base_ = base;
    sys.mass().right_apply_inverse(g0, gmi_);  // G M⁻¹
    b_ = gmi_.transpose();                     // M⁻¹ Gᵀ (M symmetric)
    q_scale_ = std::fmax(q_scale, std::numeric_limits<double>::min());
  }
  void residual(const unknowns& nu, unknowns& r) {
    position(nu, q_);
    sys_.constraint(q_, r);
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& nu) {
    position(nu, q_);
    sys_.constraint_jacobian(q_, gq_);
    lu_.system_matrix().noalias() = gq_ * b_;
    if (!lu_.factorize()) throw singular_drift(ctx_);
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  double increment_norm(const unknowns&, const unknowns& d) {
    dq_.noalias() = b_ * d;
    return dq_.cwiseAbs().maxCoeff() / q_scale_;
  }
  /// Q = base + M⁻¹ G(q)ᵀ ν
  template <class Out>
  void position(const unknowns& nu, Out& out) {
    out = base_;
    out.noalias() += b_ * nu;
  }
  void invalidate() { have_jacobian_ = false; }

 private:
  system_at<System> sys_;  // the system at the half step's start time
  newton_context ctx_;
  double q_scale_ = 1;
  bool have_jacobian_ = false;
  vector<N> base_, q_, dq_;
  matrix<N, M> b_;
  matrix<M, N> gmi_;
  jacobian_type gq_;
  dense_lu<M> lu_;
};

/// Position formulation (eq. (12)): unknown Q ∈ ℝⁿ.
template <class System>
class reich_position_problem {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<N>;

  void resize(int n, int m) {
    q0_.resize(n);
    tp0_.resize(n);
    work_.resize(n);
    work2_.resize(n);
    gval_.resize(m);
    mass_.resize(n, n);
    pi_.resize(n, n);
    pim_.resize(n, n);
    g0_.resize(m, n);
    gq_.resize(m, n);
    lu_.resize(n);
  }
  /// The constant mass matrix M (from M⁻¹, once per system).
  void set_mass(const System& sys) {
    sys.mass().inverse_matrix(pim_);
    Eigen::LLT<matrix<N, N>> llt(pim_);
    mass_ = llt.solve(matrix<N, N>::Identity(pim_.rows(), pim_.cols()));
  }
  /// pi = Π(q) (the projector ψ(q, ·) as a matrix), g0 = G(q), tp0 = t p₀.
  template <class Q, class P, class Pi>
  void begin(const System& sys, const Q& q0, const P& tp0, const Pi& pi, const jacobian_type& g0, double q_scale,
             const newton_context& ctx) {
    sys_ = system_at<System>(sys, ctx.t);
    ctx_ = ctx;
    q0_ = q0;
    tp0_ = tp0;
    pi_ = pi;
    g0_ = g0;
    pim_.noalias() = pi_ * mass_;
    q_scale_ = std::fmax(q_scale, std::numeric_limits<double>::min());
    // c balances the two blocks of the Jacobian: ‖Π M‖ against ‖G(q)ᵀ G(q)‖.
    const double gg = g0_.rows() > 0 ? g0_.squaredNorm() / g0_.rows() : 1.0;
    c_ = mass_.diagonal().cwiseAbs().maxCoeff() / std::fmax(gg, std::numeric_limits<double>::min());
  }
  void residual(const unknowns& q, unknowns& r) {
    work_ = q - q0_;
    work2_.noalias() = mass_ * work_;
    work2_ -= tp0_;
    r.noalias() = pi_ * work2_;
    if (gval_.size() > 0) {
      sys_.constraint(q, gval_);
      r.noalias() += c_ * (g0_.transpose() * gval_);
    }
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& q) {
    auto& j = lu_.system_matrix();
    j = pim_;
    if (gval_.size() > 0) {
      sys_.constraint_jacobian(q, gq_);
      j.noalias() += c_ * (g0_.transpose() * gq_);
    }
    if (!lu_.factorize())
      throw step_error(failure_reason::singular_constraint_jacobian, ctx_.t, ctx_.dt, 0, 0,
                       "the position equations (McLachlan–Scovel eq. (12)) are singular: G(Q) is "
                       "rank deficient or the step leaves the region where g is nondegenerate");
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  double increment_norm(const unknowns&, const unknowns& d) { return d.cwiseAbs().maxCoeff() / q_scale_; }
  /// p̃ = M (Q − q)/t
  template <class Out>
  void momentum(const unknowns& q, double t, Out& out) {
    work_ = q - q0_;
    out.noalias() = mass_ * work_;
    out /= t;
  }
  void invalidate() { have_jacobian_ = false; }

 private:
  system_at<System> sys_;  // the system at the half step's start time
  newton_context ctx_;
  double q_scale_ = 1, c_ = 1;
  bool have_jacobian_ = false;
  vector<N> q0_, tp0_, work_, work2_;
  vector<M> gval_;
  matrix<N, N> mass_, pi_, pim_;
  jacobian_type g0_, gq_;
  dense_lu<N> lu_;
};

}  // namespace detail
}  // namespace geomint
