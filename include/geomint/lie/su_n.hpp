// su(N), N odd: Zeitlin's sine-bracket truncation of 2D Euler on the torus (Engø–Faltinsen
// §6.3), held as N × N matrices so that a bracket costs O(N³) instead of the O(N⁴) sum over
// structure constants.
//
// Modes m = (m₁, m₂) of the fundamental cell C = {−(N−1)/2, …, (N−1)/2}² \ {0} carry the
// matrices T_m = ε^{−m₁m₂} G^{m₁} h^{m₂}, ε = e^{2πi/N}, G = diag(ε^{2j}), h the cyclic shift
// (h e_j = e_{j+1}). They satisfy T_m T_n = ε^{m∗n} T_{m+n} (indices mod N), T_m† = T_{−m},
// tr(T_m† T_n) = N δ_mn, hence [T_k, T_m] = 2i sin(2π k∗m / N) T_{k+m}, the commutation relations
// of Engø–Faltinsen §6.3.1 up to the basis sign, with k∗m = k₁m₂ − k₂m₁.
//
// Vorticity ω_m obeys the reality condition ω_{−m} = ω_m*, so a state is the real vector of
// (Re ω_m, Im ω_m) over the half cell C⁺ = {m₂ > 0} ∪ {m₂ = 0, m₁ > 0}, ordered by polar angle,
// then by |m| (for N = 3 this is Engø–Faltinsen's ω₁…ω₄ = (1,0), (1,1), (0,1), (−1,1)), and
// its matrix form is the Hermitian W = Σ_{m∈C} ω_m T_m. The realization of the algebra is
// hat(σ) = (i/4) W(σ); the scale 1/4 makes geomint's bracket the sine bracket (6.31), so that
// H = ½ Σ_m |ω_m|²/|m|² gives exactly (6.32), in matrix form Ẇ = −(i/2)[Ψ, W], Ψ = Σ ω_m T_m/|m|².
//
// Group: the coadjoint action is W ↦ g† W g for unitary g, applied in increment form; exp by
// scaling and squaring of a Taylor series for e^S − 1 (lie_detail::expm1);
// Cayley maps into U(N) rather than SU(N), which acts on su(N)* through its image in
// PU(N) = U(N)/U(1): dcay⁻¹ gets a multiple of (1 − Ω²/4) that keeps it traceless (see dcay_inv).
// Casimirs: tr(Wᵏ)/N, k = 2..N; for N = 3 these are (6.33) and (6.34).
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>

#include "geomint/lie/algebra.hpp"

namespace geomint {

template <int N>
class su_n {
  static_assert(N >= 3 && N % 2 == 1, "the sine-bracket truncation needs an odd N >= 3");

 public:
  static constexpr int n = N;
  static constexpr int mode_count = (N * N - 1) / 2;  ///< modes in the half cell C⁺
  static constexpr int dimension = size::fixed_if_small(N * N - 1);
  static constexpr bool has_cayley = true;
  static constexpr int casimir_count = N - 1;
  using complex = std::complex<double>;
  using vector_type = vector<dimension>;
  using operator_type = matrix<dimension, dimension>;
  using matrix_type = Eigen::Matrix<complex, N, N>;
  using group_type = matrix_type;
  template <class T>
  using cmatrix = Eigen::Matrix<std::complex<T>, N, N>;

  struct mode {
    int m1, m2;
    int squared_norm() const { return m1 * m1 + m2 * m2; }
  };

  su_n() {
    int k = 0;
    const int h = (N - 1) / 2;
    for (int m2 = 0; m2 <= h; ++m2)
      for (int m1 = -h; m1 <= h; ++m1)
        if (m2 > 0 || m1 > 0) modes_[k++] = mode{m1, m2};
    // Polar angle in [0, π) by exact integer cross products, then |m|.
    std::sort(modes_.begin(), modes_.end(), [](const mode& a, const mode& b) {
      const long cross = long(a.m1) * b.m2 - long(a.m2) * b.m1;
      if (cross != 0) return cross > 0;
      return a.squared_norm() < b.squared_norm();
    });
    const extended two_pi = 6.283185307179586476925286766559L;
    for (int i = 0; i < mode_count; ++i) {
      const mode m = modes_[i];
      for (int j = 0; j < N; ++j) {
        // (T_m)_{(j+m₂) mod N, j} = ε^{m₁m₂ + 2m₁j}
        const int e = wrap(m.m1 * m.m2 + 2 * m.m1 * j);
        phase_[i * N + j] = std::polar(extended(1), two_pi * e / N);
        row_[i * N + j] = wrap(j + m.m2);
      }
    }
  }

  static const char* name() { return "su_n"; }
  static constexpr int dim() { return N * N - 1; }
  const std::array<mode, mode_count>& modes() const { return modes_; }

  /// The Hermitian matrix Σ_{m∈C} x_m T_m with x_m = x_{2i} + i x_{2i+1} for m = modes()[i]
  /// and x_{−m} = x_m* (the vorticity matrix W of a state).
  template <class X>
  matrix_type hermitian(const Eigen::MatrixBase<X>& x) const { return hermitian_in<double>(x); }
  /// Coefficients of the Hermitian part of w: x_m = tr(T_m† w)/N.
  vector_type coefficients(const matrix_type& w) const { return coefficients_in<double>(w); }
  /// ω_m for any m in the cell (reality condition for m ∉ C⁺).
  template <class Y>
  complex coefficient(const Eigen::MatrixBase<Y>& y, int m1, int m2) const {
    for (int i = 0; i < mode_count; ++i) {
      if (modes_[i].m1 == m1 && modes_[i].m2 == m2) return complex(y(2 * i), y(2 * i + 1));
      if (modes_[i].m1 == -m1 && modes_[i].m2 == -m2) return complex(y(2 * i), -y(2 * i + 1));
    }
    return 0;
  }

  template <class V>
  matrix_type hat(const Eigen::MatrixBase<V>& v) const { return complex(0, 0.25) * hermitian(v); }
  template <class X>
  vector_type vee(const Eigen::MatrixBase<X>& x) const { return coefficients(complex(0, -4) * x); }

  /// bracket(u, v) = vee([hat v, hat u]) = coefficients((i/4)[W(v), W(u)]).
  template <class U, class V>
  vector_type bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v) const {
    const matrix_type a = hermitian(u), b = hermitian(v);
    return coefficients(complex(0, 0.25) * (b * a - a * b));
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& u) const { return lie_detail::ad_by_columns(*this, vector_type(u)); }
  /// ad*_σ y = coefficients((i/4)[W(σ), W(y)]).
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y) const {
    const matrix_type a = hermitian(u), w = hermitian(y);
    return coefficients(complex(0, 0.25) * (a * w - w * a));
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& u) const { return ad(u).transpose(); }
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const {
    return lie_detail::poisson_tensor_by_columns(*this, vector_type(y));
  }

  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& sigma) const {
    return matrix_type::Identity() + lie_detail::expm1(matrix_type(hat(sigma)));
  }
  template <class S>
  group_type cayley(const Eigen::MatrixBase<S>& sigma) const {
    const matrix_type s = hat(sigma) / 2.0;
    const Eigen::PartialPivLU<matrix_type> lu(matrix_type(matrix_type::Identity() - s));
    return lu.solve(matrix_type(matrix_type::Identity() + s));
  }
  /// Ad_g ξ = vee(g† hat(ξ) g).
  operator_type adjoint(const group_type& g) const {
    operator_type m(dim(), dim());
    for (int j = 0; j < dim(); ++j)
      m.col(j) = vee(matrix_type(g.adjoint() * hat(vector_type::Unit(dim(), j)) * g));
    return m;
  }
  /// Ad*_{g⁻¹} y: W ↦ g† W g.
  template <class Y>
  vector_type coadjoint(const group_type& g, const Eigen::MatrixBase<Y>& y) const {
    return coefficients(matrix_type(g.adjoint() * hermitian(y) * g));
  }
  /// coadjoint(exp(σ), y) as y + coefficients(E†W + WE + E†WE), E = e^{hat σ} − 1, in extended
  /// precision and rounded once (algebra.hpp): the state is never rebuilt from its matrix.
  template <class S, class Y>
  vector_type exp_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return act_increment(lie_detail::expm1(hat_extended(s)), y);
  }
  /// coadjoint(cayley(σ), y) with cay(S) − 1 = (1 − S/2)⁻¹ S.
  template <class S, class Y>
  vector_type cayley_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    using m = cmatrix<extended>;
    const m h = hat_extended(s);
    const Eigen::PartialPivLU<m> lu(m(m::Identity() - h / extended(2)));
    return act_increment(m(lu.solve(h)), y);
  }
  /// y ↦ coadjoint(1 + e, y) = y + coefficients(e†W + We + e†We), in extended precision.
  template <class Y>
  vector_type act_increment(const cmatrix<extended>& e, const Eigen::MatrixBase<Y>& y) const {
    const vector_of<dimension, extended> x = y.template cast<extended>();
    const cmatrix<extended> w = hermitian_in<extended>(x);
    const cmatrix<extended> ew = e.adjoint() * w;
    return (x + coefficients_in<extended>(cmatrix<extended>(ew + w * e + ew * e))).template cast<double>();
  }
  template <class S>
  cmatrix<extended> hat_extended(const Eigen::MatrixBase<S>& s) const {
    return std::complex<extended>(0, 0.25L) * hermitian_in<extended>(vector_of<dimension, extended>(s.template cast<extended>()));
  }
  /// dψ⁻¹ for ψ(σ) = [cay(hat σ)] ∈ PU(N). With Ω = −hat σ, Ξ = −hat v (the realization in
  /// which Engø–Faltinsen §4.2 is written): R = Ξ − ½[Ω, Ξ] − ¼ ΩΞΩ is the matrix dcay⁻¹ in
  /// u(N); adding i γ dcay⁻¹_Ω(i·1) = i γ (1 − Ω²/4) with the γ that makes the trace vanish gives
  /// the unique su(N) solution (tr(1 − Ω²/4) = N + ‖Ω‖²/4 > 0). Truncated after degree q.
  template <class S, class V>
  vector_type dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    if (q == 0) return v;
    const matrix_type om = -hat(sigma), xi = -hat(v);
    matrix_type r = xi - (om * xi - xi * om) / 2.0;
    if (q >= 2) {
      r -= om * xi * om / 4.0;
      const matrix_type p = matrix_type::Identity() - om * om / 4.0;
      r -= (r.trace() / p.trace()) * p;
    }
    return vee(matrix_type(-r));
  }

  /// tr(Wᵏ)/N for k = 2..N (for N = 3: (6.33) and (6.34)).
  template <class Y>
  vector<casimir_count> casimirs(const Eigen::MatrixBase<Y>& y) const {
    const matrix_type w = hermitian(y);
    matrix_type power = w;
    vector<casimir_count> c;
    for (int k = 0; k < casimir_count; ++k) {
      power = power * w;
      c(k) = power.trace().real() / N;
    }
    return c;
  }
  /// ‖W‖_F^k / N ≥ |tr(Wᵏ)|/N (Hölder): tr(Wᵏ) can be much smaller than its terms.
  template <class Y>
  vector<casimir_count> casimir_scales(const Eigen::MatrixBase<Y>& y) const {
    const double f = hermitian(y).norm();
    vector<casimir_count> c;
    for (int k = 0; k < casimir_count; ++k) c(k) = std::pow(f, k + 2) / N;
    return c;
  }

 private:
  static int wrap(int k) { return ((k % N) + N) % N; }

  /// hermitian() in precision T.
  template <class T, class X>
  cmatrix<T> hermitian_in(const Eigen::MatrixBase<X>& x) const {
    cmatrix<T> w = cmatrix<T>::Zero();
    for (int i = 0; i < mode_count; ++i) {
      const T cr = x(2 * i), ci = x(2 * i + 1);
      for (int j = 0; j < N; ++j) {
        // Real arithmetic: std::complex products call the slow NaN-checking __muldc3.
        const T pr = T(phase_[i * N + j].real()), pi = T(phase_[i * N + j].imag());
        const T tr = cr * pr - ci * pi, ti = cr * pi + ci * pr;
        const int r = row_[i * N + j];
        w(r, j) += std::complex<T>(tr, ti);
        w(j, r) += std::complex<T>(tr, -ti);
      }
    }
    return w;
  }
  /// coefficients() in precision T (takes a matrix, not an expression: entries are read twice).
  template <class T>
  vector_of<dimension, T> coefficients_in(const cmatrix<T>& w) const {
    vector_of<dimension, T> x(dim());
    for (int i = 0; i < mode_count; ++i) {
      T sr = 0, si = 0;
      for (int j = 0; j < N; ++j) {
        // conj(p) (w(r, j) + conj(w(j, r))): T_m† w and T_m† w† for the Hermitian part.
        const int r = row_[i * N + j];
        const T pr = T(phase_[i * N + j].real()), pi = -T(phase_[i * N + j].imag());
        const T ar = w(r, j).real() + w(j, r).real(), ai = w(r, j).imag() - w(j, r).imag();
        sr += pr * ar - pi * ai;
        si += pr * ai + pi * ar;
      }
      x(2 * i) = sr / (2 * N);
      x(2 * i + 1) = si / (2 * N);
    }
    return x;
  }

  std::array<mode, mode_count> modes_{};
  std::array<std::complex<extended>, mode_count * N> phase_{};
  std::array<int, mode_count * N> row_{};
};

}  // namespace geomint
