// The DAE of a constrained Hamiltonian system in the GGL or index-1 form (ida_reference.hpp),
// evaluated through the system concept only.
//
// Residual (GGL):    F_q = q̇ − H_p + Gᵀμ,  F_p = ṗ + H_q + Gᵀλ − f,  F_g = g(q),  F_h = G H_p.
// Residual (index1): F_q = q̇ − H_p,        F_p = ṗ + H_q + Gᵀλ − f,  F_λ = DΦ(q, p)[q̇, ṗ],
//                    Φ(q, p) = G(q) H_p(q, p) the hidden constraint, DΦ its derivative along
//                    (q̇, ṗ) = d/dt Φ (a fourth-order central difference over a fixed time-like
//                    step: exact to round-off when Φ is quadratic along the line, as for
//                    quadratic constraints and separable H).
// Jacobian ∂F/∂y + cj ∂F/∂ẏ: the blocks cj I, G, Gᵀ, ∂²H (dense G: the system's second
// derivatives or geomint's differences; sparse G: M⁻¹ only) and the curvature blocks
// Σλ_k∇²g_k, Σμ_k∇²g_k, ∂(G v)/∂q by central differences of G over column groups.
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/sundials/detail/dae_model.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint::sundials::detail {

/// Calls f(k, j, G_kj) for every stored entry of G (every entry of a dense G).
template <class G, class F>
void for_each_entry(const G& g, F&& f) {
  if constexpr (geomint::detail::is_sparse_matrix<G>::value) {
    static_assert(G::IsRowMajor, "geomint: sparse constraint Jacobians must be RowMajor");
    for (int k = 0; k < g.outerSize(); ++k)
      for (typename G::InnerIterator it(g, k); it; ++it) f(k, static_cast<int>(it.col()), it.value());
  } else {
    for (int k = 0; k < g.rows(); ++k)
      for (int j = 0; j < g.cols(); ++j) f(k, j, g(k, j));
  }
}

template <class System>
class constrained_dae final : public dae_model {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr bool sparse = traits::sparse_jacobian;
  // The sparse Jacobian keeps M⁻¹ only (no ∂²H or ∂f blocks): separable H, force f(t, q) if any.
  static_assert(!sparse || (traits::separable && (!traits::has_force || traits::has_position_force)),
                "geomint: a sparse constraint Jacobian needs a separable system, with a position force if any");
  static_assert(!traits::rheonomic, "geomint: the IDA references take constraints independent of t (the residuals "
                                    "above have no ∂g/∂t); driven constraints: rattle, lobatto_iiia_iiib");
  using jacobian_type = typename traits::jacobian_type;

 public:
  constrained_dae(const System& sys, bool ggl, const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, double t0)
      : sys_(sys), ggl_(ggl), n_(sys.position_count()), m_(sys.constraint_count()) {
    resize();
    evaluate_at(t0);
    q_ = q0;
    p_ = p0;
    const constraint_residuals res = constraint_residuals_of(sys, q_, p_, t0);
    if (!(res.position <= consistency_tolerance && res.velocity <= consistency_tolerance))
      throw step_error(failure_reason::inconsistent_initial_state, t0, 0, 0, std::fmax(res.position, res.velocity),
                       geomint::detail::describe_residuals(res, consistency_tolerance));

    pattern_.n = n_;
    pattern_.rows.assign(m_, {});
    if (m_ > 0) {
      at_.constraint_jacobian(q_, g_);
      for_each_entry(g_, [&](int k, int j, double) { pattern_.rows[k].push_back(j); });
    }
    layout_ = interleaved_layout(pattern_, ggl_);
    groups_ = color_columns(pattern_);

    // Difference steps: ε for coordinates (second-order central differences of G, exact for a
    // linear G), and a time-like step τδ along (q̇, ṗ) for DΦ.
    const double q_scale = q_.cwiseAbs().maxCoeff() > 0 ? q_.cwiseAbs().maxCoeff() : 1.0;
    coordinate_step_ = std::cbrt(std::numeric_limits<double>::epsilon()) * q_scale;
    at_.dh_dp(q_, p_, v_);
    free_momentum_rate(q_, p_, pd_);
    double rate = v_.cwiseAbs().maxCoeff() / q_scale;
    const double p_scale = p_.cwiseAbs().maxCoeff();
    if (p_scale > 0) rate = std::fmax(rate, pd_.cwiseAbs().maxCoeff() / p_scale);
    time_step_ = 1e-3 * (rate > 0 ? 1 / rate : 1.0);

    consistent_multipliers();
    y0_.setZero(layout_.size);
    yp0_.setZero(layout_.size);
    id_.setZero(layout_.size);
    pd_.noalias() -= g_transpose_times(lambda_);
    for (int i = 0; i < n_; ++i) {
      y0_(layout_.q[i]) = q_(i);
      y0_(layout_.p[i]) = p_(i);
      yp0_(layout_.q[i]) = v_(i);
      yp0_(layout_.p[i]) = pd_(i);
      id_(layout_.q[i]) = id_(layout_.p[i]) = 1;
    }
    for (int k = 0; k < m_; ++k) y0_(layout_.lambda[k]) = lambda_(k);  // μ(t0) = 0
    multiplier_scale_ = m_ > 0 ? lambda_.cwiseAbs().maxCoeff() : 0.0;
  }

  int size() const override { return layout_.size; }
  const Eigen::VectorXd& initial_y() const override { return y0_; }
  const Eigen::VectorXd& initial_yp() const override { return yp0_; }
  const Eigen::VectorXd& differential() const override { return id_; }
  double multiplier_scale() const override { return multiplier_scale_; }
  const std::string& error() const override { return error_; }
  const dae_layout& layout() const { return layout_; }

  int residual(double t, const double* y, const double* yp, double* r) noexcept override {
    try {
      evaluate_at(t);
      unpack(y, yp);
      at_.dh_dp(q_, p_, v_);
      free_momentum_rate(q_, p_, work_n_);  // −H_q + f
      for (int i = 0; i < n_; ++i) {
        r[layout_.q[i]] = qd_(i) - v_(i);
        r[layout_.p[i]] = pd_(i) - work_n_(i);
      }
      if (m_ > 0) {
        at_.constraint_jacobian(q_, g_);
        work_n_ = g_transpose_times(lambda_);
        for (int i = 0; i < n_; ++i) r[layout_.p[i]] += work_n_(i);
        if (ggl_) {
          work_n_ = g_transpose_times(mu_);
          for (int i = 0; i < n_; ++i) r[layout_.q[i]] += work_n_(i);
          at_.constraint(q_, gval_);
          work_m_.noalias() = g_ * v_;
          for (int k = 0; k < m_; ++k) {
            r[layout_.lambda[k]] = gval_(k);
            r[layout_.mu[k]] = work_m_(k);
          }
        } else {
          hidden_constraint_rate(q_, p_, qd_, pd_, work_m_);
          for (int k = 0; k < m_; ++k) r[layout_.lambda[k]] = work_m_(k);
        }
      }
      for (int i = 0; i < layout_.size; ++i)
        if (!std::isfinite(r[i])) return 1;
      return 0;
    } catch (const std::exception& e) {
      error_ = e.what();
      return -1;
    }
  }

  int jacobian(double t, double cj, const double* y, const double* yp, Eigen::SparseMatrix<double>& jac) noexcept override {
    try {
      evaluate_at(t);
      unpack(y, yp);
      triplets_.clear();
      auto add = [&](int row, int col, double value) { triplets_.emplace_back(row, col, value); };
      const auto& lq = layout_.q;
      const auto& lp = layout_.p;
      for (int i = 0; i < n_; ++i) {
        add(lq[i], lq[i], cj);
        add(lp[i], lp[i], cj);
      }
      at_.dh_dp(q_, p_, v_);
      // ∂²H blocks: (F_q, q) −H_pq, (F_q, p) −H_pp, (F_p, q) H_qq − f_q, (F_p, p) H_qp − f_p.
      if constexpr (sparse) {
        const auto& w = sys_.mass().inverse_diagonal();
        for (int i = 0; i < n_; ++i) add(lq[i], lp[i], -w(i));
      } else {
        second_.h_qq(at_, q_, p_, hqq_);
        second_.h_qp(at_, q_, p_, hqp_);
        second_.h_pp(at_, q_, p_, hpp_);
        if constexpr (traits::has_force) {
          second_.force_q(at_, q_, p_, hnn_);
          hqq_ -= hnn_;
          second_.force_p(at_, q_, p_, hnn_);
        }
        for (int j = 0; j < n_; ++j)
          for (int i = 0; i < n_; ++i) {
            add(lq[i], lq[j], -hqp_(j, i));
            add(lq[i], lp[j], -hpp_(i, j));
            add(lp[i], lq[j], hqq_(i, j));
            add(lp[i], lp[j], hqp_(i, j) - (traits::has_force ? hnn_(i, j) : 0.0));
          }
      }
      if (m_ > 0) constraint_blocks(cj, add);
      jac.resize(layout_.size, layout_.size);
      jac.setFromTriplets(triplets_.begin(), triplets_.end());
      if (!Eigen::Map<const Eigen::VectorXd>(jac.valuePtr(), jac.nonZeros()).allFinite()) return 1;
      return 0;
    } catch (const std::exception& e) {
      error_ = e.what();
      return -1;
    }
  }

  void extract(const double* y, Eigen::VectorXd& q, Eigen::VectorXd& p, Eigen::VectorXd& lambda) const override {
    q.resize(n_);
    p.resize(n_);
    lambda.resize(m_);
    for (int i = 0; i < n_; ++i) {
      q(i) = y[layout_.q[i]];
      p(i) = y[layout_.p[i]];
    }
    for (int k = 0; k < m_; ++k) lambda(k) = y[layout_.lambda[k]];
  }

 private:
  static constexpr double consistency_tolerance = 1e-10;

  void resize() {
    for (auto* v : {&q_, &p_, &qd_, &pd_, &v_, &work_n_, &force_, &direction_, &shifted_q_, &shifted_p_, &shifted_v_})
      v->resize(n_);
    for (auto* v : {&lambda_, &mu_, &gval_, &work_m_, &phi_plus_, &phi_minus_}) v->setZero(m_);
    for (auto* g : {&g_, &g_plus_, &g_minus_}) g->resize(m_, n_);
    for (auto* h : {&hqq_, &hqp_, &hpp_, &hnn_}) h->resize(n_, n_);
    second_.resize(n_);
    gram_.resize(n_, m_);
  }

  /// The system's functions at t, for the evaluations that follow (system/evaluation.hpp).
  void evaluate_at(double t) { at_ = system_at<System>(sys_, t); }

  void unpack(const double* y, const double* yp) {
    for (int i = 0; i < n_; ++i) {
      q_(i) = y[layout_.q[i]];
      p_(i) = y[layout_.p[i]];
      qd_(i) = yp[layout_.q[i]];
      pd_(i) = yp[layout_.p[i]];
    }
    for (int k = 0; k < m_; ++k) {
      lambda_(k) = y[layout_.lambda[k]];
      if (ggl_) mu_(k) = y[layout_.mu[k]];
    }
  }

  /// out = −∂H/∂q + f at the time evaluate_at set: ṗ without the constraint force.
  template <class Q, class P, class Out>
  void free_momentum_rate(const Q& q, const P& p, Out& out) {
    at_.dh_dq(q, p, out);
    out = -out;
    if constexpr (traits::has_force) {
      at_.force(q, p, force_);
      out += force_;
    }
  }

  template <class L>
  vector<N> g_transpose_times(const L& l) const {
    return g_.transpose() * l;
  }

  /// out = d/ds Φ(q + s dq, p + s dp) at s = 0, Φ = G(q) ∂H/∂p (fourth-order central difference).
  template <class DQ, class DP>
  void hidden_constraint_rate(const vector<N>& q, const vector<N>& p, const DQ& dq, const DP& dp, vector<M>& out) {
    const double s = time_step_;
    auto phi = [&](double a, vector<M>& value) {
      shifted_q_ = q + a * dq;
      shifted_p_ = p + a * dp;
      at_.constraint_jacobian(shifted_q_, g_plus_);
      at_.dh_dp(shifted_q_, shifted_p_, shifted_v_);
      value.noalias() = g_plus_ * shifted_v_;
    };
    phi(s, phi_plus_);
    phi(-s, phi_minus_);
    out = 8 * (phi_plus_ - phi_minus_);
    phi(2 * s, phi_plus_);
    phi(-2 * s, phi_minus_);
    out -= phi_plus_ - phi_minus_;
    out /= 12 * s;
  }

  /// λ(t0) from d/dt Φ = 0 with ṗ = −H_q − Gᵀλ + f: (G H_pp Gᵀ) λ = DΦ[v, −H_q + f], then two
  /// refinement sweeps on the residual DΦ[v, ṗ(λ)] (differences are exact only to round-off).
  void consistent_multipliers() {
    lambda_.setZero();
    mu_.setZero();
    if (m_ == 0) return;
    at_.constraint_jacobian(q_, g_);
    Eigen::MatrixXd a(m_, m_);
    if constexpr (traits::separable) {
      if (!gram_.factorize(sys_, g_)) throw singular("G M⁻¹ Gᵀ");
    } else {
      second_.h_pp(at_, q_, p_, hpp_);
      a = g_ * hpp_ * g_.transpose();
      lu_.compute(a);
      if (geomint::detail::pivot_ratio(lu_.matrixLU().diagonal()) <= geomint::detail::singular_pivot_ratio)
        throw singular("G ∂²H/∂p² Gᵀ");
    }
    for (int sweep = 0; sweep < 3; ++sweep) {
      direction_ = pd_ - g_transpose_times(lambda_);  // pd_ holds −H_q + f
      hidden_constraint_rate(q_, p_, v_, direction_, work_m_);
      if constexpr (traits::separable) gram_.solve_in_place(work_m_);
      else work_m_ = lu_.solve(work_m_);
      lambda_ += work_m_;
    }
  }

  static step_error singular(const char* what) {
    return step_error(failure_reason::singular_constraint_jacobian, 0, 0, 0, 0,
                      std::string("IDA reference: ") + what + " is singular at the initial state");
  }

  /// The G, Gᵀ, G ∂²H and curvature blocks.
  template <class Add>
  void constraint_blocks(double cj, Add& add) {
    const auto& lq = layout_.q;
    const auto& lp = layout_.p;
    const auto& ll = layout_.lambda;
    const auto& lm = layout_.mu;
    at_.constraint_jacobian(q_, g_);
    // Rows of ∂Φ/∂q and ∂Φ/∂p (Φ = G H_p): F_h = Φ (GGL), F_λ = cj·(∂Φ/∂q, ∂Φ/∂p)·(q̇, ṗ) + … (index 1).
    const std::vector<int>& phi_rows = ggl_ ? lm : ll;
    const double phi_scale = ggl_ ? 1.0 : cj;
    for_each_entry(g_, [&](int k, int j, double gkj) {
      add(lp[j], ll[k], gkj);             // (F_p, λ): Gᵀ
      if (ggl_) {
        add(lq[j], lm[k], gkj);           // (F_q, μ): Gᵀ
        add(ll[k], lq[j], gkj);           // (F_g, q): G
      }
      if constexpr (sparse) add(phi_rows[k], lp[j], phi_scale * gkj * sys_.mass().inverse_diagonal()(j));
    });
    if constexpr (!sparse) {
      const Eigen::MatrixXd g_hpq = g_ * hqp_.transpose(), g_hpp = g_ * hpp_;
      for (int j = 0; j < n_; ++j)
        for (int k = 0; k < m_; ++k) {
          add(phi_rows[k], lq[j], phi_scale * g_hpq(k, j));
          add(phi_rows[k], lp[j], phi_scale * g_hpp(k, j));
        }
    }
    // Curvature: column group c moves every q_j, j ∈ c, by ±ε; row k of ∂(G v)/∂q and row i of
    // ∂(Gᵀλ)/∂q, ∂(Gᵀμ)/∂q each receive the one column of c that reaches them.
    const double eps = coordinate_step_;
    for (std::size_t c = 0; c < groups_.columns.size(); ++c) {
      shifted_q_ = q_;
      for (int j : groups_.columns[c]) shifted_q_(j) += eps;
      at_.constraint_jacobian(shifted_q_, g_plus_);
      shifted_q_ = q_;
      for (int j : groups_.columns[c]) shifted_q_(j) -= eps;
      at_.constraint_jacobian(shifted_q_, g_minus_);
      phi_plus_.noalias() = g_plus_ * v_;
      phi_plus_.noalias() -= g_minus_ * v_;
      for (int k = 0; k < m_; ++k)
        if (const int j = groups_.row_owner[c][k]; j >= 0) add(phi_rows[k], lq[j], phi_scale * phi_plus_(k) / (2 * eps));
      shifted_p_.noalias() = g_plus_.transpose() * lambda_;
      shifted_p_.noalias() -= g_minus_.transpose() * lambda_;
      if (ggl_) {
        shifted_v_.noalias() = g_plus_.transpose() * mu_;
        shifted_v_.noalias() -= g_minus_.transpose() * mu_;
      }
      for (int i = 0; i < n_; ++i)
        if (const int j = groups_.coordinate_owner[c][i]; j >= 0) {
          add(lp[i], lq[j], shifted_p_(i) / (2 * eps));
          if (ggl_) add(lq[i], lq[j], shifted_v_(i) / (2 * eps));
        }
    }
  }

  const System& sys_;
  system_at<System> at_;  ///< sys_ at the time of the call being evaluated
  bool ggl_;
  int n_, m_;
  constraint_pattern pattern_;
  dae_layout layout_;
  difference_groups groups_;
  double coordinate_step_ = 0, time_step_ = 0, multiplier_scale_ = 0;
  Eigen::VectorXd y0_, yp0_, id_;
  std::string error_;

  vector<N> q_, p_, qd_, pd_, v_, work_n_, force_, direction_, shifted_q_, shifted_p_, shifted_v_;
  vector<M> lambda_, mu_, gval_, work_m_, phi_plus_, phi_minus_;
  jacobian_type g_, g_plus_, g_minus_;
  matrix<N, N> hqq_, hqp_, hpp_, hnn_;
  geomint::detail::second_derivatives<System> second_;
  geomint::detail::constraint_gram<System> gram_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  std::vector<Eigen::Triplet<double>> triplets_;
};

}  // namespace geomint::sundials::detail
