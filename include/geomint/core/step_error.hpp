// The one exception a failed step throws, and why it failed.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <stdexcept>
#include <string>

namespace geomint {

namespace detail {
/// x with the fewest significant digits that read back as x (at most 17): "0.1", not
/// "0.10000000000000001" (%.17g) or "0.100000" (std::to_string); for messages.
inline std::string decimal(double x) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  return text;
}
}  // namespace detail

/// Why a step failed.
enum class failure_reason {
  newton_diverged,               ///< the stage iteration grew instead of contracting
  max_iterations,                ///< the stage iteration did not reach its tolerance in time
  singular_constraint_jacobian,  ///< G ∇²ₚH Gᵀ (Hairer 2003, (2.4)) is singular: dependent constraints
  non_finite_value,              ///< a NaN or Inf in the state, the step size, or from the model
  inconsistent_initial_state,    ///< the state passed in is off the method's manifold
  singular_iteration_matrix,     ///< the Newton matrix of the stage equations is singular (no constraint involved)
};

inline const char* to_string(failure_reason r) {
  switch (r) {
    case failure_reason::newton_diverged: return "newton_diverged";
    case failure_reason::max_iterations: return "max_iterations";
    case failure_reason::singular_constraint_jacobian: return "singular_constraint_jacobian";
    case failure_reason::non_finite_value: return "non_finite_value";
    case failure_reason::inconsistent_initial_state: return "inconsistent_initial_state";
    case failure_reason::singular_iteration_matrix: return "singular_iteration_matrix";
  }
  return "unknown";
}

inline std::ostream& operator<<(std::ostream& os, failure_reason r) { return os << to_string(r); }

/// Thrown by every geomint stepper when a step cannot be completed. The state passed to
/// do_step is left exactly as it was.
class step_error : public std::runtime_error {
 public:
  step_error(failure_reason reason, double t, double dt, int iterations, double residual,
             const std::string& detail)
      : std::runtime_error(format(reason, t, dt, iterations, residual, detail)),
        reason_(reason), t_(t), dt_(dt), iterations_(iterations), residual_(residual) {}

  failure_reason reason() const noexcept { return reason_; }
  double time() const noexcept { return t_; }
  double step_size() const noexcept { return dt_; }
  int iterations() const noexcept { return iterations_; }
  /// Last residual (or increment) norm of the failing iteration, or the offending residual.
  double residual() const noexcept { return residual_; }

 private:
  /// "at t = …, dt = …" names the step; a time that is not finite (a projection outside any
  /// step) or dt = 0 is left out.
  static std::string format(failure_reason reason, double t, double dt, int iterations, double residual,
                            const std::string& why) {
    std::string where;  // exact: the step can be repeated from the message
    if (std::isfinite(t)) where = " at t = " + detail::decimal(t);
    if (std::isfinite(t) && dt != 0) where += ", dt = " + detail::decimal(dt);
    char tail[96];
    std::snprintf(tail, sizeof tail, " after %d iterations, residual %.3e", iterations, residual);
    const std::string head = std::string("geomint: step failed (") + to_string(reason) + ")" + where + tail;
    return why.empty() ? head : head + ": " + why;
  }

  failure_reason reason_;
  double t_, dt_;
  int iterations_;
  double residual_;
};

/// Failures worth one more attempt from a plain starting point (a fresh stepper's guess and
/// factorizations): the iteration went astray, or met a singular or non-finite matrix or model
/// value on its way, possibly led there by data kept from earlier steps. The core repeats a
/// continued step that failed so as a fresh start; a retry that fails again reports its own
/// reason. Solvers with a fallback of their own (a sparse chain's exact Newton) ask the same.
inline bool worth_a_fresh_start(const step_error& e) {
  switch (e.reason()) {
    case failure_reason::newton_diverged:
    case failure_reason::max_iterations:
    case failure_reason::singular_constraint_jacobian:
    case failure_reason::singular_iteration_matrix:
    case failure_reason::non_finite_value: return true;
    default: return false;
  }
}

}  // namespace geomint
