// The constraint Gram matrix S = G M⁻¹ Gᵀ of a separable system and its LDLᵀ factorization:
// the matrix of RATTLE's position iteration and of its momentum projection. Dense G uses a
// dense factorization; sparse G (long chains) assembles S in a fixed pattern without
// allocating and factors it with a sparse LDLᵀ, O(m) for banded S.
//
// Redundant constraints (dense G): when S is singular and a rank tolerance is given, S is
// factorized by a complete orthogonal decomposition instead and solved for the minimum-norm
// solution, S⁺r. The constraint force Gᵀλ is then the unique one; λ is the minimum-norm
// multiplier among those that give it (docs/constrained.md, "Redundant constraints").
#pragma once

#include <Eigen/QR>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/system/constrained_system.hpp"

namespace geomint {
namespace detail {

template <class System, bool Sparse = system_traits<System>::sparse_jacobian>
class constraint_gram;

template <class System>
class constraint_gram<System, false> {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;

 public:
  void resize(int n, int m) {
    w_.resize(m, n);
    ldlt_.resize(m);
    rank_ = m;
    if constexpr (M != 0) {
      scratch_.resize(m);
      cod_ = cod_type(m, m);
    }
  }
  /// Factorize S with `solver` instead of Eigen (null: Eigen's).
  void use(external_linear_solver* solver) { external_ = solver; ldlt_.use(solver); }
  /// Assembles S = G M⁻¹ Gᵀ and factorizes it; false if S is singular. With rank_tolerance > 0
  /// (and Eigen's solver), a singular S is factorized by a complete orthogonal decomposition
  /// that takes pivots below rank_tolerance × the largest as zero; false only if S is zero.
  bool factorize(const System& sys, const typename traits::jacobian_type& g, double rank_tolerance = 0) {
    return factorize_with(sys.mass(), g, rank_tolerance);
  }
  /// The same with another weighting (a unit mass gives G Gᵀ).
  template <class Mass>
  bool factorize_with(const Mass& mass, const typename traits::jacobian_type& g, double rank_tolerance = 0) {
    if constexpr (M == 0) {
      return true;  // unconstrained: nothing to factorize
    } else {
      mass.right_apply_inverse(g, w_);
      ldlt_.system_matrix().noalias() = w_ * g.transpose();
      deficient_ = false;
      rank_ = static_cast<int>(g.rows());
      if (ldlt_.factorize()) return true;
      if (!(rank_tolerance > 0) || external_) return false;
      cod_.setThreshold(rank_tolerance);
      cod_.compute(ldlt_.system_matrix());
      rank_ = static_cast<int>(cod_.rank());
      deficient_ = true;
      return rank_ > 0;
    }
  }
  /// rhs ← S⁻¹ rhs, or S⁺ rhs (minimum norm) after a rank-deficient factorization.
  template <class V>
  void solve_in_place(V& rhs) {
    if constexpr (M != 0) {
      if (deficient_) {
        scratch_ = cod_.solve(rhs);
        rhs = scratch_;
        return;
      }
    }
    ldlt_.solve_in_place(rhs);
  }
  /// The rank of S found by the last factorize(): m unless it was rank-deficient.
  int rank() const { return rank_; }
  /// G M⁻¹ of the last factorize() (reused by the momentum projection and the next step).
  const matrix<M, N>& weighted_jacobian() const { return w_; }

 private:
  using cod_type = std::conditional_t<M == 0, char, Eigen::CompleteOrthogonalDecomposition<matrix<M, M>>>;
  matrix<M, N> w_;
  dense_ldlt<M> ldlt_;
  cod_type cod_{};
  vector<M> scratch_;
  external_linear_solver* external_ = nullptr;
  int rank_ = 0;
  bool deficient_ = false;
};

template <class System>
class constraint_gram<System, true> {
  using traits = system_traits<System>;
  using jacobian_type = typename traits::jacobian_type;
  static_assert(jacobian_type::IsRowMajor, "geomint: sparse constraint Jacobians must be RowMajor");

 public:
  void resize(int, int) {}
  void use(external_linear_solver* solver) { ldlt_.use(solver); }

  /// Redundant constraints are not solved for sparse G: the tolerance is not used, a singular S
  /// is refused (the caller's error says so).
  bool factorize(const System& sys, const jacobian_type& g, double = 0) { return factorize_with(sys.mass(), g); }
  int rank() const { return rank_; }
  template <class Mass>
  bool factorize_with(const Mass& mass, const jacobian_type& g, double = 0) {
    rank_ = static_cast<int>(g.rows());
    const auto& w = mass.inverse_diagonal();  // sparse G requires a diagonal mass
    if (!planned_for(g)) plan(g);
    double* s = ldlt_.system_matrix().valuePtr();
    const double* gv = g.valuePtr();
    for (std::size_t e = 0; e + 1 < offset_.size(); ++e) {
      double sum = 0;
      for (int k = offset_[e]; k < offset_[e + 1]; ++k) sum += gv[left_[k]] * w(column_[k]) * gv[right_[k]];
      s[e] = sum;
    }
    return ldlt_.factorize();
  }
  template <class V>
  void solve_in_place(V& rhs) { ldlt_.solve_in_place(rhs); }

 private:
  /// Whether the plan was built for G's pattern: the same rows and the same stored positions, not
  /// only as many of them (a pattern of equal size with other columns, from another system or a
  /// Jacobian whose pattern moves with q, would otherwise assemble S from the old positions).
  bool planned_for(const jacobian_type& g) const {
    if (!g.isCompressed() || Eigen::Index(outer_.size()) != g.rows() + 1 || Eigen::Index(inner_.size()) != g.nonZeros())
      return false;
    return std::equal(outer_.begin(), outer_.end(), g.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), g.innerIndexPtr());
  }
  // For every stored entry e of S (column-major order), the pairs (left, right) of positions in
  // G's value array with equal column: S_e = Σ G[left] w[column] G[right]. Built once per pattern.
  void plan(const jacobian_type& g) {
    if (!g.isCompressed()) throw std::invalid_argument("geomint: sparse constraint Jacobian must be compressed");
    const int m = static_cast<int>(g.rows());
    sparse_ldlt::matrix_type& s = ldlt_.system_matrix();
    s = g * g.transpose();  // structural pattern of S (allocates: first step only)
    s.makeCompressed();
    offset_.assign(1, 0);
    left_.clear();
    right_.clear();
    column_.clear();
    const int* outer = g.outerIndexPtr();
    const int* inner = g.innerIndexPtr();
    for (int c = 0; c < m; ++c) {
      for (sparse_ldlt::matrix_type::InnerIterator it(s, c); it; ++it) {
        const int r = static_cast<int>(it.row());
        int a = outer[r], b = outer[c];
        while (a < outer[r + 1] && b < outer[c + 1]) {  // merge two sorted rows of G
          if (inner[a] < inner[b]) ++a;
          else if (inner[b] < inner[a]) ++b;
          else {
            left_.push_back(a);
            right_.push_back(b);
            column_.push_back(inner[a]);
            ++a;
            ++b;
          }
        }
        offset_.push_back(static_cast<int>(left_.size()));
      }
    }
    outer_.assign(outer, outer + m + 1);
    inner_.assign(inner, inner + g.nonZeros());
    ldlt_.analyze();
  }

  sparse_ldlt ldlt_;
  int rank_ = 0;
  std::vector<int> offset_, left_, right_, column_;
  std::vector<int> outer_, inner_;  // G's pattern the plan was built for (empty: none yet)
};

}  // namespace detail
}  // namespace geomint
