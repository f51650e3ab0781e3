// RATTLE (Hairer 2003, Table 1; Jay's extension to general H(q, p)): symmetric, symplectic,
// order 2. For separable H it is the classical RATTLE of Andersen (one m × m nonlinear solve for
// the positions, one linear m × m solve for the momenta); without constraints, velocity Verlet.
#pragma once

#include "geomint/constrained/constrained_prk.hpp"

namespace geomint {

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class rattle : public constrained_prk<2, State, rattle<State>> {
 public:
  static constexpr method_properties properties = method_properties().order(2).symmetric(true).symplectic(true).conserves(
      conserves_constraints | conserves_linear_momentum_maps);
  explicit rattle(const constrained_options& options = {}) : constrained_prk<2, State, rattle>(rattle_tableau(), options) {}
};

}  // namespace geomint
