// The RKMK methods and helpers shared by test_lie's steppers file and the long runs
// (test_long_runs.cpp): the method list of Engø–Faltinsen's experiments, the rigid body on the
// structure-constant algebra, Casimir and energy drift over many steps.
#pragma once

#include <boost/mpl/list.hpp>
#include <cmath>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/structure_constants.hpp"
#include "geomint/problems/free_rigid_body.hpp"

namespace lie_test {

using namespace geomint;

/// The free rigid body written on the generic algebra built from so(3)'s structure constants.
struct rigid_body_on_constants : problems::free_rigid_body {
  using algebra_type = structure_constants<3>;
};

// h: the step of the 1e5-step Casimir runs. Forward Euler raises the energy by O(h) per unit
// time: at h = 0.1 it drives the su(3) state into the equilibrium of maximal energy within
// 2e4 steps, where consecutive steps are identical, the increments of the large components
// fall below half an ulp and their rounding stops being random (a linear Casimir drift of
// ~1e-17 per step that no update formula can avoid in a double state). h = 0.01 keeps its
// trajectory generic over the run.
struct euler_exp { template <class A> using type = rkmk<A, rk::forward_euler, exp_coordinates>; static constexpr int p = 1; static constexpr double h = 0.01; };
struct euler_cay { template <class A> using type = rkmk<A, rk::forward_euler, cayley_coordinates>; static constexpr int p = 1; static constexpr double h = 0.01; };
struct heun_exp { template <class A> using type = rkmk<A, rk::heun, exp_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct heun_cay { template <class A> using type = rkmk<A, rk::heun, cayley_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct rk4_exp { template <class A> using type = rkmk<A, rk::rk4, exp_coordinates>; static constexpr int p = 4; static constexpr double h = 0.1; };
struct rk4_cay { template <class A> using type = rkmk<A, rk::rk4, cayley_coordinates>; static constexpr int p = 4; static constexpr double h = 0.1; };
struct rk4_2c_exp { template <class A> using type = rkmk<A, rk::rk4_two_commutators, exp_coordinates>; static constexpr int p = 4; static constexpr double h = 0.1; };
struct gl2_exp { template <class A> using type = rkmk<A, rk::implicit_midpoint, exp_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct gl2_cay { template <class A> using type = rkmk<A, rk::implicit_midpoint, cayley_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct trap_exp { template <class A> using type = rkmk<A, rk::trapezoidal, exp_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct trap_cay { template <class A> using type = rkmk<A, rk::trapezoidal, cayley_coordinates>; static constexpr int p = 2; static constexpr double h = 0.1; };
struct gauss4_exp { template <class A> using type = rkmk<A, rk::gauss_legendre<2>, exp_coordinates>; static constexpr int p = 4; static constexpr double h = 0.1; };
struct gauss4_cay { template <class A> using type = rkmk<A, rk::gauss_legendre<2>, cayley_coordinates>; static constexpr int p = 4; static constexpr double h = 0.1; };

using rkmk_methods = boost::mpl::list<euler_exp, euler_cay, heun_exp, heun_cay, rk4_exp, rk4_cay, rk4_2c_exp, gl2_exp, gl2_cay,
                                      trap_exp, trap_cay, gauss4_exp, gauss4_cay>;
// The methods of Engø–Faltinsen's experiments (Figs. 3–5, 7, 9), forward Euler and RK4's two-commutator form.
using casimir_methods =
    boost::mpl::list<euler_exp, euler_cay, heun_exp, heun_cay, rk4_exp, rk4_cay, rk4_2c_exp, gl2_exp, gl2_cay, trap_exp,
                     trap_cay>;

/// Largest |C_k(y_n) − C_k(y_0)| / max_{j≤n} scale_k(y_j) over n steps, scale = the magnitude
/// of the Casimir's terms (algebra casimir_scales: |y|, |v|, |u||v|, ‖W‖ᵏ/N, …). Rounding the
/// state to doubles perturbs C_k by ~ε·scale_k per step, a random walk of ~ε√n·scale_k.
template <class Stepper, class System>
GEOMINT_NOINLINE double casimir_drift(Stepper stepper, const System& sys, typename System::state_type y, double h, long n) {
  const auto& a = geomint::detail::algebra_of(sys);
  const auto c0 = a.casimirs(y);
  auto scale = a.casimir_scales(y);
  double worst = 0;
  for (long k = 0; k < n; ++k) {
    stepper.do_step(sys, y, k * h, h);
    const auto c = a.casimirs(y);
    scale = scale.cwiseMax(a.casimir_scales(y));
    worst = std::fmax(worst, (c - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
  }
  return worst;
}

/// max |H(y_n) − H(y_0)| / |H(y_0)| over n steps.
template <class Stepper, class System>
GEOMINT_NOINLINE double energy_drift(Stepper& stepper, const System& sys, typename System::state_type y, double h, long n) {
  const double h0 = sys.hamiltonian(y);
  double worst = 0;
  for (long k = 0; k < n; ++k) {
    stepper.do_step(sys, y, k * h, h);
    worst = std::fmax(worst, std::fabs(sys.hamiltonian(y) - h0) / std::fabs(h0));
  }
  return worst;
}

}  // namespace lie_test
