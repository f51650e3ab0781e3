// c_linear_solver.hpp
#include "c_linear_solver.hpp"

#include <algorithm>

namespace geomint::sundials::detail {

namespace {
using sparse_matrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

bool same_pattern(const sparse_matrix& a, const sparse_matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && a.nonZeros() == b.nonZeros() &&
         std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.cols() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}
}  // namespace

bool counted_factorization::factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  ++setups_;
  if (sundials_) return sundials_->factorize(a);
  const long n = a.rows();
  if (symmetric_) {
    if (n != order_ldlt_) {
      ldlt_.resize(static_cast<int>(n));
      order_ldlt_ = n;
    }
    ldlt_.system_matrix() = a;
    last_ = factorized::dense_symmetric;
    return ldlt_.factorize();
  }
  if (n != order_lu_) {
    lu_.resize(static_cast<int>(n));
    order_lu_ = n;
  }
  lu_.system_matrix() = a;
  last_ = factorized::dense_general;
  return lu_.factorize();
}

bool counted_factorization::factorize(const sparse_matrix& a) {
  ++setups_;
  if (sundials_) return sundials_->factorize(a);
  sparse_matrix& s = sparse_.system_matrix();
  if (same_pattern(a, s)) {
    std::copy(a.valuePtr(), a.valuePtr() + a.nonZeros(), s.valuePtr());
  } else {  // a new pattern (the first call): copy it and analyze it once
    s = a;
    s.makeCompressed();
    sparse_.analyze();
  }
  last_ = factorized::sparse;
  return sparse_.factorize();
}

void counted_factorization::solve_in_place(Eigen::Ref<Eigen::VectorXd> x) {
  ++solves_;
  if (sundials_) return sundials_->solve_in_place(x);
  switch (last_) {
    case factorized::dense_symmetric: return ldlt_.solve_in_place(x);
    case factorized::dense_general: return lu_.solve_in_place(x);
    case factorized::sparse: return sparse_.solve_in_place(x);
    case factorized::none: break;
  }
  throw std::logic_error("geomint: solve before any factorization");
}

}  // namespace geomint::sundials::detail
