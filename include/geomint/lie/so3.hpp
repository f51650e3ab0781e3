// so(3) ≅ (ℝ³, ×) with hat(v)w = v × w (Engø–Faltinsen (2.5)). geomint's bracket is
// bracket(u, v) = v × u (algebra.hpp: hat(bracket(u, v)) = [hat v, hat u]), so that
// J(y) = hat(y) and the free rigid body reads ẏ = y × I⁻¹y. Group: SO(3) by Rodrigues' formula.
#pragma once

#include <Eigen/Geometry>
#include <cmath>

#include "geomint/lie/algebra.hpp"

namespace geomint {

class so3 {
 public:
  static constexpr int dimension = 3;
  static constexpr bool has_cayley = true;
  static constexpr int casimir_count = 1;
  using vector_type = vector<3>;
  using operator_type = matrix<3, 3>;
  using matrix_type = matrix<3, 3>;
  using group_type = matrix<3, 3>;

  static const char* name() { return "so3"; }
  int dim() const { return 3; }

  template <class V>
  matrix_type hat(const Eigen::MatrixBase<V>& v) const {
    matrix_type m;
    m << 0, -v(2), v(1), v(2), 0, -v(0), -v(1), v(0), 0;
    return m;
  }
  /// The skew part's axial vector.
  template <class X>
  vector_type vee(const Eigen::MatrixBase<X>& x) const {
    return vector_type(x(2, 1) - x(1, 2), x(0, 2) - x(2, 0), x(1, 0) - x(0, 1)) / 2;
  }

  template <class U, class V>
  vector_type bracket(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<V>& v) const {
    return v.template head<3>().cross(u.template head<3>());
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& u) const { return -hat(u); }
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& u, const Eigen::MatrixBase<Y>& y) const {
    return u.template head<3>().cross(y.template head<3>());
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& u) const { return hat(u); }
  /// J(y) = hat(y) (Engø–Faltinsen §2).
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const { return hat(y); }

  /// Rodrigues: exp(hat σ) = I + (sin θ/θ) hat σ + ((1 − cos θ)/θ²) hat σ², θ = |σ|.
  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& sigma) const {
    double a, b;
    rodrigues_coefficients(sigma.squaredNorm(), a, b);
    const matrix_type s = hat(sigma);
    return group_type::Identity() + a * s + b * s * s;
  }
  /// cay(hat σ) = I + (4/(4 + θ²)) (hat σ + hat σ²/2).
  template <class S>
  group_type cayley(const Eigen::MatrixBase<S>& sigma) const {
    const matrix_type s = hat(sigma);
    return group_type::Identity() + (4 / (4 + sigma.squaredNorm())) * (s + s * s / 2);
  }
  /// Ad_R = Rᵀ (conjugation by R⁻¹ in hat form).
  operator_type adjoint(const group_type& g) const { return g.transpose(); }
  /// Ad*_{R⁻¹} y = Rᵀ y.
  template <class Y>
  vector_type coadjoint(const group_type& g, const Eigen::MatrixBase<Y>& y) const { return g.transpose() * y; }

  /// exp(−ad*_σ) y = exp(−hat σ) y: y rotated by −σ, as y + (−a σ × y + b σ × (σ × y)) in double,
  /// without forming the matrix. Unlike the other actions (algebra.hpp: extended) the increment
  /// is rounded in double: a and b are accurate to round-off (rodrigues_coefficients), and their
  /// rounding changes |y|² by only ~θ²ε per step against ~ε for the final rounding y + (…);
  /// the cross products' rounding is ~θε and does not repeat along a trajectory. Measured |y|
  /// drift over 1e6 RKMK steps (rigid body, h = 0.1) equals the extended-precision update's
  /// (~1e-13, the random walk ε√n), at a fraction of the x87 cost; the Casimir tests bound it.
  template <class S, class Y>
  GEOMINT_ALWAYS_INLINE vector_type exp_coadjoint(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y) const {
    return exp_coadjoint_double(sigma, y);
  }
  /// cay(hat σ)ᵀ y = cay(−hat σ) y.
  template <class S, class Y>
  vector_type cayley_coadjoint(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y) const {
    const vector_of<3, extended> x = y.template cast<extended>();
    return (x + cayley_increment(sigma, x)).template cast<double>();
  }
  /// The same two actions rounded in double throughout (exp_coadjoint is this one; for Cayley
  /// only RKMK stage points use it, which only feed ∇H).
  template <class S, class Y>
  GEOMINT_ALWAYS_INLINE vector_type exp_coadjoint_double(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y) const {
    return y + exp_increment(sigma, y);
  }
  template <class S, class Y>
  vector_type cayley_coadjoint_double(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y) const {
    return y + cayley_increment(sigma, y);
  }
  /// exp(−hat σ) x − x = −(sin θ/θ) σ × x + ((1 − cos θ)/θ²) σ × (σ × x), in x's precision.
  /// (always_inline, as dexp_inv: both are on the critical path of every RKMK stage, and in large
  /// translation units GCC's inline growth limits would otherwise leave them as calls.)
  template <class S, class X>
  GEOMINT_ALWAYS_INLINE vector_of<3, typename X::Scalar> exp_increment(const Eigen::MatrixBase<S>& sigma,
                                                                        const Eigen::MatrixBase<X>& x) const {
    using T = typename X::Scalar;
    const vector_of<3, T> s = sigma.template cast<T>();
    T a, b;
    rodrigues_coefficients(T(s.squaredNorm()), a, b);
    const vector_of<3, T> sx = s.cross(vector_of<3, T>(x));
    return -a * sx + b * s.cross(sx);
  }
  /// cay(−hat σ) x − x = (4/(4 + θ²)) (−σ × x + ½ σ × (σ × x)), in x's precision.
  template <class S, class X>
  vector_of<3, typename X::Scalar> cayley_increment(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<X>& x) const {
    using T = typename X::Scalar;
    const vector_of<3, T> s = sigma.template cast<T>();
    const vector_of<3, T> sx = s.cross(vector_of<3, T>(x));
    return (T(4) / (T(4) + s.squaredNorm())) * (-sx + s.cross(sx) / T(2));
  }
  /// dexp⁻¹_σ v = v − ½[σ, v] + (1/12)[σ, [σ, v]] − … (Engø–Faltinsen (4.19)) truncated after
  /// degree q ≤ 2, in closed form with [σ, v] = v × σ and [σ, [σ, v]] = (σ·v)σ − |σ|²v. For
  /// q = 2 as the matrix D = (1 − |σ|²/12) I + ½ hat σ + σσᵀ/12 applied to v: in an RKMK stage
  /// σ is known long before v = ∇H(y_i), so D is formed off the chain and v reaches the result
  /// through one product and two sums (the dot product σ·v and its scaling took two more
  /// dependent operations). Other q: the Bernoulli series (algebra.hpp), which this equals to
  /// round-off (tested).
  template <class S, class V>
  GEOMINT_ALWAYS_INLINE vector_type dexp_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    const vector_type s = sigma, x = v;
    if (q == 0) return x;
    const vector_type half = 0.5 * s;
    if (q == 1) return x + half.cross(x);
    if (q == 2) {  // D entry by entry, in scalars (a matrix built in place stalled its loads)
      const vector_type w = s * (1.0 / 12);
      const double c = 1 - s.dot(w);
      const double d00 = c + s(0) * w(0), d01 = s(0) * w(1) - half(2), d02 = s(0) * w(2) + half(1);
      const double d10 = s(1) * w(0) + half(2), d11 = c + s(1) * w(1), d12 = s(1) * w(2) - half(0);
      const double d20 = s(2) * w(0) - half(1), d21 = s(2) * w(1) + half(0), d22 = c + s(2) * w(2);
      return vector_type(d00 * x(0) + d01 * x(1) + d02 * x(2), d10 * x(0) + d11 * x(1) + d12 * x(2),
                         d20 * x(0) + d21 * x(1) + d22 * x(2));
    }
    return dexp_inv_series(*this, s, x, q);
  }
  /// dcay⁻¹_σ v = v − ½[σ, v] − ¼ vee(hat σ hat v hat σ) = v + ½ σ × v + ¼ (σ·v) σ, truncated
  /// after degree q in σ (Engø–Faltinsen §4.2, in geomint's sign).
  template <class S, class V>
  vector_type dcay_inv(const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<V>& v, int q) const {
    const vector_type s = sigma;
    vector_type z = v;
    if (q == 0) return z;
    z += s.cross(vector_type(v)) / 2;
    if (q == 1) return z;
    return z + s.dot(v) / 4 * s;
  }

  /// The Casimir |y| (Engø–Faltinsen §3.1).
  template <class Y>
  vector<1> casimirs(const Eigen::MatrixBase<Y>& y) const { return vector<1>(y.norm()); }
  /// The magnitude against which a Casimir's round-off is measured (algebra.hpp).
  template <class Y>
  vector<1> casimir_scales(const Eigen::MatrixBase<Y>& y) const { return vector<1>(y.norm()); }

 private:
  /// a = sin θ/θ, b = (1 − cos θ)/θ² in double, as functions of t = θ², with as many terms of
  /// their Taylor series a = Σ (−t)ᵏ/(2k+1)!, b = Σ (−t)ᵏ/(2k+2)! as t needs: through k = 5 for
  /// t ≤ 0.08, k = 7 for t ≤ 0.6 (the first omitted term, t⁶/13! resp. t⁸/17!, is below 4.8e-17,
  /// under ε/4), evaluated by Estrin's scheme (a short dependency chain: this is on the critical
  /// path of every RKMK stage); larger t as in the general case below. Always inline, the
  /// large-angle case out of line: as a call (GCC leaves one in large translation units) it puts
  /// a call and a store and load of a and b on every stage's dependency chain.
  GEOMINT_ALWAYS_INLINE static void rodrigues_coefficients(double t, double& a, double& b) {
    constexpr double ca[] = {1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800,
                             1.0 / 6227020800.0, -1.0 / 1307674368000.0};
    constexpr double cb[] = {1.0 / 2, -1.0 / 24, 1.0 / 720, -1.0 / 40320, 1.0 / 3628800, -1.0 / 479001600,
                             1.0 / 87178291200.0, -1.0 / 20922789888000.0};
    const double t2 = t * t, t4 = t2 * t2;
    if (t <= 0.08) {
      a = (ca[0] + ca[1] * t) + t2 * (ca[2] + ca[3] * t) + t4 * (ca[4] + ca[5] * t);
      b = (cb[0] + cb[1] * t) + t2 * (cb[2] + cb[3] * t) + t4 * (cb[4] + cb[5] * t);
    } else if (t <= 0.6) {
      a = ((ca[0] + ca[1] * t) + t2 * (ca[2] + ca[3] * t)) + t4 * ((ca[4] + ca[5] * t) + t2 * (ca[6] + ca[7] * t));
      b = ((cb[0] + cb[1] * t) + t2 * (cb[2] + cb[3] * t)) + t4 * ((cb[4] + cb[5] * t) + t2 * (cb[6] + cb[7] * t));
    } else {
      large_angle_rodrigues_coefficients(t, a, b);
    }
  }
  GEOMINT_NOINLINE static void large_angle_rodrigues_coefficients(double t, double& a, double& b) {
    rodrigues_coefficients<double>(t, a, b);
  }
  /// a = sin θ / θ, b = (1 − cos θ)/θ², as functions of t = θ²: for t ≤ 1 their Taylor series
  /// a = Σ (−t)ᵏ/(2k+1)!, b = Σ (−t)ᵏ/(2k+2)! through k = 10 (the first omitted terms are below
  /// 1/23! < 4e-23, under the long-double epsilon 1.1e-19): no square root, no trigonometric
  /// call, and accurate to round-off, also near θ = 0. Larger angles use sin and cos, with
  /// b = ½ (sin(θ/2)/(θ/2))² (no cancellation).
  template <class T>
  static void rodrigues_coefficients(T t, T& a, T& b) {
    if (t <= T(1)) {
      // Horner from the highest term; c[k] = 1/k!.
      constexpr long double c[] = {1.0L,
                                   1.0L,
                                   1.0L / 2,
                                   1.0L / 6,
                                   1.0L / 24,
                                   1.0L / 120,
                                   1.0L / 720,
                                   1.0L / 5040,
                                   1.0L / 40320,
                                   1.0L / 362880,
                                   1.0L / 3628800,
                                   1.0L / 39916800,
                                   1.0L / 479001600,
                                   1.0L / 6227020800,
                                   1.0L / 87178291200,
                                   1.0L / 1307674368000,
                                   1.0L / 20922789888000,
                                   1.0L / 355687428096000,
                                   1.0L / 6402373705728000,
                                   1.0L / 121645100408832000,
                                   1.0L / 2432902008176640000,
                                   1.0L / 51090942171709440000.0L,
                                   1.0L / 1124000727777607680000.0L};
      a = T(c[21]);
      b = T(c[22]);
      for (int k = 9; k >= 0; --k) {
        a = T(c[2 * k + 1]) - t * a;
        b = T(c[2 * k + 2]) - t * b;
      }
    } else {
      using std::sin;
      using std::sqrt;
      const T theta = sqrt(t);
      a = sin(theta) / theta;
      const T h = sin(theta / 2) / (theta / 2);
      b = T(0.5) * h * h;
    }
  }
};

}  // namespace geomint
