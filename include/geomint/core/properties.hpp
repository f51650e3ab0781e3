// What a method is, as compile-time traits: order, symmetric (Φ₋ₕ ∘ Φₕ = id), symplectic (a
// symplectic map on the constraint manifold, or a Poisson map on the coadjoint orbit), and what
// it conserves exactly. Every geomint stepper type has `using properties = method_properties<…>`;
// composition, the method catalogue and the diagnostics read them, and the tests check each
// claim against the diagnostics (geomint/diagnostics/).
#pragma once

#include <type_traits>

namespace geomint {

/// What a method conserves to round-off (a bit set).
enum conserved : unsigned {
  conserves_nothing = 0,
  conserves_constraints = 1u << 0,          ///< g(q) = 0 and the hidden constraint G ∂H/∂p = 0
  conserves_linear_momentum_maps = 1u << 1, ///< momenta of linear symmetries of H and g
  conserves_momentum_maps = 1u << 2,        ///< discrete momentum maps of the symmetries of L_d and g
  conserves_casimirs = 1u << 3,             ///< the coadjoint orbit: every Casimir
  conserves_energy = 1u << 4,               ///< H
  conserves_configuration_space = 1u << 5,  ///< the state stays on Q (a sphere, SO(3)) without projection
};

/// Order 0 means "given at run time" (a stepper built from a tableau passed to its constructor:
/// its order() says).
template <int Order, bool Symmetric, bool Symplectic, unsigned Conserves>
struct method_properties {
  static constexpr int order = Order;
  static constexpr bool symmetric = Symmetric;
  static constexpr bool symplectic = Symplectic;
  static constexpr unsigned conserves = Conserves;
};

namespace detail {
template <class S, class = void>
struct has_properties : std::false_type {};
template <class S>
struct has_properties<S, std::void_t<typename S::properties>> : std::true_type {};
struct no_properties {
  using properties = method_properties<0, false, false, conserves_nothing>;
};
}  // namespace detail

/// The properties of a stepper type; a stepper without them (not written for geomint) is
/// order 0, neither symmetric nor symplectic, conserving nothing.
template <class Stepper>
using properties_of =
    typename std::conditional_t<detail::has_properties<Stepper>::value, Stepper, detail::no_properties>::properties;

/// A stepper whose state is the pair (q_{k−1}, q_k) of its last step (SHAKE, the two-step DEL
/// form) says `static constexpr bool two_step_state = true;`: the pair holds the step size, so
/// such a stepper is not a one-step map of its state and cannot be composed.
template <class S, class = void>
struct has_two_step_state : std::false_type {};
template <class S>
struct has_two_step_state<S, std::void_t<decltype(S::two_step_state)>> : std::bool_constant<S::two_step_state> {};
template <class Stepper>
inline constexpr bool has_two_step_state_v = has_two_step_state<Stepper>::value;

template <class Stepper>
inline constexpr bool is_symmetric_v = properties_of<Stepper>::symmetric;
template <class Stepper>
inline constexpr bool is_symplectic_v = properties_of<Stepper>::symplectic;

/// A stepper its author declares symmetric (for composition), keeping everything else: use it
/// for a user stepper that is symmetric but says nothing, or for constrained_prk with a
/// symmetric tableau. Verify the claim with geomint::diagnostics::reversibility_defect.
template <class Stepper, int Order = properties_of<Stepper>::order>
class declared_symmetric : public Stepper {
 public:
  using Stepper::Stepper;
  declared_symmetric() = default;
  explicit declared_symmetric(const Stepper& s) : Stepper(s) {}
  using properties = method_properties<Order, true, properties_of<Stepper>::symplectic, properties_of<Stepper>::conserves>;
};

}  // namespace geomint
