// Classical explicit Butcher tableaux (forward Euler, Heun, RK4) and method tags: a tag is a
// type naming a tableau, for steppers templated on their tableau (e.g. rkmk<so3, rk::rk4>).
#pragma once

#include "geomint/tableau/collocation.hpp"

namespace geomint {

/// Forward Euler, order 1.
inline butcher_tableau<1> forward_euler_tableau() {
  butcher_tableau<1> t;
  t.a << 0;
  t.b << 1;
  t.c << 0;
  t.order = 1;
  return t;
}

/// Heun's method (explicit trapezoidal rule), order 2.
inline butcher_tableau<2> heun_tableau() {
  butcher_tableau<2> t;
  t.a << 0, 0, 1, 0;
  t.b << 0.5, 0.5;
  t.c << 0, 1;
  t.order = 2;
  return t;
}

/// The classical fourth-order Runge–Kutta method.
inline butcher_tableau<4> rk4_tableau() {
  butcher_tableau<4> t;
  t.a.setZero();
  t.a(1, 0) = 0.5;
  t.a(2, 1) = 0.5;
  t.a(3, 2) = 1;
  t.b << 1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6;
  t.c << 0, 0.5, 0.5, 1;
  t.order = 4;
  return t;
}

/// Method tags: `stages`, `order`, whether the Runge–Kutta method is `symmetric`, and a static
/// `tableau()`.
namespace rk {

// The explicit tags also state their coefficients as constants, a(i, j) and b(i): steppers that
// unroll explicit stages at compile time (rkmk) then emit only the nonzero terms.
struct forward_euler {
  static constexpr int stages = 1, order = 1;
  static constexpr bool symmetric = false;
  static butcher_tableau<1> tableau() { return forward_euler_tableau(); }
  static constexpr double a(int, int) { return 0; }
  static constexpr double b(int) { return 1; }
};
struct heun {
  static constexpr int stages = 2, order = 2;
  static constexpr bool symmetric = false;
  static butcher_tableau<2> tableau() { return heun_tableau(); }
  static constexpr double a(int i, int j) { return i == 1 && j == 0 ? 1 : 0; }
  static constexpr double b(int) { return 0.5; }
};
struct rk4 {
  static constexpr int stages = 4, order = 4;
  static constexpr bool symmetric = false;
  static butcher_tableau<4> tableau() { return rk4_tableau(); }
  static constexpr double a(int i, int j) { return i == j + 1 ? (i == 3 ? 1.0 : 0.5) : 0.0; }
  static constexpr double b(int i) { return i == 0 || i == 3 ? 1.0 / 6 : 1.0 / 3; }
};
/// Gauss–Legendre collocation with S stages, order 2S.
template <int S>
struct gauss_legendre {
  static constexpr int stages = S, order = 2 * S;
  static constexpr bool symmetric = true;
  static butcher_tableau<S> tableau() { return geomint::gauss_legendre<S>(); }
};
/// Lobatto IIIA collocation with S stages, order 2S − 2.
template <int S>
struct lobatto_iiia {
  static constexpr int stages = S, order = 2 * S - 2;
  static constexpr bool symmetric = true;
  static butcher_tableau<S> tableau() { return geomint::lobatto_iiia<S>(); }
};
/// GL2 in Engø–Faltinsen's naming: the one-stage Gauss method.
using implicit_midpoint = gauss_legendre<1>;
/// The implicit trapezoidal rule: two-stage Lobatto IIIA.
using trapezoidal = lobatto_iiia<2>;

}  // namespace rk
}  // namespace geomint
