// Two free particles (masses m1, m2, positions r1, r2 ∈ ℝ³: q = (r1, r2)) held at a prescribed,
// growing distance d(t) = d0 + vt by one driven constraint g = ½(|r1 − r2|² − d(t)²) — a pulled
// coordinate as in molecular dynamics. The constraint is invariant under rotations and
// translations: the total angular and linear momenta are conserved exactly (and by RATTLE and the
// Lobatto pairs to round-off). With the centre of mass at rest, the angular momentum is the
// relative motion's L = μ r × ṙ (μ = m1m2/(m1 + m2)), and since r̈ = 0 along the constraint, the
// tension is T = L²/(μ d³): the force on particle 1 is −λ(r1 − r2), so λ = T/d = L²/(μ d⁴).
#pragma once

#include <cmath>
#include <utility>

#include <Eigen/Geometry>

#include "geomint/system/driven_system.hpp"

namespace geomint::problems {

struct prescribed_distance_constraint {
  static constexpr int size = 1;
  double initial_distance = 1.0;
  double speed = 0.1;
  int count() const { return 1; }
  double distance(double t) const { return initial_distance + speed * t; }
  template <class Q, class Out> void value(double t, const Q& q, Out& out) const {
    const double d = distance(t);
    out(0) = 0.5 * ((q.template head<3>() - q.template tail<3>()).squaredNorm() - d * d);
  }
  template <class Q, class G> void jacobian(double, const Q& q, G& g) const {
    const vector<3> r = q.template head<3>() - q.template tail<3>();
    g << r.transpose(), -r.transpose();
  }
  template <class Q, class Out> void time_derivative(double t, const Q&, Out& out) const { out(0) = -distance(t) * speed; }
  template <class Q, class L, class Out> void hessian(double, const Q&, const L& lambda, Out& out) const {
    const matrix<3, 3> i = lambda(0) * matrix<3, 3>::Identity();
    out << i, -i, -i, i;
  }
};

struct prescribed_distance_parameters {
  double mass1 = 1.0, mass2 = 2.0;
  double initial_distance = 1.0;
  double speed = 0.1;  ///< v: d(t) = d0 + vt
};

class prescribed_distance_pair
    : public driven_separable_system<6, zero_potential<6>, prescribed_distance_constraint> {
 public:
  using state_type = std::pair<vector<6>, vector<6>>;

  explicit prescribed_distance_pair(const prescribed_distance_parameters& p = {})
      : driven_separable_system(diagonal_mass<6>((vector<6>() << vector<3>::Constant(p.mass1), vector<3>::Constant(p.mass2)).finished()),
                                {}, prescribed_distance_constraint{p.initial_distance, p.speed}),
        parameters_(p) {}

  /// A consistent state at t = 0 with the centre of mass at rest at the origin: the pair along x,
  /// turning about z at the rate `spin` (rad/s), with the prescribed radial speed v.
  state_type initial_state(double spin = 1.0) const {
    const double m1 = parameters_.mass1, m2 = parameters_.mass2, d = parameters_.initial_distance, v = parameters_.speed;
    const vector<3> r(d, 0, 0), rdot(v, spin * d, 0);  // r = r1 − r2
    state_type x;
    x.first << (m2 / (m1 + m2)) * r, -(m1 / (m1 + m2)) * r;
    x.second << (m1 * m2 / (m1 + m2)) * rdot, -(m1 * m2 / (m1 + m2)) * rdot;
    return x;
  }
  double reduced_mass() const { return parameters_.mass1 * parameters_.mass2 / (parameters_.mass1 + parameters_.mass2); }
  /// The total angular momentum Σ r_i × p_i.
  template <class Q, class P>
  static vector<3> angular_momentum(const Q& q, const P& p) {
    return vector<3>(q.template head<3>()).cross(vector<3>(p.template head<3>())) +
           vector<3>(q.template tail<3>()).cross(vector<3>(p.template tail<3>()));
  }
  /// The exact multiplier at time t for angular momentum L: λ = L²/(μ d(t)⁴).
  double exact_multiplier(double t, double angular_momentum) const {
    const double d = constraints().distance(t);
    return angular_momentum * angular_momentum / (reduced_mass() * d * d * d * d);
  }
  const prescribed_distance_parameters& parameters() const { return parameters_; }

 private:
  prescribed_distance_parameters parameters_;
};

}  // namespace geomint::problems
