// What a method is, by name: its order, whether it is symmetric (Φ₋ₕ ∘ Φₕ = id) and symplectic
// (a symplectic map on the constraint manifold, or a Poisson map on the coadjoint orbit), what it
// conserves to round-off, and what its state is. Every geomint stepper declares
//
//   static constexpr method_properties properties =
//       method_properties().order(2).symmetric(true).symplectic(true).conserves(conserves_constraints);
//
// (a misspelled property is a compile error). The core reads the order, composition the
// symmetry and the state kind, the catalogue all of them; the diagnostics verify each claim.
#pragma once

#include <type_traits>
#include <utility>

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
  /// H, on a system that declares its H a polynomial of degree ≤ 2 (hamiltonian_is_quadratic_v):
  /// the trapezoidal discrete gradient, exact for such H only; conserves_on resolves it
  conserves_energy_if_quadratic = 1u << 6,
};

namespace detail {
template <class S, class = void>
struct declares_quadratic_hamiltonian : std::false_type {};
template <class S>
struct declares_quadratic_hamiltonian<S, std::void_t<decltype(S::hamiltonian_is_quadratic)>>
    : std::bool_constant<S::hamiltonian_is_quadratic> {};
}  // namespace detail

/// Whether a system declares its Hamiltonian a polynomial of degree ≤ 2 (a quadratic form plus a
/// linear term: the free rigid body, the heavy top, sine-Euler), by a member
/// `static constexpr bool hamiltonian_is_quadratic = true;`. Nothing checks the declaration but
/// diagnostics::verify_properties, which measures the energy drift it implies.
template <class System>
inline constexpr bool hamiltonian_is_quadratic_v = detail::declares_quadratic_hamiltonian<System>::value;

/// What a method with properties p conserves on System: conserves_energy_if_quadratic becomes
/// conserves_energy if the system declares a quadratic H, and is dropped otherwise.
template <class System>
constexpr unsigned conserves_on(unsigned bits) {
  const unsigned conditional = bits & conserves_energy_if_quadratic;
  bits &= ~unsigned(conserves_energy_if_quadratic);
  return conditional && hamiltonian_is_quadratic_v<System> ? bits | conserves_energy : bits;
}

/// What a stepper's state is.
enum class state_kind {
  phase_space,       ///< a point (q, p) of phase space: the step is a one-step map of it
  two_step_pair,     ///< (q_{k−1}, q_k), two configurations a step apart (SHAKE, the two-step DEL form):
                     ///< it holds the step size, so the stepper is not a one-step map and cannot be composed
  coadjoint_vector,  ///< y ∈ g*, a point of a coadjoint orbit (Lie–Poisson steppers)
};

/// A method's properties. Order 0 means "given at run time" (a stepper built from a tableau
/// passed to its constructor: its order() says).
class method_properties {
 public:
  constexpr method_properties() = default;

  constexpr int order() const { return order_; }
  constexpr bool symmetric() const { return symmetric_; }
  constexpr bool symplectic() const { return symplectic_; }
  constexpr unsigned conserves() const { return conserves_; }
  constexpr state_kind state() const { return state_; }

  constexpr method_properties order(int p) const { method_properties r = *this; r.order_ = p; return r; }
  constexpr method_properties symmetric(bool yes) const { method_properties r = *this; r.symmetric_ = yes; return r; }
  constexpr method_properties symplectic(bool yes) const { method_properties r = *this; r.symplectic_ = yes; return r; }
  constexpr method_properties conserves(unsigned bits) const { method_properties r = *this; r.conserves_ = bits; return r; }
  constexpr method_properties state(state_kind k) const { method_properties r = *this; r.state_ = k; return r; }

  constexpr bool operator==(const method_properties& o) const {
    return order_ == o.order_ && symmetric_ == o.symmetric_ && symplectic_ == o.symplectic_ &&
           conserves_ == o.conserves_ && state_ == o.state_;
  }
  constexpr bool operator!=(const method_properties& o) const { return !(*this == o); }

 private:
  int order_ = 0;
  bool symmetric_ = false, symplectic_ = false;
  unsigned conserves_ = conserves_nothing;
  state_kind state_ = state_kind::phase_space;
};

namespace detail {
template <class S, class = void>
struct declares_properties : std::false_type {};
template <class S>
struct declares_properties<S, std::void_t<decltype(S::properties)>>
    : std::is_same<std::decay_t<decltype(S::properties)>, method_properties> {};

template <class S, class = void>
struct final_type_of {
  using type = S;
};
template <class S>
struct final_type_of<S, std::void_t<typename S::final_type>> {
  using type = typename S::final_type;
};

template <class S>
constexpr method_properties properties_of_checked() {
  if constexpr (!declares_properties<S>::value) {
    return method_properties();  // a stepper not written for geomint (odeint's) claims nothing
  } else {
    using final_type = typename final_type_of<S>::type;
    // The core reads the properties of the class it was told is final (its CRTP parameter): a
    // subclass that redeclares them would be described by one set and stepped by the other.
    static_assert(std::is_same<S, final_type>::value || S::properties == final_type::properties,
                  "geomint: this stepper redeclares the properties of a geomint stepper it derives from; the "
                  "core still reads the base's (order() among them). Declare them with "
                  "geomint::declared_properties<Stepper, Properties> instead");
    return S::properties;
  }
}
}  // namespace detail

/// The properties of a stepper type; a stepper without them (not written for geomint) is order 0
/// ("unknown"), neither symmetric nor symplectic, conserving nothing.
template <class Stepper>
inline constexpr method_properties properties_of = detail::properties_of_checked<Stepper>();

template <class Stepper>
inline constexpr bool is_symmetric_v = properties_of<Stepper>.symmetric();
template <class Stepper>
inline constexpr bool is_symplectic_v = properties_of<Stepper>.symplectic();

/// A stepper with the properties its author declares (Declared::value, a method_properties),
/// everything else unchanged: for a run-time tableau whose properties the author knows. order()
/// is the declared order (the stepper's own if the declaration leaves it 0). Verify the claims
/// with the diagnostics (diagnostics/observed_order.hpp, reversibility.hpp, symplecticity.hpp).
template <class Stepper, class Declared>
class declared_properties : public Stepper {
 public:
  using Stepper::Stepper;
  declared_properties() = default;
  explicit declared_properties(const Stepper& s) : Stepper(s) {}
  using final_type = declared_properties;
  static constexpr method_properties properties = Declared::value;
  auto order() const {
    using order_type = decltype(std::declval<const Stepper&>().order());
    return properties.order() != 0 ? static_cast<order_type>(properties.order()) : Stepper::order();
  }
};

namespace detail {
template <class Stepper, int Order>
struct symmetric_declaration {
  static constexpr method_properties value =
      properties_of<Stepper>.symmetric(true).order(Order != 0 ? Order : properties_of<Stepper>.order());
};
}  // namespace detail

/// A stepper its author declares symmetric (for composition), of the given order (the
/// stepper's own if 0), keeping everything else: for a user stepper that is symmetric but says
/// nothing, or for constrained_prk with a symmetric tableau. Verify the claim with
/// geomint::diagnostics::reversibility_defect.
template <class Stepper, int Order = 0>
using declared_symmetric = declared_properties<Stepper, detail::symmetric_declaration<Stepper, Order>>;

}  // namespace geomint
