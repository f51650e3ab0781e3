// Linear-solve policies for Newton and projection steps: dense LU, dense LDLᵀ and sparse LDLᵀ,
// all from Eigen. Each factorizes into storage sized once (`resize`) and reports singularity
// instead of producing garbage. A pivot-ratio test is used rather than rcond(): Eigen's
// condition estimator allocates for dynamic sizes, and steps must not allocate.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cmath>
#include <limits>

#include "geomint/core/types.hpp"

namespace geomint {

namespace detail {
/// min |d_i| / max |d_i| of a pivot sequence; 0 for an exactly singular factorization.
template <class D>
double pivot_ratio(const D& d) {
  if (d.size() == 0) return 1.0;
  const double big = d.cwiseAbs().maxCoeff();
  return big > 0 ? d.cwiseAbs().minCoeff() / big : 0.0;
}
/// Pivot ratios below this are treated as singular (a few ulps of the largest pivot).
inline constexpr double singular_pivot_ratio = 64 * std::numeric_limits<double>::epsilon();
}  // namespace detail

/// Dense LU with partial pivoting, for general square systems (stage Jacobians).
template <int N>
class dense_lu {
 public:
  using matrix_type = matrix<N, N>;

  void resize(int n) {
    matrix_.resize(n, n);
    rhs_.resize(n);
    lu_ = Eigen::PartialPivLU<matrix_type>(n);
  }
  /// The matrix to be factorized; fill it, then call factorize().
  matrix_type& system_matrix() { return matrix_; }
  /// Returns false if the matrix is numerically singular.
  bool factorize() {
    lu_.compute(matrix_);
    return detail::pivot_ratio(lu_.matrixLU().diagonal()) > detail::singular_pivot_ratio;
  }
  /// rhs ← A⁻¹ rhs. Solved out of place through a scratch copy: Eigen's in-place row
  /// permutation allocates a mask for dynamic sizes.
  template <class V>
  void solve_in_place(V& rhs) {
    rhs_ = rhs;
    rhs.noalias() = lu_.solve(rhs_);
  }

 private:
  matrix_type matrix_;
  vector<N> rhs_;
  Eigen::PartialPivLU<matrix_type> lu_;
};

/// Dense LDLᵀ for symmetric positive definite systems (G M⁻¹ Gᵀ and friends).
template <int N>
class dense_ldlt {
 public:
  using matrix_type = matrix<N, N>;

  void resize(int n) {
    matrix_.resize(n, n);
    ldlt_ = Eigen::LDLT<matrix_type>(n);
  }
  matrix_type& system_matrix() { return matrix_; }
  bool factorize() {
    ldlt_.compute(matrix_);
    return ldlt_.info() == Eigen::Success && ldlt_.isPositive() &&
           detail::pivot_ratio(ldlt_.vectorD()) > detail::singular_pivot_ratio;
  }
  template <class V>
  void solve_in_place(V& rhs) const {
    ldlt_.solveInPlace(rhs);
  }

 private:
  matrix_type matrix_;
  Eigen::LDLT<matrix_type> ldlt_;
};

/// Sparse LDLᵀ for large banded or sparse SPD systems (long chains). The constraint order is
/// used as given (natural ordering): number constraints so that G M⁻¹ Gᵀ is banded, as chains
/// are, and the fill-in stays O(m). The symbolic analysis runs once per pattern.
class sparse_ldlt {
 public:
  using matrix_type = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

  sparse_ldlt() = default;
  /// Copies the matrix; the copy factorizes again before its first solve.
  sparse_ldlt(const sparse_ldlt& other) : matrix_(other.matrix_) {}
  sparse_ldlt& operator=(const sparse_ldlt& other) {
    matrix_ = other.matrix_;
    analyzed_ = false;
    return *this;
  }

  matrix_type& system_matrix() { return matrix_; }
  /// Call after the pattern of matrix() changed (and before the first factorize()).
  void analyze() {
    ldlt_.analyzePattern(matrix_);
    analyzed_ = true;
  }
  bool factorize() {
    if (!analyzed_) analyze();
    ldlt_.factorize(matrix_);
    return ldlt_.info() == Eigen::Success &&
           detail::pivot_ratio(ldlt_.vectorD()) > detail::singular_pivot_ratio &&
           ldlt_.vectorD().minCoeff() > 0;
  }
  template <class V>
  void solve_in_place(V& rhs) const {
    rhs = ldlt_.solve(rhs);
  }

 private:
  matrix_type matrix_;
  // Upper + natural ordering: Eigen factorizes the matrix in place, without a permuted copy.
  Eigen::SimplicialLDLT<matrix_type, Eigen::Upper, Eigen::NaturalOrdering<int>> ldlt_;
  bool analyzed_ = false;
};

}  // namespace geomint
