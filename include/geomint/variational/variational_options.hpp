// Options and statistics of the variational steppers: the solvers' (the consistency check of a
// fresh start measures the scaled position residual max_k |g_k(q)| / (‖∇g_k‖ ‖q‖) and, in the
// one-step form, the momentum's component off the phase space ‖G(q)ᵀμ‖∞ / ‖p‖∞,
// detail/legendre_projection.hpp).
#pragma once

#include "geomint/solvers/solver_options.hpp"

namespace geomint {

using variational_options = solver_options;

struct variational_statistics : solver_statistics {
  /// SHAKE: steps whose SHAKE iteration contracted too slowly and switched to full Newton.
  long full_newton_steps = 0;
};

}  // namespace geomint
