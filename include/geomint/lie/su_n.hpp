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
// Storage and cost: the matrices are fixed-size up to N = 15 and dynamic above. Along each
// wrapped diagonal r − j ≡ m₂ the entries of W are a discrete Fourier transform over m₁:
// D = F A with F_{j,a} = ε^{2aj} and A_{m₁,m₂} = ω_m ε^{m₁m₂} (indices mod N), then
// W_{(j+m₂) mod N, j} = D_{j,m₂}; the way back multiplies by F†. Since N is odd, a ↦ 2a mod N
// permutes the rows, and F A is N inverse DFTs of length N of the permuted A: for dynamic sizes
// in translation units that link geomint::fftw (GEOMINT_USE_FFTW) the change of basis costs
// O(N² log N) instead of one N × N product; otherwise (and in extended precision) it is that
// product. Tables are O(N²).
//
// Group: the coadjoint action is W ↦ g† W g for unitary g, applied in increment form; exp by
// scaling and squaring of a Taylor series for e^S − 1 (detail::expm1);
// Cayley maps into U(N) rather than SU(N), which acts on su(N)* through its image in
// PU(N) = U(N)/U(1): dcay⁻¹ gets a multiple of (1 − Ω²/4) that keeps it traceless (see dcay_inv).
// The increment is formed in extended precision for N ≤ extended_limit (algebra.hpp: no Casimir
// drift from repeated rounding over 1e5 steps); above, in double — extended-precision products
// are not vectorized and would cost ~20× a double one — so Casimirs keep to round-off per step
// (a random walk over long runs). Stage points always use double (exp_coadjoint_double).
// Casimirs: tr(Wᵏ)/N, k = 2..N; for N = 3 these are (6.33) and (6.34).
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <memory>
#include <type_traits>
#include <vector>

#include "geomint/lie/algebra.hpp"
#include "geomint/lie/detail/cayley_congruence.hpp"
#include "geomint/lie/detail/diagonal_fft.hpp"

namespace geomint {
inline namespace GEOMINT_SU_N_BASIS {  // FFTs or a Fourier-matrix product: see diagonal_fft.hpp

template <int N>
class su_n {
  static_assert(N >= 3 && N % 2 == 1, "the sine-bracket truncation needs an odd N >= 3");

 public:
  static constexpr int n = N;
  static constexpr int mode_count = (N * N - 1) / 2;  ///< modes in the half cell C⁺
  static constexpr int dimension = size::fixed_element_size(N * N - 1);
  static constexpr bool has_cayley = true;
  static constexpr int casimir_count = N - 1;
  /// The largest N whose coadjoint action forms its increment in extended precision.
  static constexpr int extended_limit = 11;
  static constexpr int matrix_size = N <= 15 ? N : dynamic;
  using complex = std::complex<double>;
  /// Whether state ↔ matrix go through FFTs (dynamic sizes, with FFTW) rather than a product.
  static constexpr bool uses_fft = matrix_size == dynamic && detail::diagonal_fft::available;
  using vector_type = vector<dimension>;
  using operator_type = matrix<size::fixed_if_small(dimension), size::fixed_if_small(dimension)>;
  using matrix_type = Eigen::Matrix<complex, matrix_size, matrix_size>;
  using group_type = matrix_type;
  template <class T>
  using cmatrix = Eigen::Matrix<std::complex<T>, matrix_size, matrix_size>;

  struct mode {
    int m1, m2;
    int squared_norm() const { return m1 * m1 + m2 * m2; }
  };

  su_n() : modes_(mode_count) {
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
    roots_.resize(N);
    for (int e = 0; e < N; ++e) roots_[e] = std::polar(extended(1), two_pi * e / N);
    fourier_extended_.resize(N, N);
    for (int j = 0; j < N; ++j)
      for (int a = 0; a < N; ++a) fourier_extended_(j, a) = roots_[wrap(2 * a * j)];
    fourier_ = fourier_extended_.template cast<complex>();
    if constexpr (uses_fft) fft_ = make_fft();
  }

  static const char* name() { return "su_n"; }
  static constexpr int dim() { return N * N - 1; }
  const std::vector<mode>& modes() const { return modes_; }

  /// The Hermitian matrix Σ_{m∈C} x_m T_m with x_m = x_{2i} + i x_{2i+1} for m = modes()[i]
  /// and x_{−m} = x_m* (the vorticity matrix W of a state).
  template <class X>
  matrix_type hermitian(const Eigen::MatrixBase<X>& x) const { return hermitian_in<double>(x); }
  /// Coefficients of the Hermitian part of w: x_m = tr(T_m† w)/N.
  vector_type coefficients(const matrix_type& w) const { return coefficients_in<double>(w); }

  /// The N × N work matrices of the change of basis state ↔ matrix, for the forms below that
  /// write into the caller's objects: once sized (by the first call), nothing is allocated.
  struct basis_buffers {
    matrix_type a, d;
  };
  /// hermitian(x) into w.
  template <class X>
  void hermitian(const Eigen::MatrixBase<X>& x, matrix_type& w, basis_buffers& b) const {
    hermitian_into<double>(x, w, b.a, b.d);
  }
  /// hat(v) = (i/4) W(v) into s.
  template <class V>
  void hat(const Eigen::MatrixBase<V>& v, matrix_type& s, basis_buffers& b) const {
    hermitian(v, s, b);
    s *= complex(0, 0.25);
  }
  /// coefficients_of_lower(w) into x (a vector or a segment of one, of size dim()).
  template <class X>
  void coefficients_of_lower(const matrix_type& w, X&& x, basis_buffers& b) const {
    coefficients_into<double, true>(w, x, b.a, b.d);
  }
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
    return through_scratch([&](vector_type& out, scratch& s) { bracket(u, v, out, s); });
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& u) const { return detail::ad_by_columns(*this, vector_type(u)); }
  /// ad*_σ y = coefficients((i/4)[W(σ), W(y)]).
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y) const {
    return through_scratch([&](vector_type& out, scratch& s) { ad_star(u, y, out, s); });
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& u) const { return ad(u).transpose(); }
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const {
    return detail::poisson_tensor_by_columns(*this, vector_type(y));
  }

  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& sigma) const {
    return matrix_type::Identity(N, N) + detail::expm1(matrix_type(hat(sigma)));
  }
  template <class S>
  group_type cayley(const Eigen::MatrixBase<S>& sigma) const {
    const matrix_type s = hat(sigma) / 2.0;
    const Eigen::PartialPivLU<matrix_type> lu(matrix_type(matrix_type::Identity(N, N) - s));
    return lu.solve(matrix_type(matrix_type::Identity(N, N) + s));
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
  /// coadjoint(exp(σ), y) as y + coefficients(E†W + WE + E†WE), E = e^{hat σ} − 1, rounded once
  /// (in extended precision for N ≤ extended_limit, see above): the state is never rebuilt from
  /// its matrix.
  template <class S, class Y>
  vector_type exp_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    if constexpr (N <= extended_limit)
      return act_increment(detail::expm1(hat_in<extended>(s)), y);
    else
      return exp_coadjoint_double(s, y);
  }
  /// coadjoint(cayley(σ), y) with cay(S) − 1 = (1 − S/2)⁻¹ S.
  template <class S, class Y>
  vector_type cayley_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    if constexpr (N <= extended_limit)
      return act_increment(cayley_minus_one<extended>(s), y);
    else
      return cayley_coadjoint_double(s, y);
  }
  /// The same actions in double throughout (RKMK stage points; every action for N > extended_limit).
  template <class S, class Y>
  vector_type exp_coadjoint_double(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return through_scratch([&](vector_type& out, scratch& w) { exp_coadjoint_double(s, y, out, w); });
  }
  template <class S, class Y>
  vector_type cayley_coadjoint_double(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return through_scratch([&](vector_type& out, scratch& w) { cayley_coadjoint_double(s, y, out, w); });
  }
  /// y ↦ coadjoint(1 + e, y) = y + coefficients(e†W + We + e†We) in e's precision; W Hermitian,
  /// so e†W = (We)†: two products.
  template <class T, class Y>
  vector_type act_increment(const cmatrix<T>& e, const Eigen::MatrixBase<Y>& y) const {
    const vector_of<dimension, T> x = y.template cast<T>();
    const cmatrix<T> we = hermitian_in<T>(x) * e;
    cmatrix<T> increment = we.adjoint() * e;
    increment += we;
    increment += we.adjoint();
    return (x + coefficients_in<T>(increment)).template cast<double>();
  }
  /// hat(σ) = (i/4) W(σ) in precision T.
  template <class T, class S>
  cmatrix<T> hat_in(const Eigen::MatrixBase<S>& s) const {
    return std::complex<T>(0, T(0.25)) * hermitian_in<T>(vector_of<dimension, T>(s.template cast<T>()));
  }
  /// cay(hat σ) − 1 = (1 − hat σ/2)⁻¹ hat σ in precision T.
  template <class T, class S>
  cmatrix<T> cayley_minus_one(const Eigen::MatrixBase<S>& s) const {
    const cmatrix<T> h = hat_in<T>(s);
    const Eigen::PartialPivLU<cmatrix<T>> lu(cmatrix<T>(cmatrix<T>::Identity(N, N) - h / T(2)));
    return lu.solve(h);
  }
  /// dψ⁻¹ for ψ(σ) = [cay(hat σ)] ∈ PU(N). With Ω = −hat σ, Ξ = −hat v (the realization in
  /// which Engø–Faltinsen §4.2 is written): R = Ξ − ½[Ω, Ξ] − ¼ ΩΞΩ is the matrix dcay⁻¹ in
  /// u(N); adding i γ dcay⁻¹_Ω(i·1) = i γ (1 − Ω²/4) with the γ that makes the trace vanish gives
  /// the unique su(N) solution (tr(1 − Ω²/4) = N + ‖Ω‖²/4 > 0). Truncated after degree q.
  template <class S, class V>
  vector_type dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    return through_scratch([&](vector_type& out, scratch& s) { dcay_inv(sigma, v, q, out, s); });
  }

  /// Coefficients of a Hermitian matrix given by its lower triangle (the upper one is not read).
  vector_type coefficients_of_lower(const matrix_type& w) const { return coefficients_in<double, true>(w); }

  /// The work matrices of the forms below, which write into the caller's out (a vector or a
  /// block of one) instead of returning a vector: the algebra concept's optional part
  /// (algebra.hpp), which steppers use for N ≥ 17, where the elements are dynamic-size vectors.
  /// The value forms (double precision) call them with a scratch of their own; once the buffers
  /// have their size, nothing is allocated.
  struct scratch {
    basis_buffers basis;
    matrix_type a, b, c, e, t;
    Eigen::PartialPivLU<matrix_type> lu;
    vector_type x;
  };
  template <class U, class V, class Out>
  void bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v, Out&& out, scratch& s) const {
    hermitian(u, s.a, s.basis);
    hermitian(v, s.b, s.basis);
    commutator_coefficients(s.b, s.a, out, s);
  }
  template <class U, class Y, class Out>
  void ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y, Out&& out, scratch& s) const {
    hermitian(u, s.a, s.basis);
    hermitian(y, s.b, s.basis);
    commutator_coefficients(s.a, s.b, out, s);
  }
  template <class S, class Y, class Out>
  void exp_coadjoint_double(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y, Out&& out, scratch& s) const {
    hat(sigma, s.t, s.basis);
    detail::expm1_into(s.t, s.e, s.a, s.b, s.c);
    act_increment(y, out, s);
  }
  template <class S, class Y, class Out>
  void cayley_coadjoint_double(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y, Out&& out,
                               scratch& s) const {
    hat(sigma, s.t, s.basis);  // cay(S) − 1 = (1 − S/2)⁻¹ S
    s.a = matrix_type::Identity(N, N) - s.t / 2.0;
    s.lu.compute(s.a);
    s.e = s.lu.solve(s.t);
    act_increment(y, out, s);
  }
  template <class S, class Y, class Out>
  void exp_coadjoint(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y, Out&& out, scratch& s) const {
    static_assert(N > extended_limit, "the forms into the caller's vectors are in double");
    exp_coadjoint_double(sigma, y, out, s);
  }
  template <class S, class Y, class Out>
  void cayley_coadjoint(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y, Out&& out, scratch& s) const {
    static_assert(N > extended_limit, "the forms into the caller's vectors are in double");
    cayley_coadjoint_double(sigma, y, out, s);
  }
  /// dcay_inv(σ, v, q) into out (Ω = s.a, Ξ = s.b, R = s.c).
  template <class S, class V, class Out>
  void dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q, Out&& out, scratch& s) const {
    if (q == 0) {
      out = v;
      return;
    }
    hermitian(sigma, s.a, s.basis);
    s.a *= complex(0, -0.25);  // Ω = −hat σ
    hermitian(v, s.b, s.basis);
    s.b *= complex(0, -0.25);  // Ξ = −hat v
    s.e.noalias() = s.a * s.b;
    s.t.noalias() = s.b * s.a;
    s.c = s.b - (s.e - s.t) / 2.0;
    if (q >= 2) {
      s.t.noalias() = s.e * s.a;
      s.c -= s.t / 4.0;
      s.e.noalias() = s.a * s.a;
      s.e = matrix_type::Identity(N, N) - s.e / 4.0;
      s.c -= (s.c.trace() / s.e.trace()) * s.e;
    }
    s.c = complex(0, -4) * (-s.c);  // vee(−R)
    out.resize(dim());
    coefficients_into<double>(s.c, out, s.basis.a, s.basis.d);
  }

  class cayley_action;

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
  /// A template, so that it is only instantiated where FFTW is available (uses_fft).
  template <class F = detail::diagonal_fft>
  static std::shared_ptr<const F> make_fft() { return std::make_shared<const F>(N); }
  /// A value form through its into-form f(out, scratch).
  template <class F>
  vector_type through_scratch(F&& f) const {
    vector_type out(dim());
    scratch s;
    f(out, s);
    return out;
  }
  /// coefficients((i/4)(p q − q p)) into out (s.c, s.t: work).
  template <class Out>
  void commutator_coefficients(const matrix_type& p, const matrix_type& q, Out& out, scratch& s) const {
    s.c.noalias() = p * q;
    s.t.noalias() = q * p;
    s.c = complex(0, 0.25) * (s.c - s.t);
    out.resize(dim());  // sizes a vector on first use; a block must have the size
    coefficients_into<double>(s.c, out, s.basis.a, s.basis.d);
  }
  /// act_increment(s.e, y) into out (W = s.a, We = s.b, the increment s.c).
  template <class Y, class Out>
  void act_increment(const Eigen::MatrixBase<Y>& y, Out& out, scratch& s) const {
    hermitian(y, s.a, s.basis);
    s.b.noalias() = s.a * s.e;
    s.c.noalias() = s.b.adjoint() * s.e;
    s.c += s.b;
    s.c += s.b.adjoint();
    s.x.resize(dim());
    coefficients_into<double>(s.c, s.x, s.basis.a, s.basis.d);
    out = y + s.x;  // y may be out
  }
  /// The FFT plans through a type that depends on T, so that the calls on them are compiled only
  /// where FFTW is available (without it, diagonal_fft has neither forward nor inverse).
  template <class T, class F = detail::diagonal_fft>
  const F& fft_plans() const { return *fft_; }

  /// The Fourier matrix F in precision T.
  template <class T>
  const cmatrix<T>& fourier() const {
    if constexpr (std::is_same<T, extended>::value)
      return fourier_extended_;
    else
      return fourier_;
  }
  /// ε^e in precision T.
  template <class T>
  std::complex<T> root(int e) const {
    const std::complex<extended> r = roots_[wrap(e)];
    return std::complex<T>(T(r.real()), T(r.imag()));
  }

  /// hermitian() in precision T: A_{m₁,m₂} = ω_m ε^{m₁m₂} over the whole cell (ω_{−m} = ω_m*),
  /// D = F A, W_{(j+m₂) mod N, j} = D_{j,m₂}.
  /// With FFTs (uses_fft, double): A is stored with its rows permuted, Ã_{2m₁ mod N, m₂} = A_{m₁,m₂},
  /// so that D's column m₂ is the inverse DFT of Ã's (F_{j,a} = ε^{2aj} = ε^{(2a mod N) j}).
  template <class T, class X>
  cmatrix<T> hermitian_in(const Eigen::MatrixBase<X>& x) const {
    cmatrix<T> w, a, d;
    hermitian_into<T>(x, w, a, d);
    return w;
  }
  /// hermitian_in into w, with a and d as work matrices.
  template <class T, class X>
  void hermitian_into(const Eigen::MatrixBase<X>& x, cmatrix<T>& w, cmatrix<T>& a, cmatrix<T>& d) const {
    constexpr bool fft = uses_fft && std::is_same<T, double>::value;
    const int row_factor = fft ? 2 : 1;
    a.setZero(N, N);
    for (int i = 0; i < mode_count; ++i) {
      const mode m = modes_[i];
      // Real arithmetic: std::complex products call the slow NaN-checking __muldc3.
      const T cr = T(x(2 * i)), ci = T(x(2 * i + 1));
      const std::complex<T> p = root<T>(m.m1 * m.m2);
      a(wrap(row_factor * m.m1), wrap(m.m2)) = std::complex<T>(cr * p.real() - ci * p.imag(), cr * p.imag() + ci * p.real());
      a(wrap(-row_factor * m.m1), wrap(-m.m2)) = std::complex<T>(cr * p.real() + ci * p.imag(), cr * p.imag() - ci * p.real());
    }
    const cmatrix<T>* diagonals = &a;  // D
    if constexpr (fft) {
      fft_plans<T>().inverse(a.data());
    } else {
      d.resize(N, N);
      d.noalias() = fourier<T>() * a;
      diagonals = &d;
    }
    w.resize(N, N);
    for (int b = 0; b < N; ++b)
      for (int j = 0; j < N; ++j) w(wrap(j + b), j) = (*diagonals)(j, b);
  }
  /// coefficients() in precision T: x_m = tr(T_m† w_H)/N for the Hermitian part w_H of w,
  /// = ε^{−m₁m₂} (F† D)_{m₁,m₂}/N with D_{j,m₂} = (w_H)_{(j+m₂) mod N, j}. Lower: w is Hermitian
  /// and only its lower triangle is read. With FFTs, (F† D)_{a,·} is row 2a mod N of D's DFT.
  template <class T, bool Lower = false>
  vector_of<dimension, T> coefficients_in(const cmatrix<T>& w) const {
    vector_of<dimension, T> x(dim());
    cmatrix<T> d, g;
    coefficients_into<T, Lower>(w, x, d, g);
    return x;
  }
  /// coefficients_in into x (size dim()), with d and g as work matrices.
  template <class T, bool Lower = false, class X>
  void coefficients_into(const cmatrix<T>& w, X&& x, cmatrix<T>& d, cmatrix<T>& g) const {
    constexpr bool fft = uses_fft && std::is_same<T, double>::value;
    const int row_factor = fft ? 2 : 1;
    d.resize(N, N);
    for (int b = 0; b < N; ++b)
      for (int j = 0; j < N; ++j) {
        const int r = wrap(j + b);
        if constexpr (Lower)
          d(j, b) = r >= j ? w(r, j) : std::conj(w(j, r));
        else
          d(j, b) = (w(r, j) + std::conj(w(j, r))) / T(2);
      }
    const cmatrix<T>* transformed = &d;  // F† D
    if constexpr (fft) {
      fft_plans<T>().forward(d.data());
    } else {
      g.resize(N, N);
      g.noalias() = fourier<T>().adjoint() * d;
      transformed = &g;
    }
    for (int i = 0; i < mode_count; ++i) {
      const mode m = modes_[i];
      const std::complex<T> p = root<T>(m.m1 * m.m2), v = (*transformed)(wrap(row_factor * m.m1), wrap(m.m2));
      x(2 * i) = (p.real() * v.real() + p.imag() * v.imag()) / T(N);  // conj(p) v / N
      x(2 * i + 1) = (p.real() * v.imag() - p.imag() * v.real()) / T(N);
    }
  }

  std::vector<mode> modes_;
  std::vector<std::complex<extended>> roots_;  ///< ε^e, e = 0..N−1
  cmatrix<extended> fourier_extended_;         ///< F_{j,a} = ε^{2aj}
  matrix_type fourier_;
  std::shared_ptr<const detail::diagonal_fft> fft_;  ///< the FFT plans (uses_fft), shared by copies
};

/// Ad*_{cay(−σ)} y₀ = coadjoint(cay(σ), y₀) for one y₀ and many σ: the stage points of an
/// implicit RKMK step in Cayley coordinates (cayley_coordinates::prepared_action). W₀ = W(y₀) is
/// formed once per step; with S = hat σ, cay(S)†W₀cay(S) − W₀ = Δ₂(−S/2) of
/// detail::cayley_congruence (cay(S)† = (1 + S/2)⁻¹(1 − S/2) = 1 + 2e for B = −S/2): an LU
/// factorization and a solve, X = eW₀ and half a product (~3.6 products at N = 255), or, for the
/// sweeps of a fixed-point iteration after the first, a first-order correction of the previous
/// one (two products, in single precision where that suffices); the state ↔ matrix changes of basis are FFTs
/// (uses_fft). Rounded in double (for N ≤ extended_limit act() rounds the step's update in
/// extended precision, as cayley_coadjoint).
template <int N>
class su_n<N>::cayley_action {
 public:
  void prepare(const su_n& a, const vector_type& y0) {
    y0_ = y0;
    a.hermitian(y0, w0_, buffers_);
    congruence_.prepare(w0_);
  }
  /// coadjoint(cay(σ), y₀) in double (a stage point), into y.
  template <class S, class Y>
  void stage(const su_n& a, const Eigen::MatrixBase<S>& sigma, Y& y) {
    a.hermitian(sigma, b_, buffers_);
    b_ *= complex(0, -0.125);  // −hat(σ)/2
    a.coefficients_of_lower(congruence_.increment(b_, 2), y, buffers_);
    y += y0_;
  }
  /// The step's update coadjoint(cay(σ), y₀), into y: as cayley_coadjoint.
  template <class S, class Y>
  void act(const su_n& a, const Eigen::MatrixBase<S>& sigma, Y& y) {
    if constexpr (N <= extended_limit)
      y = a.cayley_coadjoint(sigma, y0_);
    else
      stage(a, sigma, y);
  }
  /// Stage points answered by a correction, in double / single precision (see cayley_congruence).
  long double_corrections() const { return congruence_.double_corrections(); }
  long single_corrections() const { return congruence_.single_corrections(); }

 private:
  vector_type y0_;
  matrix_type w0_, b_;
  basis_buffers buffers_;
  detail::cayley_congruence<matrix_type> congruence_;
};

}  // namespace GEOMINT_SU_N_BASIS
}  // namespace geomint
