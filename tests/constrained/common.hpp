// Shared fixtures of the constrained-family tests: system views that hide structure (to compare
// the separable fast path with the general solver, and analytic with finite-difference second
// derivatives), a dense-Jacobian chain, and trajectory helpers.
#pragma once

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/tableau/collocation.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"

namespace test {

using geomint::matrix;
using geomint::vector;
using dsp_state = geomint::problems::double_spherical_pendulum::state_type;
using vm_state = geomint::problems::variable_mass_sphere::state_type;

/// Exposes only H, ∂H/∂q, ∂H/∂p, g and G of a system: no separable structure, no second
/// derivatives. Steppers then use the general stage solver with finite-difference Hessians.
template <class System>
struct first_derivatives_only {
  static constexpr int position_size = System::position_size;
  static constexpr int constraint_size = System::constraint_size;
  const System& sys;
  int position_count() const { return sys.position_count(); }
  int constraint_count() const { return sys.constraint_count(); }
  template <class Q, class P> double hamiltonian(const Q& q, const P& p) const { return sys.hamiltonian(q, p); }
  template <class Q, class P, class O> void dh_dq(const Q& q, const P& p, O& o) const { sys.dh_dq(q, p, o); }
  template <class Q, class P, class O> void dh_dp(const Q& q, const P& p, O& o) const { sys.dh_dp(q, p, o); }
  template <class Q, class O> void constraint(const Q& q, O& o) const { sys.constraint(q, o); }
  template <class Q, class G> void constraint_jacobian(const Q& q, G& g) const { sys.constraint_jacobian(q, g); }
};

/// Like first_derivatives_only, plus the analytic second derivatives: the general solver with
/// exact Newton matrices.
template <class System>
struct general_view : first_derivatives_only<System> {
  template <class Q, class P, class O> void h_qq(const Q& q, const P& p, O& o) const { this->sys.h_qq(q, p, o); }
  template <class Q, class P, class O> void h_qp(const Q& q, const P& p, O& o) const { this->sys.h_qp(q, p, o); }
  template <class Q, class P, class O> void h_pp(const Q& q, const P& p, O& o) const { this->sys.h_pp(q, p, o); }
  template <class Q, class L, class O> void constraint_hessian(const Q& q, const L& l, O& o) const {
    this->sys.constraint_hessian(q, l, o);
  }
};

/// The pendulum chain with a dense constraint Jacobian (dynamic sizes, dense linear algebra).
struct dense_chain_constraints : geomint::problems::chain_constraints {
  using jacobian_type = Eigen::MatrixXd;
  template <class Q>
  void jacobian(const Q& q, Eigen::MatrixXd& g) const {
    g.setZero();
    g.block<1, 3>(0, 0) = 2 * q.template head<3>().transpose();
    for (int k = 1; k < links; ++k) {
      const vector<3> d = q.template segment<3>(3 * k) - q.template segment<3>(3 * k - 3);
      g.block<1, 3>(k, 3 * k - 3) = -2 * d.transpose();
      g.block<1, 3>(k, 3 * k) = 2 * d.transpose();
    }
  }
};
using dense_chain = geomint::separable_system<geomint::dynamic, geomint::problems::chain_gravity, dense_chain_constraints>;

inline dense_chain make_dense_chain(const geomint::problems::pendulum_chain& sparse) {
  dense_chain_constraints c;
  c.links = sparse.constraints().links;
  c.length = sparse.constraints().length;
  return dense_chain(sparse.mass(), sparse.potential(), c);
}

/// n steps of size h from x.
template <class Stepper, class System, class State>
void advance(Stepper& stepper, const System& sys, State& x, double h, int n, double t0 = 0) {
  for (int i = 0; i < n; ++i) stepper.do_step(sys, x, t0 + i * h, h);
}

/// The step from x fails: returns its step_error, after checking that x is exactly as it was.
template <class Stepper, class System, class State>
geomint::step_error expect_failure(Stepper& stepper, const System& sys, State& x, double t, double dt) {
  const State before = x;
  try {
    stepper.do_step(sys, x, t, dt);
  } catch (const geomint::step_error& e) {
    BOOST_TEST((x.first.array() == before.first.array()).all());
    BOOST_TEST((x.second.array() == before.second.array()).all());
    return e;
  }
  BOOST_FAIL("the step did not fail");
  throw;
}

template <class Stepper, class System>
typename System::state_type solve(const System& sys, double h, double t_end) {
  Stepper stepper;
  auto x = sys.initial_state();
  advance(stepper, sys, x, h, static_cast<int>(std::lround(t_end / h)));
  return x;
}

}  // namespace test
