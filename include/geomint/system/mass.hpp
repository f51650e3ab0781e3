// Constant mass matrices for separable Hamiltonians H = ½ pᵀM⁻¹p + V(q).
#pragma once

#include <Eigen/Cholesky>
#include <stdexcept>

#include "geomint/core/types.hpp"

namespace geomint {

/// M = diag(masses): point masses, one entry per coordinate.
template <int N>
class diagonal_mass {
 public:
  diagonal_mass() = default;
  explicit diagonal_mass(const vector<N>& masses) : inverse_(masses.cwiseInverse()) {
    if (!(masses.array() > 0).all()) throw std::invalid_argument("geomint: masses must be positive");
    uniform_ = inverse_.size() > 0 && (inverse_.array() == inverse_(0)).all();
  }

  int size() const { return static_cast<int>(inverse_.size()); }
  const vector<N>& inverse_diagonal() const { return inverse_; }
  /// All masses are equal.
  bool uniform() const { return uniform_; }

  template <class P>
  double kinetic_energy(const P& p) const { return 0.5 * p.dot(inverse_.cwiseProduct(p)); }
  /// out = M⁻¹ p
  template <class P, class Out>
  void apply_inverse(const P& p, Out& out) const { out.noalias() = inverse_.cwiseProduct(p); }
  /// out = q + M⁻¹ p in one pass (a scalar product when all masses are equal).
  template <class P, class Q, class Out>
  void apply_inverse_add(const P& p, const Q& q, Out& out) const {
    if (uniform_) out.noalias() = q + inverse_(0) * p;
    else out.noalias() = q + inverse_.cwiseProduct(p);
  }
  /// w = G M⁻¹ (dense G)
  template <class G, class W>
  void right_apply_inverse(const G& g, W& w) const { w.noalias() = g * inverse_.asDiagonal(); }
  /// out = M⁻¹ as a dense matrix (∂²H/∂p²)
  template <class Out>
  void inverse_matrix(Out& out) const {
    out.setZero();
    out.diagonal() = inverse_;
  }

 private:
  vector<N> inverse_;
  bool uniform_ = false;
};

/// A constant symmetric positive definite mass matrix.
template <int N>
class dense_mass {
 public:
  dense_mass() = default;
  explicit dense_mass(const matrix<N, N>& m) {
    // LLT reads the lower triangle only: an unsymmetric m would be taken for another matrix.
    if (m.rows() != m.cols() || !((m - m.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * m.cwiseAbs().maxCoeff()))
      throw std::invalid_argument("geomint: mass matrix must be symmetric positive definite (it is not symmetric)");
    Eigen::LLT<matrix<N, N>> llt(m);
    if (llt.info() != Eigen::Success) throw std::invalid_argument("geomint: mass matrix must be symmetric positive definite");
    inverse_ = llt.solve(matrix<N, N>::Identity(m.rows(), m.cols()));
  }

  int size() const { return static_cast<int>(inverse_.rows()); }
  const matrix<N, N>& inverse() const { return inverse_; }

  template <class P>
  double kinetic_energy(const P& p) const { return 0.5 * p.dot(inverse_ * p); }
  template <class P, class Out>
  void apply_inverse(const P& p, Out& out) const { out.noalias() = inverse_ * p; }
  template <class P, class Q, class Out>
  void apply_inverse_add(const P& p, const Q& q, Out& out) const {
    out = q;
    out.noalias() += inverse_ * p;
  }
  template <class G, class W>
  void right_apply_inverse(const G& g, W& w) const { w.noalias() = g * inverse_; }
  template <class Out>
  void inverse_matrix(Out& out) const { out = inverse_; }

 private:
  matrix<N, N> inverse_;
};

}  // namespace geomint
