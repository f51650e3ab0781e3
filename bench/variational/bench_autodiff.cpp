// Cost of a step on an automatically differentiated system (geomint/system/ad_*.hpp) against the
// same step on the hand-differentiated problem, measured side by side in one process: each
// repetition times `steps` steady-state steps (after one untimed first step) of each variant in
// turn; the table reports min and median time per step and the ratio AD / analytic of both.
//
//   bench_autodiff [repetitions = 21] [steps = 2000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/autodiff_models.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace geomint;
namespace models = geomint::problems::ad_models;

namespace {

volatile double sink = 0;  // keeps the results alive

/// Seconds per step of `steps` steps of Stepper on sys from x0 (the first step untimed).
template <class Stepper, class System, class State>
double time_steps(const System& sys, const State& x0, double h, int steps) {
  State x = x0;
  Stepper stepper;
  stepper.do_step(sys, x, 0.0, h);
  const auto start = std::chrono::steady_clock::now();
  for (int k = 1; k <= steps; ++k) stepper.do_step(sys, x, k * h, h);
  const auto stop = std::chrono::steady_clock::now();
  sink = sink + x.first(0);
  return std::chrono::duration<double>(stop - start).count() / steps;
}

struct comparison {
  std::string name;
  std::function<double()> analytic, automatic;
  std::vector<double> ta, tb;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 21;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 2000;

  const problems::double_spherical_pendulum dsp;
  const auto dsp_ad = models::dsp_separable();
  const auto dsp_state = dsp.initial_state();
  const lagrangian_view<problems::double_spherical_pendulum> dsp_lagrangian(dsp);
  const auto dsp_lagrangian_ad = models::dsp_lagrangian();
  std::pair<vector<6>, vector<6>> dsp_pair{dsp_state.first, dsp_state.first};
  {
    auto x = dsp_state;
    rattle<problems::double_spherical_pendulum::state_type>().do_step(dsp, x, 0.0, 0.005);
    dsp_pair.second = x.first;
  }
  const problems::heavy_top top;
  const auto top_ad = models::heavy_top();
  const problems::quaternion_rigid_body body;
  const auto body_ad = models::rigid_body();
  using s6 = std::pair<vector<6>, vector<6>>;
  using s4 = std::pair<vector<4>, vector<4>>;

  std::vector<comparison> table{
      {"rattle, double spherical pendulum (separable fast path)",
       [&] { return time_steps<rattle<s6>>(dsp, dsp_state, 0.005, steps); },
       [&] { return time_steps<rattle<s6>>(dsp_ad, dsp_state, 0.005, steps); }, {}, {}},
      {"shake, double spherical pendulum",
       [&] { return time_steps<shake<s6>>(dsp, dsp_pair, 0.005, steps); },
       [&] { return time_steps<shake<s6>>(dsp_ad, dsp_pair, 0.005, steps); }, {}, {}},
      {"lobatto_iiia_iiib<3>, heavy top (general H, exact Hessians)",
       [&] { return time_steps<lobatto_iiia_iiib<3, s4>>(top, top.initial_state(), 0.05, steps); },
       [&] { return time_steps<lobatto_iiia_iiib<3, s4>>(top_ad, top.initial_state(), 0.05, steps); }, {}, {}},
      {"variational_midpoint, quaternion rigid body (Lagrangian)",
       [&] { return time_steps<variational_midpoint<s4>>(body, body.initial_state(), 0.01, steps); },
       [&] { return time_steps<variational_midpoint<s4>>(body_ad, body.initial_state(), 0.01, steps); }, {}, {}},
      {"variational_midpoint, double spherical pendulum (Lagrangian)",
       [&] { return time_steps<variational_midpoint<s6>>(dsp_lagrangian, dsp_state, 0.005, steps); },
       [&] { return time_steps<variational_midpoint<s6>>(dsp_lagrangian_ad, dsp_state, 0.005, steps); }, {}, {}},
  };

  for (int r = 0; r < repetitions; ++r)
    for (auto& c : table) {  // side by side: analytic and AD alternate within each repetition
      c.ta.push_back(c.analytic());
      c.tb.push_back(c.automatic());
    }

  std::printf("AD-built step vs analytic step: %d repetitions x %d steps, time per step\n", repetitions, steps);
  std::printf("%-62s %12s %12s %12s %12s %9s %9s\n", "problem, method", "analytic min", "median", "AD min", "median",
              "ratio min", "median");
  for (const auto& c : table) {
    const double amin = *std::min_element(c.ta.begin(), c.ta.end()), amed = median(c.ta);
    const double bmin = *std::min_element(c.tb.begin(), c.tb.end()), bmed = median(c.tb);
    std::printf("%-62s %10.3f us %10.3f us %10.3f us %10.3f us %9.2f %9.2f\n", c.name.c_str(), 1e6 * amin, 1e6 * amed,
                1e6 * bmin, 1e6 * bmed, bmin / amin, bmed / amed);
  }
  return 0;
}
