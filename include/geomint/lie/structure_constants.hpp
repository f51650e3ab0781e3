// A Lie algebra given only by its structure constants bracket(f_i, f_j) = Σ_k C_ij^k f_k, in
// geomint's sign convention (algebra.hpp). J(y)_ij = Σ_k C_ij^k y_k (Engø–Faltinsen (2.3)).
//
// Without a matrix group at hand, the realization is the adjoint one with geomint's sign,
// hat(σ) = −ad_σ (so that hat(bracket(u, v)) = [hat v, hat u] as for every geomint algebra),
// group elements are d × d matrices g = exp(hat σ), and the coadjoint action is
// Ad*_{g⁻¹} y = gᵀ y; the RKMK update exp(−ad*_σ) y is one d × d matrix exponential (scaling
// and squaring of e^X − 1, detail::expm1, applied as y + (e^X − 1) y). The group is not assumed quadratic: exponential coordinates
// only. The Casimir offered is the quadratic one of a semisimple algebra, yᵀ K⁻¹ y with the
// Killing form K_ij = tr(ad_{f_i} ad_{f_j}).
#pragma once

#include <Eigen/LU>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "geomint/lie/algebra.hpp"

namespace geomint {

template <int D>
class structure_constants {
  static_assert(D != dynamic && D >= 1, "structure_constants needs a fixed dimension");

 public:
  static constexpr int dimension = D;
  static constexpr bool has_cayley = false;
  static constexpr int casimir_count = 1;
  using vector_type = vector<D>;
  using operator_type = matrix<D, D>;
  using matrix_type = matrix<D, D>;
  using group_type = matrix<D, D>;
  /// C[k](i, j) = C_ij^k.
  using table_type = std::array<matrix<D, D>, D>;

  /// so(3)'s table in geomint's sign, by default, so that the type is default-constructible.
  structure_constants() : structure_constants(so3_table()) {}

  /// Checks antisymmetry and the Jacobi identity; throws std::invalid_argument otherwise.
  explicit structure_constants(const table_type& c) {
    double scale = 0;
    for (int k = 0; k < D; ++k) scale = std::fmax(scale, c[k].cwiseAbs().maxCoeff());
    const double tol = 1e-12 * std::fmax(scale, 1.0);
    for (int k = 0; k < D; ++k)
      if ((c[k] + c[k].transpose()).cwiseAbs().maxCoeff() > tol)
        throw std::invalid_argument("geomint: structure constants are not antisymmetric, C_ij^" +
                                    std::to_string(k) + " != -C_ji^" + std::to_string(k));
    for (int i = 0; i < D; ++i) {
      ad_basis_[i].setZero();
      for (int k = 0; k < D; ++k) ad_basis_[i].row(k) = c[k].row(i);  // (ad f_i)_kj = C_ij^k
    }
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j)
        for (int l = 0; l < D; ++l) {
          const vector_type ei = vector_type::Unit(i), ej = vector_type::Unit(j), el = vector_type::Unit(l);
          const vector_type jacobi =
              bracket(ei, bracket(ej, el)) + bracket(ej, bracket(el, ei)) + bracket(el, bracket(ei, ej));
          if (jacobi.cwiseAbs().maxCoeff() > tol * std::fmax(scale, 1.0))
            throw std::invalid_argument("geomint: structure constants violate the Jacobi identity for (f_" +
                                        std::to_string(i) + ", f_" + std::to_string(j) + ", f_" +
                                        std::to_string(l) + ")");
        }
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) killing_(i, j) = (ad_basis_[i] * ad_basis_[j]).trace();
    killing_lu_.compute(killing_);
  }

  static const char* name() { return "structure_constants"; }
  static constexpr int dim() { return D; }

  template <class V>
  matrix_type hat(const Eigen::MatrixBase<V>& v) const { return -ad(v); }
  /// Inverts hat on its image (a faithful adjoint representation, e.g. semisimple algebras).
  template <class X>
  vector_type vee(const Eigen::MatrixBase<X>& x) const {
    Eigen::Matrix<double, D * D, D> a;
    for (int i = 0; i < D; ++i) a.col(i) = Eigen::Map<const Eigen::Matrix<double, D * D, 1>>(ad_basis_[i].data());
    const matrix<D, D> xm = -x;
    const Eigen::Matrix<double, D * D, 1> b = Eigen::Map<const Eigen::Matrix<double, D * D, 1>>(xm.data());
    return a.colPivHouseholderQr().solve(b);
  }

  template <class U, class V>
  vector_type bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v) const {
    return ad(u) * v;
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& u) const {
    operator_type m = operator_type::Zero();
    for (int i = 0; i < D; ++i) m.noalias() += u(i) * ad_basis_[i];
    return m;
  }
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y) const {
    return ad(u).transpose() * y;
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& u) const { return ad(u).transpose(); }
  /// J(y)_ij = Σ_k C_ij^k y_k = (ad_{f_i}ᵀ y)_j.
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const {
    operator_type m;
    for (int i = 0; i < D; ++i) m.row(i) = (ad_basis_[i].transpose() * y).transpose();
    return m;
  }

  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& sigma) const {
    return matrix_type::Identity() + detail::expm1(matrix_type(hat(sigma)));
  }
  /// Ad_g = g⁻¹ (conjugation by g⁻¹ of the adjoint realization).
  operator_type adjoint(const group_type& g) const { return g.inverse(); }
  /// Ad*_{g⁻¹} y = gᵀ y.
  template <class Y>
  vector_type coadjoint(const group_type& g, const Eigen::MatrixBase<Y>& y) const { return g.transpose() * y; }
  /// exp(−ad*_σ) y = y + (e^{−ad*_σ} − 1) y, the increment in extended precision, rounded once.
  template <class S, class Y>
  vector_type exp_coadjoint(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y) const {
    using op_ext = matrix_of<D, D, extended>;
    const op_ext e = detail::expm1(op_ext((-ad_star(sigma)).template cast<extended>()));
    const vector_of<D, extended> x = y.template cast<extended>();
    return (x + e * x).template cast<double>();
  }

  /// The Killing form K_ij = tr(ad_{f_i} ad_{f_j}).
  const matrix<D, D>& killing_form() const { return killing_; }
  /// yᵀ K⁻¹ y, a Casimir when K is nondegenerate (semisimple algebras); throws
  /// std::domain_error otherwise.
  template <class Y>
  vector<1> casimirs(const Eigen::MatrixBase<Y>& y) const {
    if (!(detail_pivot_ratio() > 1e-12))
      throw std::domain_error("geomint: the Killing form is degenerate (the algebra is not semisimple); "
                              "no quadratic Casimir is known for these structure constants");
    const vector_type k = killing_lu_.solve(vector_type(y));
    return vector<1>(y.dot(k));
  }
  /// Σ_i |y_i (K⁻¹y)_i|, the terms of yᵀK⁻¹y.
  template <class Y>
  vector<1> casimir_scales(const Eigen::MatrixBase<Y>& y) const {
    const vector_type k = killing_lu_.solve(vector_type(y));
    return vector<1>(y.cwiseProduct(k).cwiseAbs().sum());
  }

  /// so(3) in geomint's sign: C_ij^k = −ε_ijk (Engø–Faltinsen §2: C₁₂³ = −1); for D ≠ 3 the
  /// abelian algebra (all constants zero).
  static table_type so3_table() {
    table_type c;
    for (int k = 0; k < D; ++k) c[k].setZero();
    if (D == 3) {
      auto set = [&](int i, int j, int k, double v) { c[k](i, j) = v; c[k](j, i) = -v; };
      set(0, 1, 2, -1);
      set(1, 2, 0, -1);
      set(2, 0, 1, -1);
    }
    return c;
  }

 private:
  double detail_pivot_ratio() const {
    const auto d = killing_lu_.matrixLU().diagonal().cwiseAbs();
    return d.maxCoeff() > 0 ? d.minCoeff() / d.maxCoeff() : 0.0;
  }

  std::array<matrix<D, D>, D> ad_basis_;
  matrix<D, D> killing_;
  Eigen::PartialPivLU<matrix<D, D>> killing_lu_;
};

}  // namespace geomint
