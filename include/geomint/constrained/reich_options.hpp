// Options of the Reich / McLachlan–Scovel constraint algorithm (reich_constrained.hpp).
#pragma once

#include "geomint/constrained/constrained_options.hpp"

namespace geomint {

/// How the implicit equations of the constraint algorithm are posed.
enum class reich_formulation {
  multipliers,  ///< eqs. (9)/(10): the multiplier is the unknown (m unknowns for separable H)
  positions,    ///< eq. (12): μ eliminated by ψ, Q is the unknown (separable H, constant mass)
};

/// consistency_tolerance applies to g(q) and to the momentum condition of the representation
/// (momentum_representation.hpp).
struct reich_options : solver_options {
  reich_formulation formulation = reich_formulation::multipliers;
};

}  // namespace geomint
