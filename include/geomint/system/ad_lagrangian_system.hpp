// Lagrangian systems from models written once (autodiff.hpp, lagrangian_system.hpp):
//
//   auto L = [](const auto& q, const auto& v) {
//     using T = geomint::ad::scalar_of<decltype(q)>;
//     return T(0.5 * v.squaredNorm() - 9.81 * q(2));
//   };
//   auto g = [](const auto& q, auto& out) { out(0) = q.squaredNorm() - 1.0; };
//   auto system = geomint::make_ad_lagrangian_system<3, 1>(L, g);
//
// ∂L/∂q and ∂L/∂q̇ come from one forward pass with 2n derivatives; each Hessian block from a
// nested pass with n derivatives (the DEL Newton matrix needs all three blocks, the Legendre
// projection only ∂²L/∂q̇²). Nested passes cost O(n²) per operation of the model.
#pragma once

#include <utility>

#include "geomint/system/ad_system.hpp"
#include "geomint/system/lagrangian_system.hpp"

namespace geomint {

template <int N, int M, class L, class G>
class ad_lagrangian_system {
  static_assert(N != dynamic && M != dynamic, "geomint: ad_lagrangian_system needs fixed sizes");
  static constexpr int K = 2 * N;  // derivatives with respect to (q, q̇)
  using first = ad::first_order<K>;
  using block_second = ad::second_order<N>;  // n derivatives: one Hessian block per pass

 public:
  static constexpr int position_size = N;
  static constexpr int constraint_size = M;

  ad_lagrangian_system(L l, G g) : l_(std::move(l)), g_(std::move(g)) {}

  int position_count() const { return N; }
  int constraint_count() const { return M; }

  template <class Q, class V>
  double lagrangian(const Q& q, const V& v) const {
    const vector<N> x = q, y = v;
    return ad::detail::call_scalar<double>(l_, x, y);
  }
  template <class Q, class V, class DQ, class DV>
  void lagrangian_gradient(const Q& q, const V& v, DQ& dq, DV& dv) const {
    const ad::vector_of<first, N> qa = ad::detail::variables<K, N>(q, 0);
    const ad::vector_of<first, N> va = ad::detail::variables<K, N>(v, N);
    const first r = ad::detail::call_scalar<first>(l_, qa, va);
    dq = r.derivatives().template head<N>();
    dv = r.derivatives().template tail<N>();
  }
  /// Three nested passes with n derivatives each (∂²/∂q², the mixed block with q active in the
  /// outer and q̇ in the inner derivatives, ∂²/∂q̇²): about half the cost of one pass with 2n.
  template <class Q, class V, class QQ, class QV, class VV>
  void lagrangian_hessian(const Q& q, const V& v, QQ& qq, QV& qv, VV& vv) const {
    using namespace ad::detail;
    read_second<N>(call_scalar<block_second>(l_, variables2<N, N>(q, 0, 0), variables2<N, N>(v, -1, -1)), 0, 0, qq);
    read_second<N>(call_scalar<block_second>(l_, variables2<N, N>(q, 0, -1), variables2<N, N>(v, -1, 0)), 0, 0, qv);
    lagrangian_velocity_hessian(q, v, vv);
  }

  template <class Q, class V, class VV>
  void lagrangian_velocity_hessian(const Q& q, const V& v, VV& vv) const {
    const ad::vector_of<block_second, N> qa = ad::detail::variables2<N, N>(q, -1, -1);
    const ad::vector_of<block_second, N> va = ad::detail::variables2<N, N>(v, 0, 0);
    ad::detail::read_second<N>(ad::detail::call_scalar<block_second>(l_, qa, va), 0, 0, vv);
  }

  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { g_.value(q, out); }
  template <class Q, class J>
  void constraint_jacobian(const Q& q, J& jac) const { g_.jacobian(q, jac); }

  const L& model() const { return l_; }

 private:
  L l_;
  ad_constraints<N, M, G> g_;
};

template <int N, int M, class L, class G>
ad_lagrangian_system<N, M, L, G> make_ad_lagrangian_system(L l, G g) {
  return ad_lagrangian_system<N, M, L, G>(std::move(l), std::move(g));
}

}  // namespace geomint
