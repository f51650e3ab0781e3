// The odeint stepper shell shared by reich_constrained, reich_constrained_adjoint and
// reich_symmetric: typedefs, options, statistics, the per-System workspace.
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <type_traits>
#include <utility>

#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/constrained/detail/reich_workspace.hpp"
#include "geomint/core/state_view.hpp"

namespace geomint {
namespace detail {

template <reich_scheme Scheme, class State, class Momentum>
class reich_stepper {
 public:
  using state_type = State;
  using deriv_type = State;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;
  using momentum_type = Momentum;

  explicit reich_stepper(const Momentum& representation = {}, const reich_options& options = {})
      : representation_(representation), options_(options) {}

  order_type order() const { return Scheme == reich_scheme::symmetric ? 2 : 1; }

  /// Advances x = (q, p) from t to t + dt. On failure throws step_error (or std::invalid_argument
  /// for a misconfigured call) and leaves x unchanged.
  template <class System>
  void do_step(System&& system, State& x, time_type t, time_type dt) {
    const auto& sys = unwrap_system(system);
    using sys_type = std::decay_t<decltype(sys)>;
    using workspace_type = reich_workspace<sys_type, Momentum>;
    static_assert(state_size<typename State::first_type>::value == dynamic || sys_type::position_size == dynamic ||
                      state_size<typename State::first_type>::value == sys_type::position_size,
                  "geomint: the state size does not match the system's position_size");
    require_size(x.first, sys.position_count(), "the position vector q");
    require_size(x.second, sys.position_count(), "the momentum vector p");
    auto q = view(x.first);
    auto p = view(x.second);
    slot_.get<workspace_type>(representation_).step(sys, q, p, t, dt, Scheme, options_, stats_);
  }

  const Momentum& representation() const { return representation_; }
  reich_options& options() { return options_; }
  const reich_options& options() const { return options_; }
  const constrained_statistics& statistics() const { return stats_; }
  /// Drops every cache (call after changing a system's parameters in place).
  void reset() { slot_.reset(); }

 private:
  Momentum representation_;
  reich_options options_;
  constrained_statistics stats_;
  solver_slot slot_;
};

}  // namespace detail
}  // namespace geomint
