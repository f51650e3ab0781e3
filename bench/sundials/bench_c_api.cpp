// Time per step of the C module (GeomintEvolve over N_Vectors and C callbacks) against the C++
// stepper on the same problem, measured side by side in one process: min and median over
// repetitions, and their ratio. Both compute the same bits (tests/sundials), so the ratio is
// the cost of the callbacks and views. Problems: the double spherical pendulum (dense G,
// Lobatto IIIA-IIIB with 3 stages) and a 100-link chain (sparse G, RATTLE).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "c_problems.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"

using namespace sundials_test;
using state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;

namespace {

template <class F>
std::pair<double, double> time_per_step(F&& run, int steps, int repetitions) {
  std::vector<double> t;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps);
  }
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

template <class Stepper, class System, class Make>
void compare(const char* title, const System& sys, state x0, Make make, int steps) {
  const double h = 1e-3;
  sun s;
  SUNMatrix g = nullptr;
  void* mem = make(s, h, g);
  N_Vector q = s.vector(x0.first), p = s.vector(x0.second);
  double t_end = 0;
  const auto c_api = time_per_step(
      [&] {
        sunrealtype tret = 0;
        t_end += steps * h;
        if (GeomintEvolve(mem, t_end, q, p, &tret, GEOMINT_NORMAL) != GEOMINT_SUCCESS) std::printf("GeomintEvolve failed\n");
      },
      steps, 7);
  Stepper stepper;
  state x = x0;
  double t = 0;
  const auto cpp = time_per_step(
      [&] {
        for (int i = 0; i < steps; ++i, t += h) stepper.do_step(sys, x, t, h);
      },
      steps, 7);
  std::printf("%-44s C++ %8.3f us/step (median %8.3f), C API %8.3f us/step (median %8.3f): ratio %.3f (median %.3f)\n",
              title, 1e6 * cpp.first, 1e6 * cpp.second, 1e6 * c_api.first, 1e6 * c_api.second,
              c_api.first / cpp.first, c_api.second / cpp.second);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

}  // namespace

int main() {
  dsp_data d;
  const auto x0 = d.problem.initial_state();
  compare<geomint::lobatto_iiia_iiib<3, state>>(
      "double spherical pendulum, constrained_lobatto_4_3", d.system(), state(x0.first, x0.second),
      [&](sun& s, double h, SUNMatrix& g) { return make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, h, g); }, 20000);
  chain_data c(100);
  compare<geomint::rattle<state>>(
      "100-link chain, constrained_rattle_2_2", c.problem, c.problem.initial_state(),
      [&](sun& s, double h, SUNMatrix& g) { return make_chain(s, c, GEOMINT_CONSTRAINED_RATTLE_2_2, h, g); }, 2000);
  return 0;
}
