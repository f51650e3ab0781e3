// Eigen type aliases and compile-time size arithmetic shared by every family.
#pragma once

#include <Eigen/Core>

/// Forces a function inline where the compiler supports it (GCC and Clang; MSVC's __forceinline);
/// elsewhere a hint. GEOMINT_NOINLINE keeps a rare branch out of its callers.
#if defined(__GNUC__) || defined(__clang__)
#define GEOMINT_ALWAYS_INLINE [[gnu::always_inline]] inline
#define GEOMINT_NOINLINE [[gnu::noinline]]
#elif defined(_MSC_VER)
#define GEOMINT_ALWAYS_INLINE __forceinline
#define GEOMINT_NOINLINE __declspec(noinline)
#else
#define GEOMINT_ALWAYS_INLINE inline
#define GEOMINT_NOINLINE
#endif

namespace geomint {

/// Marker for a size known only at run time (Eigen::Dynamic).
inline constexpr int dynamic = Eigen::Dynamic;

template <int N>
using vector = Eigen::Matrix<double, N, 1>;

template <int R, int C>
using matrix = Eigen::Matrix<double, R, C>;

/// Sizes above this are stored dynamically even when known at compile time:
/// large fixed-size Eigen objects cost stack and compile time without a speed gain.
inline constexpr int max_fixed_size = 32;

namespace size {

constexpr bool is_fixed(int n) { return n != dynamic; }

/// a * b for compile-time sizes; dynamic if either is dynamic.
constexpr int product(int a, int b) { return is_fixed(a) && is_fixed(b) ? a * b : dynamic; }

/// a + b for compile-time sizes; dynamic if either is dynamic.
constexpr int sum(int a, int b) { return is_fixed(a) && is_fixed(b) ? a + b : dynamic; }

/// n if it is small enough to be worth a fixed-size object, else dynamic.
constexpr int fixed_if_small(int n) { return is_fixed(n) && n <= max_fixed_size ? n : dynamic; }

}  // namespace size

// Whole-vector predicates written as vectorizable reductions (Eigen's allFinite() and all()
// are scalar loops with early exits, which dominate cheap steps of large systems).

/// Every entry of a and b is finite: x·0 is 0 for finite x and NaN otherwise (each vector times 0
/// before anything is added: a + b of two large finite entries would overflow). a and b may
/// differ in size.
template <class A, class B>
bool all_finite(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return (a * 0.0).sum() + (b * 0.0).sum() == 0.0;
}
template <class A>
bool all_finite(const Eigen::MatrixBase<A>& a) {
  return (a * 0.0).sum() == 0.0;
}
/// a and b are equal entry by entry (false if either holds a NaN).
template <class A, class B>
bool all_equal(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return (a - b).cwiseAbs().sum() == 0.0;
}
}  // namespace geomint
