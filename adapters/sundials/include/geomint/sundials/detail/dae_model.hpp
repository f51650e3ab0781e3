// The interface between a templated DAE (constrained_dae<System>) and the compiled IDA driver,
// and the structure helpers they share: the ordering of the unknowns and the column groups of
// the curvature differences.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

namespace geomint::sundials::detail {

/// F(t, y, ẏ) = 0 as IDA sees it.
class dae_model {
 public:
  virtual ~dae_model() = default;
  virtual int size() const = 0;
  /// Consistent y(t0), ẏ(t0).
  virtual const Eigen::VectorXd& initial_y() const = 0;
  virtual const Eigen::VectorXd& initial_yp() const = 0;
  /// 1 for differential, 0 for algebraic components (IDASetId).
  virtual const Eigen::VectorXd& differential() const = 0;
  /// Size of the multipliers at t0, ‖λ(t0)‖∞.
  virtual double multiplier_scale() const = 0;
  /// r = F(t, y, ẏ). 0 on success, > 0 if a value is not finite (IDA retries with a smaller
  /// step), < 0 if the system threw (message in error()). Never throws.
  virtual int residual(double t, const double* y, const double* yp, double* r) noexcept = 0;
  /// jac = ∂F/∂y + cj ∂F/∂ẏ, always with the same sparsity pattern. Same return convention.
  virtual int jacobian(double t, double cj, const double* y, const double* yp,
                       Eigen::SparseMatrix<double>& jac) noexcept = 0;
  /// The physical parts of y.
  virtual void extract(const double* y, Eigen::VectorXd& q, Eigen::VectorXd& p, Eigen::VectorXd& lambda) const = 0;
  virtual const std::string& error() const = 0;
};

/// Structural sparsity of G: the columns of each row (all columns for a dense G).
struct constraint_pattern {
  int n = 0;
  std::vector<std::vector<int>> rows;
};

/// Where each unknown sits in y (and each equation in F). Coordinates are interleaved
/// (q_i, p_i) and a constraint's multipliers (λ_k, μ_k) follow the last coordinate it involves,
/// so a banded G gives a banded Jacobian.
struct dae_layout {
  std::vector<int> q, p, lambda, mu;  ///< mu is empty for the index-1 formulation
  int size = 0;
};
dae_layout interleaved_layout(const constraint_pattern& pattern, bool with_mu);

/// Column groups for central differences of q ↦ G(q)v and q ↦ G(q)ᵀλ (Curtis–Powell–Reid):
/// columns j, j' share a group when no coordinate i is reached from both, i.e. the sets
/// R_j = ∪{P_k : j ∈ P_k} are disjoint. One pair of G evaluations then yields a whole group.
struct difference_groups {
  std::vector<std::vector<int>> columns;          ///< per group: its columns j
  std::vector<std::vector<int>> row_owner;        ///< per group, per constraint k: j ∈ P_k, or −1
  std::vector<std::vector<int>> coordinate_owner; ///< per group, per coordinate i: j with i ∈ R_j, or −1
};
difference_groups color_columns(const constraint_pattern& pattern);

}  // namespace geomint::sundials::detail
