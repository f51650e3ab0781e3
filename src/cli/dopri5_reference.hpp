// "What a user does today": Boost.Odeint's runge_kutta_dopri5 (controlled, integrate_adaptive)
// on a problem's plain ODE — the index-1 ODE of a constrained problem (odeint_reference.cpp), the
// Lie–Poisson ODE ẏ = −ad*_{∇H(y)} y (problems_lie.cpp). It keeps neither the constraint nor the
// coadjoint orbit.
#pragma once

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <functional>
#include <vector>

#include "cli/driver.hpp"

namespace geomint::cli {

/// Integrates ẋ = field(x) from x over [0, req.t_end] with rtol = atol = req.tolerance. The
/// observer sees every accepted step: it reports progress (and stops the run when progress()
/// says so), and hands on the state at the first step point at or after each sample time (with
/// its own time). Its cost is left out of the CPU time. Odeint's failures (step size underflow,
/// no progress) end the run with ok = false and their message.
template <class Field>
reference_result run_dopri5(Field& field, std::vector<double> x, const reference_request& req) {
  namespace ode = boost::numeric::odeint;
  struct stop_request {};
  reference_result result;
  if (req.sample_times.empty()) return result;
  auto stepper = ode::make_controlled(req.tolerance, req.tolerance, ode::runge_kutta_dopri5<std::vector<double>>());
  std::size_t next = 0;
  long observed = 0;  // the initial point and each accepted step
  double observer_cpu = 0;
  auto observer = [&](const std::vector<double>& s, double t) {
    ++observed;
    if (!req.progress(t)) throw stop_request{};
    if (next >= req.sample_times.size() || t < req.sample_times[next] * (1 - 1e-12)) return;
    const double c0 = cpu_seconds();
    while (next < req.sample_times.size() && t >= req.sample_times[next] * (1 - 1e-12)) ++next;
    req.sample(t, s);
    observer_cpu += cpu_seconds() - c0;
  };
  const double c0 = cpu_seconds();
  try {
    result.steps = static_cast<long>(
        ode::integrate_adaptive(stepper, std::ref(field), x, 0.0, req.t_end, std::min(1e-3, req.t_end), observer));
  } catch (const ode::odeint_error& e) {
    result.ok = false;
    result.error = e.what();
  } catch (const stop_request&) {
    result.stopped = true;
    result.steps = observed - 1;
  }
  result.cpu_seconds = cpu_seconds() - c0 - observer_cpu;
  return result;
}

}  // namespace geomint::cli
