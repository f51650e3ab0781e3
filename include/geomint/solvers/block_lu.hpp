// LU of a square system by 2 × 2 block elimination, for stage Jacobians whose leading block is
// close to the identity (the momentum block I + h (A ⊗ ∂²H/∂q∂p) of a constrained PRK method):
//
//   [A₁₁ A₁₂] [x₁]   [b₁]      X = A₁₁⁻¹A₁₂,  S = A₂₂ − A₂₁X = L₂U₂,
//   [A₂₁ A₂₂] [x₂] = [b₂],     x₂ = S⁻¹(b₂ − A₂₁A₁₁⁻¹b₁),  x₁ = A₁₁⁻¹b₁ − Xx₂.
//
// The leading block may end in K identity columns, A₁₁ = [B 0; C I_K] (K = 0: a full block):
// the last momentum stage P_s of a Lobatto IIIA–IIIB pair enters no other momentum equation
// (a_is = 0), so its columns there are (0, I). Then A₁₁⁻¹ = [B⁻¹ 0; −CB⁻¹ I] needs only B = L₁U₁
// (Eigen's PartialPivLU) and its inverse, and products with A₁₁⁻¹ are one with B⁻¹ and one with C.
//
// About the flops of one LU of the whole matrix plus the two blocks' inverses (the solves are
// then products with them), but for fixed sizes each factor is small enough for Eigen's
// unblocked fixed-size kernel, while the whole (17 … 64 unknowns for the stage systems of small
// constrained problems) takes Eigen's blocked path through dynamic-size products: 3 to 4 times
// faster measured at 22 and 31 unknowns. Pivoting happens within each block only. When B or S
// is numerically singular (or not finite) the whole matrix is factorized instead (dense_lu),
// so a failure is decided, and reported, as dense_lu would.
// Dynamic sizes always take the whole-matrix LU: Eigen's blocked kernel suits large systems.
#pragma once

#include "geomint/solvers/linear_solvers.hpp"

namespace geomint {

/// N: the whole size (fixed or dynamic); N1: the leading block's size (fixed if N is); K: how
/// many of the leading block's last columns are unit columns (zero above its diagonal block).
template <int N, int N1, int K = 0>
class block_lu {
  // Measured (a factorization and 7 solves, against the whole-matrix LU; bench/NOTES.md):
  // B of up to 12 unknowns pays (at 16 its inverse costs what the blocks save), and with it a
  // Schur complement of up to 20 (−9% at 20, even at 24).
  static constexpr int largest_leading = 12, largest_schur = 20;
  static constexpr int NB = N1 - K;  // the size of B

 public:
  using matrix_type = matrix<N, N>;
  /// Whether these sizes are factorized by blocks (else always as a whole).
  static constexpr bool blocked = size::is_fixed(N) && size::is_fixed(N1) && K >= 0 && NB > 0 &&
                                  N1 < N && NB <= largest_leading && N - N1 <= largest_schur;

 private:
  static constexpr int N2 = blocked ? N - N1 : dynamic;
  // The blocks' storage (unused 1 × 1 ones when not blocked).
  static constexpr int B1 = blocked ? N1 : 1, BB = blocked ? NB : 1, B2 = blocked ? N2 : 1;

 public:
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
        lu_b_.compute(a.template topLeftCorner<BB, BB>());
        if (detail::regular_pivots(lu_b_.matrixLU().diagonal())) {
          // X and S by coefficient-based products: at these sizes Eigen's default product and a
          // solve with a matrix right-hand side take its blocked dynamic-size kernels, which
          // cost more than the arithmetic (the factorization took 1.3x as long).
          inverse_b_ = lu_b_.inverse();
          x12_.template topRows<BB>().noalias() = inverse_b_.lazyProduct(a.template block<BB, B2>(0, N1));
          if constexpr (K > 0) {
            x12_.template bottomRows<K>() = a.template block<K, B2>(NB, N1);
            x12_.template bottomRows<K>().noalias() -= c_block().lazyProduct(x12_.template topRows<BB>());
          }
          schur_ = a.template bottomRightCorner<B2, B2>();
          schur_.noalias() -= a.template bottomLeftCorner<B2, B1>().lazyProduct(x12_);
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

  /// Whether the last factorize() used the blocks (false: the whole matrix, or not yet factorized).
  bool used_blocks() const { return using_blocks_; }

  /// rhs ← A⁻¹ rhs.
  template <class V>
  void solve_in_place(V& rhs) {
    if constexpr (blocked) {
      if (using_blocks_) {
        y1_.template head<BB>().noalias() = inverse_b_.lazyProduct(rhs.template head<BB>());
        if constexpr (K > 0) {
          y1_.template tail<K>() = rhs.template segment<K>(NB);
          y1_.template tail<K>().noalias() -= c_block().lazyProduct(y1_.template head<BB>());
        }
        b2_ = rhs.template tail<B2>();
        b2_.noalias() -= whole_.system_matrix().template bottomLeftCorner<B2, B1>().lazyProduct(y1_);
        rhs.template tail<B2>().noalias() = inverse22_.lazyProduct(b2_);
        rhs.template head<B1>() = y1_;
        rhs.template head<B1>().noalias() -= x12_.lazyProduct(rhs.template tail<B2>());
        return;
      }
    }
    whole_.solve_in_place(rhs);
  }

 private:
  /// C, the unit columns' rows of A₁₁ left of the identity.
  auto c_block() { return whole_.system_matrix().template block<K, BB>(NB, 0); }

  dense_lu<N> whole_;  // the assembled matrix, and its LU when the blocks are not used
  bool external_ = false, using_blocks_ = false;
  Eigen::PartialPivLU<matrix<BB, BB>> lu_b_;
  Eigen::PartialPivLU<matrix<B2, B2>> lu22_;
  matrix<BB, BB> inverse_b_;
  matrix<B1, B2> x12_;
  matrix<B2, B2> schur_, inverse22_;
  vector<B1> y1_;
  vector<B2> b2_;
};

}  // namespace geomint
