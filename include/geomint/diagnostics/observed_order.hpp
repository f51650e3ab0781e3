// Observed order of convergence: the least-squares slope of log(error) against log(h) over a
// sequence of step sizes, for any stepper, against a reference end state.
#pragma once

#include <cmath>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "geomint/core/state_view.hpp"

namespace geomint::diagnostics {

/// Least-squares slope of log(err) against log(h).
inline double loglog_slope(const std::vector<double>& h, const std::vector<double>& err) {
  if (h.size() != err.size() || h.size() < 2) throw std::invalid_argument("geomint: loglog_slope needs two or more points");
  const double n = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/// max-norm distance of two states: std::pair states over both halves, vectors entry by entry.
template <class Q, class P>
double state_distance(const std::pair<Q, P>& a, const std::pair<Q, P>& b) {
  return std::fmax((view(a.first) - view(b.first)).cwiseAbs().maxCoeff(),
                   (view(a.second) - view(b.second)).cwiseAbs().maxCoeff());
}
template <class X>
double state_distance(const X& a, const X& b) {
  return (view(a) - view(b)).cwiseAbs().maxCoeff();
}

/// x0 advanced to t_end in n equal steps by a fresh Stepper.
template <class Stepper, class System, class State>
State integrate_steps(Stepper stepper, const System& sys, State x, double t_end, int n) {
  const double h = t_end / n;
  for (int i = 0; i < n; ++i) stepper.do_step(sys, x, i * h, h);
  return x;
}

struct order_estimate {
  double order = 0;               ///< the log–log slope
  std::vector<double> steps, errors;
};

/// The order a stepper shows on [0, t_end]: errors of n = counts[i] equal steps against
/// `reference` (the end state from a much more accurate run). Choose counts so that every
/// error lies between round-off (≳ 1e-12) and the asymptotic range (≲ 1e-2).
template <class Stepper, class System, class State>
order_estimate observed_order(const Stepper& stepper, const System& sys, const State& x0, const State& reference,
                              double t_end, const std::vector<int>& counts) {
  order_estimate r;
  for (int n : counts) {
    const State x = integrate_steps(stepper, sys, x0, t_end, n);
    r.steps.push_back(t_end / n);
    r.errors.push_back(state_distance(x, reference));
  }
  r.order = loglog_slope(r.steps, r.errors);
  return r;
}

}  // namespace geomint::diagnostics
