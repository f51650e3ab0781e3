// Symplectic Euler for constrained systems (Hairer 2003, Table 2 with the extra −h G(q1)ᵀΛ_s
// term of Example 2.3): symplectic, order 1, not symmetric.
#pragma once

#include "geomint/constrained/constrained_prk.hpp"

namespace geomint {

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class constrained_symplectic_euler : public constrained_prk<2, State, constrained_symplectic_euler<State>> {
 public:
  static constexpr method_properties properties = method_properties().order(1).symplectic(true).conserves(
      conserves_constraints | conserves_linear_momentum_maps);
  explicit constrained_symplectic_euler(const constrained_options& options = {})
      : constrained_prk<2, State, constrained_symplectic_euler>(constrained_symplectic_euler_tableau(), options) {}
};

}  // namespace geomint
