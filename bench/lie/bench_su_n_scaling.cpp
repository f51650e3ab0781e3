// su(N) sine-Euler (Zeitlin's truncation, Engø–Faltinsen §6.3) for N = 15, 31, …, 511 (1023):
// time per step of the implicit coadjoint methods against one complex N × N
// matrix product (Eigen MatrixXcd, C.noalias() = A * B), interleaved in the same run
// (bench_timing.hpp), and the step's cost in products. Six variants:
//   gl2          RKMK with the GL2 tableau (Lie implicit midpoint) in Cayley coordinates, stages by
//                fixed-point iteration to round-off (lie_stage_solver::fixed_point);
//   gl2+AA       the same step, the iteration Anderson-accelerated (lie_options::acceleration);
//   iso          Modin–Viviani's isospectral midpoint (isospectral_midpoint.hpp), its default
//                iteration (isospectral_iteration::cayley: W̃ = M W₀ M† exactly per sweep);
//   iso+AA       the same, Anderson-accelerated;
//   isoC, isoC+AA  the same method by the factorization-free iteration (isospectral_iteration::
//                commutator), plain and accelerated.
// Targets: slope of log(time per step) against log N ≤ 3.2; at N = 255 a step ≤ 15 products
// (stretch: ≤ 10 at N = 511), for the accelerated variants.
//
// Initial vorticity: ω_m = (uniform in [−1, 1] + i uniform in [−1, 1]) / |m|², a smooth field
// whose matrix norm (and hence the time scale and the fixed-point contraction) barely depends on
// N, so that h = 0.1 is the same physical step for every N. The steps keep the Casimirs
// tr(Wᵏ)/N (k = 2, 3, 4 shown, relative to ‖W‖_Fᵏ/N) to round-off; "agree" is the largest
// relative difference of one step from y₀ from the plain iteration's step of the same method
// (gl2+AA against gl2; iso+AA, isoC, isoC+AA against iso).
//
// The matrix work per sweep: gl2 and iso one Cayley factor (an LU factorization and a solve),
// one product with y₀'s matrix (kept for the whole step) and half a product for the Hermitian
// increment (~3.6 products measured at N = 255) in their first sweep; the later sweeps change the
// factor by 1e-9 ... 1e-15 relative and correct an earlier one to first order
// (lie/detail/cayley_congruence.hpp: two products, in single precision once the change is small
// enough). gl2 needs a full Cayley action once more for the update, iso's update is one product;
// isoC one product and half a product (~1.5) per sweep, the update free. State ↔ matrix by FFTs
// along the wrapped diagonals when the build found FFTW.
//
//   bench_su_n_scaling [repetitions] [largest N: 511 or 1023] [threads] [Anderson depth]
//                                                                   (default 3, 511, 1, 5)
// threads: Eigen's (and the Cayley solve's) OpenMP threads, for step and product alike.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../support/bench_timing.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

constexpr double h = 0.1;
constexpr int warm_up = 7;  ///< untimed steps before the timed ones (steady-state guesses)
constexpr int variant_count = 6;
const char* const variant_names[variant_count] = {"gl2", "gl2+AA", "iso", "iso+AA", "isoC", "isoC+AA"};
int anderson_depth = 5;

struct row {
  int n;
  bench::timing product;
  bench::timing step[variant_count];
  double iterations[variant_count], casimir_error[variant_count], agreement[variant_count];
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

  lie_options plain, accelerated;
  plain.stage_solver = accelerated.stage_solver = lie_stage_solver::fixed_point;
  accelerated.acceleration.anderson_depth = anderson_depth;
  using gl2 = rkmk<su_n<N>, rk::implicit_midpoint, cayley_coordinates>;
  using iso = isospectral_midpoint<su_n<N>>;
  gl2 gl2_plain(plain), gl2_accelerated(accelerated);
  isospectral_midpoint_options iso_options[4];
  for (int v = 0; v < 4; ++v) {
    iso_options[v].acceleration.anderson_depth = v % 2 == 1 ? anderson_depth : 0;
    iso_options[v].iteration = v < 2 ? isospectral_iteration::cayley : isospectral_iteration::commutator;
  }
  iso isos[4] = {iso(iso_options[0]), iso(iso_options[1]), iso(iso_options[2]), iso(iso_options[3])};
  auto do_step = [&](int v, vec& y) {
    if (v == 0) gl2_plain.do_step(sys, y, 0.0, h);
    else if (v == 1) gl2_accelerated.do_step(sys, y, 0.0, h);
    else isos[v - 2].do_step(sys, y, 0.0, h);
  };
  auto stats = [&](int v) -> const solver_statistics& {
    return v == 0 ? gl2_plain.statistics() : v == 1 ? gl2_accelerated.statistics() : isos[v - 2].statistics();
  };

  // One step of each from y0: the Casimirs and the agreement of accelerated with plain.
  std::vector<vec> first(variant_count, y0);
  for (int v = 0; v < variant_count; ++v) do_step(v, first[v]);
  // Then warm_up untimed steps, so that the timed ones start from guesses extrapolated through
  // the previous steps as in a long run (solvers/extrapolation.hpp climbs one degree per step).
  std::vector<vec> y = first;
  for (int v = 0; v < variant_count; ++v)
    for (int k = 0; k < warm_up; ++k) do_step(v, y[v]);
  long steps_before[variant_count], iterations_before[variant_count];
  for (int v = 0; v < variant_count; ++v) {
    steps_before[v] = stats(v).steps;
    iterations_before[v] = stats(v).fixed_point.iterations;
  }

  const Eigen::MatrixXcd a = Eigen::MatrixXcd::Random(N, N), b = Eigen::MatrixXcd::Random(N, N);
  Eigen::MatrixXcd c(N, N);
  const long calls = std::max(1L, 200L * 15 * 15 * 15 / (long(N) * N * N));
  const std::vector<bench::timing> t = bench::side_by_side(
      {[&](long k) {
         for (long i = 0; i < k; ++i) {
           c.noalias() = a * b;
           bench::keep(c);
         }
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(0, y[0]);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(1, y[1]);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(2, y[2]);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(3, y[3]);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(4, y[4]);
       },
       [&](long k) {
         for (long i = 0; i < k; ++i) do_step(5, y[5]);
       }},
      calls, reps);

  row r{N, t[0], {}, {}, {}, {}};
  const Eigen::MatrixXcd w0 = alg.hermitian(y0);
  const double f = w0.norm();
  const Eigen::Vector3d scale(std::pow(f, 2) / N, std::pow(f, 3) / N, std::pow(f, 4) / N);
  for (int v = 0; v < variant_count; ++v) {
    r.step[v] = t[v + 1];
    r.iterations[v] = double(stats(v).fixed_point.iterations - iterations_before[v]) / double(stats(v).steps - steps_before[v]);
    const Eigen::MatrixXcd w1 = alg.hermitian(y[v]);
    r.casimir_error[v] = (low_casimirs(w1) - low_casimirs(w0)).cwiseAbs().cwiseQuotient(scale).maxCoeff();
    const vec& reference = first[v < 2 ? 0 : 2];
    r.agreement[v] = (first[v] - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff();
  }
  return r;
}

double slope(const std::vector<row>& rows, int v, double bench::timing::*field) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (const row& r : rows) {
    mx += std::log(r.n);
    my += std::log(r.step[v].*field);
  }
  mx /= rows.size();
  my /= rows.size();
  for (const row& r : rows) {
    const double x = std::log(r.n) - mx, y = std::log(r.step[v].*field) - my;
    sxy += x * y;
    sxx += x * x;
  }
  return sxy / sxx;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  const int largest = argc > 2 ? std::atoi(argv[2]) : 511;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  anderson_depth = argc > 4 ? std::atoi(argv[4]) : 5;
  Eigen::setNbThreads(threads);
  std::printf("su(N) sine-Euler: RKMK GL2 (implicit midpoint) in Cayley coordinates and the isospectral midpoint,\n");
  std::printf("fixed-point iterations to round-off, plain and Anderson-accelerated (depth %d);\n", anderson_depth);
  std::printf("h = %g, smooth initial vorticity; %d repetitions, interleaved with one MatrixXcd product\n", h, reps);
  std::printf("state <-> matrix: %s; Eigen threads: %d\n\n",
              su_n<17>::uses_fft ? "FFTs along the wrapped diagonals (FFTW)" : "one matrix product each way",
              Eigen::nbThreads());
  std::printf("%4s %7s %11s %8s %11s %8s %7s %9s %9s\n", "N", "variant", "step ms", "(median)", "product ms",
              "step/prod", "iter", "Casimir", "agree");
  std::vector<row> rows;
  auto run = [&](row r) {
    rows.push_back(r);
    for (int v = 0; v < variant_count; ++v)
      std::printf("%4d %7s %11.4f %8.4g %11.4f %8.2f %7.2f %9.1e %9.1e\n", r.n, variant_names[v], r.step[v].min * 1e3,
                  r.step[v].median * 1e3, r.product.min * 1e3, r.step[v].min / r.product.min, r.iterations[v],
                  r.casimir_error[v], r.agreement[v]);
    std::fflush(stdout);
  };
  run(measure<15>(reps));
  run(measure<31>(reps));
  run(measure<63>(reps));
  run(measure<127>(reps));
  run(measure<255>(reps));
  run(measure<511>(reps));
  if (largest >= 1023) run(measure<1023>(reps));

  std::printf("\nslope of log time against log N, N = 15..%d (min / median):", rows.back().n);
  for (int v = 0; v < variant_count; ++v)
    std::printf(" %s %.2f / %.2f,", variant_names[v], slope(rows, v, &bench::timing::min),
                slope(rows, v, &bench::timing::median));
  std::printf("\n");
  for (int v : {1, 3, 5}) {
    const double s_min = slope(rows, v, &bench::timing::min), s_med = slope(rows, v, &bench::timing::median);
    const std::string what = std::string("su(N) ") + variant_names[v] + " step: log-log slope of time per step vs N";
    std::printf("%-58s %8.3f %8.3f   target <= %.2f  %s\n", what.c_str(), s_min, s_med, 3.2,
                s_min <= 3.2 ? "met" : "MISSED");
  }
  for (const row& r : rows)
    for (int v = 0; v < variant_count; ++v) {
      const bool target = (v == 1 || v == 3 || v == 5) && (r.n == 255 || r.n == 511);
      if (r.n != 255 && !(target && r.n == 511)) continue;
      const std::string what = std::string("su(") + std::to_string(r.n) + ") " + variant_names[v] + " step / one " +
                               std::to_string(r.n) + "x" + std::to_string(r.n) + " product";
      bench::print_ratio(what.c_str(), r.step[v], r.product, target ? (r.n == 255 ? 15.0 : 10.0) : 0.0,
                         v == 1 ? "the first sweep costs an LU factorization and solve for the Cayley factor, one "
                                  "product with W(y0) and half a product (~3.6 products), the second a correction in "
                                  "double (2), the rest in single precision (~1 each), and the update is one more "
                                  "full Cayley action"
                         : v == 3 ? "the first sweep costs an LU factorization and solve, one product and half a "
                                    "product (~3.6 products), the second a correction in double (2), the other two "
                                    "in single precision (~1 each), the update one product"
                                  : "a sweep costs one product and half a product (~1.5), but the iteration contracts "
                                    "only by ~0.2 per sweep (~0.1 accelerated): 10-11 sweeps");
    }
  return 0;
}
