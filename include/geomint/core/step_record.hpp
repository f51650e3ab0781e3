// "Does this step continue my previous one?" — decided once, by the core, for every stepper.
//
// A stepper's cache holds what it computed at the end point of its last step (G(q1), ∇V(q1), a
// factorization, the stages for the next guess); the core lets it reuse that when the next step
// starts from exactly that end point with the same system. The rule:
//   * the state passed in equals, bit for bit, the state the stepper wrote, and
//   * the system is the same object (address) with the same value. A system that has a member
//     `parameter_version()` (any integer that changes whenever its parameters do) is keyed on
//     that; any other system on the bytes of the object itself, as they were when the previous
//     step ended (up to 256 bytes, and a hash of the rest). A system rebuilt in place with other
//     parameters (std::optional::emplace, assignment) is therefore a fresh start. Parameters held
//     behind a pointer (a std::vector, a captured reference) are not seen: after changing those
//     call reset() on the stepper, or give the system a parameter_version(). (A system whose
//     own bytes change between steps — a mutable cache written outside the stepper's calls — only
//     costs fresh starts, never a wrong reuse.)
//   * a cache that holds values of a time-dependent function (a force f(t, q) folded into ∇V)
//     says so (reuse::state_at_time): the step must also start at the end time t1 of the last
//     one. "At t1" allows the rounding of the time arithmetic, 4ε max(|t|, |t1|):
//     (t0 + (k−1)h) + h and t0 + kh (odeint's integrate_const, the C module's loop) differ by a
//     few ulps, and f at two times that close differs by less than the rounding of t itself.
// Otherwise the step is a fresh start: the core checks that the state is finite and the family's
// start() evaluates everything at the start point and checks that it lies on the manifold.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <tuple>
#include <utility>

#include "geomint/core/state_view.hpp"
#include "geomint/core/types.hpp"

namespace geomint {

/// What a family's cache keeps from one step for the next, and so what a continued step needs
/// (flags: `reuse::positions | reuse::at_time`).
enum class reuse : unsigned {
  nothing = 0,           ///< nothing: every step starts afresh (no comparison, no record)
  state = 1u << 0,       ///< values at the last end state: reused if the step starts there (the rule above)
  positions = 1u << 1,   ///< values at the last end positions only (q of a (q, p) state): nothing kept
                         ///< depends on p, and p needs no check on a fresh start beyond finiteness
                         ///< (no hidden constraint), so only q is compared
  at_time = 1u << 2,     ///< for values of a time-dependent function: the step must also start at
                         ///< the last end time
  compared_in_advance = 1u << 3,  ///< with `positions`: advance() compares q0 with the last end
                                  ///< positions itself, in its first pass over q0 (the core passes
                                  ///< them as step_context::last_positions), and returns
                                  ///< advance_result::not_continued if they differ
  state_at_time = state | at_time,
  positions_at_time = positions | at_time,
};
constexpr reuse operator|(reuse a, reuse b) { return static_cast<reuse>(static_cast<unsigned>(a) | static_cast<unsigned>(b)); }
/// Whether `rule` has every flag of `flags`.
constexpr bool has(reuse rule, reuse flags) {
  return (static_cast<unsigned>(rule) & static_cast<unsigned>(flags)) == static_cast<unsigned>(flags);
}

namespace detail {
template <class S, class = void>
struct has_parameter_version : std::false_type {};
template <class S>
struct has_parameter_version<S, std::void_t<decltype(std::declval<const S&>().parameter_version())>>
    : std::true_type {};
}  // namespace detail

/// A system object's identity and value, as the continuation rule above compares them.
class system_fingerprint {
 public:
  template <class System>
  void record(const System& sys) {
    address_ = &sys;
    if constexpr (detail::has_parameter_version<System>::value) {
      size_ = 0;
      version_ = static_cast<long long>(sys.parameter_version());
    } else {
      size_ = sizeof(System);
      const auto* bytes = reinterpret_cast<const unsigned char*>(&sys);
      std::memcpy(bytes_.data(), bytes, inline_size());
      tail_hash_ = hash_tail(bytes);
    }
  }
  template <class System>
  bool matches(const System& sys) const {
    if (address_ != &sys) return false;
    if constexpr (detail::has_parameter_version<System>::value) {
      return version_ == static_cast<long long>(sys.parameter_version());
    } else {
      const auto* bytes = reinterpret_cast<const unsigned char*>(&sys);
      return size_ == sizeof(System) && std::memcmp(bytes_.data(), bytes, inline_size()) == 0 &&
             tail_hash_ == hash_tail(bytes);
    }
  }
  void clear() { address_ = nullptr; }

 private:
  static constexpr std::size_t inline_capacity = 256;
  std::size_t inline_size() const { return size_ < inline_capacity ? size_ : inline_capacity; }
  /// FNV-1a over the bytes beyond the inline copy (large systems only).
  std::uint64_t hash_tail(const unsigned char* bytes) const {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = inline_capacity; i < size_; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
  }
  const void* address_ = nullptr;
  std::size_t size_ = 0;
  std::array<unsigned char, inline_capacity> bytes_{};
  std::uint64_t tail_hash_ = 0;
  long long version_ = 0;
};

namespace detail {
/// Calls f with the parts of a state as read-only Eigen views (q and p of a std::pair, or the
/// vector itself).
template <class Q, class P, class F>
decltype(auto) with_parts(const std::pair<Q, P>& x, F&& f) {
  return f(view(x.first), view(x.second));
}
template <class X, class F>
decltype(auto) with_parts(const X& x, F&& f) {
  return f(view(x));
}
/// The same with writable views.
template <class Q, class P, class F>
decltype(auto) with_writable_parts(std::pair<Q, P>& x, F&& f) {
  auto q = view(x.first);
  auto p = view(x.second);
  return f(q, p);
}
template <class X, class F>
decltype(auto) with_writable_parts(X& x, F&& f) {
  auto y = view(x);
  return f(y);
}
/// The number of parts of an end state.
template <class E>
struct end_part_count : std::integral_constant<int, 1> {};
template <class Q, class P>
struct end_part_count<std::pair<Q, P>> : std::integral_constant<int, 2> {};

/// Calls f with the parts of an end state (a family's `end_state`: a std::pair of Eigen vectors
/// or one Eigen vector) themselves.
template <class Q, class P, class F>
decltype(auto) with_end_parts(std::pair<Q, P>& e, F&& f) {
  return f(e.first, e.second);
}
template <class V, class F>
decltype(auto) with_end_parts(V& e, F&& f) {
  return f(e);
}
template <class Q, class P, class F>
decltype(auto) with_end_parts(const std::pair<Q, P>& e, F&& f) {
  return f(e.first, e.second);
}
template <class V, class F>
decltype(auto) with_end_parts(const V& e, F&& f) {
  return f(e);
}
}  // namespace detail

namespace detail {
inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
/// to[0..n) = from[0..n), and whether every entry was finite (x − x is +0 for finite x, NaN
/// otherwise; four independent accumulators, so that the loop vectorizes).
inline bool copy_finite(const double* __restrict from, double* __restrict to, long n) {
  std::uint64_t bad[4] = {0, 0, 0, 0};
  long i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) {
      const double v = from[i + k];
      bad[k] |= bits_of(v - v);
      to[i + k] = v;
    }
  for (; i < n; ++i) {
    const double v = from[i];
    bad[0] |= bits_of(v - v);
    to[i] = v;
  }
  return (bad[0] | bad[1] | bad[2] | bad[3]) == 0;
}
/// to[0..n) = from[0..n), and whether every entry of `from` and of `also[0..n)` was finite: the
/// check of a second part folded into the copy of the first (one pass over both).
inline bool copy_finite_checking(const double* __restrict from, double* __restrict to,
                                 const double* __restrict also, long n) {
  std::uint64_t bad[4] = {0, 0, 0, 0};
  long i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) {
      const double v = from[i + k], w = also[i + k];
      bad[k] |= bits_of(v - v) | bits_of(w - w);
      to[i + k] = v;
    }
  for (; i < n; ++i) {
    const double v = from[i], w = also[i];
    bad[0] |= bits_of(v - v) | bits_of(w - w);
    to[i] = v;
  }
  return (bad[0] | bad[1] | bad[2] | bad[3]) == 0;
}
/// Whether two parts hold the same doubles, bit for bit.
template <class A, class B>
bool bitwise_equal(const A& a, const B& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}
}  // namespace detail

/// The record of the last successful step: the system and time it was taken with and its step
/// size, which decide whether the next step continues it; and the operations on end states (a
/// family's `end_state`, kept by the core beside the cache: two of them, the last committed one
/// and the one the step in progress writes).
class step_record {
 public:
  /// Sizes an end state like x, a state with the same parts (allocates only when a size changes).
  template <class End, class X>
  static void shape_like(End& end, const X& x) {
    detail::with_parts(x, [&](const auto&... in) {
      detail::with_end_parts(end, [&](auto&... out) { (resize_to(out, in.size()), ...); });
    });
  }
  /// Whether every entry of an end state is finite.
  template <class End>
  static bool finite(const End& end) {
    return detail::with_end_parts(end, [](const auto&... part) { return all_finite(part...); });
  }
  /// Copies an end state into x.
  template <class End, class X>
  static void copy(const End& end, X& x) {
    detail::with_writable_parts(x, [&](auto&... to) {
      detail::with_end_parts(end, [&](const auto&... from) { ((to = from), ...); });
    });
  }
  /// Copies `next` into x if every entry is finite and returns whether it was, x untouched
  /// otherwise. The first `restorable` parts of x equal `previous`'s bit for bit (the parts a
  /// continued step compared): those are copied while they are checked, in one pass, and restored
  /// from `previous` should a later entry turn out non-finite; the others are checked first (for
  /// a (q, p) state with q compared, p is checked in the same pass that copies q).
  template <class End, class X>
  static bool commit(const End& next, const End& previous, X& x, int restorable) {
    return detail::with_writable_parts(x, [&](auto&... to) {
      return detail::with_end_parts(next, [&](const auto&... from) {
        constexpr int count = sizeof...(from);
        const double* src[] = {from.data()...};
        double* dst[] = {to.data()...};
        const long size[] = {static_cast<long>(from.size())...};
        auto restore = [&](int last) {
          detail::with_end_parts(previous, [&](const auto&... old) {
            const double* back[] = {old.data()...};
            for (int j = 0; j <= last; ++j) std::memcpy(dst[j], back[j], static_cast<std::size_t>(size[j]) * sizeof(double));
          });
        };
        if (count == 2 && restorable == 1 && size[0] == size[1]) {  // (q, p) with q compared: one pass checks both
          if (!detail::copy_finite_checking(src[0], dst[0], src[1], size[0])) {
            restore(0);
            return false;
          }
          std::memcpy(dst[1], src[1], static_cast<std::size_t>(size[1]) * sizeof(double));
          return true;
        }
        for (int k = restorable; k < count; ++k)
          if (!all_finite(Eigen::Map<const Eigen::VectorXd>(src[k], size[k]))) return false;
        for (int k = 0; k < restorable; ++k)
          if (!detail::copy_finite(src[k], dst[k], size[k])) {
            restore(k);
            return false;
          }
        for (int k = restorable; k < count; ++k)
          std::memcpy(dst[k], src[k], static_cast<std::size_t>(size[k]) * sizeof(double));
        return true;
      });
    });
  }

  /// Whether a step from (sys, x, t) continues the recorded one, whose end state is `end`, under
  /// `rule` (the state compared bit for bit).
  template <class System, class X, class End>
  bool continues(const System& sys, const X& x, double t, const End& end, reuse rule) const {
    if (!valid_ || rule == reuse::nothing) return false;
    if (has(rule, reuse::at_time) && !ends_at(t)) return false;
    if (!system_.matches(sys)) return false;
    if (has(rule, reuse::compared_in_advance)) return true;  // advance() compares
    return detail::with_parts(x, [&](const auto&... in) {
      return detail::with_end_parts(end, [&](const auto&... out) {
        if (has(rule, reuse::positions)) return first_same(in..., out...);
        return (detail::bitwise_equal(in, out) && ...);
      });
    });
  }
  /// How many leading parts a continued step under `rule` compared (all, or the positions).
  template <class End>
  static constexpr int compared_parts(reuse rule) {
    if (rule == reuse::nothing) return 0;
    if (has(rule, reuse::positions)) return 1;
    return detail::end_part_count<End>::value;
  }

  /// The end state is that of a step from t of size h with sys, which continued the previous one
  /// or started afresh.
  template <class System>
  void record(const System& sys, double t, double h, bool continued) {
    system_.record(sys);
    t_end_ = t + h;
    h_ = h;
    continued_ = continued;
    valid_ = true;
  }
  /// No step to continue (a failed step, a copy, reset()).
  void invalidate() {
    valid_ = false;
    continued_ = false;
  }

  /// The size of the last step (0 if none is recorded).
  double step_size() const { return valid_ ? h_ : 0.0; }
  /// Whether the last step continued the one before it (the same system, state and value).
  bool continued() const { return valid_ && continued_; }

 private:
  template <class V>
  static void resize_to(V& v, Eigen::Index n) {
    if (v.size() != n) v.resize(n);
  }
  /// For a two-part state (q, p) and its end (q1, p1): q == q1 (a one-part state: all of it).
  template <class A, class B, class C, class D>
  static bool first_same(const A& q, const B&, const C& q1, const D&) { return detail::bitwise_equal(q, q1); }
  template <class A, class C>
  static bool first_same(const A& y, const C& y1) { return detail::bitwise_equal(y, y1); }
  bool ends_at(double t) const {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    return std::fabs(t - t_end_) <= 4 * eps * std::fmax(std::fabs(t), std::fabs(t_end_));
  }

  system_fingerprint system_;
  double t_end_ = std::numeric_limits<double>::quiet_NaN();
  double h_ = 0;
  bool valid_ = false, continued_ = false;
};

}  // namespace geomint
