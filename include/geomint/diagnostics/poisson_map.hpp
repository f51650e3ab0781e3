// A Lie–Poisson stepper's step is a Poisson map when DΦ J(y) DΦᵀ = J(Φ(y)) (Engø–Faltinsen
// (2.11)), J(y) the Lie–Poisson tensor; checked by central differences (ε = 1e-5: a noise floor
// of ~1e-10, see symplecticity.hpp). A method of order p that is not a Poisson map shows
// O(hᵖ⁺¹) — RKMK-RK4's defect is 9.8e-9 at h = 0.05 on the free rigid body —, so judge by the
// trend: poisson_trend measures it at several h and judges its slope (defect_trend.hpp).
#pragma once

#include <Eigen/Dense>

#include "geomint/diagnostics/defect_trend.hpp"
#include "geomint/lie/lie_poisson_system.hpp"

namespace geomint::diagnostics {

/// max |DΦ J(y) DΦᵀ − J(Φ(y))| / max |J(Φ(y))| for one step of a Lie–Poisson stepper at y.
template <class Stepper, class System, class Y>
double poisson_map_defect(const Stepper& stepper, const System& sys, const Y& y, double h, double eps = 1e-5) {
  const auto& a = geomint::detail::algebra_of(sys);
  const int d = a.dim();
  auto step = [&](Y x) {
    Stepper copy = stepper;
    copy.do_step(sys, x, 0.0, h);
    return x;
  };
  Eigen::MatrixXd dphi(d, d);
  for (int j = 0; j < d; ++j) {
    Y plus = y, minus = y;
    plus(j) += eps;
    minus(j) -= eps;
    dphi.col(j) = (step(plus) - step(minus)) / (2 * eps);
  }
  const Y image = step(y);
  const Eigen::MatrixXd target = a.poisson_tensor(image);
  const Eigen::MatrixXd pushed = dphi * Eigen::MatrixXd(a.poisson_tensor(y)) * dphi.transpose();
  return (pushed - target).cwiseAbs().maxCoeff() / target.cwiseAbs().maxCoeff();
}

/// poisson_map_defect at each of `steps`, judged by its slope against h: a method of order
/// p = stepper.order() that is not a Poisson map shows hᵖ⁺¹, a Poisson map the noise floor.
template <class Stepper, class System, class Y>
property_judgement poisson_trend(const Stepper& stepper, const System& sys, const Y& y, const std::vector<double>& steps,
                                 double noise_floor = difference_noise_floor) {
  std::vector<double> defects;
  for (double h : steps) defects.push_back(poisson_map_defect(stepper, sys, y, h));
  return judge_by_slope(steps, defects, static_cast<double>(stepper.order()) + 1, noise_floor);
}

}  // namespace geomint::diagnostics
