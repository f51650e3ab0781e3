// The free rigid body on so(3)* (Engø–Faltinsen 1999, §2 and §6.1): body angular momentum y,
// H(y) = ½ yᵀ I⁻¹ y, ẏ = y × I⁻¹y. Default data: I = diag(7/8, 5/8, 1/4), y(0) = (0.875,
// 0.625, 0.25). Casimir |y|; the energy is the other integral.
#pragma once

#include "geomint/lie/so3.hpp"

namespace geomint::problems {

class free_rigid_body {
 public:
  using algebra_type = so3;
  static constexpr bool hamiltonian_is_quadratic = true;  ///< H = ½ yᵀI⁻¹y (core/properties.hpp)
  using state_type = vector<3>;

  explicit free_rigid_body(const vector<3>& inertia = vector<3>(7.0 / 8, 5.0 / 8, 1.0 / 4))
      : inertia_(inertia), inverse_inertia_(inertia.cwiseInverse()) {}

  /// Engø–Faltinsen §6.1: y(0) = (0.875, 0.625, 0.250).
  static state_type engo_faltinsen_initial_state() { return state_type(0.875, 0.625, 0.25); }

  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return 0.5 * y.cwiseAbs2().cwiseProduct(inverse_inertia_).sum();
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const { out = y.cwiseProduct(inverse_inertia_); }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>&, Out& out) const { out = inverse_inertia_.asDiagonal(); }

  const vector<3>& inertia() const { return inertia_; }
  /// McLachlan–Scovel's J = diag(α) with I₁ = α₂ + α₃, I₂ = α₁ + α₃, I₃ = α₁ + α₂.
  vector<3> rigid_body_moments() const { return vector<3>::Constant(inertia_.sum() / 2) - inertia_; }

 private:
  vector<3> inertia_;
  vector<3> inverse_inertia_;  ///< I⁻¹, so that ∇H = I⁻¹y costs products, not divisions
};

}  // namespace geomint::problems
