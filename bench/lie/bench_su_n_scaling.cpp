// Cost of su(N) (Zeitlin's sine-bracket truncation, Engø–Faltinsen §6.3) against N: one bracket
// (matrix form, O(N³) — the structure-constant sum would be O(N⁴) = O(dim²)), one evaluation of the
// sine-Euler vector field, and one RKMK-RK4 step in exp coordinates. Times are min and median
// over repetitions, all N measured in one run; the slopes of log time against log N are fitted
// over N ≥ 9 (smaller N are dominated by fixed costs).
//
//   bench_su_n_scaling [repetitions]      (default 7)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

struct row {
  int n;
  double bracket_min, bracket_med, field_min, field_med, step_min, step_med;
};

/// Min and median seconds per call of `body` (called `calls` times per repetition).
template <class Body>
std::pair<double, double> per_call(Body&& body, int reps, long calls) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < calls; ++i) body();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / calls);
  }
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

template <int N>
row measure(int reps) {
  using sys_type = problems::sine_euler<N>;
  using vec = typename su_n<N>::vector_type;
  static const sys_type sys;  // static: the algebra's phase tables are large for large N
  const su_n<N>& alg = sys.algebra();
  const vec u = sys_type::random_initial_state(1), v = sys_type::random_initial_state(2);
  // About 0.1 s per repetition at N = 3 and fewer calls for larger N (cost ~ N³).
  const long calls = std::max(20L, 100000L / (N * N * N / 27));
  volatile double sink = 0;
  vec out(alg.dim()), g(alg.dim());
  const auto b = per_call([&] { out = alg.bracket(u, v); sink = sink + out(0); }, reps, calls);
  const auto f = per_call(
      [&] {
        sys.gradient(u, g);
        out = -alg.ad_star(g, u);
        sink = sink + out(0);
      },
      reps, calls);
  rkmk<su_n<N>, rk::rk4> stepper;
  vec y = u;
  stepper.do_step(sys, y, 0.0, 0.01);  // sizes the workspace
  const auto s = per_call([&] { stepper.do_step(sys, y, 0.0, 0.01); }, reps, std::max(5L, calls / 10));
  sink = sink + y(0);
  return {N, b.first, b.second, f.first, f.second, s.first, s.second};
}

double slope(const std::vector<row>& rows, double row::*field) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  int m = 0;
  for (const row& r : rows)
    if (r.n >= 9) {
      mx += std::log(r.n);
      my += std::log(r.*field);
      ++m;
    }
  mx /= m;
  my /= m;
  for (const row& r : rows)
    if (r.n >= 9) {
      sxy += (std::log(r.n) - mx) * (std::log(r.*field) - my);
      sxx += (std::log(r.n) - mx) * (std::log(r.n) - mx);
    }
  return sxy / sxx;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 7;
  std::printf("su(N) sine-bracket costs, %d repetitions; microseconds per call, min (median)\n\n", reps);
  std::printf("%4s %6s %22s %22s %22s\n", "N", "dim", "bracket", "vector field", "rkmk RK4 step");
  std::vector<row> rows{measure<3>(reps),  measure<5>(reps),  measure<7>(reps),  measure<9>(reps),
                        measure<11>(reps), measure<13>(reps), measure<15>(reps), measure<19>(reps),
                        measure<23>(reps), measure<27>(reps)};
  for (const row& r : rows)
    std::printf("%4d %6d %10.2f (%9.2f) %10.2f (%9.2f) %10.1f (%9.1f)\n", r.n, r.n * r.n - 1, r.bracket_min * 1e6,
                r.bracket_med * 1e6, r.field_min * 1e6, r.field_med * 1e6, r.step_min * 1e6, r.step_med * 1e6);
  std::printf("\nslope of log time against log N for N >= 9 (min / median):\n");
  std::printf("  bracket       %.2f / %.2f   (O(N^3) matrix form; a structure-constant sum would be 4)\n",
              slope(rows, &row::bracket_min), slope(rows, &row::bracket_med));
  std::printf("  vector field  %.2f / %.2f\n", slope(rows, &row::field_min), slope(rows, &row::field_med));
  std::printf("  rkmk RK4 step %.2f / %.2f\n", slope(rows, &row::step_min), slope(rows, &row::step_med));
  return 0;
}
