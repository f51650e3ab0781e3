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

/// What a family's cache keeps from one step for the next, and so what a continued step needs.
enum class reuse {
  nothing,            ///< nothing: every step starts afresh (no comparison, no record)
  state,              ///< values at the last end state: reused if the step starts there (the rule above)
  positions,          ///< values at the last end positions only (q of a (q, p) state): nothing kept
                      ///< depends on p, and p needs no check on a fresh start beyond finiteness
                      ///< (no hidden constraint), so only q is compared
  state_at_time,      ///< as state, for values of a time-dependent function: also the time must match
  positions_at_time,  ///< as positions, also the time
};

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

/// The end state of a step (owned by the core, written by a family's advance) and the record of
/// the last successful one: the system and time it was taken with and its step size, which decide
/// whether the next step continues it.
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

  /// Whether a step from (sys, x, t) continues the recorded one, whose end state is `end`, under
  /// `rule`.
  template <class System, class X, class End>
  bool continues(const System& sys, const X& x, double t, const End& end, reuse rule) const {
    if (!valid_ || rule == reuse::nothing) return false;
    if ((rule == reuse::state_at_time || rule == reuse::positions_at_time) && !ends_at(t)) return false;
    if (!system_.matches(sys)) return false;
    return detail::with_parts(x, [&](const auto&... in) {
      return detail::with_end_parts(end, [&](const auto&... out) {
        if (rule == reuse::positions || rule == reuse::positions_at_time) return first_equal(in..., out...);
        return (all_equal(in, out) && ...);
      });
    });
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
  static bool first_equal(const A& q, const B&, const C& q1, const D&) { return all_equal(q, q1); }
  template <class A, class C>
  static bool first_equal(const A& y, const C& y1) { return all_equal(y, y1); }
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
