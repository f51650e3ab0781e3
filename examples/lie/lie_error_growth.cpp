// Global error growth on [0, 1000] for the rigid body (Engø–Faltinsen 1999 §5.4, Figs. 1–2):
// the explicit fourth-order RKMK (LRK4) against the energy-conserving trapezoidal rule (LTra),
// h = 0.1. A method that conserves energy and the Casimir keeps the trajectory on the periodic
// orbit, so only the phase error grows, linearly in t (Stuart–Estep); a method with an energy
// drift also drifts across orbits of different period, and its error grows like t².
// The reference is odeint's runge_kutta_dopri5 at tolerance 1e-14, carried along between the
// sample times. The fitted slope of log error against log t is printed for t ∈ [t_fit, T].
//
//   lie_error_growth [T] [h] [t_fit]      (default T = 1000, h = 0.1, t_fit = 10)
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"

using namespace geomint;
namespace odeint = boost::numeric::odeint;
using body = problems::free_rigid_body;

namespace {

/// Least-squares slope of log e against log t.
double loglog_slope(const std::vector<double>& t, const std::vector<double>& e) {
  double mx = 0, my = 0;
  const double n = static_cast<double>(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    mx += std::log(t[i]) / n;
    my += std::log(e[i]) / n;
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    sxy += (std::log(t[i]) - mx) * (std::log(e[i]) - my);
    sxx += (std::log(t[i]) - mx) * (std::log(t[i]) - mx);
  }
  return sxy / sxx;
}

}  // namespace

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 1000.0, h = argc > 2 ? std::atof(argv[2]) : 0.1,
               t_fit = argc > 3 ? std::atof(argv[3]) : 10.0;
  const body sys;
  const body::state_type y0 = body::engo_faltinsen_initial_state();
  rkmk<so3, rk::rk4> lrk4;
  lie_discrete_gradient<so3> ltra;
  body::state_type y_rk4 = y0, y_tra = y0;
  std::vector<double> ref(y0.data(), y0.data() + 3);
  lie_poisson_vector_field<body> f(sys);
  auto dopri = odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_dopri5<std::vector<double>>());

  // Samples at t = 1, then about 20 per decade.
  const long n = std::lround(t_end / h), per_unit = std::lround(1 / h);
  std::vector<double> ts, e_rk4, e_tra;
  long next_sample = per_unit;
  std::printf("rigid body, Engø–Faltinsen §5.4: global error |y_n - y(t_n)|, h = %g\n", h);
  std::printf("%10s %14s %14s\n", "t", "LRK4", "LTra");
  double t_prev = 0;
  for (long k = 1; k <= n; ++k) {
    lrk4.do_step(sys, y_rk4, (k - 1) * h, h);
    ltra.do_step(sys, y_tra, (k - 1) * h, h);
    if (k == next_sample || k == n) {
      const double t = k * h;
      odeint::integrate_adaptive(dopri, f, ref, t_prev, t, 1e-3);
      t_prev = t;
      const Eigen::Map<const Eigen::Vector3d> exact(ref.data());
      ts.push_back(t);
      e_rk4.push_back((y_rk4 - exact).norm());
      e_tra.push_back((y_tra - exact).norm());
      std::printf("%10.1f %14.4e %14.4e\n", t, e_rk4.back(), e_tra.back());
      next_sample = std::max(k + 1, std::lround(next_sample * std::pow(10.0, 1.0 / 20)));
    }
  }
  std::vector<double> tf, f_rk4, f_tra;
  for (std::size_t i = 0; i < ts.size(); ++i)
    if (ts[i] >= t_fit) {
      tf.push_back(ts[i]);
      f_rk4.push_back(e_rk4[i]);
      f_tra.push_back(e_tra[i]);
    }
  std::printf("\nfitted slope of log error against log t on [%g, %g] (%zu samples):\n", t_fit, t_end, tf.size());
  std::printf("  LRK4 (rkmk<so3, rk::rk4>)            %.3f\n", loglog_slope(tf, f_rk4));
  std::printf("  LTra (lie_discrete_gradient<so3>)    %.3f\n", loglog_slope(tf, f_tra));
  return 0;
}
