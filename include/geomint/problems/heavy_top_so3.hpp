// The heavy top on SO(3) as a Riemannian mechanical system for riemannian_leapfrog
// (Leimkuhler–Patrick 1996, §5.2; McLachlan–Scovel 1994, §6.2): attitude q ∈ SO(3), body angular
// velocity ω (q̇ = q ω̂), body inertia K = diag(I1, I2, I3), and
//
//   L = ½ ωᵀKω − c k·(q χ),   c = m γ ℓ,  χ the unit body vector to the centre of mass, k = e_z.
//
// Momentum p = K ω (body angular momentum). Rotations about the vertical (left multiplication)
// are isometries of the bi-invariant metric and leave L invariant: k·(q p), the vertical
// component of the spatial angular momentum, is conserved; with c = 0 (the free rigid body) the
// whole spatial angular momentum q p is.
#pragma once

#include <Eigen/Geometry>
#include <utility>

#include "geomint/riemannian/so3_group.hpp"

namespace geomint::problems {

struct heavy_top_so3_parameters {
  double i1 = 1.0, i2 = 2.0, i3 = 3.0;  // principal moments of inertia about the fixed point
  double c = 1.0;                       // m γ ℓ
  double chi_x = 0.0, chi_y = 0.0, chi_z = 1.0;
};

class heavy_top_so3 {
 public:
  using space_type = so3_group;
  using state_type = std::pair<vector<9>, vector<3>>;
  using parameters_type = heavy_top_so3_parameters;
  static constexpr bool constant_metric = true;

  explicit heavy_top_so3(const parameters_type& p = {})
      : parameters_(p), inertia_(p.i1, p.i2, p.i3), chi_(vector<3>(p.chi_x, p.chi_y, p.chi_z).normalized()) {}

  const so3_group& space() const { return space_; }

  template <class Q>
  double potential_energy(const Q& q) const {
    return parameters_.c * (attitude(q) * chi_)(2);
  }
  /// Body covector of dV: d/dε V(q Exp(εv̂)) = c (qᵀk)·(v × χ) = v·(c χ × qᵀk)
  template <class Q, class Out>
  void potential_gradient(const Q& q, Out& out) const {
    const vector<3> k_body = attitude(q).transpose() * vector<3>::UnitZ();
    out = parameters_.c * chi_.cross(k_body);
  }
  template <class Q, class Out>
  void kinetic_metric(const Q&, Out& k) const {
    k.setZero();
    k.diagonal() = inertia_;
  }
  template <class Q, class P>
  double hamiltonian(const Q& q, const P& p) const {
    return 0.5 * p.dot(p.cwiseQuotient(inertia_)) + potential_energy(q);
  }
  /// Spatial angular momentum q p.
  template <class Q, class P>
  static vector<3> spatial_momentum(const Q& q, const P& p) { return attitude(q) * vector<3>(p); }

  /// Tilted by angle `tilt` about the spatial x axis, spinning with body angular velocity ω.
  state_type initial_state(double tilt = 0.7, const vector<3>& omega = vector<3>(0.3, -0.2, 4.0)) const {
    state_type s;
    const matrix<3, 3> r = Eigen::AngleAxisd(tilt, vector<3>::UnitX()).toRotationMatrix();
    Eigen::Map<matrix<3, 3>>(s.first.data()) = r;
    s.second = inertia_.cwiseProduct(omega);
    return s;
  }
  const parameters_type& parameters() const { return parameters_; }

  template <class Q>
  static Eigen::Map<const matrix<3, 3>> attitude(const Q& q) { return Eigen::Map<const matrix<3, 3>>(q.data()); }

 private:
  parameters_type parameters_;
  so3_group space_;
  vector<3> inertia_, chi_;
};

}  // namespace geomint::problems
