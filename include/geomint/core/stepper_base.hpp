// The stepper core: what every geomint stepper shares, so that a family contributes only its
// mathematics (stage equations, in a workspace).
//
//   class my_method : public stepper_base<my_method, State, Options> {
//    public:
//     using properties = method_properties<2, true, true, conserves_constraints>;
//     template <class System> using workspace = my_workspace<System>;   // the family's math
//     template <class System, class X> static void check_state(const System&, const X&);
//   };
//
// check_state throws std::invalid_argument for a state of the wrong run-time size; where sizes
// are known at compile time it may static_assert and return std::bool_constant<fits> (as
// require_pair_sizes does), and do_step then compiles the step only if the sizes fit, so that a
// wrong fixed-size state gives that one message instead of Eigen's errors from inside the step.
//
// stepper_base gives it Boost.Odeint's stepper concept (state_type, deriv_type, time_type,
// value_type, order_type, stepper_category = stepper_tag, order(), do_step(system, x, t, dt)),
// options() and statistics(), reset(), and copy semantics: a copy keeps the options and the
// statistics and starts afresh (its workspace forgets every cache). do_step unwraps the
// system (std::ref), rejects a zero or non-finite dt, checks the state's sizes, finds or creates
// the workspace for the system's type and calls
//
//   workspace.step(system, part..., t, dt, options, statistics)
//
// with Eigen::Map views of the state's parts (q and p of a std::pair state, or the one vector).
// The workspace writes the caller's state only when the step has succeeded (continuation.hpp's
// commit() does it after checking the result): a failed step throws step_error and leaves the
// state exactly as it was. The workspace is created by Derived::make_workspace<System>() if the
// family defines it (to pass a tableau, say), else default-constructed, and must have forget().
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <type_traits>
#include <utility>

#include "geomint/core/options.hpp"
#include "geomint/core/properties.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/statistics.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/core/system_reference.hpp"
#include "geomint/core/workspace_slot.hpp"

namespace geomint {

namespace detail {
template <class D, class S, class = void>
struct has_make_workspace : std::false_type {};
template <class D, class S>
struct has_make_workspace<D, S, std::void_t<decltype(std::declval<const D&>().template make_workspace<S>())>>
    : std::true_type {};

/// What a check_state's return type says: void (run-time checks only) fits, a
/// std::bool_constant says itself.
template <class R>
constexpr bool compile_time_fit() {
  if constexpr (std::is_void<R>::value) return true;
  else return R::value;
}

/// Calls f with views of the parts of a state: (q, p) of a std::pair, or the vector itself.
template <class Q, class P, class F>
void with_parts(std::pair<Q, P>& x, F&& f) {
  auto q = view(x.first);
  auto p = view(x.second);
  f(q, p);
}
template <class X, class F>
void with_parts(X& x, F&& f) {
  auto y = view(x);
  f(y);
}
}  // namespace detail

template <class Derived, class State, class Options = step_options>
class stepper_base {
 public:
  using state_type = State;
  using deriv_type = State;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;
  using options_type = Options;

  stepper_base() = default;
  explicit stepper_base(const Options& options) : options_(options) {}

  /// The method's order (its properties'; families with a run-time tableau override).
  order_type order() const { return static_cast<order_type>(properties_of<Derived>::order); }

  /// Advances x from t to t + dt. On failure throws step_error (std::invalid_argument for a
  /// misuse: dt = 0, wrong sizes) and leaves x exactly as it was.
  template <class System, class X>
  void do_step(System&& system, X& x, time_type t, time_type dt) {
    const auto& sys = unwrap_system(system);
    using system_type = std::decay_t<decltype(sys)>;
    using workspace_type = typename Derived::template workspace<system_type>;
    require_step_size(t, dt);
    using sizes_fit = decltype(Derived::check_state(sys, x));
    Derived::check_state(sys, x);
    if constexpr (detail::compile_time_fit<sizes_fit>()) {
      workspace_type& w = slot_.template get<workspace_type>([this] { return make<system_type, workspace_type>(); });
      detail::with_parts(x, [&](auto&... part) { w.step(sys, part..., t, dt, options_, stats_); });
    }
  }

  Options& options() { return options_; }
  const Options& options() const { return options_; }
  const step_statistics& statistics() const { return stats_; }
  /// Drops every cache: the next step is a fresh start. Needed only after changing a system's
  /// parameters behind a pointer (continuation.hpp says when).
  void reset() { slot_.reset(); }

 protected:
  /// The workspace for System if one exists (dense output reads the last step from it).
  template <class System, class D = Derived>
  auto* find_workspace() {
    return slot_.template find<typename D::template workspace<System>>();
  }

 private:
  template <class System, class W>
  W make() const {
    if constexpr (detail::has_make_workspace<Derived, System>::value)
      return static_cast<const Derived&>(*this).template make_workspace<System>();
    else
      return W();
  }

  Options options_;
  step_statistics stats_;
  workspace_slot slot_;
};

}  // namespace geomint
