// Views of the halves of a std::pair<Q, P> state as Eigen vectors, without copies. Q and P may
// be fixed-size or dynamic Eigen vectors, std::array<double, N> or std::vector<double>.
#pragma once

#include <array>
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
using state_map = Eigen::Map<vector<state_size<V>::value>>;
template <class V>
using const_state_map = Eigen::Map<const vector<state_size<V>::value>>;

template <class V>
state_map<V> view(V& v) { return state_map<V>(v.data(), static_cast<Eigen::Index>(v.size())); }
template <class V>
const_state_map<V> view(const V& v) { return const_state_map<V>(v.data(), static_cast<Eigen::Index>(v.size())); }

}  // namespace geomint
