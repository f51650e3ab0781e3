// Helpers shared by the Lie–Poisson tests: random algebra elements, finite differences,
// invariant drift over long runs, reference solutions by odeint's dopri5.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <utility>  // before odeint: its check_adapter.hpp uses std::pair without including it
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "geomint/lie/lie_poisson_system.hpp"

namespace lie_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// Entries uniform in [−scale, scale], reproducible.
template <class V>
V random_vector(int d, double scale, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  V v(d);
  for (int i = 0; i < d; ++i) v(i) = u(gen);
  return v;
}

/// max |a − b| / max(|b|, floor)
template <class A, class B>
double relative_difference(const A& a, const B& b, double floor = 1e-300) {
  return (a - b).cwiseAbs().maxCoeff() / std::fmax(b.cwiseAbs().maxCoeff(), floor);
}

/// Steps `stepper` n times from y and returns the largest relative change of each quantity
/// returned by invariants(y) (a vector), taken against its initial value.
template <class Stepper, class System, class State, class Invariants>
GEOMINT_NOINLINE Eigen::VectorXd invariant_drift(Stepper& stepper, const System& sys, State y, double h, long n,
                                Invariants&& invariants) {
  const Eigen::VectorXd c0 = invariants(y);
  Eigen::VectorXd worst = Eigen::VectorXd::Zero(c0.size());
  double t = 0;
  for (long k = 0; k < n; ++k) {
    stepper.do_step(sys, y, t, h);
    t += h;
    const Eigen::VectorXd c = invariants(y);
    for (int i = 0; i < c.size(); ++i)
      worst(i) = std::fmax(worst(i), std::fabs(c(i) - c0(i)) / std::fmax(std::fabs(c0(i)), 1e-300));
  }
  return worst;
}

/// The exact flow of ẏ = J(y)∇H(y) by odeint's runge_kutta_dopri5 at tolerance 1e-13.
template <class System>
GEOMINT_NOINLINE Eigen::VectorXd reference_solution(const System& sys, const Eigen::VectorXd& y0, double t_end) {
  namespace odeint = boost::numeric::odeint;
  std::vector<double> x(y0.data(), y0.data() + y0.size());
  geomint::lie_poisson_vector_field<System> f(sys);
  odeint::integrate_adaptive(odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_dopri5<std::vector<double>>()),
                             f, x, 0.0, t_end, 1e-3);
  return Eigen::Map<Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
}

/// Global error at t_end of a stepper with step t_end/n against a reference.
template <class Stepper, class System, class State>
GEOMINT_NOINLINE double global_error(Stepper stepper, const System& sys, const State& y0, const Eigen::VectorXd& reference,
                    double t_end, int n) {
  State y = y0;
  const double h = t_end / n;
  for (int k = 0; k < n; ++k) stepper.do_step(sys, y, k * h, h);
  return (Eigen::VectorXd(y) - reference).norm() / reference.norm();
}

}  // namespace lie_test
