// The symmetric Reich / McLachlan–Scovel method: γ(t/2) followed by its adjoint γ⁻¹(−t/2)
// (McLachlan–Scovel 1994, §5 after eq. (10)). Symmetric, symplectic, second order, equivariant
// under linear symmetries of g and H; the base method for composition to higher order
// (compose/composition.hpp). For separable H it is: kick t/2, constrained drift t/2, projection,
// constrained drift t/2, kick t/2, projection. Options and the momentum representation are those
// of reich_constrained (reich_constrained.hpp, momentum_representation.hpp).
#pragma once

#include "geomint/constrained/reich_constrained.hpp"

namespace geomint {

template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Momentum = canonical_momentum>
class reich_symmetric
    : public detail::reich_stepper<detail::reich_scheme::symmetric, State, Momentum, reich_symmetric<State, Momentum>> {
  using base = detail::reich_stepper<detail::reich_scheme::symmetric, State, Momentum, reich_symmetric>;

 public:
  explicit reich_symmetric(const Momentum& representation = {}, const reich_options& options = {})
      : base(representation, options) {}
};

}  // namespace geomint
