// The stepper shared by reich_constrained, reich_constrained_adjoint and reich_symmetric: the
// core's stepper_base with the momentum representation and the scheme.
#pragma once

#include <utility>

#include "geomint/constrained/detail/reich_cache.hpp"
#include "geomint/constrained/hamiltonian_extension.hpp"
#include "geomint/core/stepper_base.hpp"

namespace geomint {
namespace detail {

template <reich_scheme Scheme, class State, class Momentum, class Final>
class reich_stepper : public stepper_base<Final, State, reich_options, constrained_statistics> {
  using base = stepper_base<Final, State, reich_options, constrained_statistics>;

 public:
  using momentum_type = Momentum;
  static constexpr reich_scheme scheme = Scheme;
  static constexpr method_properties properties = method_properties()
                                                      .order(Scheme == reich_scheme::symmetric ? 2 : 1)
                                                      .symmetric(Scheme == reich_scheme::symmetric)
                                                      .symplectic(true)
                                                      .conserves(conserves_constraints | conserves_linear_momentum_maps);
  template <class System>
  using cache = reich_cache<System, Momentum>;
  template <class System>
  using continuous_extension = hamiltonian_extension<System, State>;

  explicit reich_stepper(const Momentum& representation = {}, const reich_options& options = {})
      : base(options), representation_(representation) {}

  const Momentum& representation() const { return representation_; }

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }

 private:
  Momentum representation_;
};

}  // namespace detail
}  // namespace geomint
