// The factorization of the constrained PRK methods' stage Newton systems in the C API: the
// user's SUNLinearSolver (GeomintSetLinearSolver) or, by default, geomint's own Eigen policies
// (dense LDLᵀ or sparse LDLᵀ of G M⁻¹ Gᵀ for a separable H, dense LU of the stage Jacobian
// otherwise: what the steppers use without an external solver, so results are unchanged),
// counting setups and solves (GeomintGetNumLinSolvSetups, GeomintGetNumLinSolves).
#pragma once

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/sundials/sunlinsol_factorization.hpp"

namespace geomint::sundials::detail {

class counted_factorization final : public external_linear_solver {
 public:
  /// symmetric: the matrices are G M⁻¹ Gᵀ (separable H), else stage Jacobians. sundials: the
  /// user's solver, or null for Eigen's. Call before a step, never between factorize and solve.
  void configure(bool symmetric, sunlinsol_factorization* sundials) {
    symmetric_ = symmetric;
    sundials_ = sundials;
  }
  bool factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) override;
  bool factorize(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a) override;
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) override;

  long setups() const { return setups_; }
  long solves() const { return solves_; }
  void reset_counts() { setups_ = solves_ = 0; }

 private:
  enum class factorized { none, dense_symmetric, dense_general, sparse };

  bool symmetric_ = true;
  sunlinsol_factorization* sundials_ = nullptr;
  factorized last_ = factorized::none;
  dense_ldlt<dynamic> ldlt_;
  dense_lu<dynamic> lu_;
  sparse_ldlt sparse_;
  long order_ldlt_ = -1, order_lu_ = -1;
  long setups_ = 0, solves_ = 0;
};

}  // namespace geomint::sundials::detail
