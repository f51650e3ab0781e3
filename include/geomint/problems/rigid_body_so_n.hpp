// The n-dimensional free rigid body (Euler–Arnol'd) on so(n)* (McLachlan–Scovel 1994, §6.1):
// m = hat(y) skew, ṁ = [m, 𝕀⁻¹(m)], (𝕀a)_ij = (α_i + α_j) a_ij, H = ¼ tr(𝕀⁻¹(m) mᵀ) =
// ½ Σ_{i<j} y_ij²/(α_i + α_j). For n = 3 it is free_rigid_body with I₁ = α₂ + α₃, ….
#pragma once

#include <cmath>

#include "geomint/lie/so_n.hpp"

namespace geomint::problems {

template <int N>
class rigid_body_so_n {
 public:
  using algebra_type = so_n<N>;
  static constexpr bool hamiltonian_is_quadratic = true;  ///< H = ½ Σ y_ij²/(α_i + α_j) (core/properties.hpp)
  using state_type = typename algebra_type::vector_type;

  /// Default mass matrix α_i = 1/2 + i/4 (distinct moments, a generic body).
  rigid_body_so_n() {
    for (int i = 0; i < N; ++i) alpha_(i) = 0.5 + 0.25 * i;
    set_weights();
  }
  explicit rigid_body_so_n(const vector<N>& alpha) : alpha_(alpha) { set_weights(); }

  /// A fixed, generic initial momentum: y_k = cos(1 + 1.7 k).
  static state_type initial_state() {
    state_type y(algebra_type::dim());
    for (int k = 0; k < algebra_type::dim(); ++k) y(k) = std::cos(1 + 1.7 * k);
    return y;
  }

  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return 0.5 * y.cwiseAbs2().cwiseProduct(weight_).sum();
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const { out = y.cwiseProduct(weight_); }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>&, Out& out) const { out = weight_.asDiagonal(); }

  const vector<N>& rigid_body_moments() const { return alpha_; }

 private:
  void set_weights() {
    weight_.resize(algebra_type::dim());
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j, ++k) weight_(k) = 1 / (alpha_(i) + alpha_(j));
  }
  vector<N> alpha_;
  state_type weight_;
};

}  // namespace geomint::problems
