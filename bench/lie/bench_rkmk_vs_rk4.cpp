// RKMK (Engø–Faltinsen Algorithm 2 with the classical RK4 tableau, exp and Cayley coordinates)
// against a plain RK4 (odeint's runge_kutta4) on the same Lie–Poisson ODE ẏ = −ad*_{∇H(y)} y
// (geomint::lie_poisson_vector_field), side by side in one process:
//   - time per step, min and median over repetitions, and their ratio rkmk / RK4;
//   - the largest relative Casimir error over the same n steps (relative to the scale of the
//     Casimir's terms, casimir_scales): RKMK keeps it at round-off, plain RK4 does not.
//
//   bench_rkmk_vs_rk4 [repetitions] [steps]      (default 9 repetitions of 20000 steps, h = 0.1)
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <algorithm>
#include <array>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;
namespace odeint = boost::numeric::odeint;

namespace {

constexpr double h = 0.1;

struct timing {
  double min, median;
};

/// Seconds per step of `body`, which takes n steps.
template <class Body>
double seconds_per_step(Body&& body, long n) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / n;
}

timing summarize(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return timing{t.front(), t[t.size() / 2]};
}

/// Fixed-size algebras: std::array state for odeint; dynamic: std::vector.
template <int D>
struct odeint_state {
  using type = std::array<double, D>;
  static type make(int) { return type{}; }
};
template <>
struct odeint_state<dynamic> {
  using type = std::vector<double>;
  static type make(int d) { return type(d); }
};

template <class System>
void compare(const char* name, const System& sys, const typename System::state_type& y0, int reps, long n) {
  using A = typename System::algebra_type;
  using vec = typename A::vector_type;
  using ostate = typename odeint_state<A::dimension>::type;
  const A& alg = lie_detail::algebra_of(sys);
  const int d = alg.dim();
  const auto c0 = alg.casimirs(y0);
  const auto scale = alg.casimir_scales(y0);
  volatile double sink = 0;

  // Each timed run restarts from y0; the Casimir error of the last run is kept.
  double cas_exp = 0, cas_cay = 0, cas_rk4 = 0;
  auto run_rkmk = [&](auto stepper, double& cas) {
    return [&, stepper, out = &cas]() mutable {
      vec y = y0;
      double& cas = *out;
      cas = 0;
      for (long k = 0; k < n; ++k) {
        stepper.do_step(sys, y, k * h, h);
        if (k % 100 == 99) cas = std::fmax(cas, (alg.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
      }
      sink = sink + y(0);
    };
  };
  lie_poisson_vector_field<System> f(sys);
  auto run_rk4 = [&]() {
    odeint::runge_kutta4<ostate> rk4;
    ostate x = odeint_state<A::dimension>::make(d);
    std::copy(y0.data(), y0.data() + d, x.begin());
    cas_rk4 = 0;
    for (long k = 0; k < n; ++k) {
      rk4.do_step(f, x, k * h, h);
      if (k % 100 == 99) {
        const vec y = Eigen::Map<const Eigen::VectorXd>(x.data(), d);
        cas_rk4 = std::fmax(cas_rk4, (alg.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
      }
    }
    sink = sink + x[0];
  };
  // Interleave the methods' repetitions so that load changes on the machine hit all of them.
  std::vector<double> t_exp, t_cay, t_rk4;
  auto b_exp = run_rkmk(rkmk<A, rk::rk4, exp_coordinates>{}, cas_exp);
  auto b_cay = run_rkmk(rkmk<A, rk::rk4, cayley_coordinates>{}, cas_cay);
  for (int rep = 0; rep < reps; ++rep) {
    t_exp.push_back(seconds_per_step(b_exp, n));
    t_cay.push_back(seconds_per_step(b_cay, n));
    t_rk4.push_back(seconds_per_step(run_rk4, n));
  }
  const timing e = summarize(t_exp), c = summarize(t_cay), r = summarize(t_rk4);
  std::printf("%-16s %4d %9.3f %9.3f %9.3f %7.2f %7.2f %7.2f %7.2f %10.1e %10.1e %10.1e\n", name, d, r.min * 1e6,
              e.min * 1e6, c.min * 1e6, e.min / r.min, e.median / r.median, c.min / r.min, c.median / r.median, cas_rk4,
              cas_exp, cas_cay);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 9;
  const long n = argc > 2 ? std::atol(argv[2]) : 20000;
  std::printf("RKMK-RK4 vs plain RK4 (odeint runge_kutta4) on the same Lie-Poisson ODE, h = %g, %ld steps, %d reps\n",
              h, n, reps);
  std::printf("times in microseconds per step (min over reps); ratios rkmk/RK4 of min and of median;\n");
  std::printf("Casimir error: max |C - C0| / scale(C) over the run\n\n");
  std::printf("%-16s %4s %9s %9s %9s %7s %7s %7s %7s %10s %10s %10s\n", "problem", "dim", "RK4", "rkmk exp",
              "rkmk cay", "exp/min", "exp/med", "cay/min", "cay/med", "Cas RK4", "Cas exp", "Cas cay");
  compare("rigid body so3", problems::free_rigid_body{}, problems::free_rigid_body::engo_faltinsen_initial_state(),
          reps, n);
  compare("heavy top se3", problems::heavy_top_se3{}, problems::heavy_top_se3::engo_faltinsen_initial_state(), reps, n);
  compare("body so(5)", problems::rigid_body_so_n<5>{}, problems::rigid_body_so_n<5>::initial_state(), reps, n);
  compare("sine-Euler su(3)", problems::sine_euler<3>{}, problems::sine_euler<3>::random_initial_state(), reps, n);
  compare("sine-Euler su(7)", problems::sine_euler<7>{}, problems::sine_euler<7>::random_initial_state(), reps,
          n / 10);
  return 0;
}
