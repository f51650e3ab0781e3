// The variational midpoint integrator (Marsden–Wendlandt 1997, §6): the discrete Euler–Lagrange
// equations (44)–(46) of the midpoint discrete Lagrangian (42), holonomic constraints by Lagrange
// multipliers, solved by Newton. Symplectic (Theorem 5.1), momentum-preserving (Theorem 5.2),
// symmetric, order 2.
//
//   variational_midpoint<State>            one-step map on (q, p) (discrete_euler_lagrange.hpp)
//   variational_midpoint_two_step<State>   the paper's form (q_{k−1}, q_k) ↦ (q_k, q_{k+1})
//
// For L = ½q̇ᵀMq̇ − V(q) with ∇V constant (e.g. uniform gravity, as for the double spherical
// pendulum) the one-step form is RATTLE and the two-step form is SHAKE (§7).
#pragma once

#include "geomint/variational/discrete_euler_lagrange.hpp"
#include "geomint/variational/midpoint_discrete_lagrangian.hpp"

namespace geomint {

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class variational_midpoint : public discrete_euler_lagrange<midpoint_discrete_lagrangian, State, variational_midpoint<State>> {
 public:
  explicit variational_midpoint(const variational_options& options = {})
      : discrete_euler_lagrange<midpoint_discrete_lagrangian, State, variational_midpoint>(options) {}
};

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class variational_midpoint_two_step
    : public discrete_euler_lagrange_two_step<midpoint_discrete_lagrangian, State, variational_midpoint_two_step<State>> {
 public:
  explicit variational_midpoint_two_step(const variational_options& options = {})
      : discrete_euler_lagrange_two_step<midpoint_discrete_lagrangian, State, variational_midpoint_two_step>(options) {}
};

}  // namespace geomint
