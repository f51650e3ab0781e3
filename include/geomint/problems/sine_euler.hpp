// The sine-Euler equations: Zeitlin's su(N) truncation of 2D ideal flow on the torus
// (Engø–Faltinsen 1999, §6.3; (6.32) for N = 3). State: (Re ω_m, Im ω_m) over the half cell
// (su_n.hpp); H = ½ Σ_{m∈C} |ω_m|²/|m|², ∇H = 2 (Re ω_m, Im ω_m)/|m|²; in matrix form
// Ẇ = −(i/2)[Ψ, W], an O(N³) vector field. Casimirs tr(Wᵏ)/N ((6.33), (6.34) for N = 3).
#pragma once

#include <random>

#include "geomint/lie/su_n.hpp"

namespace geomint::problems {

template <int N>
class sine_euler {
 public:
  using algebra_type = su_n<N>;
  static constexpr bool hamiltonian_is_quadratic = true;  ///< H = ½ Σ |ω_m|²/|m|² (core/properties.hpp)
  using state_type = typename algebra_type::vector_type;

  sine_euler() {
    weight_.resize(algebra_type::dim());
    for (int i = 0; i < algebra_type::mode_count; ++i)
      weight_(2 * i) = weight_(2 * i + 1) = 2.0 / algebra_.modes()[i].squared_norm();
  }

  /// Random complex initial vorticity: Re ω_m, Im ω_m uniform in [−1, 1] for m in the half
  /// cell; ω_{−m} = ω_m* holds by construction.
  static state_type random_initial_state(unsigned seed = 1999) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    state_type y(algebra_type::dim());
    for (int k = 0; k < algebra_type::dim(); ++k) y(k) = u(gen);
    return y;
  }

  const algebra_type& algebra() const { return algebra_; }

  template <class Y>
  double hamiltonian(const Eigen::MatrixBase<Y>& y) const {
    return 0.5 * y.cwiseAbs2().cwiseProduct(weight_).sum();
  }
  template <class Y, class Out>
  void gradient(const Eigen::MatrixBase<Y>& y, Out& out) const { out = y.cwiseProduct(weight_); }
  template <class Y, class Out>
  void hessian(const Eigen::MatrixBase<Y>&, Out& out) const { out = weight_.asDiagonal(); }

 private:
  algebra_type algebra_;
  state_type weight_;
};

}  // namespace geomint::problems
