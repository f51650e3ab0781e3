// A SUNDIALS direct linear solver (dense, band or KLU) with its SUNMatrix as the factorization
// of geomint's stage Newton systems (constrained_options::linear_solver):
//
//   geomint::sundials::sunlinsol_factorization f(LS, A, sunctx);
//   stepper.options().linear_solver = &f;
//
// The matrix geomint assembles is written into A (band: entries outside the band must be zero;
// sparse CSC or CSR: geomint's pattern, every entry of a dense matrix), then SUNLinSolSetup
// factorizes it and SUNLinSolSolve solves with it.
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "geomint/solvers/linear_solvers.hpp"

namespace geomint::sundials {

/// SUNLinSolInitialize, SUNLinSolSetup (< 0) or SUNLinSolSolve (≠ 0) failed.
class linear_solver_error : public std::runtime_error {
 public:
  enum class stage { initialize, setup, solve };
  linear_solver_error(stage s, int flag, const std::string& what) : std::runtime_error(what), stage_(s), flag_(flag) {}
  stage where() const noexcept { return stage_; }
  int flag() const noexcept { return flag_; }

 private:
  stage stage_;
  int flag_;
};

class sunlinsol_factorization final : public external_linear_solver {
 public:
  /// ls: a direct solver (SUNLINEARSOLVER_DIRECT) for the square matrix a (dense, band or
  /// sparse). Neither is owned. Throws std::invalid_argument for other kinds, and
  /// linear_solver_error if SUNLinSolInitialize fails.
  sunlinsol_factorization(SUNLinearSolver ls, SUNMatrix a, SUNContext ctx);
  sunlinsol_factorization(const sunlinsol_factorization&) = delete;
  sunlinsol_factorization& operator=(const sunlinsol_factorization&) = delete;

  /// Order of the matrix.
  long size() const { return size_; }
  /// Setup's flag > 0 (a zero pivot) means singular: false.
  bool factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) override;
  bool factorize(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a) override;
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) override;

 private:
  bool setup();

  struct vector_deleter {
    void operator()(N_Vector v) const { N_VDestroy(v); }
  };
  using vector_handle = std::unique_ptr<std::remove_pointer_t<N_Vector>, vector_deleter>;

  SUNLinearSolver ls_;
  SUNMatrix a_;
  long size_ = 0;
  vector_handle x_, b_;  // the solution, and a view of the right-hand side
  bool set_up_ = false;
};

}  // namespace geomint::sundials
