// Adds a non-conservative generalized force f(t, q, p) (damping, driving) to a system:
//   ṗ = −∂H/∂q − Gᵀλ + f(t, q, p).
// The steppers apply it at the position-stage times; the method is then no longer symplectic
// and the energy is no longer conserved (it follows the work done by f).
#pragma once

#include <utility>

#include "geomint/system/constrained_system.hpp"

namespace geomint {

/// Force: void operator()(double t, q, p, out) const.
template <class System, class Force>
class forced_system : public System {
 public:
  forced_system() = default;
  forced_system(System system, Force force) : System(std::move(system)), force_(std::move(force)) {}

  template <class Q, class P, class Out>
  void force(double t, const Q& q, const P& p, Out& out) const { force_(t, q, p, out); }

  const System& unforced() const { return *this; }

 private:
  Force force_;
};

template <class System, class Force>
forced_system<System, Force> with_force(System system, Force force) {
  return {std::move(system), std::move(force)};
}

}  // namespace geomint
