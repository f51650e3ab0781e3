// The Reich / McLachlan–Scovel constraint algorithm γ(t) (McLachlan–Scovel 1994, §3 eqs. (2)–(5),
// §5 eq. (9)) and its adjoint γ⁻¹(−t) (eq. (10)), as Boost.Odeint steppers. State = std::pair<Q, P>.
//
//   γ(t):      p̃ = p − t (∂H/∂q(q, p̃) − G(q)ᵀμ),   Q = q + t ∂H/∂p(q, p̃),   g(Q) = 0,   P = ψ(Q, p̃)
//   γ⁻¹(−t):   p̃ = p + t G(q)ᵀμ,   Q = q + t ∂H/∂p(Q, p̃),   g(Q) = 0,   P = ψ(Q, p̃ − t ∂H/∂q(Q, p̃))
//
// Both are symplectic on the constraint manifold, first order, and equivariant under linear
// symmetries of g and H (Theorem 2), so momentum maps of such symmetries are conserved. When H
// depends on p only, γ(t) and γ⁻¹(−t) coincide: γ is then symmetric, hence second order. For the
// second-order composition of the two use reich_symmetric; for higher order compose that with
// composition<reich_symmetric<...>, Scheme> (compose/composition.hpp).
//
// WHICH MOMENTUM THE STATE HOLDS: `Momentum` is canonical_momentum (default: p is the canonical
// momentum on CM = {g = 0, G ∂H/∂p = 0}, as for rattle, and ψ is the lift of eq. (3)) or
// metric_momentum<Metric> (the TN formulation of eq. (9) with a constant metric W: p = W p_t with
// G W⁻¹ p = 0, ψ the W-orthogonal projection). See momentum_representation.hpp.
//
// Works for general H(q, p) (n + m unknowns, dense Newton) and takes a fast path for separable
// H = ½pᵀM⁻¹p + V(q) (m unknowns: the multiplier; or, with reich_options::formulation =
// reich_formulation::positions, eq. (12): Q alone). Conservative systems with a dense constraint
// Jacobian only. A failed step throws step_error and leaves the state untouched; a state off the
// manifold is rejected on the first step (options().consistency_tolerance).
#pragma once

#include "geomint/constrained/detail/reich_stepper.hpp"

namespace geomint {

/// γ(t), McLachlan–Scovel eq. (9): first order, symplectic, not symmetric (unless H = H(p)).
template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Momentum = canonical_momentum>
class reich_constrained
    : public detail::reich_stepper<detail::reich_scheme::forward, State, Momentum, reich_constrained<State, Momentum>> {
  using base = detail::reich_stepper<detail::reich_scheme::forward, State, Momentum, reich_constrained>;

 public:
  explicit reich_constrained(const Momentum& representation = {}, const reich_options& options = {})
      : base(representation, options) {}
};

/// γ⁻¹(−t), McLachlan–Scovel eq. (10): the adjoint of γ; first order, symplectic.
template <class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Momentum = canonical_momentum>
class reich_constrained_adjoint
    : public detail::reich_stepper<detail::reich_scheme::adjoint, State, Momentum, reich_constrained_adjoint<State, Momentum>> {
  using base = detail::reich_stepper<detail::reich_scheme::adjoint, State, Momentum, reich_constrained_adjoint>;

 public:
  explicit reich_constrained_adjoint(const Momentum& representation = {}, const reich_options& options = {})
      : base(representation, options) {}
};

}  // namespace geomint
