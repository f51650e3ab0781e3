// Drift of an invariant over a run: the largest deviation |I(x_k) − I(x_0)| / max(1, |I(x_0)|)
// and the least-squares slope of that relative deviation against t. A conserved quantity
// (constraint, momentum map, Casimir) stays at round-off; a quantity kept only approximately
// (the energy of a symplectic method) stays bounded: its slope is ≈ 0 and its maximum does not
// grow with the length of the run.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace geomint::diagnostics {

struct drift_report {
  double max_deviation = 0;  ///< max_k |I_k − I_0| / max(1, |I_0|)
  double slope = 0;          ///< least-squares slope of (I_k − I_0)/max(1, |I_0|) against t
  double final_deviation = 0;
};

/// Runs `steps` steps of h from (t0, x) and measures invariant(x) after each (x is advanced).
template <class Stepper, class System, class State, class Invariant>
drift_report invariant_drift(Stepper& stepper, const System& sys, State& x, double t0, double h, long steps,
                             Invariant&& invariant) {
  const double i0 = invariant(x), scale = std::max(1.0, std::fabs(i0));
  drift_report r;
  double st = 0, sd = 0, stt = 0, std_ = 0;
  for (long k = 1; k <= steps; ++k) {
    stepper.do_step(sys, x, t0 + (k - 1) * h, h);
    const double t = k * h, dev = (invariant(x) - i0) / scale;
    r.max_deviation = std::max(r.max_deviation, std::fabs(dev));
    r.final_deviation = dev;
    st += t;
    sd += dev;
    stt += t * t;
    std_ += t * dev;
  }
  const double n = static_cast<double>(steps);
  if (steps > 1) r.slope = (n * std_ - st * sd) / (n * stt - st * st);
  return r;
}

}  // namespace geomint::diagnostics
