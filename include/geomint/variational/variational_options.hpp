// Options and counters shared by the variational steppers.
#pragma once

#include "geomint/core/newton.hpp"

namespace geomint {

struct variational_options {
  newton_options newton;
  /// A step starting from a state the stepper did not produce itself checks it: scaled position
  /// residual max_k |g_k(q)| / (‖∇g_k‖ ‖q‖), and (one-step form) the momentum's component off the
  /// phase space ‖G(q)ᵀμ‖∞ / ‖p‖∞ (detail/legendre_projection.hpp); above this they are rejected.
  double consistency_tolerance = 1e-10;
};

struct variational_statistics {
  long steps = 0;
  /// shake: steps whose SHAKE iteration contracted too slowly and switched to full Newton.
  long full_newton_steps = 0;
  newton_statistics newton;
};

}  // namespace geomint
