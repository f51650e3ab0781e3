// LU of a square system by 2 × 2 block elimination, for stage Jacobians whose leading block is
// close to the identity (the momentum block I + h (A ⊗ ∂²H/∂q∂p) of a constrained PRK method):
//
//   [A₁₁ A₁₂] [x₁]   [b₁]      A₁₁ = L₁U₁ (Eigen's PartialPivLU),  X = A₁₁⁻¹A₁₂,
//   [A₂₁ A₂₂] [x₂] = [b₂],     S = A₂₂ − A₂₁X = L₂U₂,  x₂ = S⁻¹(b₂ − A₂₁A₁₁⁻¹b₁),  x₁ = A₁₁⁻¹b₁ − Xx₂.
//
// About the flops of one LU of the whole matrix plus the two blocks' inverses (the solves are
// then products with them), but for fixed sizes each factor is small enough for Eigen's
// unblocked fixed-size kernel, while the whole (17 … 64 unknowns for the stage systems of small
// constrained problems) takes Eigen's blocked path through dynamic-size products: 3 to 4 times
// faster measured at 22 and 31 unknowns. Pivoting happens within each block only. When either
// block is numerically singular (or not finite) the whole matrix is factorized instead
// (dense_lu), so a failure is decided, and reported, as dense_lu would.
// Dynamic sizes always take the whole-matrix LU: Eigen's blocked kernel suits large systems.
#pragma once

#include "geomint/core/linear_solvers.hpp"

namespace geomint {

/// N: the whole size (fixed or dynamic); N1: the leading block's size (fixed if N is).
template <int N, int N1>
class block_lu {
  // Measured (instructions per step of lobatto_iiia_iiib on the heavy top and a 3-D sphere): blocks
  // of up to 12 unknowns save 18-37%; at 16 + 15 the two inverses cost more than they save.
  static constexpr int largest_block = 12;
  static constexpr bool blocked = size::is_fixed(N) && size::is_fixed(N1) && N1 > 0 && N1 < N &&
                                  N1 <= largest_block && N - N1 <= largest_block;
  static constexpr int N2 = blocked ? N - N1 : dynamic;
  static constexpr int B1 = blocked ? N1 : 1, B2 = blocked ? N2 : 1;  // unused 1 × 1 otherwise

 public:
  using matrix_type = matrix<N, N>;

  /// Factorize and solve with `solver` instead of Eigen (null: Eigen's LU).
  void use(external_linear_solver* solver) {
    whole_.use(solver);
    external_ = solver != nullptr;
  }

  void resize(int n) { whole_.resize(n); }
  /// The matrix to be factorized; fill it, then call factorize().
  matrix_type& system_matrix() { return whole_.system_matrix(); }

  /// Returns false if the matrix is numerically singular.
  bool factorize() {
    if constexpr (blocked) {
      if (!external_) {
        const matrix_type& a = whole_.system_matrix();
        lu11_.compute(a.template topLeftCorner<N1, N1>());
        if (detail::regular_pivots(lu11_.matrixLU().diagonal())) {
          // X and S by coefficient-based products: at these sizes Eigen's default product and a
          // solve with a matrix right-hand side take its blocked dynamic-size kernels, which
          // cost more than the arithmetic (the factorization took 1.3x as long).
          inverse11_ = lu11_.inverse();
          x12_.noalias() = inverse11_.lazyProduct(a.template topRightCorner<N1, N2>());
          schur_ = a.template bottomRightCorner<N2, N2>();
          schur_.noalias() -= a.template bottomLeftCorner<N2, N1>().lazyProduct(x12_);
          lu22_.compute(schur_);
          if (detail::regular_pivots(lu22_.matrixLU().diagonal())) {
            inverse22_ = lu22_.inverse();
            using_blocks_ = true;
            return true;
          }
        }
      }
    }
    using_blocks_ = false;
    return whole_.factorize();
  }

  /// rhs ← A⁻¹ rhs.
  template <class V>
  void solve_in_place(V& rhs) {
    if constexpr (blocked) {
      if (using_blocks_) {
        y1_.noalias() = inverse11_.lazyProduct(rhs.template head<N1>());
        b2_ = rhs.template tail<N2>();
        b2_.noalias() -= whole_.system_matrix().template bottomLeftCorner<N2, N1>().lazyProduct(y1_);
        rhs.template tail<N2>().noalias() = inverse22_.lazyProduct(b2_);
        rhs.template head<N1>() = y1_;
        rhs.template head<N1>().noalias() -= x12_.lazyProduct(rhs.template tail<N2>());
        return;
      }
    }
    whole_.solve_in_place(rhs);
  }

 private:
  dense_lu<N> whole_;  // the assembled matrix, and its LU when the blocks are not used
  bool external_ = false, using_blocks_ = false;
  Eigen::PartialPivLU<matrix<B1, B1>> lu11_;
  Eigen::PartialPivLU<matrix<B2, B2>> lu22_;
  matrix<B1, B2> x12_;
  matrix<B2, B2> schur_, inverse22_;
  matrix<B1, B1> inverse11_;
  vector<B1> y1_;
  vector<B2> b2_;
};

}  // namespace geomint
