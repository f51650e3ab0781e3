// Options of the variational steppers: the core's (the consistency check of a fresh start
// measures the scaled position residual max_k |g_k(q)| / (‖∇g_k‖ ‖q‖) and, in the one-step
// form, the momentum's component off the phase space ‖G(q)ᵀμ‖∞ / ‖p‖∞,
// detail/legendre_projection.hpp).
#pragma once

#include "geomint/core/options.hpp"
#include "geomint/core/statistics.hpp"

namespace geomint {

using variational_options = step_options;
/// The same as step_statistics (kept for code written against earlier versions).
using variational_statistics = step_statistics;

}  // namespace geomint
