// Views of the halves of a std::pair<Q, P> state as Eigen vectors, without copies. Q and P may
// be fixed-size or dynamic Eigen vectors, std::array<double, N> or std::vector<double>.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "geomint/core/types.hpp"

namespace geomint {

/// Compile-time size of a state half (dynamic when only known at run time).
template <class V>
struct state_size {
  static constexpr int value = V::RowsAtCompileTime;  // Eigen column vectors
};
template <std::size_t K>
struct state_size<std::array<double, K>> {
  static constexpr int value = static_cast<int>(K);
};
template <class A>
struct state_size<std::vector<double, A>> {
  static constexpr int value = dynamic;
};
template <class V>
struct state_size<const V> : state_size<V> {};

template <class V>
using state_map = Eigen::Map<vector<state_size<V>::value>>;
template <class V>
using const_state_map = Eigen::Map<const vector<state_size<V>::value>>;

template <class V>
state_map<V> view(V& v) { return state_map<V>(v.data(), static_cast<Eigen::Index>(v.size())); }
template <class V>
const_state_map<V> view(const V& v) { return const_state_map<V>(v.data(), static_cast<Eigen::Index>(v.size())); }

namespace detail {
/// A state as one flat vector: (q, p) of a std::pair, or the vector itself (continuous
/// extensions interpolate it so).
template <class Q, class P>
Eigen::Index flat_size(const std::pair<Q, P>& x) { return static_cast<Eigen::Index>(x.first.size() + x.second.size()); }
template <class X>
Eigen::Index flat_size(const X& x) { return static_cast<Eigen::Index>(x.size()); }
template <class Q, class P>
void flatten(const std::pair<Q, P>& x, Eigen::VectorXd& y) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.first.size());
  y.resize(flat_size(x));  // allocates only the first time
  y.head(n) = view(x.first);
  y.tail(y.size() - n) = view(x.second);
}
template <class X>
void flatten(const X& x, Eigen::VectorXd& y) { y = view(x); }
template <class Q, class P>
void unflatten(const Eigen::VectorXd& y, std::pair<Q, P>& x) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.first.size());
  view(x.first) = y.head(n);
  view(x.second) = y.tail(y.size() - n);
}
template <class X>
void unflatten(const Eigen::VectorXd& y, X& x) { view(x) = y; }
}  // namespace detail

}  // namespace geomint
