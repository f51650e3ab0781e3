// Helpers shared by the Reich / McLachlan–Scovel tests.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <utility>

#include <boost/test/unit_test.hpp>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"

/// Logs a measured figure (visible with --log_level=message) and returns it.
#define GEOMINT_MEASURED(name, expr)                      \
  ([&] {                                                  \
    const double measured_ = (expr);                      \
    BOOST_TEST_MESSAGE(name << " = " << measured_);       \
    return measured_;                                     \
  }())

namespace reich_test {

using geomint::matrix;
using geomint::vector;
using dsp_state = geomint::problems::double_spherical_pendulum::state_type;
using vms_state = geomint::problems::variable_mass_sphere::state_type;

/// n steps of size T/n.
template <class Stepper, class System, class State>
State run(Stepper stepper, const System& sys, State x, double T, int n) {
  const double h = T / n;
  for (int i = 0; i < n; ++i) stepper.do_step(sys, x, i * h, h);
  return x;
}

/// max(‖Δq‖∞/‖q‖∞, ‖Δp‖∞/‖p‖∞): relative distance of two states.
template <class State>
double distance(const State& a, const State& b) {
  return std::max((a.first - b.first).cwiseAbs().maxCoeff() / b.first.cwiseAbs().maxCoeff(),
                  (a.second - b.second).cwiseAbs().maxCoeff() / b.second.cwiseAbs().maxCoeff());
}

/// Rotation by φ about the vertical applied to every 3-block of q and p.
template <class State>
State rotate_about_vertical(const State& x, double phi) {
  const matrix<3, 3> r = Eigen::AngleAxisd(phi, vector<3>::UnitZ()).toRotationMatrix();
  State y = x;
  for (Eigen::Index k = 0; k < x.first.size(); k += 3) {
    y.first.template segment<3>(k) = r * x.first.template segment<3>(k);
    y.second.template segment<3>(k) = r * x.second.template segment<3>(k);
  }
  return y;
}

/// A non-separable H depending on p only: a relativistic particle on the unit sphere,
/// H = √(1 + |p|²), g = |q|² − 1. γ(t) is symmetric for it (McLachlan–Scovel, after eq. (10)).
struct relativistic_sphere {
  static constexpr int position_size = 3;
  static constexpr int constraint_size = 1;
  using state_type = std::pair<vector<3>, vector<3>>;
  int position_count() const { return 3; }
  int constraint_count() const { return 1; }
  template <class Q, class P>
  double hamiltonian(const Q&, const P& p) const { return std::sqrt(1 + p.squaredNorm()); }
  template <class Q, class P, class Out>
  void dh_dq(const Q&, const P&, Out& out) const { out.setZero(); }
  template <class Q, class P, class Out>
  void dh_dp(const Q&, const P& p, Out& out) const { out = p / std::sqrt(1 + p.squaredNorm()); }
  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { out(0) = q.squaredNorm() - 1; }
  template <class Q, class G>
  void constraint_jacobian(const Q& q, G& g) const { g = 2 * q.transpose(); }
  state_type initial_state() const {
    state_type s;
    s.first << 0.6, 0.0, -0.8;
    s.second << 0.8 * 1.5, 0.7, 0.6 * 1.5;  // ⟂ q
    return s;
  }
};

/// Reference solution: the eighth-order composition of RATTLE with a small step.
inline dsp_state dsp_reference(const geomint::problems::double_spherical_pendulum& sys, const dsp_state& x0, double T) {
  return run(geomint::composition<geomint::rattle<dsp_state>, geomint::kahan_li8>(), sys, x0, T, 200);
}

}  // namespace reich_test
