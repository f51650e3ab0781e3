// The variational integrator of the first-order discrete Lagrangian (51) of Marsden–Wendlandt 1997:
// L_d(q0, q1) = h L(q1, (q1 − q0)/h). Symplectic and momentum-preserving like every DEL method,
// but only first-order accurate for a general L; for L = ½q̇ᵀMq̇ − V(q) it is symplectic Euler
// (explicit without constraints).
//
//   variational_first_order<State>            one-step map on (q, p)
//   variational_first_order_two_step<State>   (q_{k−1}, q_k) ↦ (q_k, q_{k+1})
#pragma once

#include "geomint/variational/discrete_euler_lagrange.hpp"
#include "geomint/variational/first_order_discrete_lagrangian.hpp"

namespace geomint {

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class variational_first_order : public discrete_euler_lagrange<first_order_discrete_lagrangian, State, variational_first_order<State>> {
 public:
  explicit variational_first_order(const variational_options& options = {})
      : discrete_euler_lagrange<first_order_discrete_lagrangian, State, variational_first_order>(options) {}
};

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class variational_first_order_two_step
    : public discrete_euler_lagrange_two_step<first_order_discrete_lagrangian, State,
                                              variational_first_order_two_step<State>> {
 public:
  explicit variational_first_order_two_step(const variational_options& options = {})
      : discrete_euler_lagrange_two_step<first_order_discrete_lagrangian, State, variational_first_order_two_step>(
            options) {}
};

}  // namespace geomint
