// Forward-mode automatic differentiation with Eigen's AutoDiffScalar (unsupported/Eigen/AutoDiff).
//
// A model — H(q, p), L(q, q̇), V(q) or g(q) — is written once as a generic functor templated on
// its scalar type T and is called with
//   T = double                      values,
//   T = ad::first_order<K>          gradients and Jacobians (K derivatives, fixed size),
//   T = ad::second_order<K>         Hessians (first_order<K> nested in itself).
// Derivative vectors are fixed-size, so evaluations do not allocate. A Hessian costs O(K²) per
// arithmetic operation of the model, a gradient O(K); the builders (ad_system.hpp,
// ad_lagrangian_system.hpp) therefore ask for Hessian blocks only where Newton needs them.
//
// Rules for model code (see README):
//  * a scalar model returns exactly T: declare intermediates as T (never `auto`) and return a T.
//    An AutoDiffScalar expression refers to the derivative vectors of its operands, which die
//    with the function's locals; returning one would dangle. The builders reject any other return
//    type at compile time.
//  * call math functions unqualified after `using std::sin;` (etc.), so that Eigen's AutoDiff
//    overloads are found by argument-dependent lookup.
//  * comparisons (q(0) > 1.0) compare values and may be used for branches.
#pragma once

#include <Eigen/Core>
#include <type_traits>
#include <unsupported/Eigen/AutoDiff>

#include "geomint/core/types.hpp"

namespace geomint::ad {

/// Scalar carrying K first derivatives.
template <int K>
using first_order = Eigen::AutoDiffScalar<Eigen::Matrix<double, K, 1>>;

/// Scalar carrying K first and K×K second derivatives (forward over forward).
template <int K>
using second_order = Eigen::AutoDiffScalar<Eigen::Matrix<first_order<K>, K, 1>>;

/// The scalar type of an Eigen argument of a model: `using T = geomint::ad::scalar_of<decltype(q)>;`
template <class V>
using scalar_of = typename std::decay_t<V>::Scalar;

/// A vector of R model scalars T.
template <class T, int R>
using vector_of = Eigen::Matrix<T, R, 1>;

namespace detail {

template <class T, class F, class... Args>
T call_scalar(const F& f, const Args&... args) {
  using result = decltype(f(args...));
  static_assert(std::is_same_v<std::decay_t<result>, T>,
                "geomint::ad: a scalar model must return exactly its scalar type T (declare "
                "intermediates as T and `return T(...)`); returning an AutoDiffScalar expression "
                "would refer to destroyed temporaries");
  return f(args...);
}

/// x as first-order variables with derivative indices offset, offset+1, …; passive if offset < 0.
template <int K, int R, class X>
vector_of<first_order<K>, R> variables(const X& x, int offset) {
  vector_of<first_order<K>, R> a;
  for (int i = 0; i < R; ++i) {
    a(i).value() = x(i);
    a(i).derivatives().setZero();
    if (offset >= 0) a(i).derivatives()(offset + i) = 1.0;
  }
  return a;
}

/// x as second-order variables. `outer` / `inner` are the derivative indices of x(0) in the outer
/// and inner derivative vectors (negative: passive at that level). With outer = inner the result's
/// second derivatives form the Hessian; with x active only outer and y only inner, the mixed block.
template <int K, int R, class X>
vector_of<second_order<K>, R> variables2(const X& x, int outer, int inner) {
  vector_of<second_order<K>, R> a;
  for (int i = 0; i < R; ++i) {
    a(i).value().value() = x(i);
    a(i).value().derivatives().setZero();
    if (inner >= 0) a(i).value().derivatives()(inner + i) = 1.0;
    for (int k = 0; k < K; ++k) {
      a(i).derivatives()(k).value() = 0.0;
      a(i).derivatives()(k).derivatives().setZero();
    }
    if (outer >= 0) a(i).derivatives()(outer + i).value() = 1.0;
  }
  return a;
}

/// out(i, j) = ∂²f/∂x_{outer+i} ∂x_{inner+j} from a second-order result.
template <int K, class Out>
void read_second(const second_order<K>& f, int outer, int inner, Out& out) {
  for (Eigen::Index i = 0; i < out.rows(); ++i)
    for (Eigen::Index j = 0; j < out.cols(); ++j) out(i, j) = f.derivatives()(outer + i).derivatives()(inner + j);
}

}  // namespace detail

/// Value of a scalar model f(x) and its gradient (out, size N).
template <int N, class F, class X, class Out>
double gradient(const F& f, const X& x, Out& out) {
  static_assert(N != dynamic, "geomint::ad: automatic differentiation needs a fixed size");
  using T = first_order<N>;
  const vector_of<T, N> xa = detail::variables<N, N>(x, 0);
  const T r = detail::call_scalar<T>(f, xa);
  out = r.derivatives();
  return r.value();
}

/// Hessian of a scalar model f(x) (out, N × N).
template <int N, class F, class X, class Out>
void hessian(const F& f, const X& x, Out& out) {
  static_assert(N != dynamic, "geomint::ad: automatic differentiation needs a fixed size");
  using T = second_order<N>;
  const vector_of<T, N> xa = detail::variables2<N, N>(x, 0, 0);
  const T r = detail::call_scalar<T>(f, xa);
  detail::read_second<N>(r, 0, 0, out);
}

/// Jacobian (M × N) of a vector model g(x, out) with M outputs.
template <int N, int M, class G, class X, class Out>
void jacobian(const G& g, const X& x, Out& out) {
  static_assert(N != dynamic && M != dynamic, "geomint::ad: automatic differentiation needs fixed sizes");
  using T = first_order<N>;
  const vector_of<T, N> xa = detail::variables<N, N>(x, 0);
  vector_of<T, M> r;
  g(xa, r);
  for (int k = 0; k < M; ++k) out.row(k) = r(k).derivatives().transpose();
}

/// Σ_k w_k ∇²g_k(x) (N × N) of a vector model g(x, out) with M outputs.
template <int N, int M, class G, class X, class W, class Out>
void weighted_hessian(const G& g, const X& x, const W& w, Out& out) {
  static_assert(N != dynamic && M != dynamic, "geomint::ad: automatic differentiation needs fixed sizes");
  using T = second_order<N>;
  const vector_of<T, N> xa = detail::variables2<N, N>(x, 0, 0);
  vector_of<T, M> r;
  g(xa, r);
  out.setZero();
  for (int k = 0; k < M; ++k)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) out(i, j) += w(k) * r(k).derivatives()(i).derivatives()(j);
}

}  // namespace geomint::ad
