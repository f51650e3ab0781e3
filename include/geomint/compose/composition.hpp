// Composition of a symmetric one-step method to higher order (Yoshida 1990; Suzuki 1990;
// McLachlan 1995; McLachlan–Scovel 1994, §5): one step of composition<Base, Scheme> is
//
//   Ψ_h = Φ_{γ_s h} ∘ … ∘ Φ_{γ_1 h},   stage i starting at t + (γ_1 + … + γ_{i−1}) h,
//
// with the coefficients of Scheme (composition_schemes.hpp: yoshida4, suzuki4, yoshida6,
// kahan_li6, kahan_li8, or a user's). A Scheme is a type with
//   static constexpr int order;                              // the order it claims, 1 … 8
//   static constexpr std::array<double, s> coefficients;     // γ_1 … γ_s
// (and optionally `stages` = s). Both are checked at compile time (composition_order.hpp):
// Σγ = 1, and the composition order conditions up to the declared order, so a typo or a wrong
// claim is a compile error naming the order whose conditions fail. If Φ is symmetric and of
// order 2, Ψ has order Scheme::order; it is symmetric when the coefficients are a palindrome
// (γ_{s+1−i} = γ_i; a scheme that is not still composes, and its properties say not symmetric),
// and symplectic (or constraint-preserving, momentum-conserving) whenever Φ is. Base is any stepper with odeint's stepper interface
// (state_type, do_step(system, x, t, dt)) that accepts negative steps and is symmetric:
// rattle, lobatto_iiia_iiib<S>, reich_symmetric, riemannian_leapfrog, … — a base whose
// properties (core/properties.hpp) do not say symmetric, or whose state is not a point of phase
// space or of a coadjoint orbit (a two-step pair), is refused at compile time; wrap a symmetric
// stepper that does not say so in declared_symmetric<Stepper>. Dense output of a composition uses
// its base's continuous extension, with the composition's order.
//
// A failed stage throws (the base's step_error) and the state is restored to its value before
// the step, so the caller loses nothing. No allocation after the first step (the backup state
// is assigned into storage of the same size).
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <algorithm>
#include <type_traits>
#include <utility>

#include "geomint/compose/composition_order.hpp"
#include "geomint/compose/composition_schemes.hpp"
#include "geomint/core/properties.hpp"
#include "geomint/solvers/flow_difference_extension.hpp"

namespace geomint {

namespace detail {
/// The extension a composition of Base names for System: Base's, for the composition (found only
/// when dense_output asks, so that a base without one, odeint's, can still be composed).
template <class Base, class System, class Composition, class = void>
struct composed_extension {};
template <class Base, class System, class Composition>
struct composed_extension<Base, System, Composition, std::void_t<typename Base::template continuous_extension<System>>> {
  using type = typename extension_for<typename Base::template continuous_extension<System>, Composition>::type;
};
/// Whether a stepper's last step continued the one before (false for a stepper that does not
/// say: one not written for geomint).
template <class S>
auto last_step_continued(const S& s, int) -> decltype(s.last_step_continued()) {
  return s.last_step_continued();
}
template <class S>
bool last_step_continued(const S&, long) {
  return false;
}
}  // namespace detail

template <class Base, class Scheme>
class composition {
  static_assert(is_symmetric_v<Base>,
                "geomint: composition raises the order of a symmetric base method only; this base is not "
                "symmetric (constrained_symplectic_euler, reich_constrained, … are not). If your stepper is "
                "symmetric, say so: composition<geomint::declared_symmetric<YourStepper>, Scheme>");
  static_assert(properties_of<Base>.state() != state_kind::two_step_pair,
                "geomint: composition needs a one-step map of the state; this base steps the pair "
                "(q_{k-1}, q_k), which holds the previous step's size (shake, discrete_euler_lagrange_two_step): "
                "compose the one-step form (variational_midpoint, discrete_euler_lagrange) instead");
  static constexpr method_properties base_properties = properties_of<Base>;
  // What the scheme claims, checked (composition_order.hpp). Each assertion below fires only when
  // the lower orders hold, so a failing scheme is one error naming the first failed order.
  static constexpr composition_order_report scheme_report = composition_order(Scheme::coefficients);
  static constexpr int claimed = Scheme::order;
  static_assert(claimed >= 1 && claimed <= max_checked_composition_order,
                "geomint: a composition scheme declares its order, 1 … 8 (the orders whose conditions are checked)");
  static_assert(scheme_report.order >= 1,
                "geomint: the composition scheme's coefficients do not sum to 1 (consistency, Σγᵢ = 1)");
  static_assert(claimed < 2 || scheme_report.order < 1 || scheme_report.order >= 2,
                "geomint: the composition scheme fails the order-2 conditions (its h² terms) below its declared order");
  static_assert(claimed < 3 || scheme_report.order < 2 || scheme_report.order >= 3,
                "geomint: the composition scheme fails the order-3 conditions (its h³ terms) below its declared order");
  static_assert(claimed < 4 || scheme_report.order < 3 || scheme_report.order >= 4,
                "geomint: the composition scheme fails the order-4 conditions (its h⁴ terms; for a palindrome, "
                "Σγᵢ³ = 0) below its declared order");
  static_assert(claimed < 5 || scheme_report.order < 4 || scheme_report.order >= 5,
                "geomint: the composition scheme fails the order-5 conditions (its h⁵ terms) below its declared order");
  static_assert(claimed < 6 || scheme_report.order < 5 || scheme_report.order >= 6,
                "geomint: the composition scheme fails the order-6 conditions (its h⁶ terms) below its declared order");
  static_assert(claimed < 7 || scheme_report.order < 6 || scheme_report.order >= 7,
                "geomint: the composition scheme fails the order-7 conditions (its h⁷ terms) below its declared order");
  static_assert(claimed < 8 || scheme_report.order < 7 || scheme_report.order >= 8,
                "geomint: the composition scheme fails the order-8 conditions (its h⁸ terms) below its declared order");

 public:
  /// Scheme::order, at least the base's own if higher (a scheme built for a second-order base
  /// satisfies every condition of a higher-order symmetric base too); symmetric when the
  /// coefficients are a palindrome; the rest the base's.
  static constexpr method_properties properties =
      base_properties.order(Scheme::order > base_properties.order() ? Scheme::order : base_properties.order())
          .symmetric(scheme_report.palindrome);
  using final_type = composition;
  using base_type = Base;
  using scheme_type = Scheme;
  using state_type = typename Base::state_type;
  using deriv_type = state_type;
  using time_type = typename Base::time_type;
  using value_type = typename Base::value_type;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;
  /// The base's continuous extension (one that differences the stepper's flow differences this
  /// composition's).
  template <class System>
  using continuous_extension = typename detail::composed_extension<Base, System, composition>::type;

  composition() = default;
  explicit composition(const Base& base) : base_(base) {}

  /// properties::order, or the base's run-time order if that is higher.
  order_type order() const {
    if constexpr (base_properties.order() == 0)
      return static_cast<order_type>(std::max<int>(Scheme::order, static_cast<int>(base_.order())));
    else
      return static_cast<order_type>(properties.order());
  }

  /// One composed step from t to t + dt. On failure the base's exception propagates and x is
  /// restored to its value on entry.
  template <class System>
  void do_step(System&& system, state_type& x, time_type t, time_type dt) {
    backup_ = x;
    try {
      time_type elapsed = 0;
      for (std::size_t i = 0; i < Scheme::coefficients.size(); ++i) {
        base_.do_step(system, x, t + elapsed * dt, Scheme::coefficients[i] * dt);
        if (i == 0) continued_ = detail::last_step_continued(base_, 0);
        elapsed += Scheme::coefficients[i];
      }
    } catch (...) {
      continued_ = false;
      x = backup_;
      throw;
    }
  }

  /// Forgets what the base stepper cached from earlier steps (odeint's reset()).
  void reset() { base_.reset(); }
  /// Whether the last composed step continued the one before it (its first stage did).
  bool last_step_continued() const { return continued_; }

  /// The base stepper's statistics (every stage is one of its steps).
  decltype(auto) statistics() const { return base_.statistics(); }
  /// The base stepper's options (every stage is one of its steps).
  decltype(auto) options() { return base_.options(); }
  decltype(auto) options() const { return base_.options(); }

  Base& base() { return base_; }
  const Base& base() const { return base_; }
  static constexpr const auto& coefficients() { return Scheme::coefficients; }

 private:
  Base base_;
  state_type backup_;
  bool continued_ = false;
};

}  // namespace geomint
