// Helpers shared by the Riemannian leapfrog tests.
#pragma once

#include <boost/test/unit_test.hpp>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "geomint/problems/heavy_top_so3.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/riemannian/sphere_product.hpp"

/// Logs a measured figure (visible with --log_level=message) and returns it.
#define GEOMINT_MEASURED(name, expr)                \
  ([&] {                                            \
    const double measured_ = (expr);                \
    BOOST_TEST_MESSAGE(name << " = " << measured_); \
    return measured_;                               \
  }())

namespace riemannian_test {

using geomint::matrix;
using geomint::vector;

template <class Stepper, class System, class State>
State run(Stepper stepper, const System& sys, State x, double T, int n) {
  const double h = T / n;
  for (int i = 0; i < n; ++i) stepper.do_step(sys, x, i * h, h);
  return x;
}

template <class State>
double distance(const State& a, const State& b) {
  return std::max((a.first - b.first).cwiseAbs().maxCoeff() / b.first.cwiseAbs().maxCoeff(),
                  (a.second - b.second).cwiseAbs().maxCoeff() / b.second.cwiseAbs().maxCoeff());
}

/// The particle on the unit sphere with position-dependent inertia of variable_mass_sphere
/// (H = ½ Σ p_i²/μ_i(q) + γ q₃, μ_i = 1 + a_i q_i²) as a Riemannian system with the
/// non-constant kinetic metric K(q) = diag(μ_i(q)).
struct variable_metric_sphere {
  using space_type = geomint::sphere;
  static constexpr bool constant_metric = false;
  geomint::problems::variable_mass_sphere_parameters par;
  geomint::sphere s{1.0};
  const geomint::sphere& space() const { return s; }
  vector<3> a() const { return vector<3>(par.a1, par.a2, par.a3); }
  template <class Q>
  double potential_energy(const Q& q) const { return par.gravity * q(2); }
  template <class Q, class Out>
  void potential_gradient(const Q&, Out& out) const { out << 0, 0, par.gravity; }
  template <class Q, class Out>
  void kinetic_metric(const Q& q, Out& k) const {
    k.setZero();
    for (int i = 0; i < 3; ++i) k(i, i) = 1 + a()(i) * q(i) * q(i);
  }
  /// ∂_q(wᵀK(q)w) = (2 a_i q_i w_i²)_i
  template <class Q, class W, class Out>
  void metric_derivative(const Q& q, const W& w, Out& out) const {
    for (int i = 0; i < 3; ++i) out(i) = 2 * a()(i) * q(i) * w(i) * w(i);
  }
};

/// T*SO(3) embedded in ℝ¹⁸ = {(Q, P)} with the canonical form Σ dQ_ij ∧ dP_ij: the body
/// momentum Π is the covector P = q Π̂/2 (tr(Pᵀ q v̂) = Π·v). Used to check symplecticity of the
/// leapfrog on SO(3) with the finite-difference helper.
struct so3_embedding {
  using state = geomint::problems::heavy_top_so3::state_type;
  static matrix<3, 3> hat(const vector<3>& v) {
    matrix<3, 3> k;
    k << 0, -v(2), v(1), v(2), 0, -v(0), -v(1), v(0), 0;
    return k;
  }
  static Eigen::VectorXd embed(const state& s) {
    Eigen::VectorXd x(18);
    const Eigen::Map<const matrix<3, 3>> q(s.first.data());
    const matrix<3, 3> p = q * hat(s.second) / 2;
    x.head(9) = s.first;
    x.tail(9) = Eigen::Map<const vector<9>>(p.data());
    return x;
  }
  /// Nearest point of the embedded T*SO(3): polar factor of Q, Π from the skew part of QᵀP.
  static state unembed(const Eigen::VectorXd& x) {
    const matrix<3, 3> a = Eigen::Map<const matrix<3, 3>>(x.data());
    Eigen::JacobiSVD<matrix<3, 3>> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const matrix<3, 3> q = svd.matrixU() * svd.matrixV().transpose();
    const matrix<3, 3> s = q.transpose() * Eigen::Map<const matrix<3, 3>>(x.data() + 9);
    const matrix<3, 3> k = s - s.transpose();
    state out;
    Eigen::Map<matrix<3, 3>>(out.first.data()) = q;
    out.second << k(2, 1), k(0, 2), k(1, 0);
    return out;
  }
  /// Basis of the tangent space at s: (δq, δΠ) = (q â, b) ↦ (q â, q âΠ̂/2 + q b̂/2).
  static Eigen::MatrixXd tangent_basis(const state& s) {
    const Eigen::Map<const matrix<3, 3>> q(s.first.data());
    Eigen::MatrixXd basis(18, 6);
    for (int j = 0; j < 6; ++j) {
      vector<3> a = vector<3>::Zero(), b = vector<3>::Zero();
      if (j < 3) a(j) = 1;
      else b(j - 3) = 1;
      const matrix<3, 3> dq = q * hat(a), dp = q * hat(a) * hat(s.second) / 2 + q * hat(b) / 2;
      basis.col(j).head(9) = Eigen::Map<const vector<9>>(dq.data());
      basis.col(j).tail(9) = Eigen::Map<const vector<9>>(dp.data());
    }
    return basis;
  }
};

}  // namespace riemannian_test
