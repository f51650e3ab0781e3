// Symplecticity of a one-step map by central differences:
//   symplecticity_defect          any map Φ on a manifold M ⊂ ℝ²ⁿ = {(q, p)} with a basis U of
//                                 T_xM: (DΦ U)ᵀ J (DΦ U) = Uᵀ J U, J = [[0, I], [−I, 0]];
//   constrained_symplecticity_defect   the step of a stepper on a constrained Hamiltonian
//                                 system, on M = {g(q) = 0, G(q) ∂H/∂p = 0} (Hairer 2003, (2.5));
// (Lie–Poisson maps: poisson_map.hpp.)
// Central differences with ε = 1e-5 leave O(ε²) truncation and ~1e-15/ε solver noise, ~1e-10
// on a problem of unit size (difference_noise_floor, defect_trend.hpp). A non-symplectic method
// of order p shows O(hᵖ⁺¹) (Φₕ = φₕ + C hᵖ⁺¹ + …, so DΦᵀJDΦ − J = hᵖ⁺¹(DCᵀJ + J DC) + …): at
// moderate h that falls below any fixed threshold, so judge by the trend —
// symplecticity_trend measures the defect at several h and judges its slope (defect_trend.hpp).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/diagnostics/defect_trend.hpp"

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

namespace detail {
template <class S, class = void>
struct has_constrained_system : std::false_type {};
template <class S>
struct has_constrained_system<S, std::void_t<decltype(std::declval<const S&>().constrained_system())>>
    : std::true_type {};

/// The constrained Hamiltonian system whose constraint manifold carries the symplectic form a
/// stepper on `sys` is symplectic for: sys itself, or the system a view wraps
/// (riemannian/riemannian_system.hpp's on_space: its constrained_system()).
template <class System>
const auto& hamiltonian_form(const System& sys) {
  if constexpr (has_constrained_system<System>::value) return sys.constrained_system();
  else return sys;
}
}  // namespace detail

/// Symplecticity defect of one step h of a stepper (state std::pair<Q, P>) on a constrained
/// Hamiltonian system at x ∈ M (or on a view of one, see detail::hamiltonian_form: the
/// Riemannian systems of on_space). Each evaluation steps a fresh copy of the stepper.
template <class Stepper, class System, class State>
double constrained_symplecticity_defect(const Stepper& stepper, const System& sys, const State& x, double h,
                                        double eps = 1e-5) {
  const VectorXd q = view(x.first), p = view(x.second);
  return manifold_map_symplecticity_defect(
      detail::hamiltonian_form(sys), q, p,
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

/// constrained_symplecticity_defect at each of `steps`, judged by its slope against h: a
/// non-symplectic method of order p = stepper.order() shows hᵖ⁺¹, a symplectic one the noise
/// floor (defect_trend.hpp).
template <class Stepper, class System, class State>
property_judgement symplecticity_trend(const Stepper& stepper, const System& sys, const State& x,
                                       const std::vector<double>& steps,
                                       double noise_floor = difference_noise_floor) {
  std::vector<double> defects;
  for (double h : steps) defects.push_back(constrained_symplecticity_defect(stepper, sys, x, h));
  return judge_by_slope(steps, defects, static_cast<double>(stepper.order()) + 1, noise_floor);
}

}  // namespace geomint::diagnostics
