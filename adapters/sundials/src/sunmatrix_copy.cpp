// Eigen matrices into dense, band and sparse SUNMatrix storage (sundials_handles.hpp).
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <stdexcept>
#include <string>

#include "sundials_handles.hpp"

namespace geomint::sundials::detail {
namespace {

[[noreturn]] void mismatch(const std::string& why) {
  throw std::invalid_argument("geomint: the matrix does not fit the SUNMatrix: " + why);
}

void check_order(Eigen::Index rows, Eigen::Index cols, SUNMatrix out) {
  sunindextype r = 0, c = 0;
  switch (SUNMatGetID(out)) {
    case SUNMATRIX_DENSE: r = SM_ROWS_D(out); c = SM_COLUMNS_D(out); break;
    case SUNMATRIX_BAND: r = c = SM_COLUMNS_B(out); break;
    case SUNMATRIX_SPARSE: r = SM_ROWS_S(out); c = SM_COLUMNS_S(out); break;
    default: mismatch("only dense, band and sparse SUNMatrix types are supported");
  }
  if (r != rows || c != cols)
    mismatch("it is " + std::to_string(rows) + " x " + std::to_string(cols) + ", the SUNMatrix " +
             std::to_string(r) + " x " + std::to_string(c));
}

bool in_band(SUNMatrix out, Eigen::Index i, Eigen::Index j) {
  return j - i <= SM_UBAND_B(out) && i - j <= SM_LBAND_B(out);
}

void outside_band(Eigen::Index i, Eigen::Index j, SUNMatrix out) {
  mismatch("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") lies outside the band (upper " +
           std::to_string(SM_UBAND_B(out)) + ", lower " + std::to_string(SM_LBAND_B(out)) + ")");
}

void reserve(SUNMatrix out, sunindextype nnz) {
  if (SM_NNZ_S(out) < nnz && SUNSparseMatrix_Reallocate(out, nnz) != 0) mismatch("cannot grow the sparse storage");
}

}  // namespace

void copy_to_sunmatrix(const Eigen::SparseMatrix<double>& in, SUNMatrix out) {
  check_order(in.rows(), in.cols(), out);
  Eigen::SparseMatrix<double> compressed;
  const Eigen::SparseMatrix<double>* a = &in;
  if (!in.isCompressed()) {
    compressed = in;
    compressed.makeCompressed();
    a = &compressed;
  }
  switch (SUNMatGetID(out)) {
    case SUNMATRIX_DENSE:
      SUNMatZero(out);
      for (int j = 0; j < a->outerSize(); ++j)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*a, j); it; ++it) SM_ELEMENT_D(out, it.row(), j) = it.value();
      break;
    case SUNMATRIX_BAND:
      SUNMatZero(out);
      for (int j = 0; j < a->outerSize(); ++j)
        for (Eigen::SparseMatrix<double>::InnerIterator it(*a, j); it; ++it) {
          if (in_band(out, it.row(), j)) SM_ELEMENT_B(out, it.row(), j) = it.value();
          else if (it.value() != 0) outside_band(it.row(), j, out);
        }
      break;
    default: {  // SUNMATRIX_SPARSE
      const sunindextype nnz = a->nonZeros();
      reserve(out, nnz);
      sunindextype* ptrs = SM_INDEXPTRS_S(out);
      sunindextype* vals = SM_INDEXVALS_S(out);
      double* data = SM_DATA_S(out);
      if (SM_SPARSETYPE_S(out) == CSC_MAT) {
        for (Eigen::Index j = 0; j <= a->outerSize(); ++j) ptrs[j] = a->outerIndexPtr()[j];
        for (sunindextype k = 0; k < nnz; ++k) {
          vals[k] = a->innerIndexPtr()[k];
          data[k] = a->valuePtr()[k];
        }
      } else {
        const Eigen::SparseMatrix<double, Eigen::RowMajor> r = *a;
        for (Eigen::Index i = 0; i <= r.outerSize(); ++i) ptrs[i] = r.outerIndexPtr()[i];
        for (sunindextype k = 0; k < nnz; ++k) {
          vals[k] = r.innerIndexPtr()[k];
          data[k] = r.valuePtr()[k];
        }
      }
    }
  }
}

void copy_to_sunmatrix(const Eigen::Ref<const Eigen::MatrixXd>& a, SUNMatrix out) {
  check_order(a.rows(), a.cols(), out);
  const Eigen::Index n = a.rows();
  switch (SUNMatGetID(out)) {
    case SUNMATRIX_DENSE:
      Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(out), n, n) = a;
      break;
    case SUNMATRIX_BAND:
      for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = 0; i < n; ++i) {
          if (in_band(out, i, j)) SM_ELEMENT_B(out, i, j) = a(i, j);
          else if (a(i, j) != 0) outside_band(i, j, out);
        }
      break;
    default: {  // SUNMATRIX_SPARSE: every entry is structural
      reserve(out, n * n);
      sunindextype* ptrs = SM_INDEXPTRS_S(out);
      sunindextype* vals = SM_INDEXVALS_S(out);
      double* data = SM_DATA_S(out);
      const bool csc = SM_SPARSETYPE_S(out) == CSC_MAT;
      for (Eigen::Index outer = 0; outer <= n; ++outer) ptrs[outer] = outer * n;
      for (Eigen::Index outer = 0; outer < n; ++outer)
        for (Eigen::Index inner = 0; inner < n; ++inner) {
          vals[outer * n + inner] = inner;
          data[outer * n + inner] = csc ? a(inner, outer) : a(outer, inner);
        }
    }
  }
}

}  // namespace geomint::sundials::detail
