// The heavy top on se(3)*, heavy_top_se3 (problems/heavy_top.hpp is the quaternion form; Engø–Faltinsen 1999, (2.6)–(2.8) and §6.2; McLachlan–Scovel 1994,
// §6.2): y = (u, v), u the body angular momentum, v the direction of gravity seen from the
// body, H = ½ uᵀI⁻¹u + c v·χ with c = M g l and χ the unit vector from the fixed point to the
// centre of mass. Casimirs |v| and u·v. A Lagrange top (I₁ = I₂, χ = (0, 0, ±1)) also
// conserves u·χ (McLachlan–Scovel's m₁₂ = −u₃).
#pragma once

#include <cmath>

#include "geomint/lie/se3.hpp"

namespace geomint::problems {

struct heavy_top_se3_parameters {
  vector<3> inertia = vector<3>(7.0 / 8, 7.0 / 8, 2.0 / 8);  ///< Engø–Faltinsen §6.2
  double mass = 1.0;
  double gravity = 9.81;
  double length = std::sqrt(3.0) / 2;
  vector<3> chi = vector<3>(0, 0, 1);
};

class heavy_top_se3 {
 public:
  using algebra_type = se3;
  static constexpr bool hamiltonian_is_quadratic = true;  ///< H = ½ uᵀI⁻¹u + c v·χ: quadratic plus linear (core/properties.hpp)
  using state_type = vector<6>;

  explicit heavy_top_se3(const heavy_top_se3_parameters& p = {}) : p_(p) {}

  /// McLachlan–Scovel's parametrization: mass matrix J = diag(α) (I₁ = α₂ + α₃, …) and c = M g l.
  static heavy_top_se3 from_moments(const vector<3>& alpha, double c, const vector<3>& chi) {
    heavy_top_se3_parameters p;
    p.inertia = vector<3>::Constant(alpha.sum()) - alpha;
    p.mass = 1;
    p.gravity = 1;
    p.length = c;
    p.chi = chi;
    return heavy_top_se3(p);
  }
  /// A Lagrange top: α₁ = α₂ = a, α₃ = b, χ = (0, 0, ±1).
  static heavy_top_se3 lagrange_top(double a, double b, double c, int sign = 1) {
    return from_moments(vector<3>(a, a, b), c, vector<3>(0, 0, sign >= 0 ? 1.0 : -1.0));
  }
  /// Engø–Faltinsen §6.2: u₀ = (0, 0, 0.25), v₀ = (0, −0.195090, 0.980785).
  static state_type engo_faltinsen_initial_state() {
    state_type y;
    y << 0, 0, 0.25, 0, -0.195090, 0.980785;
    return y;
  }

  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return 0.5 * y.template head<3>().cwiseAbs2().cwiseQuotient(p_.inertia).sum() +
           gravity_constant() * y.template tail<3>().dot(p_.chi);
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const {
    out << y.template head<3>().cwiseQuotient(p_.inertia), gravity_constant() * p_.chi;
  }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>&, Out& out) const {
    out.setZero();
    out.template topLeftCorner<3, 3>() = p_.inertia.cwiseInverse().asDiagonal();
  }

  const heavy_top_se3_parameters& parameters() const { return p_; }
  double gravity_constant() const { return p_.mass * p_.gravity * p_.length; }
  const vector<3>& center_of_mass_direction() const { return p_.chi; }
  vector<3> rigid_body_moments() const { return vector<3>::Constant(p_.inertia.sum() / 2) - p_.inertia; }

 private:
  heavy_top_se3_parameters p_;
};

}  // namespace geomint::problems
