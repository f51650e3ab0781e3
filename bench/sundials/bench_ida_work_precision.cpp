// Work–precision against IDA on the double spherical pendulum (Marsden–Wendlandt §7 data),
// T = 1000: the CPU time each method needs to keep the relative energy error ≤ 1e-6 and
// |g(q)| ≤ 1e-10 over [0, T]. Both sides are checked on the same samples (every 0.1 time
// units, 10 000 samples) and timed the same way (process CPU time, min over repetitions).
//
// geomint methods: for each step size of a halving sequence, the run is accepted when it meets
// the goal; the cheapest accepted run counts. IDA (GGL, dense): likewise over rtol = atol in
// 10^(-k/2) steps. Target (issue 7): best geomint ≥ 20× faster than the best IDA setting.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/sundials/ida_reference.hpp"

using namespace geomint;
using pendulum = problems::double_spherical_pendulum;
using state = pendulum::state_type;

namespace {

constexpr double t_end = 1000, sample_every = 0.1, energy_goal = 1e-6, constraint_goal = 1e-10;
constexpr int repetitions = 3;

double cpu_now() { return double(std::clock()) / CLOCKS_PER_SEC; }

struct outcome {
  bool ok = false;
  double energy = 0, constraint = 0, cpu = 0;  // max relative energy error, max |g|, CPU s
  long steps = 0;
};

struct errors {
  const pendulum& sys;
  double h0;
  double energy = 0, constraint = 0;
  void sample(const vector<6>& q, const vector<6>& p) {
    vector<2> g;
    sys.constraint(q, g);
    energy = std::fmax(energy, std::abs(sys.hamiltonian(q, p) - h0) / std::abs(h0));
    constraint = std::fmax(constraint, g.cwiseAbs().maxCoeff());
  }
};

template <class Stepper>
outcome run_geomint(const pendulum& sys, double dt) {
  outcome best;
  for (int r = 0; r < repetitions; ++r) {
    state x = sys.initial_state();
    errors e{sys, sys.hamiltonian(x.first, x.second)};
    Stepper stepper;
    const long per_sample = std::lround(sample_every / dt), samples = std::lround(t_end / sample_every);
    const double start = cpu_now();
    try {
      for (long k = 0; k < samples; ++k) {
        for (long i = 0; i < per_sample; ++i) stepper.do_step(sys, x, (k * per_sample + i) * dt, dt);
        e.sample(x.first, x.second);
      }
    } catch (const step_error& e) {
      std::printf("  (dt = %g: %s)\n", dt, e.what());
      return {};
    }
    const double cpu = cpu_now() - start;
    if (r == 0 || cpu < best.cpu) best = {true, e.energy, e.constraint, cpu, samples * per_sample};
  }
  return best;
}

outcome run_ida(const pendulum& sys, double tol) {
  sundials::ida_options o;
  o.rtol = o.atol = tol;
  for (long k = 1; k <= std::lround(t_end / sample_every); ++k) o.output_times.push_back(k * sample_every);
  const state x0 = sys.initial_state();
  outcome best;
  for (int r = 0; r < repetitions; ++r) {
    const sundials::ida_result result = sundials::solve_ida(sys, x0.first, x0.second, 0.0, o);
    if (!result.ok()) return {};
    errors e{sys, sys.hamiltonian(x0.first, x0.second)};
    for (const auto& s : result.samples) e.sample(s.q, s.p);
    if (r == 0 || result.cpu_seconds < best.cpu)
      best = {true, e.energy, e.constraint, result.cpu_seconds, result.statistics.steps};
  }
  return best;
}

bool meets(const outcome& o) { return o.ok && o.energy <= energy_goal && o.constraint <= constraint_goal; }

// Scans a sequence of settings from cheap to expensive and returns the first that meets the goal.
outcome scan(const char* name, const std::vector<double>& settings, const char* setting_name,
             const std::function<outcome(double)>& run, double& chosen) {
  std::printf("\n%s\n  %-10s %12s %12s %10s %10s\n", name, setting_name, "max dE/E", "max |g|", "steps", "CPU s");
  for (double s : settings) {
    const outcome o = run(s);
    if (!o.ok) {
      std::printf("  %-10.3g %12s\n", s, "failed");
      continue;
    }
    std::printf("  %-10.3g %12.2e %12.2e %10ld %10.3f%s\n", s, o.energy, o.constraint, o.steps, o.cpu,
                meets(o) ? "   <- meets the goal" : "");
    if (meets(o)) {
      chosen = s;
      return o;
    }
  }
  return {};
}

}  // namespace

int main() {
  const pendulum sys;
  std::printf("IDA work-precision: double spherical pendulum, T = %g, goal: max relative energy error <= %g and "
              "max |g| <= %g\n(samples every %g; CPU time min over %d repetitions)\n",
              t_end, energy_goal, constraint_goal, sample_every, repetitions);

  std::vector<double> steps;  // 0.1 / 2^k: every step size divides the sampling interval
  for (int k = 0; k <= 9; ++k) steps.push_back(sample_every / std::pow(2.0, k));
  std::vector<double> tolerances;
  for (int k = 12; k <= 26; ++k) tolerances.push_back(std::pow(10.0, -k / 2.0));

  struct candidate {
    const char* name;
    std::function<outcome(double)> run;
  };
  const std::vector<candidate> methods = {
      {"geomint rattle", [&](double h) { return run_geomint<rattle<state>>(sys, h); }},
      {"geomint lobatto_iiia_iiib<3>", [&](double h) { return run_geomint<lobatto_iiia_iiib<3, state>>(sys, h); }},
      {"geomint lobatto_iiia_iiib<4>", [&](double h) { return run_geomint<lobatto_iiia_iiib<4, state>>(sys, h); }},
      {"geomint lobatto_iiia_iiib<5>", [&](double h) { return run_geomint<lobatto_iiia_iiib<5, state>>(sys, h); }},
  };

  std::string best_name;
  double best_cpu = 0, chosen = 0;
  for (const auto& m : methods) {
    const outcome o = scan(m.name, steps, "dt", m.run, chosen);
    if (o.ok && (best_name.empty() || o.cpu < best_cpu)) {
      best_cpu = o.cpu;
      best_name = std::string(m.name) + " (dt = " + std::to_string(chosen) + ")";
    }
  }
  double ida_tol = 0;
  const outcome ida = scan("IDA GGL (dense), rtol = atol", tolerances, "tol", [&](double tol) { return run_ida(sys, tol); },
                           ida_tol);

  std::printf("\nbest geomint: %s, %.3f s\n", best_name.c_str(), best_cpu);
  if (!ida.ok) {
    std::printf("IDA: no tolerance down to %.0e met the goal\n", tolerances.back());
    std::printf("%-58s %8s   target >= 20  met (IDA cannot reach the goal)\n", "best IDA / best geomint (CPU time)", "inf");
    return 0;
  }
  std::printf("best IDA:     GGL rtol = atol = %.1e, %.3f s\n", ida_tol, ida.cpu);
  const double speedup = ida.cpu / best_cpu;
  std::printf("%-58s %8.1f   target >= 20  %s\n", "best IDA / best geomint (CPU time)", speedup,
              speedup >= 20 ? "met" : "MISSED");
}
