// RAII handles for SUNDIALS objects and copies of Eigen matrices into SUNMatrix storage
// (private to the adapter).
#pragma once

#include <ida/ida.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>

namespace geomint::sundials::detail {

struct vector_deleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct matrix_deleter {
  void operator()(SUNMatrix a) const { SUNMatDestroy(a); }
};
struct solver_deleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct ida_deleter {
  void operator()(void* mem) const { IDAFree(&mem); }
};
using vector_handle = std::unique_ptr<std::remove_pointer_t<N_Vector>, vector_deleter>;
using matrix_handle = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, matrix_deleter>;
using solver_handle = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, solver_deleter>;
using ida_handle = std::unique_ptr<void, ida_deleter>;

/// An owned SUNContext.
class context {
 public:
  context() { if (SUNContext_Create(nullptr, &ctx_) != 0) ctx_ = nullptr; }
  ~context() { if (ctx_) SUNContext_Free(&ctx_); }
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  SUNContext get() const { return ctx_; }
  explicit operator bool() const { return ctx_ != nullptr; }

 private:
  SUNContext ctx_ = nullptr;
};

/// Writes a square matrix into a dense, band or sparse (CSC or CSR) SUNMatrix of the same
/// order. Band: entries outside the band must be zero. Sparse: the pattern of `a` (every entry
/// of a dense `a`) is written, the storage grown if needed. Throws std::invalid_argument, with
/// the reason, if the matrix does not fit (order, band, matrix type).
void copy_to_sunmatrix(const Eigen::SparseMatrix<double>& a, SUNMatrix out);
void copy_to_sunmatrix(const Eigen::Ref<const Eigen::MatrixXd>& a, SUNMatrix out);

}  // namespace geomint::sundials::detail
