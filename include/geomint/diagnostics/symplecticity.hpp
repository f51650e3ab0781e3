// Symplecticity of a one-step map by central differences:
//   symplecticity_defect          any map Φ on a manifold M ⊂ ℝ²ⁿ = {(q, p)} with a basis U of
//                                 T_xM: (DΦ U)ᵀ J (DΦ U) = Uᵀ J U, J = [[0, I], [−I, 0]];
//   constrained_symplecticity_defect   the step of a stepper on a constrained Hamiltonian
//                                 system, on M = {g(q) = 0, G(q) ∂H/∂p = 0} (Hairer 2003, (2.5));
// (Lie–Poisson maps: poisson_map.hpp.)
// Central differences with ε = 1e-5 leave O(ε²) truncation and ~1e-15/ε solver noise: a defect
// ≲ 1e-7 is symplectic to the accuracy of the check; a non-symplectic method of step h shows
// O(h^{p}) or more.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <functional>

#include "geomint/constrained/project_to_manifold.hpp"

namespace geomint::diagnostics {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// ω(a, b) = a_qᵀ b_p − a_pᵀ b_q for a, b ∈ ℝ²ⁿ laid out (q, p).
inline double omega(const VectorXd& a, const VectorXd& b) {
  const Eigen::Index n = a.size() / 2;
  return a.head(n).dot(b.tail(n)) - a.tail(n).dot(b.head(n));
}

/// max_ij |ω(DΦu_i, DΦu_j) − ω(u_i, u_j)| / max_ij |ω(u_i, u_j)|. `map(x)` returns Φ(x);
/// `to_manifold(x)` a point of M near x (identity if M = ℝ²ⁿ); central differences with step eps
/// cancel the O(eps²) correction of to_manifold.
inline double symplecticity_defect(const std::function<VectorXd(const VectorXd&)>& map,
                                   const std::function<VectorXd(const VectorXd&)>& to_manifold,
                                   const VectorXd& x, const MatrixXd& basis, double eps = 1e-5) {
  const Eigen::Index k = basis.cols();
  MatrixXd image(x.size(), k);
  for (Eigen::Index j = 0; j < k; ++j) {
    const VectorXd plus = map(to_manifold(x + eps * basis.col(j)));
    const VectorXd minus = map(to_manifold(x - eps * basis.col(j)));
    image.col(j) = (plus - minus) / (2 * eps);
  }
  double defect = 0, scale = 0;
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k; ++j) {
      const double before = omega(basis.col(i), basis.col(j));
      defect = std::fmax(defect, std::fabs(omega(image.col(i), image.col(j)) - before));
      scale = std::fmax(scale, std::fabs(before));
    }
  return defect / scale;
}

/// Orthonormal basis of the tangent space of M = {g(q) = 0, G(q) ∂H/∂p(q, p) = 0} at x = (q, p):
/// the null space of the Jacobian of (g, G ∂H/∂p), by central differences.
template <class System>
MatrixXd constraint_tangent_basis(const System& sys, const VectorXd& x) {
  const int n = sys.position_count(), m = sys.constraint_count();
  auto constraints = [&](const VectorXd& y) {
    VectorXd q = y.head(n), p = y.tail(n), v(n), out(2 * m), g(m);
    typename system_traits<System>::jacobian_type jac(m, n);
    sys.constraint(q, g);
    sys.constraint_jacobian(q, jac);
    sys.dh_dp(q, p, v);
    out.head(m) = g;
    out.tail(m) = jac * v;
    return out;
  };
  if (m == 0) return MatrixXd::Identity(2 * n, 2 * n);
  MatrixXd c(2 * m, 2 * n);
  const double d = 1e-6;
  for (int j = 0; j < 2 * n; ++j) {
    VectorXd e = VectorXd::Zero(2 * n);
    e(j) = d;
    c.col(j) = (constraints(x + e) - constraints(x - e)) / (2 * d);
  }
  Eigen::JacobiSVD<MatrixXd> svd(c, Eigen::ComputeFullV);
  return svd.matrixV().rightCols(2 * n - 2 * m);
}

/// Symplecticity defect on M of a map given as step(q, p) (in place, Eigen::VectorXd).
template <class System, class Step>
double manifold_map_symplecticity_defect(const System& sys, const VectorXd& q, const VectorXd& p, Step step,
                                         double eps = 1e-5) {
  const int n = sys.position_count();
  VectorXd x(2 * n);
  x << q, p;
  auto map = [&](const VectorXd& y) {
    VectorXd a = y.head(n), b = y.tail(n);
    step(a, b);
    VectorXd out(2 * n);
    out << a, b;
    return out;
  };
  auto to_manifold = [&](const VectorXd& y) {
    VectorXd a = y.head(n), b = y.tail(n);
    project_to_manifold(sys, a, b, 1e-15);
    VectorXd out(2 * n);
    out << a, b;
    return out;
  };
  return symplecticity_defect(map, to_manifold, x, constraint_tangent_basis(sys, x), eps);
}

/// Symplecticity defect of one step h of a stepper (state std::pair<Q, P>) on a constrained
/// Hamiltonian system at x ∈ M. Each evaluation steps a fresh copy of the stepper.
template <class Stepper, class System, class State>
double constrained_symplecticity_defect(const Stepper& stepper, const System& sys, const State& x, double h,
                                        double eps = 1e-5) {
  const VectorXd q = view(x.first), p = view(x.second);
  return manifold_map_symplecticity_defect(
      sys, q, p,
      [&](VectorXd& a, VectorXd& b) {
        State s = x;
        view(s.first) = a;
        view(s.second) = b;
        Stepper copy = stepper;
        copy.do_step(sys, s, 0.0, h);
        a = view(s.first);
        b = view(s.second);
      },
      eps);
}

}  // namespace geomint::diagnostics
