// Lie–Poisson steppers against a plain RK4 (Boost.Odeint's runge_kutta4), side by side in one
// process (bench/support/bench_timing.hpp: interleaved repetitions, min and median).
//
// Part 1: the free rigid body with Engø–Faltinsen's data (§6.1: I = diag(7/8, 5/8, 1/4),
// y(0) = (0.875, 0.625, 0.25)), h = 0.1, `reps` repetitions of `steps` steps (default 10 × 1e5 =
// 1e6 steps): time per step of every RKMK variant (forward Euler, Heun, RK4, GL2 = implicit
// midpoint, trapezoidal; exp and Cayley coordinates), the Lie discrete gradient (exp, Cayley)
// and Moser–Veselov, each against runge_kutta4 on the Euler equations ẏ = y × I⁻¹y written
// out (std::array<double, 3>). Target: RKMK-RK4 in exp coordinates ≤ 3× runge_kutta4, met by
// RK4's two-commutator form (rk::rk4_two_commutators); the form with dexp⁻¹ in every stage
// (rk::rk4) is reported beside it. Each generic stepper is also timed against the same
// arithmetic written out by hand in one loop.
//
// Part 2 (information): RKMK-RK4 (exp, its two-commutator form, Cayley) against runge_kutta4 on
// the generic vector field lie_poisson_vector_field for the other algebras, with the largest
// relative Casimir error: RKMK keeps it at round-off, plain RK4 does not.
//
//   bench_rkmk_vs_rk4 [repetitions] [steps]      (default 10 repetitions of 100000 steps)
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <algorithm>
#include <array>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../support/bench_timing.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;
namespace odeint = boost::numeric::odeint;

namespace {

constexpr double h = 0.1;

/// The Euler equations ẏ = y × I⁻¹y as a user would write them for odeint.
struct euler_equations {
  std::array<double, 3> inverse_inertia;
  void operator()(const std::array<double, 3>& y, std::array<double, 3>& dy, double) const {
    const double w0 = y[0] * inverse_inertia[0], w1 = y[1] * inverse_inertia[1], w2 = y[2] * inverse_inertia[2];
    dy[0] = y[1] * w2 - y[2] * w1;
    dy[1] = y[2] * w0 - y[0] * w2;
    dy[2] = y[0] * w1 - y[1] * w0;
  }
};

/// so3's Rodrigues coefficients a = sin θ/θ, b = (1 − cos θ)/θ² of t = θ², the same series
/// (Estrin's scheme) and branches as so3::rodrigues_coefficients, for the hand-written loop.
inline void rodrigues(double t, double& a, double& b) {
  constexpr double ca[] = {1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800,
                           1.0 / 6227020800.0, -1.0 / 1307674368000.0};
  constexpr double cb[] = {1.0 / 2, -1.0 / 24, 1.0 / 720, -1.0 / 40320, 1.0 / 3628800, -1.0 / 479001600,
                           1.0 / 87178291200.0, -1.0 / 20922789888000.0};
  const double t2 = t * t, t4 = t2 * t2;
  if (t <= 0.08) {
    a = (ca[0] + ca[1] * t) + t2 * (ca[2] + ca[3] * t) + t4 * (ca[4] + ca[5] * t);
    b = (cb[0] + cb[1] * t) + t2 * (cb[2] + cb[3] * t) + t4 * (cb[4] + cb[5] * t);
  } else if (t <= 0.6) {
    a = ((ca[0] + ca[1] * t) + t2 * (ca[2] + ca[3] * t)) + t4 * ((ca[4] + ca[5] * t) + t2 * (ca[6] + ca[7] * t));
    b = ((cb[0] + cb[1] * t) + t2 * (cb[2] + cb[3] * t)) + t4 * ((cb[4] + cb[5] * t) + t2 * (cb[6] + cb[7] * t));
  } else {
    const double theta = std::sqrt(t), half = std::sin(theta / 2) / (theta / 2);
    a = std::sin(theta) / theta;
    b = 0.5 * half * half;
  }
}

/// RKMK-RK4 in exp coordinates on the rigid body written out by hand in one loop, the arithmetic
/// of rkmk<so3, rk::rk4>: stage points y₀ + exp increment (Rodrigues), ∇H = I⁻¹y, dexp⁻¹
/// truncated after degree 2, update y₀ rotated by σ = h Σ b_i k_i.
struct hand_written_rkmk_rk4 {
  Eigen::Vector3d inverse_inertia;
  static Eigen::Vector3d rotate(const Eigen::Vector3d& s, const Eigen::Vector3d& y) {  // exp(−hat σ) y
    double a, b;
    rodrigues(s.squaredNorm(), a, b);
    const Eigen::Vector3d sx = s.cross(y);
    return y + (-a * sx + b * s.cross(sx));
  }
  static Eigen::Vector3d dexp_inv(const Eigen::Vector3d& s, const Eigen::Vector3d& v) {  // q = 2
    return (1 - s.squaredNorm() / 12) * v + 0.5 * s.cross(v) + (s.dot(v) / 12) * s;
  }
  void step(Eigen::Vector3d& y) const {
    const Eigen::Vector3d k1 = y.cwiseProduct(inverse_inertia);
    Eigen::Vector3d s = (0.5 * h) * k1;
    const Eigen::Vector3d k2 = dexp_inv(s, rotate(s, y).cwiseProduct(inverse_inertia));
    s = (0.5 * h) * k2;
    const Eigen::Vector3d k3 = dexp_inv(s, rotate(s, y).cwiseProduct(inverse_inertia));
    s = h * k3;
    const Eigen::Vector3d k4 = dexp_inv(s, rotate(s, y).cwiseProduct(inverse_inertia));
    y = rotate((h / 6) * (k1 + 2 * (k2 + k3) + k4), y);
  }
};

/// RK4's two-commutator form written out by hand, the arithmetic of
/// rkmk<so3, rk::rk4_two_commutators>: F_i = h ∇H(y_i), brackets [u, v] = v × u.
struct hand_written_two_commutators {
  Eigen::Vector3d inverse_inertia;
  void step(Eigen::Vector3d& y) const {
    using rk4 = hand_written_rkmk_rk4;
    const Eigen::Vector3d k1 = y.cwiseProduct(inverse_inertia);
    const Eigen::Vector3d k2 = rk4::rotate((0.5 * h) * k1, y).cwiseProduct(inverse_inertia);
    const Eigen::Vector3d k3 =
        rk4::rotate((0.5 * h) * k2 - (h * h / 8) * k2.cross(k1), y).cwiseProduct(inverse_inertia);
    const Eigen::Vector3d k4 = rk4::rotate(h * k3, y).cwiseProduct(inverse_inertia);
    y = rk4::rotate((h / 6) * (k1 + k4 + 2 * (k2 + k3)) - (h * h / 12) * k4.cross(k1), y);
  }
};

struct candidate {
  std::string name;
  std::function<void(long)> run;  // n steps from y(0)
  double casimir_error = 0;       // | |y(nh)| − |y(0)| | / |y(0)| after the last run
};

void rigid_body(int reps, long n) {
  const problems::free_rigid_body sys;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  std::vector<candidate> c;
  c.reserve(32);  // the runs keep pointers to their entries: no reallocation
  volatile double sink = 0;
  {
    const vector<3> inv = sys.inertia().cwiseInverse();
    c.push_back({"odeint runge_kutta4 (Euler equations)", {}});
    c.back().run = [&, f = euler_equations{{inv(0), inv(1), inv(2)}}, out = &c.back().casimir_error](long steps) {
      odeint::runge_kutta4<std::array<double, 3>> rk4;
      std::array<double, 3> x{y0(0), y0(1), y0(2)};
      for (long k = 0; k < steps; ++k) rk4.do_step(f, x, k * h, h);
      *out = std::fabs(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / y0.norm() - 1);
      sink = sink + x[0];
    };
  }
  auto add_hand_written = [&](std::string name, auto loop) {
    c.push_back({std::move(name), {}});
    c.back().run = [&, loop, out = &c.back().casimir_error](long steps) {
      Eigen::Vector3d y = y0;
      for (long k = 0; k < steps; ++k) loop.step(y);
      *out = std::fabs(y.norm() / y0.norm() - 1);
      sink = sink + y(0);
    };
  };
  add_hand_written("hand-written RKMK-RK4 loop, exp", hand_written_rkmk_rk4{sys.inertia().cwiseInverse()});
  add_hand_written("hand-written two-commutator loop", hand_written_two_commutators{sys.inertia().cwiseInverse()});
  // Forward Euler's energy error drives the body onto its long axis within ~400 steps of h = 0.1
  // and the other two components to subnormal numbers by ~3e4 steps, where Intel CPUs take
  // microcode assists on every operation (222 ns per step against Heun's 30 ns): its runs restart
  // from y(0) every `restart` steps, so that they time the tumbling body like the other methods.
  auto add = [&](std::string name, auto stepper, long restart = 0) {
    c.push_back({std::move(name), {}});
    c.back().run = [&, stepper, restart, out = &c.back().casimir_error](long steps) mutable {
      vector<3> y = y0;
      for (long k = 0; k < steps; ++k) {
        if (restart > 0 && k % restart == 0) y = y0;
        stepper.do_step(sys, y, k * h, h);
      }
      *out = std::fabs(y.norm() / y0.norm() - 1);
      sink = sink + y(0);
    };
  };
  add("rkmk forward Euler, exp", rkmk<so3, rk::forward_euler>{}, 200);
  add("rkmk Heun, exp", rkmk<so3, rk::heun>{});
  add("rkmk RK4, exp", rkmk<so3, rk::rk4>{});
  add("rkmk RK4 two commutators, exp", rkmk<so3, rk::rk4_two_commutators>{});
  add("rkmk GL2 (implicit midpoint), exp", rkmk<so3, rk::implicit_midpoint>{});
  add("rkmk trapezoidal, exp", rkmk<so3, rk::trapezoidal>{});
  add("rkmk forward Euler, Cayley", rkmk<so3, rk::forward_euler, cayley_coordinates>{}, 200);
  add("rkmk Heun, Cayley", rkmk<so3, rk::heun, cayley_coordinates>{});
  add("rkmk RK4, Cayley", rkmk<so3, rk::rk4, cayley_coordinates>{});
  add("rkmk GL2 (implicit midpoint), Cayley", rkmk<so3, rk::implicit_midpoint, cayley_coordinates>{});
  add("rkmk trapezoidal, Cayley", rkmk<so3, rk::trapezoidal, cayley_coordinates>{});
  add("lie_discrete_gradient, exp", lie_discrete_gradient<so3>{});
  add("lie_discrete_gradient, Cayley", lie_discrete_gradient<so3, cayley_coordinates>{});
  add("moser_veselov", moser_veselov<so3>{});

  std::vector<std::function<void(long)>> runs;
  for (const candidate& k : c) runs.push_back(k.run);
  const std::vector<bench::timing> t = bench::side_by_side(runs, n, reps);

  std::printf("Free rigid body (Engo-Faltinsen 6.1 data), h = %g, %d repetitions x %ld steps = %.0e steps each\n",
              h, reps, n, double(reps) * n);
  std::printf("%-40s %10s %10s %12s\n", "method", "ns/step", "(median)", "Casimir err");
  for (std::size_t i = 0; i < c.size(); ++i)
    std::printf("%-40s %10.1f %10.1f %12.1e\n", c[i].name.c_str(), t[i].min * 1e9, t[i].median * 1e9,
                c[i].casimir_error);
  std::printf("\nratio to odeint runge_kutta4 (min, median)\n");
  auto index = [&](const char* name) {
    return std::size_t(std::find_if(c.begin(), c.end(), [&](const candidate& k) { return k.name == name; }) - c.begin());
  };
  const std::size_t two_commutators = index("rkmk RK4 two commutators, exp");
  for (std::size_t i = 1; i < c.size(); ++i) {
    const std::string what = "rigid body: " + c[i].name + " / runge_kutta4";
    bench::print_ratio(what.c_str(), t[i], t[0], i == two_commutators ? 3.0 : 0.0,
                       "an RKMK-RK4 step is one chain of four rotations, each after the previous stage (sigma, "
                       "theta^2, the Rodrigues coefficients, the rotation, grad H), and it keeps both FP ports busy; "
                       "the same arithmetic written out by hand is timed beside it (below)");
  }
  bench::print_ratio("rigid body: rkmk RK4, exp / hand-written RKMK-RK4 loop", t[index("rkmk RK4, exp")],
                     t[index("hand-written RKMK-RK4 loop, exp")]);
  bench::print_ratio("rigid body: rkmk RK4 two commutators / hand-written loop", t[two_commutators],
                     t[index("hand-written two-commutator loop")]);
  std::printf("\n");
}

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
  const A& alg = geomint::detail::algebra_of(sys);
  const int d = alg.dim();
  const auto c0 = alg.casimirs(y0);
  const auto scale = alg.casimir_scales(y0);
  volatile double sink = 0;

  // Each timed run restarts from y0; the Casimir error of the last run is kept.
  double cas_exp = 0, cas_2c = 0, cas_cay = 0, cas_rk4 = 0;
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
  std::vector<double> t_exp, t_2c, t_cay, t_rk4;
  auto b_exp = run_rkmk(rkmk<A, rk::rk4, exp_coordinates>{}, cas_exp);
  auto b_2c = run_rkmk(rkmk<A, rk::rk4_two_commutators, exp_coordinates>{}, cas_2c);
  auto b_cay = run_rkmk(rkmk<A, rk::rk4, cayley_coordinates>{}, cas_cay);
  for (int rep = 0; rep < reps; ++rep) {
    t_exp.push_back(seconds_per_step(b_exp, n));
    t_2c.push_back(seconds_per_step(b_2c, n));
    t_cay.push_back(seconds_per_step(b_cay, n));
    t_rk4.push_back(seconds_per_step(run_rk4, n));
  }
  const timing e = summarize(t_exp), w = summarize(t_2c), c = summarize(t_cay), r = summarize(t_rk4);
  std::printf("%-16s %4d %9.3f %9.3f %9.3f %9.3f %7.2f %7.2f %7.2f %7.2f %10.1e %10.1e %10.1e %10.1e\n", name, d,
              r.min * 1e6, e.min * 1e6, w.min * 1e6, c.min * 1e6, e.min / r.min, e.median / r.median, w.min / r.min,
              c.min / r.min, cas_rk4, cas_exp, cas_2c, cas_cay);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 10;
  const long n = argc > 2 ? std::atol(argv[2]) : 100000;
  rigid_body(reps, n);

  // Part 2: fewer steps (the larger algebras cost up to ~30 us per step).
  const int reps2 = std::max(3, reps / 2);
  const long n2 = std::max(1000L, n / 10);
  std::printf("RKMK-RK4 vs plain RK4 (odeint runge_kutta4) on the generic Lie-Poisson vector field, h = %g, %ld steps, %d reps\n",
              h, n2, reps2);
  std::printf("times in microseconds per step (min over reps); ratios rkmk/RK4 of min (and of median for exp);\n");
  std::printf("rkmk 2c: RK4's two-commutator form (exp coordinates)\n");
  std::printf("Casimir error: max |C - C0| / scale(C) over the run\n\n");
  std::printf("%-16s %4s %9s %9s %9s %9s %7s %7s %7s %7s %10s %10s %10s %10s\n", "problem", "dim", "RK4", "rkmk exp",
              "rkmk 2c", "rkmk cay", "exp/min", "exp/med", "2c/min", "cay/min", "Cas RK4", "Cas exp", "Cas 2c", "Cas cay");
  compare("rigid body so3", problems::free_rigid_body{}, problems::free_rigid_body::engo_faltinsen_initial_state(),
          reps2, n2);
  compare("heavy top se3", problems::heavy_top_se3{}, problems::heavy_top_se3::engo_faltinsen_initial_state(), reps2,
          n2);
  compare("body so(5)", problems::rigid_body_so_n<5>{}, problems::rigid_body_so_n<5>::initial_state(), reps2, n2);
  compare("sine-Euler su(3)", problems::sine_euler<3>{}, problems::sine_euler<3>::random_initial_state(), reps2, n2);
  compare("sine-Euler su(7)", problems::sine_euler<7>{}, problems::sine_euler<7>::random_initial_state(), reps2,
          n2 / 10);
  return 0;
}
