// Anderson acceleration's history (Walker–Ni, SIAM J. Numer. Anal. 49 (2011), Algorithm AA,
// mixing β = 1), shared by fixed_point_solve and newton_solve's fixed-matrix iteration. With
// g_k = F(z_k) and f_k = g_k − z_k, the next iterate is z_{k+1} = g_k − ΔG_k γ_k,
// γ_k = argmin_γ ‖f_k − ΔF_k γ‖₂, ΔF_k, ΔG_k the differences of the last m_k = min(m, k) f's
// and g's (least squares by column-pivoting Householder QR; a rank-deficient history, as at
// round-off, drops directions). For a linear map it is GMRES on (1 − F') in disguise.
#pragma once

#include <Eigen/Core>
#include <Eigen/QR>
#include <algorithm>
#include <vector>

namespace geomint {

/// The history of an accelerated solve (callers keep one, so that it is not reallocated per
/// solve; advance() allocates nothing). Z is flattened: an Eigen plain object of doubles,
/// stored contiguously.
class anderson_workspace {
 public:
  /// Begins an empty history for n unknowns and `depth` differences (sized on first use).
  void start(Eigen::Index n, int depth) {
    if (df_.rows() != n || df_.cols() != depth) {
      df_.resize(n, depth);
      dg_.resize(n, depth);
      f_.resize(n);
      f_previous_.resize(n);
      g_previous_.resize(n);
      c_.resize(n);
      gamma_.resize(depth);
      qr_.clear();  // one factorization per column count, so that compute() never reallocates
      for (int columns = 1; columns <= depth; ++columns) qr_.emplace_back(n, columns);
    }
    count_ = 0;
    head_ = 0;
    has_previous_ = false;
  }
  /// Given z_k and g_k = F(z_k): writes z_{k+1} over g (the history is updated first).
  template <class Z>
  void advance(const Z& z, Z& g) {
    using flat = Eigen::Map<Eigen::VectorXd>;
    using const_flat = Eigen::Map<const Eigen::VectorXd>;
    const const_flat zk(z.data(), z.size());
    flat gk(g.data(), g.size());
    f_ = gk - zk;
    if (has_previous_) {
      df_.col(head_) = f_ - f_previous_;
      dg_.col(head_) = gk - g_previous_;
      head_ = (head_ + 1) % int(df_.cols());
      count_ = std::min<int>(count_ + 1, int(df_.cols()));
    }
    f_previous_ = f_;
    g_previous_ = gk;
    has_previous_ = true;
    if (count_ == 0) return;  // z_{k+1} = g_k
    auto& qr = qr_[count_ - 1];
    qr.compute(df_.leftCols(count_));  // the columns' order does not matter
    // γ = qr.solve(f), written out so as not to copy f into a temporary: c = Qᵀf on the r
    // nonzero pivots, R₁₁ c₁ = c₁, γ = P (c₁, 0).
    auto gamma = gamma_.head(count_);
    gamma.setZero();
    const Eigen::Index r = qr.nonzeroPivots();
    if (r == 0) return;  // a degenerate history: the plain step
    c_ = f_;
    apply_reflections_transposed(qr, r);
    qr.matrixQR().topLeftCorner(r, r).template triangularView<Eigen::Upper>().solveInPlace(c_.head(r));
    for (Eigen::Index i = 0; i < r; ++i) gamma(qr.colsPermutation().indices()(i)) = c_(i);
    if (!gamma.allFinite()) return;
    gk.noalias() -= dg_.leftCols(count_) * gamma;
  }

 private:
  /// c ← Qᵀc for the first r Householder reflections H_k = 1 − τ_k v_k v_kᵀ of qr
  /// (Qᵀ = H_{r−1} ⋯ H₀), v_k = (1, essential part below the diagonal). Eigen's
  /// householderQ().applyOnTheLeft forms τ_k v_k in a heap temporary for every reflection.
  template <class QR>
  void apply_reflections_transposed(const QR& qr, Eigen::Index r) {
    const Eigen::Index n = c_.size();
    for (Eigen::Index k = 0; k < r; ++k) {
      const auto essential = qr.matrixQR().col(k).tail(n - k - 1);
      const double w = qr.hCoeffs()(k) * (c_(k) + essential.dot(c_.tail(n - k - 1)));
      c_(k) -= w;
      c_.tail(n - k - 1) -= w * essential;
    }
  }

  Eigen::MatrixXd df_, dg_;
  Eigen::VectorXd f_, f_previous_, g_previous_, c_, gamma_;
  std::vector<Eigen::ColPivHouseholderQR<Eigen::MatrixXd>> qr_;
  int count_ = 0, head_ = 0;
  bool has_previous_ = false;
};

}  // namespace geomint
