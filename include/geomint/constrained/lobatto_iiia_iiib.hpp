// Jay's Lobatto IIIA–IIIB pair with S stages (Hairer 2003, Example 2.2): symmetric,
// symplectic, order 2S − 2. S = 2 is RATTLE.
#pragma once

#include "geomint/constrained/constrained_prk.hpp"

namespace geomint {

template <int S, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class lobatto_iiia_iiib : public constrained_prk<S, State, lobatto_iiia_iiib<S, State>> {
  static_assert(S >= 2, "Lobatto IIIA–IIIB needs at least two stages");

 public:
  static constexpr method_properties properties = method_properties().order(2 * S - 2).symmetric(true).symplectic(true).conserves(
      conserves_constraints | conserves_linear_momentum_maps);
  explicit lobatto_iiia_iiib(const constrained_options& options = {})
      : constrained_prk<S, State, lobatto_iiia_iiib>(lobatto_iiia_iiib_tableau<S>(), options) {}
};

}  // namespace geomint
