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
// that takes the time (system/evaluation.hpp). The first derivatives come in one call per stage
// when the system has gradients(); for a separable H, ∂H/∂q at Q_1 = q0 is ∇V(q0), one call per
// step. Newton's matrix is assembled densely from the second derivatives (the system's, in one
// call per stage when it has hessians(), or forward differences).
//
// What keeps a step's calls of the system few (Lobatto 4_3 on a forced, damped pendulum at
// h = 0.01, bench/sundials/bench_forced_pendulum: 3 iterations, 9 force and 6 ∇V calls per
// step):
// - the guess extrapolates the last four steps' stage increments (see guess());
// - the stage matrix is reassembled at every step's guess from that step's G(Q_j), Λ̃ and h with
//   the second derivatives of H and of the force kept from the last full evaluation (an LU, no
//   calls of H or f), for systems of up to `reassembly_limit` unknowns: the constraint blocks
//   are what goes stale fastest (G(Q_j) turns with the motion), the second derivatives enter
//   multiplied by h. They are evaluated afresh when a solve contracted by less than
//   `stale_contraction` from its reassembled matrix, or when Newton asks for a refresh;
// - a momentum-free last stage (a_is = 0, Lobatto IIIB) enters no momentum equation: its ∂H/∂q
//   and force are evaluated once, at the end of the step (they enter p̂ only), and neither is
//   differentiated.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "geomint/solvers/block_lu.hpp"
#include "geomint/solvers/extrapolation.hpp"
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
  /// Systems of up to this many stage unknowns get their stage matrix reassembled at every step
  /// (an LU of at most this size per step); larger ones keep a factorization across steps.
  static constexpr int reassembly_limit = 96;
  /// A first contraction factor above this, from a reassembled matrix, means the kept second
  /// derivatives no longer describe the stage equations: they are evaluated afresh next step.
  static constexpr double stale_contraction = 1e-2;
  static_assert(!traits::sparse_jacobian,
                "geomint: the general stage solver needs a dense constraint Jacobian; sparse "
                "systems must be separable without a non-conservative force");

 public:
  using unknowns = vector<ZN>;

  explicit general_stages(const partitioned_tableau<S>& t)
      : t_(t), c_(t.c()), ap_lambda_t_(t.ap.template leftCols<S - 1>().transpose()),
        last_momentum_free_(t.ap.col(S - 1).isZero(0)) {}

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
    jac_scratch_.resize(m, n);
    for (auto& g : jac_) g.resize(m, n);
    second_.resize(n);
    dhdq0_.resize(n);
    for (int j = 0; j < S; ++j) {
      kept_qq_[j].setZero(n, n);
      kept_qp_[j].setZero(n, n);
      kept_pp_[j].setZero(n, n);
      kept_fp_[j].setZero(n, n);
    }
    lu_.resize(unknown_count());
    increments_.forget();
    have_second_ = false;
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
    have_dhdq0_ = false;
    // Kept second derivatives that left a reassembled matrix contracting slowly are evaluated
    // afresh at this step's guess.
    if (reassembled_ && first_theta_ > stale_contraction) have_second_ = have_jacobian_ = false;
    first_theta_ = 1;  // until finish() reports this step's: a failed solve leaves them suspect
    reassemble_ = have_second_ && unknown_count() <= reassembly_limit;
    reassembled_ = false;
  }

  /// Initial guess. Continuing a step sequence, this step's stage increments
  /// d = (P_i − p0, Q_i − q0, Λ̃_i) are predicted from the previous steps': d is a smooth
  /// function of the step's start time, so at a constant step the polynomial through the last
  /// m steps' increments predicts it to O(h^m) (solvers/extrapolation.hpp; up to the cubic,
  /// m = 4); after a change of step, the last increments scaled by the step-size ratio (O(h²)).
  /// Fresh: P_i = p0, Q_i = q0 + c_i h ∂H/∂p(q0, p0), Λ̃ = 0. (The closer guess also makes the
  /// simplified Newton iteration contract faster: its rate is proportional to the guess's
  /// error. On the forced pendulum at h = 0.01 the cubic's error is 1e-8 of the unknowns, the
  /// quadratic's 1e-6: the k-th differences of d shrink by hω ≈ 0.1.) Returns the number of
  /// earlier steps used: 0 for the fresh predictor.
  int guess(unknowns& z, bool continuing, double ratio) {
    int used = 0;
    if (continuing && increments_.size() >= 2 && ratio == 1) {
      increments_.predict(z);
      used = increments_.points();
    } else if (continuing && increments_.size() >= 1) {
      z = ratio * increments_.latest();
      used = 1;
    }
    if (!continuing || ratio != 1) increments_.forget();  // older increments belong to another sequence
    if (used > 0) {
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
    increments_.forget();
    have_jacobian_ = have_second_ = false;
  }

  // --- Newton problem interface ------------------------------------------------------------
  void residual(const unknowns& z, unknowns& r) {
    evaluate(z, derivatives::for_residual);
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
  /// took the heavy top's iterate to |P| ~ 1e10). A step due for reassembly has none.
  bool has_jacobian() const { return !reassemble_ && have_jacobian_ && jacobian_h_ == h_; }
  /// The stage matrix at z: reassembled from the kept second derivatives at a step's guess (see
  /// the top of this file), else with the second derivatives evaluated afresh.
  void update_jacobian(const unknowns& z) {
    const bool reuse = reassemble_ && have_second_;
    reassembled_ = reuse;
    reassemble_ = false;
    evaluate(z, derivatives::none);  // stage values and G(Q_j)
    auto& jm = lu_.system_matrix();
    jm.setIdentity();
    hpp_scale_ = 0;
    for (int j = 0; j < S; ++j) {
      work_ = q_.col(j);
      work2_ = p_.col(j);
      const system_at<System> at(*sys_, stage_time(j));
      // Stage j's momentum enters the momentum equations unless j is a momentum-free last stage.
      const bool in_momenta = j < S - 1 || !last_momentum_free_;
      if (!reuse) {
        if (j > 0 && in_momenta) second_.all(at, work_, work2_, kept_qq_[j], kept_qp_[j], kept_pp_[j]);
        else second_.mixed_and_momentum(at, work_, work2_, hqq_, kept_qp_[j], kept_pp_[j]);  // no ∂²H/∂q² needed
        if constexpr (traits::has_force && !traits::has_position_force) {
          if (in_momenta) second_.force_p(at, work_, work2_, kept_fp_[j]);
        }
        if constexpr (traits::has_force) {
          if (j > 0 && in_momenta) {
            second_.force_q(at, work_, work2_, scratch_);
            kept_qq_[j] -= scratch_;  // H_qq − f_q
          }
        }
      }
      const auto& hpp = kept_pp_[j];
      hpp_scale_ = std::fmax(hpp_scale_, hpp.cwiseAbs().maxCoeff());
      // ∂R_Q,i/∂P_j = −h â_ij H_pp,j;  ∂R_Q,i/∂Q_j = −h â_ij H_qpᵀ (∂(∂H/∂p)/∂q)
      for (int i = 1; i < S; ++i) {
        block<N, N>(jm, q_offset(i), j * n_, n_, n_) -= h_ * t_.aq(i, j) * hpp;
        if (j > 0) block<N, N>(jm, q_offset(i), q_offset(j), n_, n_) -= h_ * t_.aq(i, j) * kept_qp_[j].transpose();
      }
      if (!in_momenta) continue;  // a_ij = 0 for every i
      // ∂R_P,i/∂P_j = h a_ij (H_qp − f_p)_j  (f_p = 0 for f(t, q))
      hqp_ = kept_qp_[j];
      if constexpr (traits::has_force && !traits::has_position_force) hqp_ -= kept_fp_[j];
      for (int i = 0; i < S; ++i) block<N, N>(jm, i * n_, j * n_, n_, n_) += h_ * t_.ap(i, j) * hqp_;
      if (j == 0) continue;  // Q_1 = q0 is not an unknown
      // ∂R_P,i/∂Q_j = h a_ij (H_qq − f_q) + a_ij Σλ∇²g
      hqq_ = h_ * kept_qq_[j];
      if (j < S - 1 && m_ > 0) {
        second_.constraint_hessian(at, work_, lambda_.col(j), jac_scratch_, scratch_);
        hqq_ += scratch_;
      }
      for (int i = 0; i < S; ++i) block<N, N>(jm, i * n_, q_offset(j), n_, n_) += t_.ap(i, j) * hqq_;
    }
    for (int j = 1; j < S && m_ > 0; ++j)  // ∂R_g,j/∂Q_j = G(Q_j)
      block<M, N>(jm, g_offset(j), q_offset(j), m_, n_) = jac_[j];
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
    have_jacobian_ = have_second_ = true;
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

  /// After convergence (`solve`: Newton's report): q1 = Q_s and
  /// p̂ = p0 − h Σ b_i (∂H/∂q − f)_i − Σ_{i<s} b_i G_iᵀΛ̃_i.
  void finish(const unknowns& z, const newton_report& solve, vector<N>& q1, vector<N>& p_hat) {
    evaluate(z, derivatives::all);
    first_theta_ = solve.first_contraction;
    d_ = z;  // this step's increments, for the next guesses
    for (int i = 0; i < S; ++i) d_.segment(i * n_, n_) -= p0_store_;
    for (int i = 1; i < S; ++i) d_.segment(q_offset(i), n_) -= q_.col(0);
    increments_.record(d_);
    q1 = q_.col(S - 1);
    p_hat = p0_store_;
    p_hat.noalias() -= h_ * (fq_ * t_.b);
    for (int k = 0; k < S - 1; ++k) p_hat -= t_.b(k) * gl_.col(k);
  }

  const matrix<M, S - 1>& multipliers() const { return lambda_; }
  /// After finish, for driven constraints: Σ_{k<s} b_k ∂g/∂t(Q_k, t0 + c_k h)·Λ̃_k, the work the
  /// stage multipliers' constraint forces do (the extended phase space's energy change).
  double stage_work() {
    double w = 0;
    for (int k = 0; k < S - 1 && m_ > 0; ++k) {
      work_ = q_.col(k);
      system_at<System>(*sys_, stage_time(k)).constraint_time_derivative(work_, gval_);
      w += t_.b(k) * gval_.dot(lambda_.col(k));
    }
    return w;
  }
  /// Forget the factorization, the second derivatives and the previous step (another system or
  /// a fresh start).
  void invalidate() {
    have_jacobian_ = have_second_ = false;
    increments_.forget();
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

  /// What evaluate() computes besides the stage values and G(Q_j): the first derivatives the
  /// stage equations need (a momentum-free last stage's ∂H/∂q and force enter none of them), or
  /// every stage's (the end of the step's p̂ needs them all).
  enum class derivatives { none, for_residual, all };

  /// Stage values, constraint Jacobians and the first derivatives asked for, at z.
  void evaluate(const unknowns& z, derivatives wanted) {
    const System& sys = *sys_;
    p_ = columns<S>(z.data(), n_);
    q_.template rightCols<S - 1>() = columns<S - 1>(z.data() + q_offset(1), n_);
    lambda_ = Eigen::Map<const matrix<M, S - 1>>(z.data() + lambda_offset(0), m_, S - 1);
    for (int j = 0; j < S; ++j) {
      work_ = q_.col(j);
      const system_at<System> at(sys, stage_time(j));
      if (j > 0 && m_ > 0) at.constraint_jacobian(work_, jac_[j]);
      if (wanted == derivatives::none) continue;
      work2_ = p_.col(j);
      if (wanted == derivatives::for_residual && j == S - 1 && last_momentum_free_) {
        at.dh_dp(work_, work2_, fp_col_);  // the stage's ∂H/∂q − f is multiplied by a_is = 0
        fq_.col(j).setZero();
        fp_.col(j) = fp_col_;
        continue;
      }
      if constexpr (traits::separable) {
        if (j == 0) {  // ∂H/∂q(q0, P_1) = ∇V(q0): once per step
          if (!have_dhdq0_) at.dh_dq(work_, work2_, dhdq0_);
          have_dhdq0_ = true;
          fq_col_ = dhdq0_;
          at.dh_dp(work_, work2_, fp_col_);
        } else {
          at.dh_dq(work_, work2_, fq_col_);
          at.dh_dp(work_, work2_, fp_col_);
        }
      } else if constexpr (traits::has_gradients) {
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
  bool have_jacobian_ = false;
  double jacobian_h_ = 0;  // the step size the factorization was formed at
  sequence_extrapolation<unknowns, 4> increments_;  // d of the last steps of one size (up to the cubic)
  unknowns d_;  // this step's d (scratch of finish)
  // The second derivatives at each stage as last evaluated: H_qq − f_q, H_qp, H_pp, f_p.
  std::array<matrix<N, N>, S> kept_qq_, kept_qp_, kept_pp_, kept_fp_;
  bool have_second_ = false;   // kept_* describe this system and sequence
  bool reassemble_ = false;    // this step's first matrix is reassembled from kept_*
  bool reassembled_ = false;   // this step's solve started from a reassembled matrix
  bool last_momentum_free_;    // a_is = 0 for every i (Lobatto IIIB)
  double first_theta_ = 0;  // the last solve's first contraction factor (newton_report)
  vector<N> dhdq0_;  // ∇V(q0) of a separable H (have_dhdq0_: evaluated this step)
  bool have_dhdq0_ = false;
  const System* sys_ = nullptr;
  vector<N> p0_store_, work_, work2_, fq_col_, fp_col_, force_;
  vector<M> gval_;
  matrix<N, S> p_, q_, fq_, fp_;
  matrix<M, S - 1> lambda_;
  matrix<N, S - 1> gl_;
  matrix<N, N> hqq_, hqp_, scratch_;  // a stage's blocks of the stage matrix (overwritten)
  jacobian_type jac_scratch_;
  std::array<jacobian_type, S> jac_;
  second_derivatives<System> second_;
  block_lu<ZN, ZP, ZK> lu_;  // blocks: momenta (P_s: unit columns) | positions and multipliers
};

}  // namespace detail
}  // namespace geomint
