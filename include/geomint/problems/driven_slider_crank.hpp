// A slider crank driven at a constant crank speed, in natural coordinates: the crank pin A
// (mass m_A, on a massless crank of length a about the origin) and the slider B (mass m_B, on the
// x axis), joined by a massless connecting rod of length b > a; gravity γ along −y.
// q = (x_A, y_A, x_B, y_B), H = |p_A|²/(2m_A) + |p_B|²/(2m_B) + γ(m_A y_A + m_B y_B), and
//
//   g1 = |A|² − a²,  g2 = |B − A|² − b²,  g3 = y_B,  g4 = −x_A sin ωt + y_A cos ωt (the motor).
//
// The mechanism has one degree of freedom and the motor takes it: the motion is the closed-form
// kinematics A = a(cos ωt, sin ωt), x_B = a cos ωt + √(b² − a² sin² ωt), and the multipliers are
// its inverse dynamics, Gᵀλ = −(M q̈ + ∇V) (four equations in four unknowns). λ₄ is the motor's:
// its force on the pin is −λ₄(−sin ωt, cos ωt), a torque −aλ₄ about the origin, whose power
// −aωλ₄ = ∂g4/∂t·λ₄ is the work that changes H (constrained_statistics::driving_work).
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <utility>

#include "geomint/system/driven_system.hpp"

namespace geomint::problems {

struct slider_crank_gravity {  // V = γ(m_A y_A + m_B y_B)
  double weight_a = 9.81, weight_b = 2 * 9.81;
  template <class Q> double value(const Q& q) const { return weight_a * q(1) + weight_b * q(3); }
  template <class Q, class Out> void gradient(const Q&, Out& out) const { out << 0, weight_a, 0, weight_b; }
  template <class Q, class Out> void hessian(const Q&, Out& out) const { out.setZero(); }
};

struct driven_slider_crank_constraints {
  static constexpr int size = 4;
  double crank = 1.0, rod = 2.0, omega = 1.0;
  int count() const { return 4; }
  template <class Q, class Out> void value(double t, const Q& q, Out& out) const {
    out(0) = q(0) * q(0) + q(1) * q(1) - crank * crank;
    out(1) = (q(2) - q(0)) * (q(2) - q(0)) + (q(3) - q(1)) * (q(3) - q(1)) - rod * rod;
    out(2) = q(3);
    out(3) = -q(0) * std::sin(omega * t) + q(1) * std::cos(omega * t);
  }
  template <class Q, class G> void jacobian(double t, const Q& q, G& g) const {
    const double dx = q(2) - q(0), dy = q(3) - q(1);
    g << 2 * q(0), 2 * q(1), 0, 0,  //
        -2 * dx, -2 * dy, 2 * dx, 2 * dy,  //
        0, 0, 0, 1,  //
        -std::sin(omega * t), std::cos(omega * t), 0, 0;
  }
  template <class Q, class Out> void time_derivative(double t, const Q& q, Out& out) const {
    out << 0, 0, 0, -omega * (q(0) * std::cos(omega * t) + q(1) * std::sin(omega * t));
  }
  template <class Q, class L, class Out> void hessian(double, const Q&, const L& lambda, Out& out) const {
    const matrix<2, 2> i = matrix<2, 2>::Identity();
    out.setZero();
    out.template topLeftCorner<2, 2>() = 2 * (lambda(0) + lambda(1)) * i;
    out.template topRightCorner<2, 2>() = -2 * lambda(1) * i;
    out.template bottomLeftCorner<2, 2>() = -2 * lambda(1) * i;
    out.template bottomRightCorner<2, 2>() = 2 * lambda(1) * i;
  }
};

struct driven_slider_crank_parameters {
  double crank = 1.0, rod = 2.0;       ///< a, b (b > a)
  double omega = 2 * 3.141592653589793;  ///< the crank speed (rad/s)
  double mass_pin = 1.0, mass_slider = 2.0;
  double gravity = 9.81;
};

class driven_slider_crank
    : public driven_separable_system<4, slider_crank_gravity, driven_slider_crank_constraints> {
 public:
  using state_type = std::pair<vector<4>, vector<4>>;

  explicit driven_slider_crank(const driven_slider_crank_parameters& p = {})
      : driven_separable_system(
            diagonal_mass<4>((vector<4>() << p.mass_pin, p.mass_pin, p.mass_slider, p.mass_slider).finished()),
            slider_crank_gravity{p.mass_pin * p.gravity, p.mass_slider * p.gravity},
            driven_slider_crank_constraints{p.crank, p.rod, p.omega}),
        parameters_(p) {}

  /// The closed-form motion at t: positions, velocities and accelerations.
  struct kinematics {
    vector<4> q, v, a;
  };
  kinematics exact_motion(double t) const {
    const double a = parameters_.crank, b = parameters_.rod, w = parameters_.omega;
    const double c = std::cos(w * t), s = std::sin(w * t);
    const double r = std::sqrt(b * b - a * a * s * s);            // x_B − x_A
    const double rd = -a * a * w * s * c / r;                       // ṙ
    const double rdd = -a * a * w * w * (c * c - s * s) / r + a * a * w * s * c * rd / (r * r);
    kinematics k;
    k.q << a * c, a * s, a * c + r, 0;
    k.v << -a * w * s, a * w * c, -a * w * s + rd, 0;
    k.a << -a * w * w * c, -a * w * w * s, -a * w * w * c + rdd, 0;
    return k;
  }
  state_type exact_state(double t) const {
    const kinematics k = exact_motion(t);
    return {k.q, mass().inverse_diagonal().cwiseInverse().cwiseProduct(k.v)};
  }
  /// The inverse dynamics at t: G(q(t), t)ᵀλ = −(M q̈ + ∇V).
  vector<4> exact_multipliers(double t) const {
    const kinematics k = exact_motion(t);
    matrix<4, 4> g;
    constraints().jacobian(t, k.q, g);
    vector<4> grad;
    potential().gradient(k.q, grad);
    const vector<4> rhs = -(mass().inverse_diagonal().cwiseInverse().cwiseProduct(k.a) + grad);
    return g.transpose().partialPivLu().solve(rhs);
  }
  const driven_slider_crank_parameters& parameters() const { return parameters_; }

 private:
  driven_slider_crank_parameters parameters_;
};

}  // namespace geomint::problems
