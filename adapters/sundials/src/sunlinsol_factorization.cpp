// sunlinsol_factorization.hpp
#include "geomint/sundials/sunlinsol_factorization.hpp"

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sundials_handles.hpp"

namespace geomint::sundials {

namespace {
long order_of(SUNMatrix a) {
  switch (SUNMatGetID(a)) {
    case SUNMATRIX_DENSE:
      if (SM_ROWS_D(a) == SM_COLUMNS_D(a)) return SM_ROWS_D(a);
      break;
    case SUNMATRIX_BAND: return SM_COLUMNS_B(a);
    case SUNMATRIX_SPARSE:
      if (SM_ROWS_S(a) == SM_COLUMNS_S(a)) return SM_ROWS_S(a);
      break;
    default: throw std::invalid_argument("geomint: the SUNMatrix must be dense, band or sparse");
  }
  throw std::invalid_argument("geomint: the SUNMatrix must be square");
}

/// Does the sparse SUNMatrix already hold the pattern of `a`?
bool same_pattern(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a, SUNMatrix out) {
  if (SM_SPARSETYPE_S(out) != CSC_MAT) return false;  // CSR copies are rebuilt every time
  const sunindextype* ptrs = SM_INDEXPTRS_S(out);
  const sunindextype* vals = SM_INDEXVALS_S(out);
  if (ptrs[a.cols()] != a.nonZeros()) return false;
  for (Eigen::Index j = 0; j <= a.cols(); ++j)
    if (ptrs[j] != a.outerIndexPtr()[j]) return false;
  for (Eigen::Index k = 0; k < a.nonZeros(); ++k)
    if (vals[k] != a.innerIndexPtr()[k]) return false;
  return true;
}
}  // namespace

sunlinsol_factorization::sunlinsol_factorization(SUNLinearSolver ls, SUNMatrix a, SUNContext ctx) : ls_(ls), a_(a) {
  if (!ls || !a || !ctx) throw std::invalid_argument("geomint: a linear solver, its matrix and a SUNContext are required");
  if (SUNLinSolGetType(ls) != SUNLINEARSOLVER_DIRECT)
    throw std::invalid_argument("geomint: the SUNLinearSolver must be a direct solver (dense, band or KLU)");
  size_ = order_of(a);
  x_.reset(N_VNew_Serial(size_, ctx));
  b_.reset(N_VMake_Serial(size_, nullptr, ctx));
  if (!x_ || !b_) throw std::bad_alloc();
  if (const int flag = SUNLinSolInitialize(ls); flag != 0)
    throw linear_solver_error(linear_solver_error::stage::initialize, flag, "geomint: SUNLinSolInitialize failed");
}

bool sunlinsol_factorization::setup() {
  const int flag = SUNLinSolSetup(ls_, a_);
  if (flag < 0)
    throw linear_solver_error(linear_solver_error::stage::setup, flag,
                              "geomint: SUNLinSolSetup failed with flag " + std::to_string(flag));
  set_up_ = true;
  return flag == 0;
}

bool sunlinsol_factorization::factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  detail::copy_to_sunmatrix(a, a_);
  return setup();
}

bool sunlinsol_factorization::factorize(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a) {
  const bool sparse = SUNMatGetID(a_) == SUNMATRIX_SPARSE;
  const bool new_pattern = sparse && !same_pattern(a, a_);
  detail::copy_to_sunmatrix(a, a_);
  // KLU analyzes the pattern at its first setup only: tell it when the pattern changed.
  if (new_pattern && set_up_ && SUNLinSolGetID(ls_) == SUNLINEARSOLVER_KLU)
    SUNLinSol_KLUReInit(ls_, a_, a.nonZeros(), SUNKLU_REINIT_PARTIAL);
  return setup();
}

void sunlinsol_factorization::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) {
  if (x.size() != size_) throw std::invalid_argument("geomint: right-hand side of the wrong size");
  N_VSetArrayPointer(x.data(), b_.get());
  const int flag = SUNLinSolSolve(ls_, a_, x_.get(), b_.get(), 0.0);
  if (flag != 0)
    throw linear_solver_error(linear_solver_error::stage::solve, flag,
                              "geomint: SUNLinSolSolve failed with flag " + std::to_string(flag));
  x = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(x_.get()), size_);
}

}  // namespace geomint::sundials
