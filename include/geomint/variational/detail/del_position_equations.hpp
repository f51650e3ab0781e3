// The position equations of one discrete Euler–Lagrange step with multipliers
// (Marsden–Wendlandt 1997, eqs. (44)–(46)): given q0 ∈ Q and the momentum p0 at q0, find q1 and λ:
//
//   R_q = D₁L_d(q0, q1) + p0 + G(q0)ᵀλ = 0,     R_g = g(q1) = 0,
//
// solved for the displacement Δ = q1 − q0 (summed form: no cancellation in the discrete velocity).
//
// In the one-step form p0 is the state's momentum (the discrete Legendre transform (31) read
// backwards: p0 = −D₁L_d(q0, q1) − G(q0)ᵀλ); in the two-step form p0 = D₂L_d(q_{k−1}, q_k) and the
// equations are (45)–(46) multiplied by h. Newton's matrix is [[D₁₂L_d, G(q0)ᵀ], [G(q1), 0]],
// factorized once per step at the initial guess: carried over from the previous step it makes the
// simplified iteration stagnate on degenerate Lagrangians (its ∂²L/∂q̇² null direction turns with
// q, as for the quaternion rigid body), while at the O(h³)-accurate extrapolated guess the frozen
// iteration contracts by a factor ~ the guess error and converges in two or three iterations.
#pragma once

#include <cmath>
#include <limits>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/lagrangian_system.hpp"

namespace geomint {
namespace detail {

template <class System, class Evaluator>
class del_position_equations {
  using traits = lagrangian_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int K = size::fixed_if_small(size::sum(N, M));
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<K>;

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    q1_.resize(n);
    d1_.resize(n);
    d2_.resize(n);
    gval_.resize(m);
    g1_.resize(m, n);
    d12_.resize(n, n);
    lu_.resize(n + m);
  }
  int unknown_count() const { return n_ + m_; }

  /// Binds the step: q0, the momentum p0 at q0, G(q0), h and the discrete Lagrangian.
  void begin(const System& sys, Evaluator& ld, const vector<N>& q0, const vector<N>& p0,
             const jacobian_type& g0, double h, double t) {
    sys_ = &sys;
    ld_ = &ld;
    q0_ = &q0;
    p0_ = &p0;
    g0_ = &g0;
    h_ = h;
    t_ = t;
    have_jacobian_ = false;  // refreshed at the guess of every step (see the header comment)
    q_scale_ = std::fmax(q0.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  }

  // --- Newton problem interface (solvers/newton.hpp) ------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    ld_->derivatives(*sys_, *q0_, z.head(n_), h_, d1_, d2_);
    r.head(n_) = d1_ + *p0_;
    if (m_ > 0) {
      r.head(n_).noalias() += g0_->transpose() * z.tail(m_);
      q1_ = *q0_ + z.head(n_);
      sys_->constraint(q1_, gval_);
      r.tail(m_) = gval_;
    }
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& z) {
    ld_->mixed_hessian(*sys_, *q0_, z.head(n_), h_, d12_);
    auto& jm = lu_.system_matrix();
    jm.topLeftCorner(n_, n_) = d12_;
    if (m_ > 0) {
      q1_ = *q0_ + z.head(n_);
      sys_->constraint_jacobian(q1_, g1_);
      jm.topRightCorner(n_, m_) = g0_->transpose();
      jm.bottomLeftCorner(m_, n_) = g1_;
      jm.bottomRightCorner(m_, m_).setZero();
    }
    if (!jm.allFinite())
      throw step_error(failure_reason::non_finite_value, t_, h_, 0, 0,
                       "the second derivatives of the Lagrangian are not finite");
    if (!lu_.factorize()) {
      if (m_ == 0)  // no constraints to blame
        throw step_error(failure_reason::singular_iteration_matrix, t_, h_, 0, 0,
                         "the discrete Euler–Lagrange Jacobian D₁₂L_d is singular: ∂²L/∂q̇² degenerate");
      throw step_error(failure_reason::singular_constraint_jacobian, t_, h_, 0, 0,
                       "the discrete Euler–Lagrange Jacobian [[D₁₂L_d, G(q0)ᵀ], [G(q1), 0]] is singular: "
                       "dependent constraints, or ∂²L/∂q̇² degenerate on the constraint tangent space");
    }
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  /// Displacement increments relative to q0. The multipliers are auxiliary: the step's result
  /// (q1 = q0 + Δ, p1 from D₂L_d(q0, q0 + Δ)) depends on Δ alone, and a Newton step corrects a
  /// λ error that leaves Δ unchanged exactly (R_q is linear in λ). Their increments sit at the
  /// round-off floor of the momentum balance, ~10ε|p|, and would only stall the iteration.
  double increment_norm(const unknowns&, const unknowns& d) const {
    return d.head(n_).cwiseAbs().maxCoeff() / q_scale_;
  }
  // -----------------------------------------------------------------------------------------

  /// Forget the factorization (another system, or a reset).
  void invalidate() { have_jacobian_ = false; }

 private:
  int n_ = 0, m_ = 0;
  bool have_jacobian_ = false;
  const System* sys_ = nullptr;
  Evaluator* ld_ = nullptr;
  const vector<N>* q0_ = nullptr;
  const vector<N>* p0_ = nullptr;
  const jacobian_type* g0_ = nullptr;
  double h_ = 0, t_ = 0, q_scale_ = 1;
  vector<N> q1_, d1_, d2_;
  vector<M> gval_;
  jacobian_type g1_;
  matrix<N, N> d12_;
  dense_lu<K> lu_;
};

}  // namespace detail
}  // namespace geomint
