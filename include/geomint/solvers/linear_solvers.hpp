// Linear-solve policies for Newton and projection steps: dense LU, dense LDLᵀ and sparse LDLᵀ,
// all from Eigen. Each factorizes into storage sized once (`resize`) and reports singularity
// instead of producing garbage. A pivot-ratio test is used rather than rcond(): Eigen's
// condition estimator allocates for dynamic sizes, and steps must not allocate.
//
// Each policy can instead hand its assembled matrix to an `external_linear_solver` (`use()`),
// e.g. a SUNDIALS SUNLinearSolver (adapters/sundials). Without one (the default) nothing changes.
#pragma once

#include <type_traits>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cmath>
#include <limits>
#include <memory>

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
/// pivot_ratio(d) > singular_pivot_ratio, without a division (this runs every step).
template <class D>
bool regular_pivots(const D& d) {
  if (d.size() == 0) return true;
  return d.cwiseAbs().minCoeff() > singular_pivot_ratio * d.cwiseAbs().maxCoeff();
}
}  // namespace detail

/// A factorization supplied from outside geomint. A policy below that `use()`s one still
/// assembles its matrix, then calls factorize() and solve_in_place() here instead of Eigen's.
/// Not owned; one instance serves one stepper. Exceptions thrown here leave the step's state
/// untouched (steppers write the state only after a step succeeded).
class external_linear_solver {
 public:
  virtual ~external_linear_solver() = default;
  /// Factorizes the square matrix `a`; false if it is singular.
  virtual bool factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) = 0;
  /// Sparse variant (the pattern stays fixed between calls unless the system changes).
  virtual bool factorize(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a) = 0;
  /// x ← A⁻¹ x with the last factorization.
  virtual void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) = 0;
};

/// An external solver a stepper's cache made for itself (constrained_options::
/// linear_solver_factory): a copy of the cache holds none and makes its own.
class owned_linear_solver {
 public:
  owned_linear_solver() = default;
  owned_linear_solver(const owned_linear_solver&) {}
  owned_linear_solver& operator=(const owned_linear_solver&) {
    solver_.reset();
    return *this;
  }
  owned_linear_solver(owned_linear_solver&&) noexcept = default;
  owned_linear_solver& operator=(owned_linear_solver&&) noexcept = default;
  template <class Factory>
  external_linear_solver* get_or_make(const Factory& make) {
    if (!solver_) solver_ = make();
    return solver_.get();
  }

 private:
  std::unique_ptr<external_linear_solver> solver_;
};

/// Dense LU with partial pivoting, for general square systems (stage Jacobians).
template <int N>
class dense_lu {
 public:
  using matrix_type = matrix<N, N>;

  /// Factorize and solve with `solver` instead of Eigen (null: Eigen's LU).
  void use(external_linear_solver* solver) { external_ = solver; }

  void resize(int n) {
    matrix_.resize(n, n);
    rhs_.resize(n);
    if constexpr (N == Eigen::Dynamic) lu_ = Eigen::PartialPivLU<matrix_type>(n);  // fixed sizes need none
  }
  /// The matrix to be factorized; fill it, then call factorize().
  matrix_type& system_matrix() { return matrix_; }
  /// Returns false if the matrix is numerically singular.
  bool factorize() {
    if constexpr (N == 0) {
      return true;  // no constraints: nothing to factorize (Eigen rejects 0 × 0 fixed sizes)
    } else {
      if (external_) return external_->factorize(matrix_);
      lu_.compute(matrix_);
      return detail::regular_pivots(lu_.matrixLU().diagonal());
    }
  }
  /// rhs ← A⁻¹ rhs. Solved out of place through a scratch copy: Eigen's in-place row
  /// permutation allocates a mask for dynamic sizes.
  template <class V>
  void solve_in_place(V& rhs) {
    if constexpr (N != 0) {
      if (external_) return external_->solve_in_place(rhs);
      rhs_ = rhs;
      rhs.noalias() = lu_.solve(rhs_);
    }
  }

 private:
  matrix_type matrix_;
  vector<N> rhs_;
  Eigen::PartialPivLU<matrix_type> lu_;
  external_linear_solver* external_ = nullptr;
};

/// Dense LDLᵀ (pivoted, square-root free) for symmetric positive definite systems
/// (G M⁻¹ Gᵀ and friends). A matrix that is not numerically positive definite (dependent
/// constraints) is reported as singular. For fixed sizes up to 4 (a few constraints, solved
/// several times per factorization by RATTLE's iteration) the LDLᵀ factorization still decides
/// regularity, but the solves use S⁻¹ (Eigen's closed form) and cost one small product each:
/// Eigen's pivoted triangular solves cost more than the arithmetic at these sizes. Both have
/// a forward error of order cond(S)·ε.
template <int N>
class dense_ldlt {
  static constexpr bool small = N > 0 && N <= 4;

 public:
  using matrix_type = matrix<N, N>;

  /// Eigen's LDLT() leaves its status member uninitialized, and copying or moving such an
  /// object reads it (undefined behaviour; UBSan aborts): factorize I (0 × 0 if dynamic) once.
  dense_ldlt() {
    if constexpr (N != 0) {
      if constexpr (N == dynamic) matrix_.setIdentity(0, 0);
      else matrix_.setIdentity();
      ldlt_.compute(matrix_);
    }
  }

  /// Factorize and solve with `solver` instead of Eigen (null: Eigen's LDLᵀ).
  void use(external_linear_solver* solver) { external_ = solver; }
  void resize(int n) {
    // Size the factorization by factorizing I once (no allocation in the steps after).
    if constexpr (N != 0) {
      matrix_.setIdentity(n, n);
      ldlt_.compute(matrix_);
    }
  }
  matrix_type& system_matrix() { return matrix_; }
  bool factorize() {
    if constexpr (N == 0) {
      return true;  // no constraints: nothing to factorize (Eigen rejects 0 × 0 fixed sizes)
    } else {
      if (external_) return external_->factorize(matrix_);
      ldlt_.compute(matrix_);
      const bool regular = ldlt_.info() == Eigen::Success && ldlt_.isPositive() &&
                           detail::regular_pivots(ldlt_.vectorD());
      if constexpr (small)
        if (regular) inverse_ = matrix_.inverse();  // Eigen's closed form for N ≤ 4
      return regular;
    }
  }
  template <class V>
  void solve_in_place(V& rhs) const {
    if constexpr (N != 0) {
      if (external_) return external_->solve_in_place(rhs);
      if constexpr (small)
        rhs = inverse_ * rhs;  // Eigen evaluates the product into a temporary (aliasing)
      else
        ldlt_.solveInPlace(rhs);
    }
  }

 private:
  matrix_type matrix_;
  std::conditional_t<small, matrix_type, char> inverse_{};
  // No factorization object at all without constraints (Eigen rejects 0 × 0 fixed sizes).
  std::conditional_t<N == 0, char, Eigen::LDLT<matrix_type>> ldlt_{};
  external_linear_solver* external_ = nullptr;
};

namespace detail {
/// Eigen's SimplicialLDLT (upper triangle, natural ordering), refactorized without allocating.
/// Its factorize() builds an empty sparse matrix it does not use in this configuration (Eigen
/// reads an upper-stored matrix in place when there is no permutation), and vectorD() returns D
/// by value: both allocate on every step. factorize_preordered is the computation factorize()
/// runs here. Its own scratch (three arrays of the matrix's size) stays on the stack up to
/// EIGEN_STACK_ALLOCATION_LIMIT (128 KB: 16 384 rows) and comes from the heap above it.
class simplicial_ldlt_in_place
    : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double, Eigen::ColMajor, int>, Eigen::Upper,
                                   Eigen::NaturalOrdering<int>> {
 public:
  void refactorize(const MatrixType& a) { this->template factorize_preordered<true>(a); }
  const VectorType& diagonal() const { return this->m_diag; }
};
}  // namespace detail

/// Sparse LDLᵀ for large banded or sparse SPD systems (long chains). The constraint order is
/// used as given (natural ordering): number constraints so that G M⁻¹ Gᵀ is banded, as chains
/// are, and the fill-in stays O(m). The symbolic analysis runs once per pattern; a
/// refactorization allocates nothing up to 16 384 rows (detail::simplicial_ldlt_in_place).
class sparse_ldlt {
 public:
  using matrix_type = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

  sparse_ldlt() = default;
  /// Copies the matrix; the copy factorizes again before its first solve.
  sparse_ldlt(const sparse_ldlt& other) : matrix_(other.matrix_), external_(other.external_) {}
  sparse_ldlt& operator=(const sparse_ldlt& other) {
    matrix_ = other.matrix_;
    external_ = other.external_;
    analyzed_ = false;
    return *this;
  }

  /// Factorize and solve with `solver` instead of Eigen (null: Eigen's sparse LDLᵀ).
  void use(external_linear_solver* solver) { external_ = solver; }

  matrix_type& system_matrix() { return matrix_; }
  /// Call after the pattern of matrix() changed (and before the first factorize()).
  void analyze() {
    ldlt_.analyzePattern(matrix_);
    analyzed_ = true;
  }
  bool factorize() {
    if (external_) return external_->factorize(matrix_);
    if (!analyzed_) analyze();
    ldlt_.refactorize(matrix_);
    return ldlt_.info() == Eigen::Success && detail::regular_pivots(ldlt_.diagonal()) &&
           ldlt_.diagonal().minCoeff() > 0;
  }
  template <class V>
  void solve_in_place(V& rhs) const {
    if (external_) return external_->solve_in_place(rhs);
    rhs = ldlt_.solve(rhs);
  }

 private:
  matrix_type matrix_;
  // Upper + natural ordering: Eigen factorizes the matrix in place, without a permuted copy.
  detail::simplicial_ldlt_in_place ldlt_;
  bool analyzed_ = false;
  external_linear_solver* external_ = nullptr;
};

}  // namespace geomint
