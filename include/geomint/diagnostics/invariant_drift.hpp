// Drift of an invariant over a run: the largest deviation |I(x_k) − I(x_0)| / max(1, |I(x_0)|)
// and the least-squares slope of that relative deviation against t. A conserved quantity
// (constraint, momentum map, Casimir) stays at round-off; a quantity kept only approximately
// (the energy of a symplectic method) stays bounded: its slope is ≈ 0 and its maximum does not
// grow with the length of the run.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace geomint::diagnostics {

struct drift_report {
  double max_deviation = 0;  ///< max_k |I_k − I_0| / max(1, |I_0|)
  double slope = 0;          ///< least-squares slope of (I_k − I_0)/max(1, |I_0|) against t
  double final_deviation = 0;
};

namespace detail {
/// Accumulates one invariant's deviations (a NaN deviation makes max_deviation NaN).
struct drift_accumulator {
  double i0 = 0, scale = 1, st = 0, sd = 0, stt = 0, std_ = 0;
  drift_report r;
  void start(double value) {
    i0 = value;
    scale = std::max(1.0, std::fabs(value));
  }
  void add(double t, double value) {
    const double dev = (value - i0) / scale;
    r.max_deviation = std::isnan(dev) || std::isnan(r.max_deviation) ? dev : std::max(r.max_deviation, std::fabs(dev));
    r.final_deviation = dev;
    st += t;
    sd += dev;
    stt += t * t;
    std_ += t * dev;
  }
  drift_report finish(long steps) {
    const double n = static_cast<double>(steps);
    if (steps > 1) r.slope = (n * std_ - st * sd) / (n * stt - st * st);
    return r;
  }
};
}  // namespace detail

/// Runs `steps` steps of h from (t0, x) and measures invariant(x) after each (x is advanced).
template <class Stepper, class System, class State, class Invariant>
drift_report invariant_drift(Stepper& stepper, const System& sys, State& x, double t0, double h, long steps,
                             Invariant&& invariant) {
  detail::drift_accumulator a;
  a.start(invariant(x));
  for (long k = 1; k <= steps; ++k) {
    stepper.do_step(sys, x, t0 + (k - 1) * h, h);
    a.add(k * h, invariant(x));
  }
  return a.finish(steps);
}

/// invariant_drift of several invariants over one run.
template <class Stepper, class System, class State>
std::vector<drift_report> invariant_drifts(Stepper& stepper, const System& sys, State& x, double t0, double h,
                                           long steps, const std::vector<std::function<double(const State&)>>& invariants) {
  std::vector<detail::drift_accumulator> a(invariants.size());
  for (std::size_t i = 0; i < invariants.size(); ++i) a[i].start(invariants[i](x));
  for (long k = 1; k <= steps; ++k) {
    stepper.do_step(sys, x, t0 + (k - 1) * h, h);
    for (std::size_t i = 0; i < invariants.size(); ++i) a[i].add(k * h, invariants[i](x));
  }
  std::vector<drift_report> r;
  for (auto& ai : a) r.push_back(ai.finish(steps));
  return r;
}

}  // namespace geomint::diagnostics
