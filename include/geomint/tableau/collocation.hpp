// Tableaux computed for any stage count in long double, then rounded to double: Lobatto IIIA,
// Lobatto IIIB, Gauss–Legendre. Nodes are Legendre roots found by Newton's method; the
// coefficients come from the simplifying assumptions C(s) and D(s) solved as Vandermonde
// systems (Hairer–Wanner II, §IV.5). Nothing is typed in.
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <stdexcept>

#include "geomint/tableau/butcher_tableau.hpp"

namespace geomint {
namespace detail {

using real_ld = long double;
using matrix_ld = Eigen::Matrix<real_ld, Eigen::Dynamic, Eigen::Dynamic>;
using vector_ld = Eigen::Matrix<real_ld, Eigen::Dynamic, 1>;

/// Legendre P_n(x) and P_n'(x) by the three-term recurrence.
inline void legendre(int n, real_ld x, real_ld& p, real_ld& dp) {
  real_ld p0 = 1, p1 = x;
  if (n == 0) { p = 1; dp = 0; return; }
  for (int k = 2; k <= n; ++k) {
    const real_ld pk = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = pk;
  }
  p = p1;
  dp = n * (x * p1 - p0) / (x * x - 1);  // valid for |x| < 1
}

/// Newton's method on f with derivative df, to full long double precision.
template <class F>
real_ld newton_root(real_ld x, F&& f_and_df) {
  for (int it = 0; it < 100; ++it) {
    real_ld f, df;
    f_and_df(x, f, df);
    const real_ld dx = f / df;
    x -= dx;
    if (std::fabs(dx) <= 4 * std::numeric_limits<real_ld>::epsilon() * std::fabs(x)) break;
  }
  return x;
}

/// Gauss–Legendre nodes on [0, 1]: roots of P_s.
inline vector_ld gauss_nodes(int s) {
  vector_ld c(s);
  const real_ld pi = 3.141592653589793238462643383279502884L;
  for (int k = 0; k < s; ++k) {
    const real_ld guess = -std::cos(pi * (k + 0.75L) / (s + 0.5L));
    const real_ld x = newton_root(guess, [s](real_ld x, real_ld& f, real_ld& df) { legendre(s, x, f, df); });
    c(k) = (1 + x) / 2;
  }
  return c;
}

/// Gauss–Lobatto nodes on [0, 1]: 0, 1 and the roots of P'_{s−1}.
inline vector_ld lobatto_nodes(int s) {
  const int n = s - 1;
  vector_ld c(s);
  c(0) = 0;
  c(s - 1) = 1;
  const real_ld pi = 3.141592653589793238462643383279502884L;
  for (int k = 1; k < n; ++k) {
    // P'_n is a multiple of the Jacobi polynomial P^{(1,1)}_{n−1}; Newton on P'_n with
    // (1−x²)P''_n = 2xP'_n − n(n+1)P_n, from Chebyshev–Lobatto guesses.
    const real_ld guess = -std::cos(pi * k / n);
    const real_ld x = newton_root(guess, [n](real_ld x, real_ld& f, real_ld& df) {
      real_ld p, dp;
      legendre(n, x, p, dp);
      f = dp;
      df = (2 * x * dp - n * (n + 1) * p) / (1 - x * x);
    });
    c(k) = (1 + x) / 2;
  }
  return c;
}

/// Quadrature weights for nodes c on [0, 1], exact for polynomials of degree < s:
/// Σ_i b_i c_i^{k−1} = 1/k, k = 1..s.
inline vector_ld quadrature_weights(const vector_ld& c) {
  const int s = static_cast<int>(c.size());
  matrix_ld v(s, s);
  vector_ld rhs(s);
  for (int k = 0; k < s; ++k) {
    for (int i = 0; i < s; ++i) v(k, i) = std::pow(c(i), k);
    rhs(k) = real_ld(1) / (k + 1);
  }
  return v.fullPivLu().solve(rhs);
}

/// Collocation coefficients, condition C(s): Σ_j a_ij c_j^{k−1} = c_i^k / k, k = 1..s.
inline matrix_ld collocation_matrix(const vector_ld& c) {
  const int s = static_cast<int>(c.size());
  matrix_ld v(s, s), r(s, s);
  for (int j = 0; j < s; ++j)
    for (int k = 0; k < s; ++k) v(j, k) = std::pow(c(j), k);
  for (int i = 0; i < s; ++i)
    for (int k = 0; k < s; ++k) r(i, k) = std::pow(c(i), k + 1) / (k + 1);
  // a V = R  ⇔  Vᵀ aᵀ = Rᵀ
  return v.transpose().fullPivLu().solve(r.transpose()).transpose();
}

/// Coefficients fixed by condition D(s): Σ_i b_i c_i^{k−1} a_ij = b_j (1 − c_j^k) / k.
inline matrix_ld d_condition_matrix(const vector_ld& c, const vector_ld& b) {
  const int s = static_cast<int>(c.size());
  matrix_ld w(s, s), t(s, s);
  for (int k = 0; k < s; ++k) {
    for (int i = 0; i < s; ++i) w(k, i) = b(i) * std::pow(c(i), k);
    for (int j = 0; j < s; ++j) t(k, j) = b(j) * (1 - std::pow(c(j), k + 1)) / (k + 1);
  }
  return w.fullPivLu().solve(t);
}

template <int S>
matrix<S, S> round(const matrix_ld& m) {
  return m.template cast<double>();
}
template <int S>
vector<S> round(const vector_ld& v) {
  return v.template cast<double>();
}

}  // namespace detail

/// Lobatto IIIA (collocation at the Lobatto nodes), order 2S − 2.
template <int S>
butcher_tableau<S> lobatto_iiia() {
  static_assert(S >= 2, "Lobatto methods need at least two stages");
  using namespace detail;
  const vector_ld c = lobatto_nodes(S);
  butcher_tableau<S> t;
  t.a = round<S>(collocation_matrix(c));
  t.b = round<S>(quadrature_weights(c));
  t.c = round<S>(c);
  t.order = 2 * S - 2;
  return t;
}

/// Lobatto IIIB (condition D(S) at the Lobatto nodes), order 2S − 2.
template <int S>
butcher_tableau<S> lobatto_iiib() {
  static_assert(S >= 2, "Lobatto methods need at least two stages");
  using namespace detail;
  const vector_ld c = lobatto_nodes(S);
  const vector_ld b = quadrature_weights(c);
  butcher_tableau<S> t;
  t.a = round<S>(d_condition_matrix(c, b));
  t.b = round<S>(b);
  t.c = round<S>(c);
  t.order = 2 * S - 2;
  return t;
}

/// Gauss–Legendre collocation, order 2S (S = 1 is the implicit midpoint rule).
template <int S>
butcher_tableau<S> gauss_legendre() {
  static_assert(S >= 1, "Gauss methods need at least one stage");
  using namespace detail;
  const vector_ld c = gauss_nodes(S);
  butcher_tableau<S> t;
  t.a = round<S>(collocation_matrix(c));
  t.b = round<S>(quadrature_weights(c));
  t.c = round<S>(c);
  t.order = 2 * S;
  return t;
}

}  // namespace geomint
