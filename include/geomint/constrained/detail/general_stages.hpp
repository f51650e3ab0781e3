// Stage equations of a constrained PRK method for a general H(q, p) (Hairer 2003, (2.6)–(2.7)),
// with an optional non-conservative force f(t, q, p), solved as one system in
// z = (P_1..P_s, Q_2..Q_s, Λ̃_1..Λ̃_{s−1}), Λ̃ = hΛ:
//
//   R_P,i = P_i − p0 + h Σ_j a_ij (∂H/∂q − f)(P_j, Q_j) + Σ_{j<s} a_ij G(Q_j)ᵀ Λ̃_j
//   R_Q,i = Q_i − q0 − h Σ_j â_ij ∂H/∂p(P_j, Q_j)                      i = 2..s
//   R_g,i = g(Q_i)                                                     i = 2..s
//
// (Q_1 = q0 because â_1j = 0; Λ_s does not enter because a_is = 0.) Stage j is at time
// t0 + c_j h (c = the row sums of â): f is evaluated there, and so is every function of a system
// that takes the time (system/evaluation.hpp). The first derivatives come in one call per stage when the system has gradients(). Newton's
// matrix is assembled densely from the second derivatives (the system's, in one call per stage
// when it has hessians(), or forward differences).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "geomint/solvers/block_lu.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/second_derivatives.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint {
namespace detail {

template <class System, int S>
class general_stages {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int ZN = size::fixed_if_small(
      size::sum(size::product(S, N), size::product(S - 1, size::sum(N, M))));
  static constexpr int ZP = size::is_fixed(ZN) ? S * N : dynamic;  // the momentum unknowns P_1..P_s
  // P_s enters no momentum equation but its own (a_is = 0): its columns of the momentum block
  // are unit columns, which block_lu skips.
  static constexpr int ZK = size::is_fixed(ZN) ? N : 0;
  using jacobian_type = typename traits::jacobian_type;
  static_assert(!traits::sparse_jacobian,
                "geomint: the general stage solver needs a dense constraint Jacobian; sparse "
                "systems must be separable without a non-conservative force");

 public:
  using unknowns = vector<ZN>;

  explicit general_stages(const partitioned_tableau<S>& t)
      : t_(t), c_(t.c()), ap_lambda_t_(t.ap.template leftCols<S - 1>().transpose()) {}

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    p_.resize(n, S);
    q_.resize(n, S);
    fq_.resize(n, S);
    fp_.resize(n, S);
    lambda_.resize(m, S - 1);
    gl_.setZero(n, S - 1);  // stays zero without constraints
    work_.resize(n);
    work2_.resize(n);
    fq_col_.resize(n);
    fp_col_.resize(n);
    force_.resize(n);
    p0_store_.resize(n);
    gval_.resize(m);
    scratch_.resize(n, n);
    hqq_.resize(n, n);
    hqp_.resize(n, n);
    hpp_.resize(n, n);
    jac_scratch_.resize(m, n);
    for (auto& g : jac_) g.resize(m, n);
    second_.resize(n);
    lu_.resize(unknown_count());
    increments_.resize(unknown_count());
    for (auto& d : previous_) d.resize(unknown_count());
  }
  int unknown_count() const { return S * n_ + (S - 1) * (n_ + m_); }
  /// Factorize the stage Jacobian with `solver` instead of Eigen (null: Eigen's LU).
  void use(external_linear_solver* solver) {
    lu_.use(solver);
    have_jacobian_ = false;
  }

  template <class Q0, class P0>
  void begin(const System& sys, const Q0& q0, const P0& p0, const jacobian_type& g0, double t, double h) {
    sys_ = &sys;
    t0_ = t;
    h_ = h;
    hap_t_ = h * t_.ap.transpose();
    haq_t_ = h * t_.aq.template bottomRows<S - 1>().transpose();
    q_.col(0) = q0;
    p0_store_ = p0;
    jac_[0] = g0;
    q0_scale_ = std::fmax(q0.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    p0_scale_ = p0.cwiseAbs().maxCoeff();
  }

  /// Initial guess. Continuing a step sequence, this step's stage increments
  /// d = (P_i − p0, Q_i − q0, Λ̃_i) are predicted from the previous steps': d is a smooth
  /// function of the step's start time, so at a constant step the quadratic through the last
  /// three steps' increments predicts it to O(h⁴) (3d₁ − 3d₂ + d₃; two steps: 2d₁ − d₂, O(h³));
  /// after a change of step, the last increments scaled by the step-size ratio (O(h²)). Fresh:
  /// P_i = p0, Q_i = q0 + c_i h ∂H/∂p(q0, p0), Λ̃ = 0. (The closer guess also makes the simplified
  /// Newton iteration contract faster: its rate is proportional to the guess's error.)
  /// `most` caps the number of earlier steps used (a retry after Newton failed from a guess
  /// extrapolated further). Returns the number used: 0 for the fresh predictor.
  int guess(unknowns& z, bool continuing, double ratio, int most = 3) {
    if (most < 3) have_jacobian_ = false;  // a retry: the last factorization is from a failed iteration
    if (!continuing || ratio != 1) history_ = 0;  // older increments belong to another sequence
    if (continuing && have_increments_ && most > 0) {
      const int used = std::min(std::max(history_, 1), most);
      if (used == 3) z = 3 * (increments_ - previous_[0]) + previous_[1];
      else if (used == 2) z = 2 * increments_ - previous_[0];
      else z = ratio * increments_;
      for (int i = 0; i < S; ++i) z.segment(i * n_, n_) += p0_store_;
      for (int i = 1; i < S; ++i) z.segment(q_offset(i), n_) += q_.col(0);
      return used;
    }
    system_at<System>(*sys_, t0_).dh_dp(q_.col(0), p0_store_, work_);
    for (int i = 0; i < S; ++i) z.segment(i * n_, n_) = p0_store_;
    for (int i = 1; i < S; ++i) z.segment(q_offset(i), n_) = q_.col(0) + c_(i) * h_ * work_;
    z.tail((S - 1) * m_).setZero();
    return 0;
  }
  /// A step solved without this solver (the separable fast path): its increments and its
  /// factorization describe an earlier step, perhaps many steps back, not the previous one, and
  /// are no guess for the next (a composition's negative substep started from them found
  /// another root of the stage equations: energy error 178 against 0.4 from a fresh start).
  void interrupt_sequence() {
    history_ = 0;
    have_increments_ = have_jacobian_ = false;
  }

  // --- Newton problem interface ------------------------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    evaluate(z);
    // Stage by stage as columns: R_P = P − p0 1ᵀ + F_q (h a)ᵀ + GΛ̃ a(:, 1..s−1)ᵀ and
    // R_Q = Q(:, 2..s) − q0 1ᵀ − F_p (h â(2..s, :))ᵀ; the inner dimension is s, so the products
    // are coefficient-based.
    auto rp = columns<S>(r.data(), n_);
    rp = p_.colwise() - p0_store_;
    rp.noalias() += fq_.lazyProduct(hap_t_);
    if (m_ > 0) rp.noalias() += gl_.lazyProduct(ap_lambda_t_);  // GΛ̃ = 0 without constraints
    auto rq = columns<S - 1>(r.data() + q_offset(1), n_);
    rq = q_.template rightCols<S - 1>().colwise() - q_.col(0);
    rq.noalias() -= fp_.lazyProduct(haq_t_);
    for (int i = 1; i < S && m_ > 0; ++i) {
      work_ = q_.col(i);
      system_at<System>(*sys_, stage_time(i)).constraint(work_, gval_);
      r.segment(g_offset(i), m_) = gval_;
    }
  }
  /// A factorization is kept across steps of one size only: the stage matrix scales with h, and
  /// one formed at another step sends the iteration astray (after steps of 1e-7, a step of 0.2
  /// took the heavy top's iterate to |P| ~ 1e10).
  bool has_jacobian() const { return have_jacobian_ && jacobian_h_ == h_; }
  void update_jacobian(const unknowns& z) {
    evaluate(z, false);  // stage values and G(Q_j); the first derivatives are not needed here
    auto& jm = lu_.system_matrix();
    jm.setIdentity();
    hpp_scale_ = 0;
    for (int j = 0; j < S; ++j) {
      work_ = q_.col(j);
      work2_ = p_.col(j);
      const system_at<System> at(*sys_, stage_time(j));
      if (j > 0) second_.all(at, work_, work2_, hqq_, hqp_, hpp_);
      else second_.mixed_and_momentum(at, work_, work2_, hqq_, hqp_, hpp_);  // Q_1 = q0: no ∂²H/∂q²
      hpp_scale_ = std::fmax(hpp_scale_, hpp_.cwiseAbs().maxCoeff());
      // ∂R_Q,i/∂P_j = −h â_ij H_pp,j;  ∂R_Q,i/∂Q_j = −h â_ij H_qpᵀ (∂(∂H/∂p)/∂q)
      for (int i = 1; i < S; ++i) {
        block<N, N>(jm, q_offset(i), j * n_, n_, n_) -= h_ * t_.aq(i, j) * hpp_;
        if (j > 0) block<N, N>(jm, q_offset(i), q_offset(j), n_, n_) -= h_ * t_.aq(i, j) * hqp_.transpose();
      }
      // ∂R_P,i/∂P_j = h a_ij (H_qp − f_p)_j  (f_p = 0 for f(t, q))
      if constexpr (traits::has_force && !traits::has_position_force) {
        second_.force_p(at, work_, work2_, scratch_);
        hqp_ -= scratch_;
      }
      for (int i = 0; i < S; ++i) block<N, N>(jm, i * n_, j * n_, n_, n_) += h_ * t_.ap(i, j) * hqp_;
      if (j == 0) continue;  // Q_1 = q0 is not an unknown
      // ∂R_P,i/∂Q_j = h a_ij (H_qq − f_q) + a_ij Σλ∇²g
      if constexpr (traits::has_force) {
        second_.force_q(at, work_, work2_, scratch_);
        hqq_ -= scratch_;
      }
      hqq_ *= h_;
      if (j < S - 1 && m_ > 0) {
        second_.constraint_hessian(at, work_, lambda_.col(j), jac_scratch_, scratch_);
        hqq_ += scratch_;
      }
      for (int i = 0; i < S; ++i) block<N, N>(jm, i * n_, q_offset(j), n_, n_) += t_.ap(i, j) * hqq_;
      // ∂R_g,j/∂Q_j = G(Q_j)
      if (m_ > 0) block<M, N>(jm, g_offset(j), q_offset(j), m_, n_) = jac_[j];
    }
    for (int j = 0; j < S - 1 && m_ > 0; ++j)  // ∂R_P,i/∂Λ̃_j = a_ij G(Q_j)ᵀ
      for (int i = 0; i < S; ++i) block<N, M>(jm, i * n_, lambda_offset(j), n_, m_) = t_.ap(i, j) * jac_[j].transpose();
    if (m_ > 0) jm.block(g_offset(1), g_offset(1), (S - 1) * m_, (S - 1) * m_).setZero();
    if (!lu_.factorize()) {
      if (!jm.allFinite())
        throw step_error(failure_reason::non_finite_value, t0_, h_, 0, 0,
                         "the stage Jacobian is not finite: a second derivative of H, the force's "
                         "derivative or a constraint Jacobian returned NaN or Inf");
      throw step_error(failure_reason::singular_constraint_jacobian, t0_, h_, 0, 0,
                       "the stage Jacobian is singular: G(q) ∂²H/∂p² G(q)ᵀ is not invertible "
                       "(Hairer 2003, (2.4)); are two constraints dependent?");
    }
    have_jacobian_ = true;
    jacobian_h_ = h_;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  /// Scaled increment. A stage momentum enters the step only through h ∂H/∂p and h ∂H/∂q, and
  /// the constraints g(Q_i) = 0 fix its normal component (with Λ̃) only to ε|q|/(h‖H_pp‖): the
  /// momentum unknowns are measured against the largest of |p0|, |P_i| and that momentum,
  /// q_scale/(h‖H_pp‖), which moves Q by q_scale within the step. (|P| alone is O(h·force) from
  /// rest and made the attainable level grow like 1/h², above any fixed floor.)
  double increment_norm(const unknowns& z, const unknowns& d) {
    const double q_scale = std::fmax(q0_scale_, z.segment(q_offset(1), (S - 1) * n_).cwiseAbs().maxCoeff());
    double p_scale = std::fmax(p0_scale_, z.head(S * n_).cwiseAbs().maxCoeff());
    if (hpp_scale_ > 0) p_scale = std::fmax(p_scale, q_scale / (std::fabs(h_) * hpp_scale_));
    p_scale = std::fmax(p_scale, std::numeric_limits<double>::min());
    double e = d.head(S * n_).cwiseAbs().maxCoeff() / p_scale;
    e = std::fmax(e, d.segment(q_offset(1), (S - 1) * n_).cwiseAbs().maxCoeff() / q_scale);
    for (int j = 0; j < S - 1 && m_ > 0; ++j) {  // effect of dΛ̃_j on the momenta
      work_.noalias() = jac_[j].transpose() * d.segment(lambda_offset(j), m_);
      e = std::fmax(e, work_.cwiseAbs().maxCoeff() / p_scale);
    }
    return e;
  }
  // -----------------------------------------------------------------------------------------

  /// After convergence: q1 = Q_s and p̂ = p0 − h Σ b_i (∂H/∂q − f)_i − Σ_{i<s} b_i G_iᵀΛ̃_i.
  void finish(const unknowns& z, vector<N>& q1, vector<N>& p_hat) {
    evaluate(z);
    previous_[1].swap(previous_[0]);  // for the next steps' guesses
    previous_[0].swap(increments_);
    increments_ = z;
    history_ = std::min(history_ + 1, 3);
    for (int i = 0; i < S; ++i) increments_.segment(i * n_, n_) -= p0_store_;
    for (int i = 1; i < S; ++i) increments_.segment(q_offset(i), n_) -= q_.col(0);
    have_increments_ = true;
    q1 = q_.col(S - 1);
    p_hat = p0_store_;
    p_hat.noalias() -= h_ * (fq_ * t_.b);
    for (int k = 0; k < S - 1; ++k) p_hat -= t_.b(k) * gl_.col(k);
  }

  const matrix<M, S - 1>& multipliers() const { return lambda_; }
  /// Forget the factorization and the previous step (another system or a fresh start).
  void invalidate() {
    have_jacobian_ = have_increments_ = false;
    history_ = 0;
  }

 private:
  double stage_time(int j) const { return t0_ + c_(j) * h_; }
  /// The rows × cols block of the stage matrix at (i, j), of fixed size R × C when known.
  template <int R, int C, class Matrix>
  static auto block(Matrix& jm, int i, int j, int rows, int cols) {
    if constexpr (size::is_fixed(R) && size::is_fixed(C)) return jm.template block<R, C>(i, j);
    else return jm.block(i, j, rows, cols);
  }
  /// The n × C stage columns stored contiguously from `data` (a part of z or r).
  template <int C>
  static Eigen::Map<matrix<N, C>> columns(double* data, int n) { return {data, n, C}; }
  template <int C>
  static Eigen::Map<const matrix<N, C>> columns(const double* data, int n) { return {data, n, C}; }
  int q_offset(int i) const { return S * n_ + (i - 1) * n_; }
  int g_offset(int i) const { return S * n_ + (S - 1) * n_ + (i - 1) * m_; }
  int lambda_offset(int k) const { return S * n_ + (S - 1) * n_ + k * m_; }

  /// Stage values, constraint Jacobians and (with_gradients) the first derivatives the
  /// residual needs, at z.
  void evaluate(const unknowns& z, bool with_gradients = true) {
    const System& sys = *sys_;
    p_ = columns<S>(z.data(), n_);
    q_.template rightCols<S - 1>() = columns<S - 1>(z.data() + q_offset(1), n_);
    lambda_ = Eigen::Map<const matrix<M, S - 1>>(z.data() + lambda_offset(0), m_, S - 1);
    for (int j = 0; j < S; ++j) {
      work_ = q_.col(j);
      const system_at<System> at(sys, stage_time(j));
      if (j > 0 && m_ > 0) at.constraint_jacobian(work_, jac_[j]);
      if (!with_gradients) continue;
      work2_ = p_.col(j);
      if constexpr (traits::has_gradients) {
        at.gradients(work_, work2_, fq_col_, fp_col_);
      } else {
        at.dh_dq(work_, work2_, fq_col_);
        at.dh_dp(work_, work2_, fp_col_);
      }
      if constexpr (traits::has_force) {
        at.force(work_, work2_, force_);
        fq_col_ -= force_;
      }
      fq_.col(j) = fq_col_;
      fp_.col(j) = fp_col_;
      if (j < S - 1 && m_ > 0) gl_.col(j).noalias() = jac_[j].transpose() * lambda_.col(j);
    }
  }

  partitioned_tableau<S> t_;
  vector<S> c_;
  matrix<S, S> hap_t_;            // (h a)ᵀ
  matrix<S, S - 1> haq_t_;        // (h â(2..s, :))ᵀ
  matrix<S - 1, S> ap_lambda_t_;  // a(:, 1..s−1)ᵀ: the multipliers' coefficients
  int n_ = 0, m_ = 0;
  double t0_ = 0, h_ = 0, q0_scale_ = 1, p0_scale_ = 0, hpp_scale_ = 0;
  bool have_jacobian_ = false, have_increments_ = false;
  double jacobian_h_ = 0;  // the step size the factorization was formed at
  unknowns increments_;             // d of the last step
  std::array<unknowns, 2> previous_;  // d of the two steps before it
  int history_ = 0;                  // how many consecutive steps of one size d covers (≤ 3)
  const System* sys_ = nullptr;
  vector<N> p0_store_, work_, work2_, fq_col_, fp_col_, force_;
  vector<M> gval_;
  matrix<N, S> p_, q_, fq_, fp_;
  matrix<M, S - 1> lambda_;
  matrix<N, S - 1> gl_;
  matrix<N, N> hqq_, hqp_, hpp_, scratch_;  // the stage's second derivatives (overwritten)
  jacobian_type jac_scratch_;
  std::array<jacobian_type, S> jac_;
  second_derivatives<System> second_;
  block_lu<ZN, ZP, ZK> lu_;  // blocks: momenta (P_s: unit columns) | positions and multipliers
};

}  // namespace detail
}  // namespace geomint
