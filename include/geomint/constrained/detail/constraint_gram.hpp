// The constraint Gram matrix S = G M⁻¹ Gᵀ of a separable system and its LDLᵀ factorization:
// the matrix of RATTLE's position iteration and of its momentum projection. Dense G uses a
// dense factorization; sparse G (long chains) assembles S in a fixed pattern without
// allocating and factors it with a sparse LDLᵀ, O(m) for banded S.
#pragma once

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
  }
  /// Factorize S with `solver` instead of Eigen (null: Eigen's).
  void use(external_linear_solver* solver) { ldlt_.use(solver); }
  /// Assembles S = G M⁻¹ Gᵀ and factorizes it; false if S is singular.
  bool factorize(const System& sys, const typename traits::jacobian_type& g) { return factorize_with(sys.mass(), g); }
  /// The same with another weighting (a unit mass gives G Gᵀ).
  template <class Mass>
  bool factorize_with(const Mass& mass, const typename traits::jacobian_type& g) {
    if constexpr (M == 0) {
      return true;  // unconstrained: nothing to factorize
    } else {
      mass.right_apply_inverse(g, w_);
      ldlt_.system_matrix().noalias() = w_ * g.transpose();
      return ldlt_.factorize();
    }
  }
  template <class V>
  void solve_in_place(V& rhs) { ldlt_.solve_in_place(rhs); }
  /// G M⁻¹ of the last factorize() (reused by the momentum projection and the next step).
  const matrix<M, N>& weighted_jacobian() const { return w_; }

 private:
  matrix<M, N> w_;
  dense_ldlt<M> ldlt_;
};

template <class System>
class constraint_gram<System, true> {
  using traits = system_traits<System>;
  using jacobian_type = typename traits::jacobian_type;
  static_assert(jacobian_type::IsRowMajor, "geomint: sparse constraint Jacobians must be RowMajor");

 public:
  void resize(int, int) {}
  void use(external_linear_solver* solver) { ldlt_.use(solver); }

  bool factorize(const System& sys, const jacobian_type& g) { return factorize_with(sys.mass(), g); }
  template <class Mass>
  bool factorize_with(const Mass& mass, const jacobian_type& g) {
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
  std::vector<int> offset_, left_, right_, column_;
  std::vector<int> outer_, inner_;  // G's pattern the plan was built for (empty: none yet)
};

}  // namespace detail
}  // namespace geomint
