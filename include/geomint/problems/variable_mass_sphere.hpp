// A non-separable test problem: a particle on the sphere |q| = r whose inertia depends on its
// position (an anisotropic medium), H = ½ Σ_i p_i² / μ_i(q) + γ q_3 with μ_i(q) = 1 + a_i q_i².
// ∂H/∂q couples q and p, so the methods' general (non-separable) path is exercised. All second
// derivatives are analytic.
#pragma once

#include <cmath>
#include <utility>

#include "geomint/core/types.hpp"

namespace geomint::problems {

struct variable_mass_sphere_parameters {
  double radius = 1.0;
  double gravity = 1.0;
  double a1 = 0.5, a2 = 1.5, a3 = 0.8;
};

class variable_mass_sphere {
 public:
  static constexpr int position_size = 3;
  static constexpr int constraint_size = 1;
  using state_type = std::pair<vector<3>, vector<3>>;
  using parameters_type = variable_mass_sphere_parameters;

  explicit variable_mass_sphere(const parameters_type& p = {}) : parameters_(p), a_(p.a1, p.a2, p.a3) {}

  int position_count() const { return 3; }
  int constraint_count() const { return 1; }

  template <class Q, class P>
  double hamiltonian(const Q& q, const P& p) const {
    double h = parameters_.gravity * q(2);
    for (int i = 0; i < 3; ++i) h += 0.5 * p(i) * p(i) / mu(q, i);
    return h;
  }
  template <class Q, class P, class Out>
  void dh_dq(const Q& q, const P& p, Out& out) const {  // −½ p_i² μ_i'/μ_i², μ_i' = 2 a_i q_i
    for (int i = 0; i < 3; ++i) out(i) = -p(i) * p(i) * a_(i) * q(i) / (mu(q, i) * mu(q, i));
    out(2) += parameters_.gravity;
  }
  template <class Q, class P, class Out>
  void dh_dp(const Q& q, const P& p, Out& out) const {
    for (int i = 0; i < 3; ++i) out(i) = p(i) / mu(q, i);
  }
  template <class Q, class P, class Out>
  void h_qq(const Q& q, const P& p, Out& out) const {  // −p_i² a_i (1 − 3 a_i q_i²) / μ_i³
    out.setZero();
    for (int i = 0; i < 3; ++i) {
      const double m = mu(q, i);
      out(i, i) = -p(i) * p(i) * a_(i) * (1 - 3 * a_(i) * q(i) * q(i)) / (m * m * m);
    }
  }
  template <class Q, class P, class Out>
  void h_qp(const Q& q, const P& p, Out& out) const {  // ∂²H/∂q_i∂p_i = −2 p_i a_i q_i / μ_i²
    out.setZero();
    for (int i = 0; i < 3; ++i) out(i, i) = -2 * p(i) * a_(i) * q(i) / (mu(q, i) * mu(q, i));
  }
  template <class Q, class P, class Out>
  void h_pp(const Q& q, const P&, Out& out) const {
    out.setZero();
    for (int i = 0; i < 3; ++i) out(i, i) = 1 / mu(q, i);
  }
  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { out(0) = q.squaredNorm() - parameters_.radius * parameters_.radius; }
  template <class Q, class G>
  void constraint_jacobian(const Q& q, G& g) const { g = 2 * q.transpose(); }
  template <class Q, class L, class Out>
  void constraint_hessian(const Q&, const L& lambda, Out& out) const { out = 2 * lambda(0) * matrix<3, 3>::Identity(); }

  /// On the sphere at polar angle θ from the south pole, moving along a tangent direction.
  state_type initial_state() const {
    const double r = parameters_.radius, theta = 1.2;
    state_type s;
    s.first << r * std::sin(theta), 0, -r * std::cos(theta);
    const vector<3> velocity(0.4 * std::cos(theta), 1.1, 0.4 * std::sin(theta));  // ⟂ q
    for (int i = 0; i < 3; ++i) s.second(i) = mu(s.first, i) * velocity(i);
    return s;
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  template <class Q>
  double mu(const Q& q, int i) const { return 1 + a_(i) * q(i) * q(i); }

  parameters_type parameters_;
  vector<3> a_;
};

}  // namespace geomint::problems
