// The one exception a failed step throws (DESIGN.md §5).
#pragma once

#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <string>

namespace geomint {

/// Why a step failed.
enum class failure_reason {
  newton_diverged,               ///< the stage iteration grew instead of contracting
  max_iterations,                ///< the stage iteration did not reach its tolerance in time
  singular_constraint_jacobian,  ///< G ∇²ₚH Gᵀ (Hairer 2003, (2.4)) or the stage Jacobian is singular
  non_finite_value,              ///< the model returned NaN or Inf during the step
  inconsistent_initial_state,    ///< the state passed in is off the constraint manifold
};

inline const char* to_string(failure_reason r) {
  switch (r) {
    case failure_reason::newton_diverged: return "newton_diverged";
    case failure_reason::max_iterations: return "max_iterations";
    case failure_reason::singular_constraint_jacobian: return "singular_constraint_jacobian";
    case failure_reason::non_finite_value: return "non_finite_value";
    case failure_reason::inconsistent_initial_state: return "inconsistent_initial_state";
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
  static std::string format(failure_reason reason, double t, double dt, int iterations,
                            double residual, const std::string& detail) {
    char head[256];
    std::snprintf(head, sizeof head,
                  "geomint: step failed (%s) at t = %.17g, dt = %.17g after %d iterations, "
                  "residual %.3e",
                  to_string(reason), t, dt, iterations, residual);
    return detail.empty() ? std::string(head) : std::string(head) + ": " + detail;
  }

  failure_reason reason_;
  double t_, dt_;
  int iterations_;
  double residual_;
};

}  // namespace geomint
