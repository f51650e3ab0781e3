// "Does this step continue my previous one?" — written once for every stepper.
//
// A stepper caches what it computed at the end point of its last step (G(q1), ∇V(q1), a
// factorization, the stages for the next guess) and reuses it when the next step starts from
// exactly that end point with the same system. The rule:
//   * the state passed in equals, bit for bit, the state the stepper wrote (the parts of it the
//     cache depends on: all of them unless a family says otherwise), and
//   * the system is the same object (address) with the same value. A system that has a member
//     `parameter_version()` (any integer that changes whenever its parameters do) is keyed on
//     that; any other system on the bytes of the object itself, as they were when the previous
//     step ended (up to 256 bytes, and a hash of the rest). A system rebuilt in place with other
//     parameters (std::optional::emplace, assignment) is therefore a fresh start. Parameters held
//     behind a pointer (a std::vector, a captured reference) are not seen: after changing those
//     call reset() on the stepper, or give the system a parameter_version(). (A system whose
//     own bytes change between steps — a mutable cache written outside the stepper's calls — only
//     costs fresh starts, never a wrong reuse.)
// Otherwise the step is a fresh start: the family checks the state (manifold, finiteness) and
// recomputes everything at the start point.
//
// A cache that holds values of a time-dependent function (a force f(t, q) folded into ∇V by
// the separable constrained path) also depends on the time: such a family asks ends_at(t)
// too, so that a value computed at the end time t1 of the last step is reused only by a step
// that starts at t1. "At t1" allows the rounding of the time arithmetic, 4ε max(|t|, |t1|):
// (t0 + (k−1)h) + h and t0 + kh (odeint's integrate_const, the C module's loop) differ by a
// few ulps, and f at two times that close differs by less than the rounding of t itself makes.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "geomint/core/step_error.hpp"
#include "geomint/core/types.hpp"

namespace geomint {

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

/// The end state of the last successful step — its parts (q and p, or y) as vectors of the
/// given types — and the system it was taken with. A step writes its result into end<i>(), then
/// commit()s it.
template <class... Parts>
class continuation {
  using tuple = std::tuple<Parts...>;
  static constexpr std::size_t count = sizeof...(Parts);

 public:
  /// Sizes of the parts, in order.
  template <class... Sizes>
  void resize(Sizes... n) {
    static_assert(sizeof...(Sizes) == count, "geomint: one size per state part");
    resize_parts(std::index_sequence_for<Parts...>{}, static_cast<Eigen::Index>(n)...);
    valid_ = false;
  }

  /// Whether a step from x... continues the last one (see the rule above), comparing the first
  /// sizeof...(X) parts. The record is invalidated either way: a step in progress is not a
  /// continuation point until it commits.
  template <class System, class... X>
  bool begin(const System& sys, const X&... x) {
    static_assert(sizeof...(X) <= count, "geomint: more state parts than recorded");
    const bool same = valid_ && system_.matches(sys) && equal_parts(std::index_sequence_for<X...>{}, x...);
    valid_ = false;
    return same;
  }

  template <std::size_t I>
  std::tuple_element_t<I, tuple>& end() { return std::get<I>(end_); }
  template <std::size_t I>
  const std::tuple_element_t<I, tuple>& end() const { return std::get<I>(end_); }

  /// The step succeeded: copies end<0..>() into x... (the caller's state), after checking that
  /// it is finite, and records it with the system. If it is not finite, throws step_error
  /// (non_finite_value) first and leaves x untouched.
  template <class System, class... X>
  void commit(const System& sys, double t, double dt, X&... x) {
    static_assert(sizeof...(X) == count, "geomint: commit every state part");
    if (!all_parts_finite(std::index_sequence_for<Parts...>{}))
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "the new state is not finite");
    copy_out(std::index_sequence_for<X...>{}, x...);
    record(sys, t + dt);
  }
  /// Records end<0..>() as the continuation point without copying it anywhere (for steppers that
  /// wrote the caller's state themselves, after their own finiteness check).
  /// t_end: the time of the end point (for ends_at; unknown by default: never matches).
  template <class System>
  void record(const System& sys, double t_end = std::numeric_limits<double>::quiet_NaN()) {
    system_.record(sys);
    end_time_ = t_end;
    valid_ = true;
  }
  void forget() { valid_ = false; }
  /// Whether t is the recorded end time, up to the rounding of the time arithmetic (see above).
  bool ends_at(double t) const {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    return std::fabs(t - end_time_) <= 4 * eps * std::fmax(std::fabs(t), std::fabs(end_time_));
  }

 private:
  template <std::size_t... I, class... N>
  void resize_parts(std::index_sequence<I...>, N... n) {
    (std::get<I>(end_).resize(n), ...);
  }
  template <std::size_t... I, class... X>
  bool equal_parts(std::index_sequence<I...>, const X&... x) const {
    return (all_equal(x, std::get<I>(end_)) && ...);
  }
  template <std::size_t... I>
  bool all_parts_finite(std::index_sequence<I...>) const {
    return (all_finite(std::get<I>(end_)) && ...);
  }
  template <std::size_t... I, class... X>
  void copy_out(std::index_sequence<I...>, X&... x) const {
    ((x = std::get<I>(end_)), ...);
  }

  tuple end_;
  system_fingerprint system_;
  double end_time_ = std::numeric_limits<double>::quiet_NaN();
  bool valid_ = false;
};

}  // namespace geomint

