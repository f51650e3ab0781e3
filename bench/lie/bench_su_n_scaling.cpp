// su(N) sine-Euler (Zeitlin's truncation, Engø–Faltinsen §6.3) for N = 15, 31, 63, 127, 255, 511
// (issue 7): time per step of the implicit coadjoint method — RKMK with the GL2 tableau (Lie
// implicit midpoint) in Cayley coordinates, stages solved matrix-free by fixed-point iteration
// to round-off (lie_stage_solver::fixed_point) — against one complex N × N matrix product
// (Eigen MatrixXcd, C.noalias() = A * B), interleaved in the same run (bench_timing.hpp).
// Targets: slope of log(time per step) against log N ≤ 3.2; at N = 255 a step ≤ 15 products.
//
// Initial vorticity: ω_m = (uniform in [−1, 1] + i uniform in [−1, 1]) / |m|², a smooth field
// whose matrix norm (and hence the time scale and the fixed-point contraction) barely depends on
// N, so that h = 0.1 is the same physical step for every N. The step keeps the Casimirs
// tr(Wᵏ)/N (k = 2, 3, 4 shown, relative to ‖W‖_Fᵏ/N) to round-off.
//
// The step's matrix work: per fixed-point sweep one Cayley factor (an LU factorization and a solve),
// one product with y₀'s matrix (kept for the whole step) and half a product for the Hermitian
// increment; state ↔ matrix by FFTs along the wrapped diagonals when the build found FFTW.
//
//   bench_su_n_scaling [repetitions] [largest N: 511 or 1023]      (default 3, 511)
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "../support/bench_timing.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

constexpr double h = 0.1;

struct row {
  int n;
  bench::timing step, product;
  double iterations_per_step, casimir_error;
};

/// tr(Wᵏ)/N for k = 2, 3, 4 from two products' worth of work (W² once).
Eigen::Vector3d low_casimirs(const Eigen::MatrixXcd& w) {
  const Eigen::MatrixXcd w2 = w * w;
  const double n = static_cast<double>(w.rows());
  return Eigen::Vector3d(w2.trace().real(), (w2.array() * w.transpose().array()).sum().real(), w2.squaredNorm()) / n;
}

template <int N>
row measure(int reps) {
  using sys_type = problems::sine_euler<N>;
  using vec = typename su_n<N>::vector_type;
  static const sys_type sys;  // static: the algebra's tables are O(N²)
  const su_n<N>& alg = sys.algebra();
  vec y0 = sys_type::random_initial_state(1);
  for (int i = 0; i < su_n<N>::mode_count; ++i) y0.template segment<2>(2 * i) /= alg.modes()[i].squared_norm();

  lie_options options;
  options.stage_solver = lie_stage_solver::fixed_point;
  rkmk<su_n<N>, rk::implicit_midpoint, cayley_coordinates> stepper(options);
  vec y = y0;
  stepper.do_step(sys, y, 0.0, h);  // sizes the workspace
  const long steps_before = stepper.statistics().steps, iterations_before = stepper.statistics().fixed_point.iterations;

  const Eigen::MatrixXcd a = Eigen::MatrixXcd::Random(N, N), b = Eigen::MatrixXcd::Random(N, N);
  Eigen::MatrixXcd c(N, N);
  const long calls = std::max(1L, 200L * 15 * 15 * 15 / (long(N) * N * N));
  const std::vector<bench::timing> t = bench::side_by_side(
      {[&](long k) {
         for (long i = 0; i < k; ++i) stepper.do_step(sys, y, 0.0, h);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) {
           c.noalias() = a * b;
           bench::keep(c);
         }
       }},
      calls, reps);

  const double iterations = double(stepper.statistics().fixed_point.iterations - iterations_before) /
                            double(stepper.statistics().steps - steps_before);
  const Eigen::MatrixXcd w0 = alg.hermitian(y0), w1 = alg.hermitian(y);
  const double f = w0.norm();
  const Eigen::Vector3d scale(std::pow(f, 2) / N, std::pow(f, 3) / N, std::pow(f, 4) / N);
  const double casimir = (low_casimirs(w1) - low_casimirs(w0)).cwiseAbs().cwiseQuotient(scale).maxCoeff();
  return {N, t[0], t[1], iterations, casimir};
}

double slope(const std::vector<row>& rows, double bench::timing::*field, bool step) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (const row& r : rows) {
    mx += std::log(r.n);
    my += std::log((step ? r.step : r.product).*field);
  }
  mx /= rows.size();
  my /= rows.size();
  for (const row& r : rows) {
    const double x = std::log(r.n) - mx, y = std::log((step ? r.step : r.product).*field) - my;
    sxy += x * y;
    sxx += x * x;
  }
  return sxy / sxx;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  const int largest = argc > 2 ? std::atoi(argv[2]) : 511;
  std::printf("su(N) sine-Euler: RKMK GL2 (implicit midpoint), Cayley coordinates, fixed-point stages to round-off,\n");
  std::printf("h = %g, smooth initial vorticity; %d repetitions, interleaved with one MatrixXcd product\n", h, reps);
  std::printf("state <-> matrix: %s; Eigen threads: %d\n\n",
              su_n<17>::uses_fft ? "FFTs along the wrapped diagonals (FFTW)" : "one matrix product each way",
              Eigen::nbThreads());
  std::printf("%4s %7s %14s %14s %14s %14s %9s %9s %11s\n", "N", "dim", "step ms", "(median)", "product ms",
              "(median)", "step/prod", "iter/step", "Casimir err");
  std::vector<row> rows;
  auto run = [&](row r) {
    rows.push_back(r);
    std::printf("%4d %7d %14.4f %14.4f %14.4f %14.4f %9.2f %9.1f %11.1e\n", r.n, r.n * r.n - 1, r.step.min * 1e3,
                r.step.median * 1e3, r.product.min * 1e3, r.product.median * 1e3, r.step.min / r.product.min,
                r.iterations_per_step, r.casimir_error);
    std::fflush(stdout);
  };
  run(measure<15>(reps));
  run(measure<31>(reps));
  run(measure<63>(reps));
  run(measure<127>(reps));
  run(measure<255>(reps));
  run(measure<511>(reps));
  if (largest >= 1023) run(measure<1023>(reps));

  const double s_min = slope(rows, &bench::timing::min, true), s_med = slope(rows, &bench::timing::median, true);
  std::printf("\nslope of log time against log N, N = 15..%d (min / median): step %.2f / %.2f, product %.2f / %.2f\n",
              rows.back().n, s_min, s_med, slope(rows, &bench::timing::min, false), slope(rows, &bench::timing::median, false));
  std::printf("%-58s %8.3f %8.3f   target <= %.2f  %s\n", "su(N) GL2 step: log-log slope of time per step vs N", s_min,
              s_med, 3.2, s_min <= 3.2 ? "met" : "MISSED");
  for (const row& r : rows)
    if (r.n == 255)
      bench::print_ratio("su(255) GL2 step / one MatrixXcd 255x255 product", r.step, r.product, 15.0,
                         "each fixed-point sweep costs an LU factorization and solve for the Cayley factor, one "
                         "product with W(y0) and half a product for the increment (~3 products), and the sweeps "
                         "to round-off plus the update take ~6 such actions");
  return 0;
}
