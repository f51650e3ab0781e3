// Work–precision against IDA, shared by bench_ida_work_precision (separable path) and
// bench_ida_general_h (general H(q, p)): a run integrates [0, T] and is checked on samples every
// `sample_every` time units against the goal max |H − H(0)|/|H(0)| ≤ energy and
// max ‖g(q)‖∞ ≤ constraint; its cost is the process CPU time, minimum over repetitions. A scan
// walks a sequence of settings from cheap to expensive (geomint: a halving step sequence, or a
// candidate's own; IDA: rtol = atol in 10^(-k/2) steps) and keeps the first run that meets the
// goal. A geomint step that does not divide the sampling interval is sampled through dense output.
#pragma once

#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "geomint/core/statistics.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/sundials/ida_reference.hpp"
#include "geomint/system/constrained_system.hpp"

namespace bench::work_precision {

struct goal {
  double t_end = 0, sample_every = 0.1;
  double energy = 1e-6, constraint = 1e-10;  // max relative energy error, max |g|
  int repetitions = 3;
  long samples() const { return std::lround(t_end / sample_every); }
};

/// Process CPU time (both sides are measured on this clock; IDA's cpu_seconds is std::clock too).
inline double cpu_now() { return double(std::clock()) / CLOCKS_PER_SEC; }

struct outcome {
  bool ok = false;
  double energy = 0, constraint = 0, cpu = 0;  // max relative energy error, max |g|, CPU s
  long steps = 0;
  // geomint: Newton iterations and Jacobian factorizations per step (stage equations and hidden
  // constraint together); IDA: Newton iterations and Jacobian evaluations per step.
  double iterations_per_step = 0, jacobians_per_step = 0;
};

inline bool meets(const outcome& o, const goal& g) {
  return o.ok && o.energy <= g.energy && o.constraint <= g.constraint;
}

/// Running maxima of the relative energy error and of ‖g(q)‖∞ over the samples.
template <class System>
struct error_sampler {
  const System& sys;
  double h0;
  double energy = 0, constraint = 0;
  geomint::vector<geomint::system_traits<System>::m> g;

  error_sampler(const System& s, double h) : sys(s), h0(h), g(s.constraint_count()) {}
  template <class Q, class P>
  void sample(const Q& q, const P& p) {
    sys.constraint(q, g);
    energy = std::fmax(energy, std::abs(sys.hamiltonian(q, p) - h0) / std::abs(h0));
    constraint = std::fmax(constraint, g.cwiseAbs().maxCoeff());
  }
};

/// A fixed-step geomint run from x0 with step dt (dt divides sample_every), sampled along the way.
/// A step_error (Newton failing at too large a step) is reported and makes the run fail.
template <class Stepper, class System, class State>
outcome run_geomint(const System& sys, const State& x0, double dt, const goal& gl,
                    const std::function<Stepper()>& make = [] { return Stepper(); }) {
  outcome best;
  const long per_sample = std::lround(gl.sample_every / dt), samples = gl.samples();
  for (int r = 0; r < gl.repetitions; ++r) {
    State x = x0;
    error_sampler<System> e(sys, sys.hamiltonian(x.first, x.second));
    Stepper stepper = make();
    const double start = cpu_now();
    try {
      for (long k = 0; k < samples; ++k) {
        for (long i = 0; i < per_sample; ++i) stepper.do_step(sys, x, (k * per_sample + i) * dt, dt);
        e.sample(x.first, x.second);
      }
    } catch (const geomint::step_error& err) {
      std::printf("  (dt = %g: %s)\n", dt, err.what());
      return {};
    }
    const double cpu = cpu_now() - start;
    const long steps = samples * per_sample;
    const geomint::newton_statistics& newton = stepper.statistics().newton;
    if (r == 0 || cpu < best.cpu)
      best = {true, e.energy, e.constraint, cpu, steps, double(newton.iterations) / steps,
              double(newton.jacobian_updates) / steps};
  }
  return best;
}

/// The same run with a step dt that need not divide the sampling interval: the samples are taken
/// from the stepper's continuous extension (geomint::dense_output, projected onto the constraint
/// manifold), as IDA's are from its interpolating polynomial. The interpolant's own error then
/// counts against the goal like the method's.
template <class Stepper, class System, class State>
outcome run_geomint_dense(const System& sys, const State& x0, double dt, const goal& gl) {
  outcome best;
  const long samples = gl.samples();
  for (int r = 0; r < gl.repetitions; ++r) {
    State x = x0;
    error_sampler<System> e(sys, sys.hamiltonian(x.first, x.second));
    geomint::dense_output<Stepper> stepper;
    stepper.set_projection(true);
    const double start = cpu_now();
    try {
      stepper.initialize(x0, 0.0, dt);
      for (long k = 1; k <= samples; ++k) {
        const double t = k * gl.sample_every;
        while (stepper.current_time() < t * (1 - 1e-12)) stepper.do_step(sys);
        stepper.calc_state(t, x);
        e.sample(x.first, x.second);
      }
    } catch (const geomint::step_error& err) {
      std::printf("  (dt = %g: %s)\n", dt, err.what());
      return {};
    }
    const double cpu = cpu_now() - start;
    const auto& stats = stepper.stepper().statistics();
    const long steps = long(stats.steps);
    if (r == 0 || cpu < best.cpu)
      best = {true, e.energy, e.constraint, cpu, steps, double(stats.newton.iterations) / steps,
              double(stats.newton.jacobian_updates) / steps};
  }
  return best;
}

/// IDA (GGL, dense) from x0 at rtol = atol = tol, sampled at the same times.
template <class System, class State>
outcome run_ida(const System& sys, const State& x0, double tol, const goal& gl) {
  geomint::sundials::ida_options o;
  o.rtol = o.atol = tol;
  for (long k = 1; k <= gl.samples(); ++k) o.output_times.push_back(k * gl.sample_every);
  outcome best;
  for (int r = 0; r < gl.repetitions; ++r) {
    const geomint::sundials::ida_result result = geomint::sundials::solve_ida(sys, x0.first, x0.second, 0.0, o);
    if (!result.ok()) return {};
    error_sampler<System> e(sys, sys.hamiltonian(x0.first, x0.second));
    for (const auto& s : result.samples) e.sample(s.q, s.p);
    const auto& st = result.statistics;
    if (r == 0 || result.cpu_seconds < best.cpu)
      best = {true, e.energy, e.constraint, result.cpu_seconds, st.steps, double(st.nonlinear_iterations) / st.steps,
              double(st.jacobian_evaluations) / st.steps};
  }
  return best;
}

/// 0.1/2^k-style sequence: first, first/2, …, `count` entries (each divides the sampling interval).
inline std::vector<double> halving(double first, int count) {
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(first / std::pow(2.0, k));
  return out;
}
/// rtol = atol = 10^(−k/2), k = k_first … k_last.
inline std::vector<double> tolerances(int k_first, int k_last) {
  std::vector<double> out;
  for (int k = k_first; k <= k_last; ++k) out.push_back(std::pow(10.0, -k / 2.0));
  return out;
}

/// Scans `settings` from cheap to expensive, printing each run, and returns the first that meets
/// the goal (its setting in `chosen`); !ok if none does.
inline outcome scan(const char* name, const std::vector<double>& settings, const char* setting_name,
                    const std::function<outcome(double)>& run, const goal& gl, double& chosen) {
  std::printf("\n%s\n  %-10s %12s %12s %10s %10s %8s %8s\n", name, setting_name, "max dE/E", "max |g|", "steps", "CPU s",
              "it/step", "J/step");
  for (double s : settings) {
    const outcome o = run(s);
    if (!o.ok) {
      std::printf("  %-10.3g %12s\n", s, "failed");
      continue;
    }
    std::printf("  %-10.3g %12.2e %12.2e %10ld %10.3f %8.2f %8.3f%s\n", s, o.energy, o.constraint, o.steps, o.cpu,
                o.iterations_per_step, o.jacobians_per_step, meets(o, gl) ? "   <- meets the goal" : "");
    if (meets(o, gl)) {
      chosen = s;
      return o;
    }
  }
  return {};
}

struct candidate {
  const char* name;
  std::function<outcome(double)> run;  // the run at one step size
  std::vector<double> steps = {};       // its own step sequence (empty: the scan's)
};

struct best_run {
  int index = -1;  // into the candidates; −1: none met the goal
  double setting = 0;
  outcome result;
};

/// Scans every candidate over `steps` and returns the cheapest run that meets the goal.
inline best_run cheapest(const std::vector<candidate>& candidates, const std::vector<double>& steps, const goal& gl) {
  best_run best;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    double chosen = 0;
    const std::vector<double>& own = candidates[c].steps.empty() ? steps : candidates[c].steps;
    const outcome o = scan(candidates[c].name, own, "dt", candidates[c].run, gl, chosen);
    if (o.ok && (best.index < 0 || o.cpu < best.result.cpu)) best = {int(c), chosen, o};
  }
  return best;
}

/// The IDA scan over `tols`; the first tolerance meeting the goal.
template <class System, class State>
best_run cheapest_ida(const System& sys, const State& x0, const std::vector<double>& tols, const goal& gl) {
  best_run best;
  double chosen = 0;
  const outcome o = scan("IDA GGL (dense), rtol = atol", tols, "tol",
                         [&](double tol) { return run_ida(sys, x0, tol, gl); }, gl, chosen);
  if (o.ok) best = {0, chosen, o};
  return best;
}

/// The verdict line "<what> <ratio> target >= <target> met|MISSED" (bench/run_all collects lines
/// containing "target"); a missed target is followed by "why the target is missed: <why>".
inline void print_speedup(const char* what, double speedup, double target, const char* why_missed = nullptr) {
  std::printf("%-58s %8.1f   target >= %g  %s\n", what, speedup, target, speedup >= target ? "met" : "MISSED");
  if (speedup < target && why_missed) std::printf("  why the target is missed: %s\n", why_missed);
}

}  // namespace bench::work_precision
