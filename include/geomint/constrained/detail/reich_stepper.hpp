// The stepper shell shared by reich_constrained, reich_constrained_adjoint and reich_symmetric:
// the core's stepper_base with the momentum representation and the scheme.
#pragma once

#include <utility>

#include "geomint/constrained/detail/reich_workspace.hpp"
#include "geomint/core/stepper_base.hpp"

namespace geomint {
namespace detail {

template <reich_scheme Scheme>
using reich_properties =
    method_properties<Scheme == reich_scheme::symmetric ? 2 : 1, Scheme == reich_scheme::symmetric, true,
                      conserves_constraints | conserves_linear_momentum_maps>;

template <reich_scheme Scheme, class State, class Momentum>
class reich_stepper : public stepper_base<reich_stepper<Scheme, State, Momentum>, State, reich_options> {
  using base = stepper_base<reich_stepper<Scheme, State, Momentum>, State, reich_options>;

 public:
  using momentum_type = Momentum;
  using properties = reich_properties<Scheme>;
  template <class System>
  using workspace = reich_workspace<System, Momentum>;

  explicit reich_stepper(const Momentum& representation = {}, const reich_options& options = {})
      : base(options), representation_(representation) {}

  const Momentum& representation() const { return representation_; }

  template <class System>
  workspace<System> make_workspace() const { return workspace<System>(representation_, Scheme); }
  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }

 private:
  Momentum representation_;
};

}  // namespace detail
}  // namespace geomint
