// so(n): skew-symmetric n × n matrices, the algebra of the n-dimensional free rigid body
// (McLachlan–Scovel §6.1). Coordinates: the entries above the diagonal, v_ij = X_ij (i < j),
// row by row — orthonormal for ⟨X, Y⟩ = ½ tr(XᵀY), which also identifies g* with g, so that a
// dual element y is the skew matrix m = hat(y) and the Euler equations ṁ = [m, 𝕀⁻¹(m)] read
// ẏ = J(y)∇H(y) in geomint's convention (algebra.hpp). For n = 3 the coordinates are
// (m₁₂, m₁₃, m₂₃) = (−y₃, y₂, −y₁) in terms of so3's.
// Group: SO(n); exp by scaling and squaring of a Taylor series for e^S − 1 (detail::expm1),
// and the actions in increment form y + (…), which keeps Casimirs to round-off over long runs.
#pragma once

#include <Eigen/LU>
#include <array>

#include "geomint/lie/algebra.hpp"

namespace geomint {

template <int N>
class so_n {
  static_assert(N >= 2, "so(n) needs n >= 2");

 public:
  static constexpr int n = N;
  static constexpr int dimension = size::fixed_element_size(N * (N - 1) / 2);
  static constexpr bool has_cayley = true;
  static constexpr int casimir_count = N / 2;
  using vector_type = vector<dimension>;
  using operator_type = matrix<size::fixed_if_small(dimension), size::fixed_if_small(dimension)>;
  using matrix_type = matrix<N, N>;
  using group_type = matrix<N, N>;

  static const char* name() { return "so_n"; }
  static constexpr int dim() { return N * (N - 1) / 2; }

  template <class V>
  matrix_type hat(const Eigen::MatrixBase<V>& v) const {
    matrix_type m = matrix_type::Zero();
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j, ++k) {
        m(i, j) = v(k);
        m(j, i) = -v(k);
      }
    return m;
  }
  /// Coordinates of the skew part of x.
  template <class X>
  vector_type vee(const Eigen::MatrixBase<X>& x) const {
    vector_type v(dim());
    vee(x, v);
    return v;
  }
  /// vee(x) into out (a vector or a block of one, of size dim()).
  template <class X, class Out>
  void vee(const Eigen::MatrixBase<X>& x, Out&& out) const {
    out.resize(dim());  // sizes a vector on first use; a block must have the size
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j, ++k) out(k) = (x(i, j) - x(j, i)) / 2;
  }

  /// bracket(u, v) = vee([hat v, hat u]).
  template <class U, class V>
  vector_type bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v) const {
    vector_type out(dim());
    scratch none;
    bracket(u, v, out, none);
    return out;
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& u) const { return detail::ad_by_columns(*this, vector_type(u)); }
  /// ad*_σ y = vee([hat σ, hat y]).
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y) const {
    vector_type out(dim());
    scratch none;
    ad_star(u, y, out, none);
    return out;
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& u) const { return ad(u).transpose(); }
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const {
    return detail::poisson_tensor_by_columns(*this, vector_type(y));
  }

  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& sigma) const {
    return matrix_type::Identity() + detail::expm1(matrix_type(hat(sigma)));
  }
  template <class S>
  group_type cayley(const Eigen::MatrixBase<S>& sigma) const {
    const matrix_type s = hat(sigma) / 2;
    const Eigen::PartialPivLU<matrix_type> lu(matrix_type(matrix_type::Identity() - s));
    return lu.solve(matrix_type(matrix_type::Identity() + s));
  }
  /// Ad_g ξ = vee(gᵀ hat(ξ) g).
  operator_type adjoint(const group_type& g) const {
    operator_type m(dim(), dim());
    for (int j = 0; j < dim(); ++j)
      m.col(j) = vee(matrix_type(g.transpose() * hat(vector_type::Unit(dim(), j)) * g));
    return m;
  }
  /// Ad*_{g⁻¹} y = vee(gᵀ hat(y) g).
  template <class Y>
  vector_type coadjoint(const group_type& g, const Eigen::MatrixBase<Y>& y) const {
    return vee(matrix_type(g.transpose() * hat(y) * g));
  }
  /// coadjoint(exp(σ), y), as y + vee(EᵀY + YE + EᵀYE) with E = e^{hat σ} − 1, the increment
  /// in extended precision and rounded once (algebra.hpp).
  template <class S, class Y>
  vector_type exp_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return act_increment(detail::expm1(matrix_ext(hat(s).template cast<extended>())), y);
  }
  /// coadjoint(cayley(σ), y) with cay(S) − 1 = (1 − S/2)⁻¹ S.
  template <class S, class Y>
  vector_type cayley_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return act_increment(cayley_minus_one(s), y);
  }
  /// dcay⁻¹_σ v = vee(V + ½[S, V] − ¼ S V S), S = hat σ, V = hat v, truncated after degree q.
  template <class S, class V>
  vector_type dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    if (q == 0) return v;
    return vee(dcay_inv_matrix(sigma, v, q));
  }

  using matrix_ext = matrix_of<N, N, extended>;
  /// y ↦ coadjoint(1 + e, y) = y + vee(eᵀY + Ye + eᵀYe), in extended precision, rounded once.
  template <class Y>
  vector_type act_increment(const matrix_ext& e, const Eigen::MatrixBase<Y>& y) const {
    vector_type out(dim());
    act_increment(e, y, out);
    return out;
  }
  /// act_increment into out (which may be y).
  template <class Y, class Out>
  void act_increment(const matrix_ext& e, const Eigen::MatrixBase<Y>& y, Out&& out) const {
    const matrix_ext m = hat(y).template cast<extended>();
    const matrix_ext em = e.transpose() * m;
    const matrix_ext d = em + m * e + em * e;
    out.resize(dim());
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j, ++k) out(k) = static_cast<double>(extended(y(k)) + (d(i, j) - d(j, i)) / 2);
  }

  /// The forms that write into the caller's out (a vector or a block of one) instead of
  /// returning a vector: the algebra concept's optional part (algebra.hpp), which steppers use for
  /// n ≥ 24, where the elements are dynamic-size vectors. The matrices are fixed-size, on the
  /// stack: no buffers are needed.
  struct scratch {};
  template <class U, class V, class Out>
  void bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v, Out&& out, scratch&) const {
    const matrix_type a = hat(u), b = hat(v);
    vee(matrix_type(b * a - a * b), out);
  }
  template <class U, class Y, class Out>
  void ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y, Out&& out, scratch&) const {
    const matrix_type s = hat(u), m = hat(y);
    vee(matrix_type(s * m - m * s), out);
  }
  template <class S, class Y, class Out>
  void exp_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y, Out&& out, scratch&) const {
    act_increment(detail::expm1(matrix_ext(hat(s).template cast<extended>())), y, out);
  }
  template <class S, class Y, class Out>
  void cayley_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y, Out&& out, scratch&) const {
    act_increment(cayley_minus_one(s), y, out);
  }
  template <class S, class V, class Out>
  void dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q, Out&& out, scratch&) const {
    if (q == 0) out = v;
    else vee(dcay_inv_matrix(sigma, v, q), out);
  }

  /// cay(S) − 1 = (1 − S/2)⁻¹ S in extended precision, S = hat σ.
  template <class S>
  matrix_ext cayley_minus_one(const Eigen::MatrixBase<S>& s) const {
    const matrix_ext h = hat(s).template cast<extended>();
    const Eigen::PartialPivLU<matrix_ext> lu(matrix_ext(matrix_ext::Identity() - h / 2));
    return lu.solve(h);
  }
  /// V + ½[S, V] − ¼ S V S (the last term for q ≥ 2), whose skew part is dcay⁻¹_σ v.
  template <class S, class V>
  matrix_type dcay_inv_matrix(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    const matrix_type s = hat(sigma), w = hat(v);
    matrix_type z = w + (s * w - w * s) / 2;
    if (q >= 2) z -= s * w * s / 4;
    return z;
  }

  /// tr((mᵀm)^k), k = 1..⌊n/2⌋, m = hat(y): the coefficients of the characteristic polynomial
  /// of m, constant on coadjoint orbits.
  template <class Y>
  vector<casimir_count> casimirs(const Eigen::MatrixBase<Y>& y) const {
    const matrix_type m = hat(y);
    const matrix_type mtm = m.transpose() * m;
    matrix_type power = mtm;
    vector<casimir_count> c;
    for (int k = 0; k < casimir_count; ++k) {
      c(k) = power.trace();
      power = power * mtm;
    }
    return c;
  }
  /// tr((mᵀm)^k) = Σ σ_i^{2k} is a sum of nonnegative terms: its own scale.
  template <class Y>
  vector<casimir_count> casimir_scales(const Eigen::MatrixBase<Y>& y) const { return casimirs(y); }
};

}  // namespace geomint
