// Counting heap allocations, to verify that a stepper does not allocate in do_step after its
// first step:
//
//   geomint::diagnostics::allocation_scope scope;
//   stepper.do_step(sys, x, t, dt);
//   assert(scope.count() == 0);
//
// or, for the whole check, allocations_after_first_step(stepper, sys, x, t0, dt) == 0.
//
// The counts come from count_allocations.hpp, which exactly one translation unit of the program
// must include; without it nothing is counted, and reading a count throws std::logic_error (a
// "0 allocations" that nothing counted would pass any check). It counts malloc as well as
// operator new (Eigen's dynamic matrices call malloc) where it can: under the sanitizers'
// allocators and with glibc (counting_includes_malloc()).
#pragma once

#include <atomic>
#include <stdexcept>

namespace geomint::diagnostics {

inline std::atomic<long> allocations{0};
inline std::atomic<bool> counting{false};         ///< set by count_allocations.hpp
inline std::atomic<bool> counting_malloc{false};  ///< set by count_allocations.hpp

inline bool counting_enabled() { return counting.load(); }
/// Whether malloc (and so Eigen's dynamic-size storage) is counted, not only operator new.
inline bool counting_includes_malloc() { return counting_malloc.load(); }

/// The heap allocations made while this object is alive. count() throws std::logic_error when
/// nothing is counted (no count_allocations.hpp in the program).
class allocation_scope {
 public:
  allocation_scope() : start_(allocations.load()) {}
  long count() const {
    if (!counting_enabled())
      throw std::logic_error(
          "geomint::diagnostics: no allocation is counted in this program; include "
          "geomint/diagnostics/count_allocations.hpp in one of its translation units");
    return allocations.load() - start_;
  }

 private:
  long start_;
};

/// The heap allocations made by `steps` steps of size dt that follow a first step from (x, t0):
/// the stepper contract's "no allocation after the first step" (the first step may size the
/// caches). Steps copies of the caller's stepper and state.
template <class Stepper, class System, class State>
long allocations_after_first_step(Stepper stepper, const System& sys, State x, double t0, double dt,
                                  int steps = 20) {
  stepper.do_step(sys, x, t0, dt);
  const allocation_scope scope;
  for (int k = 1; k <= steps; ++k) stepper.do_step(sys, x, t0 + k * dt, dt);
  return scope.count();
}

}  // namespace geomint::diagnostics
