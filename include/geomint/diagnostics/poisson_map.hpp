// A Lie–Poisson stepper's step is a Poisson map when DΦ J(y) DΦᵀ = J(Φ(y)) (Engø–Faltinsen
// (2.11)), J(y) the Lie–Poisson tensor; checked by central differences (see symplecticity.hpp
// for the accuracy of the check: ≲ 1e-7 is a Poisson map, a method that is not shows O(hᵖ)).
#pragma once

#include <Eigen/Dense>

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

}  // namespace geomint::diagnostics
