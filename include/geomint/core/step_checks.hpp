// Checks every stepper makes before any work, with messages that say what is wrong.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "geomint/core/state_view.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/core/types.hpp"

namespace geomint {

namespace detail {
/// Throws step_error(non_finite_value) saying `what`: out of line, so that the checks that call
/// it stay a compare and a branch in the step.
[[noreturn]] GEOMINT_NOINLINE inline void throw_non_finite(double t, double dt, const char* what) {
  throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, what);
}
[[noreturn]] GEOMINT_NOINLINE inline void throw_zero_step() {
  throw std::invalid_argument("geomint: the step size dt is zero");
}
}  // namespace detail

/// dt must be finite and non-zero, t finite: a non-finite one is step_error(non_finite_value),
/// dt = 0 is a usage error (std::invalid_argument).
inline void require_step_size(double t, double dt) {
  if (!std::isfinite(dt)) detail::throw_non_finite(t, dt, "the step size dt is not finite");
  if (!std::isfinite(t)) detail::throw_non_finite(t, dt, "the time t is not finite");
  if (dt == 0) detail::throw_zero_step();
}

/// A state passed in holds only finite numbers (checked on a fresh start: a step continuing
/// the stepper's previous one starts from that step's checked, finite end point).
template <class... X>
GEOMINT_ALWAYS_INLINE void require_finite_state(double t, double dt, const X&... x) {
  if (!(all_finite(x) && ...)) detail::throw_non_finite(t, dt, "the state holds a NaN or Inf");
}

/// Throws std::invalid_argument unless a state part has the expected number of entries.
template <class V>
void require_size(const V& v, int expected, const char* what) {
  if (static_cast<int>(v.size()) != expected)
    throw std::invalid_argument(std::string("geomint: ") + what + " has " + std::to_string(v.size()) +
                                " entries, the system expects " + std::to_string(expected));
}

/// Whether a compile-time size fits an expected one (either may be dynamic).
constexpr bool size_fits(int size, int expected) { return size == dynamic || expected == dynamic || size == expected; }

/// Both halves of a std::pair state have the system's n entries (checked at compile time where
/// the sizes are fixed). Returns whether the compile-time sizes fit, as a type: a stepper's
/// check_state passes it on, and stepper_base::do_step compiles the step only if they do, so that
/// a wrong fixed size gives this static_assert alone, not pages of Eigen's errors after it.
template <int SystemSize, class Q, class P>
auto require_pair_sizes(const std::pair<Q, P>& x, int n, const char* first, const char* second) {
  constexpr bool fits = size_fits(state_size<Q>::value, SystemSize) && size_fits(state_size<P>::value, SystemSize);
  static_assert(fits, "geomint: the state size does not match the system's size");
  require_size(x.first, n, first);
  require_size(x.second, n, second);
  return std::bool_constant<fits>{};
}

}  // namespace geomint
