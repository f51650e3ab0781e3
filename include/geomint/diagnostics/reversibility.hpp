// Symmetry (time reversibility) of a one-step method: Φ₋ₕ ∘ Φₕ = id. The defect is the distance
// of Φ₋ₕ(Φₕ(x)) from x relative to the size of the step's change |Φₕ(x) − x|: at round-off
// (≲ 1e-12) for a symmetric method solved to round-off, O(h^{p+1}/h) = O(hᵖ) for a method of order
// p that is not symmetric.
#pragma once

#include <cmath>

#include "geomint/diagnostics/observed_order.hpp"

namespace geomint::diagnostics {

/// |Φ₋ₕ(Φₕ(x)) − x| / |Φₕ(x) − x| with one stepper (the backward step continues the forward one,
/// as a user's integration would) — every cache a stepper keeps is exercised.
template <class Stepper, class System, class State>
double reversibility_defect(Stepper stepper, const System& sys, const State& x, double t, double h) {
  State y = x;
  stepper.do_step(sys, y, t, h);
  const double moved = state_distance(y, x);
  stepper.do_step(sys, y, t + h, -h);
  return state_distance(y, x) / moved;
}

}  // namespace geomint::diagnostics
