// Adds a non-conservative generalized force to a system:
//   ṗ = −∂H/∂q − Gᵀλ + f(t, q, p).
// The steppers evaluate it at each stage's time t0 + c_i h (c = the row sums of the position
// tableau) and state; the method is then no longer symplectic and the energy is no longer
// conserved (it follows the work done by f).
//
//   with_force(sys, f)           f(t, q, p, out): any force (damping, ...). The constrained
//                                steppers solve the stages with the general (full Newton) solver.
//   with_position_force(sys, f)  f(t, q, out): a force that does not depend on p (driving,
//                                a non-potential field). A separable system keeps its fast
//                                stage solve, with ∇V(Q_i) replaced by ∇V(Q_i) − f(t_i, Q_i).
// One wrapper per system: a sum of forces is one function (nesting is refused at compile time).
// The constrained PRK steppers (rattle, lobatto_iiia_iiib, constrained_symplectic_euler, ...)
// take forced systems; shake, the variational steppers and reich_constrained refuse them.
#pragma once

#include <utility>

#include "geomint/system/constrained_system.hpp"

namespace geomint {

/// Force: void operator()(double t, q, p, out) const.
template <class System, class Force>
class forced_system : public System {
  static_assert(!system_traits<System>::has_force,
                "geomint: the system already has a force; give with_force one function for the sum of the "
                "forces (a second wrapper would hide the first one's force on some stage-solver paths)");

 public:
  forced_system() = default;
  forced_system(System system, Force force) : System(std::move(system)), force_(std::move(force)) {}

  template <class Q, class P, class Out>
  void force(double t, const Q& q, const P& p, Out& out) const { force_(t, q, p, out); }

  const System& unforced() const { return *this; }

 private:
  Force force_;
};

/// Force: void operator()(double t, q, out) const. Also a force(t, q, p, out) ignoring p, for
/// the code that takes any force (the general stage solver, the IDA reference).
template <class System, class Force>
class position_forced_system : public System {
  static_assert(!system_traits<System>::has_force,
                "geomint: the system already has a force; give with_position_force one function for the sum "
                "of the forces (a second wrapper would hide the first one's force on some stage-solver paths)");

 public:
  position_forced_system() = default;
  position_forced_system(System system, Force force) : System(std::move(system)), force_(std::move(force)) {}

  template <class Q, class Out>
  void position_force(double t, const Q& q, Out& out) const { force_(t, q, out); }
  template <class Q, class P, class Out>
  void force(double t, const Q& q, const P&, Out& out) const { force_(t, q, out); }

  const System& unforced() const { return *this; }

 private:
  Force force_;
};

template <class System, class Force>
forced_system<System, Force> with_force(System system, Force force) {
  return {std::move(system), std::move(force)};
}

template <class System, class Force>
position_forced_system<System, Force> with_position_force(System system, Force force) {
  return {std::move(system), std::move(force)};
}

}  // namespace geomint
