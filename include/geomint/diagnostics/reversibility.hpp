// Symmetry (time reversibility) of a one-step method: Φ₋ₕ ∘ Φₕ = id. The defect is the distance
// of Φ₋ₕ(Φₕ(x)) from x relative to the size of the step's change |Φₕ(x) − x| = O(h): at
// round-off (≲ 1e-12) for a symmetric method solved to round-off. For a method of order p that
// is not symmetric, Φₕ = φₕ + C hᵖ⁺¹ + O(hᵖ⁺²) and Φ₋ₕ = φ₋ₕ + (−1)ᵖ⁺¹C hᵖ⁺¹ + …, so
// Φ₋ₕ(Φₕ(x)) − x = (1 + (−1)ᵖ⁺¹) C hᵖ⁺¹ + O(hᵖ⁺²): 2C hᵖ⁺¹ for odd p, O(hᵖ⁺²) for even p (the
// leading error terms of the method and of its adjoint coincide). The relative defect is
// therefore O(hᵖ) for odd p and O(hᵖ⁺¹) for even p — small at moderate h (RKMK-RK4: h⁵), so
// judge by the trend: reversibility_trend measures it at several h and judges its slope.
#pragma once

#include <cmath>

#include "geomint/diagnostics/defect_trend.hpp"
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

/// The slope of the relative reversibility defect of a method of order p that is not symmetric:
/// p for odd p, p + 1 for even p (see above).
inline double reversibility_violation_slope(int order) { return order % 2 ? order : order + 1.0; }

/// The noise floor of reversibility_defect at unit scale: solves stopped at a few ulps leave
/// ~1e-15 in Φ₋ₕ(Φₕ(x)), divided by |Φₕ(x) − x| ≈ h (≥ 0.01 in practice): ~1e-13; 1e-11 leaves a
/// factor of a hundred.
inline constexpr double reversibility_noise_floor = 1e-11;

/// reversibility_defect at each of `steps` (from time t), judged by its slope against h: a
/// symmetric method stays at round-off, one of order p = stepper.order() that is not shows
/// reversibility_violation_slope(p).
template <class Stepper, class System, class State>
property_judgement reversibility_trend(const Stepper& stepper, const System& sys, const State& x, double t,
                                       const std::vector<double>& steps,
                                       double noise_floor = reversibility_noise_floor) {
  std::vector<double> defects;
  for (double h : steps) defects.push_back(reversibility_defect(stepper, sys, x, t, h));
  return judge_by_slope(steps, defects, reversibility_violation_slope(static_cast<int>(stepper.order())), noise_floor);
}

}  // namespace geomint::diagnostics
