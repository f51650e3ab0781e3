// A bead of mass m sliding without friction on a straight rod through the origin that turns in
// the plane at the constant rate ω: q ∈ ℝ², g(q, t) = −x sin ωt + y cos ωt (the rod's direction is
// e_r = (cos ωt, sin ωt)), H = |p|²/(2m). The distance along the rod obeys r̈ = ω²r,
//
//   r(t) = r0 cosh ωt + (ṙ0/ω) sinh ωt,
//
// and the rod pushes the bead along e_θ = (−sin ωt, cos ωt) with the Coriolis force 2mωṙ: the
// constraint force −Gᵀλ = −λ e_θ, so λ = −2mωṙ. The rod's work is the bead's energy gain.
#pragma once

#include <cmath>
#include <utility>

#include "geomint/system/driven_system.hpp"

namespace geomint::problems {

struct rotating_rod_constraint {
  static constexpr int size = 1;
  double omega = 1.0;
  int count() const { return 1; }
  template <class Q, class Out> void value(double t, const Q& q, Out& out) const {
    out(0) = -q(0) * std::sin(omega * t) + q(1) * std::cos(omega * t);
  }
  template <class Q, class G> void jacobian(double t, const Q&, G& g) const { g << -std::sin(omega * t), std::cos(omega * t); }
  template <class Q, class Out> void time_derivative(double t, const Q& q, Out& out) const {
    out(0) = -omega * (q(0) * std::cos(omega * t) + q(1) * std::sin(omega * t));
  }
  template <class Q, class L, class Out> void hessian(double, const Q&, const L&, Out& out) const { out.setZero(); }
};

struct rotating_rod_parameters {
  double mass = 1.0;
  double omega = 1.0;  ///< the rod's angular velocity (rad/s)
};

class bead_on_rotating_rod : public driven_separable_system<2, zero_potential<2>, rotating_rod_constraint> {
 public:
  using state_type = std::pair<vector<2>, vector<2>>;

  explicit bead_on_rotating_rod(const rotating_rod_parameters& p = {})
      : driven_separable_system(diagonal_mass<2>(vector<2>::Constant(p.mass)), {}, rotating_rod_constraint{p.omega}),
        parameters_(p) {}

  /// The exact state at time t of the bead that was at distance r0 with radial speed ṙ0 at t = 0.
  state_type exact_state(double t, double r0 = 1.0, double rdot0 = 0.0) const {
    const double w = parameters_.omega, m = parameters_.mass;
    const double r = r0 * std::cosh(w * t) + rdot0 / w * std::sinh(w * t);
    const double rdot = r0 * w * std::sinh(w * t) + rdot0 * std::cosh(w * t);
    const double c = std::cos(w * t), s = std::sin(w * t);
    state_type x;
    x.first << r * c, r * s;
    x.second << m * (rdot * c - r * w * s), m * (rdot * s + r * w * c);  // m (ṙ e_r + rω e_θ)
    return x;
  }
  /// The exact multiplier at time t: λ = −2mωṙ.
  double exact_multiplier(double t, double r0 = 1.0, double rdot0 = 0.0) const {
    const double w = parameters_.omega;
    return -2 * parameters_.mass * w * (r0 * w * std::sinh(w * t) + rdot0 * std::cosh(w * t));
  }
  const rotating_rod_parameters& parameters() const { return parameters_; }

 private:
  rotating_rod_parameters parameters_;
};

}  // namespace geomint::problems
