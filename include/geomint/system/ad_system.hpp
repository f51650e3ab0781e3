// Constrained Hamiltonian systems from models written once (autodiff.hpp): geomint derives every
// gradient, Jacobian and Hessian by forward-mode automatic differentiation.
//
//   make_ad_potential<N>(V)        V(q) → a Potential for separable_system (value, gradient, Hessian)
//   make_ad_constraints<N, M>(g)   g(q, out) → Constraints for separable_system (value, Jacobian,
//                                  Σ_k λ_k ∇²g_k)
//   make_ad_separable_system(mass, V, g)   the separable builder with both: H = ½pᵀM⁻¹p + V(q)
//                                  keeps the steppers' fast path (one m × m solve for RATTLE)
//   make_ad_system<N, M>(H, g)     general H(q, p) → a constrained system (constrained_system.hpp)
//                                  with ∂²H/∂q², ∂²H/∂q∂p, ∂²H/∂p² and Σ_k λ_k ∇²g_k, so Newton
//                                  gets exact Jacobians
//
// Models: `T V(const vector_of<T, N>& q)`, `T H(const vector_of<T, N>& q, const vector_of<T, N>& p)`
// and `void g(const vector_of<T, N>& q, vector_of<T, M>& out)`, as generic lambdas, e.g.
//
//   auto V = [](const auto& q) { using T = geomint::ad::scalar_of<decltype(q)>; return T(9.81 * q(2)); };
//   auto g = [](const auto& q, auto& out) { out(0) = q.squaredNorm() - 1.0; };
//
// Sizes N and M are compile-time constants (fixed-size derivative vectors: no allocation).
#pragma once

#include <utility>

#include "geomint/system/autodiff.hpp"
#include "geomint/system/separable_system.hpp"

namespace geomint {

/// A potential V(q) for separable_system, differentiated automatically.
template <int N, class F>
class ad_potential {
  static_assert(N != dynamic, "geomint: ad_potential needs a fixed position size");

 public:
  explicit ad_potential(F f) : f_(std::move(f)) {}

  template <class Q>
  double value(const Q& q) const {
    const vector<N> x = q;
    return ad::detail::call_scalar<double>(f_, x);
  }
  template <class Q, class Out>
  void gradient(const Q& q, Out& out) const { ad::gradient<N>(f_, q, out); }
  template <class Q, class Out>
  void hessian(const Q& q, Out& out) const { ad::hessian<N>(f_, q, out); }

  const F& model() const { return f_; }

 private:
  F f_;
};

/// Holonomic constraints g(q) = 0 (M of them) for separable_system, differentiated automatically.
template <int N, int M, class G>
class ad_constraints {
  static_assert(N != dynamic && M != dynamic, "geomint: ad_constraints needs fixed sizes");

 public:
  static constexpr int size = M;

  explicit ad_constraints(G g) : g_(std::move(g)) {}

  int count() const { return M; }
  template <class Q, class Out>
  void value(const Q& q, Out& out) const {
    const vector<N> x = q;
    vector<M> r;
    g_(x, r);
    out = r;
  }
  template <class Q, class J>
  void jacobian(const Q& q, J& jac) const { ad::jacobian<N, M>(g_, q, jac); }
  /// Σ_k λ_k ∇²g_k(q)
  template <class Q, class L, class Out>
  void hessian(const Q& q, const L& lambda, Out& out) const { ad::weighted_hessian<N, M>(g_, q, lambda, out); }

  const G& model() const { return g_; }

 private:
  G g_;
};

template <int N, class F>
ad_potential<N, F> make_ad_potential(F v) { return ad_potential<N, F>(std::move(v)); }

template <int N, int M, class G>
ad_constraints<N, M, G> make_ad_constraints(G g) { return ad_constraints<N, M, G>(std::move(g)); }

/// H = ½pᵀM⁻¹p + V(q), g(q) = 0 (M constraints) with V and g differentiated automatically and a
/// constant mass matrix: make_ad_separable_system<M>(diagonal_mass<N>(...), V, g).
template <int M, int N, class F, class G>
auto make_ad_separable_system(diagonal_mass<N> mass, F v, G g) {
  return make_separable_system(std::move(mass), make_ad_potential<N>(std::move(v)), make_ad_constraints<N, M>(std::move(g)));
}
template <int M, int N, class F, class G>
auto make_ad_separable_system(dense_mass<N> mass, F v, G g) {
  return make_separable_system(std::move(mass), make_ad_potential<N>(std::move(v)), make_ad_constraints<N, M>(std::move(g)));
}

/// A general constrained Hamiltonian system H(q, p), g(q) = 0, differentiated automatically.
template <int N, int M, class H, class G>
class ad_hamiltonian_system {
  static_assert(N != dynamic && M != dynamic, "geomint: ad_hamiltonian_system needs fixed sizes");
  template <int K>
  using first = ad::first_order<K>;
  template <int K>
  using second = ad::second_order<K>;

 public:
  static constexpr int position_size = N;
  static constexpr int constraint_size = M;

  ad_hamiltonian_system(H h, G g) : h_(std::move(h)), g_(std::move(g)) {}

  int position_count() const { return N; }
  int constraint_count() const { return M; }

  template <class Q, class P>
  double hamiltonian(const Q& q, const P& p) const {
    const vector<N> x = q, y = p;
    return ad::detail::call_scalar<double>(h_, x, y);
  }
  template <class Q, class P, class Out>
  void dh_dq(const Q& q, const P& p, Out& out) const {
    out = eval1(ad::detail::variables<N, N>(q, 0), ad::detail::variables<N, N>(p, -1)).derivatives();
  }
  template <class Q, class P, class Out>
  void dh_dp(const Q& q, const P& p, Out& out) const {
    out = eval1(ad::detail::variables<N, N>(q, -1), ad::detail::variables<N, N>(p, 0)).derivatives();
  }
  template <class Q, class P, class Out>
  void h_qq(const Q& q, const P& p, Out& out) const {
    ad::detail::read_second<N>(eval2(ad::detail::variables2<N, N>(q, 0, 0), ad::detail::variables2<N, N>(p, -1, -1)), 0, 0, out);
  }
  /// out(i, j) = ∂²H/∂q_i∂p_j: q active in the outer derivatives, p in the inner ones.
  template <class Q, class P, class Out>
  void h_qp(const Q& q, const P& p, Out& out) const {
    ad::detail::read_second<N>(eval2(ad::detail::variables2<N, N>(q, 0, -1), ad::detail::variables2<N, N>(p, -1, 0)), 0, 0, out);
  }
  template <class Q, class P, class Out>
  void h_pp(const Q& q, const P& p, Out& out) const {
    ad::detail::read_second<N>(eval2(ad::detail::variables2<N, N>(q, -1, -1), ad::detail::variables2<N, N>(p, 0, 0)), 0, 0, out);
  }

  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { g_.value(q, out); }
  template <class Q, class J>
  void constraint_jacobian(const Q& q, J& jac) const { g_.jacobian(q, jac); }
  template <class Q, class L, class Out>
  void constraint_hessian(const Q& q, const L& lambda, Out& out) const { g_.hessian(q, lambda, out); }

  const H& model() const { return h_; }
  const ad_constraints<N, M, G>& constraints() const { return g_; }

 private:
  first<N> eval1(const ad::vector_of<first<N>, N>& q, const ad::vector_of<first<N>, N>& p) const {
    return ad::detail::call_scalar<first<N>>(h_, q, p);
  }
  second<N> eval2(const ad::vector_of<second<N>, N>& q, const ad::vector_of<second<N>, N>& p) const {
    return ad::detail::call_scalar<second<N>>(h_, q, p);
  }

  H h_;
  ad_constraints<N, M, G> g_;
};

template <int N, int M, class H, class G>
ad_hamiltonian_system<N, M, H, G> make_ad_system(H h, G g) {
  return ad_hamiltonian_system<N, M, H, G>(std::move(h), std::move(g));
}

}  // namespace geomint
