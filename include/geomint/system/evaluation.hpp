// A system's functions at a time t. The steppers evaluate a constrained system through
// system_at(sys, t): for most systems the time is not an argument (H, g and G do not depend on
// it; a non-conservative force takes it anyway, force(t, q, p, out)), but a system may declare
//
//   static constexpr bool takes_time = true;
//
// and then every function of the concept takes the time first — dh_dq(t, q, p, out),
// constraint(t, q, out), … (system/constrained_system.hpp lists them). The steppers pass the time
// of the stage they evaluate (t₀ + cᵢh); the C module's systems are such systems, its callbacks
// receiving that time. Nothing is stored in the system: the time travels with each call.
#pragma once

#include <type_traits>
#include <utility>

namespace geomint {

namespace detail {
template <class S, class = void>
struct takes_time : std::false_type {};
template <class S>
struct takes_time<S, std::void_t<decltype(S::takes_time)>> : std::bool_constant<S::takes_time> {};
}  // namespace detail

/// Whether System's functions take the time first (see above).
template <class System>
inline constexpr bool takes_time_v = detail::takes_time<System>::value;

/// The functions of `system` at time t (each the system's own, with t first if it takes it).
/// Default-constructed, it refers to no system yet (assign one before use).
template <class System>
class system_at {
 public:
  system_at() = default;
  system_at(const System& system, double t) : s_(&system), t_(t) {}
  const System& system() const { return *s_; }
  double time() const { return t_; }

#define GEOMINT_FORWARD_AT_TIME(name)                                   \
  template <class... A>                                                 \
  decltype(auto) name(A&&... a) const {                                 \
    if constexpr (takes_time_v<System>) return s_->name(t_, std::forward<A>(a)...); \
    else return s_->name(std::forward<A>(a)...);                          \
  }
  GEOMINT_FORWARD_AT_TIME(hamiltonian)
  GEOMINT_FORWARD_AT_TIME(dh_dq)
  GEOMINT_FORWARD_AT_TIME(dh_dp)
  GEOMINT_FORWARD_AT_TIME(gradients)
  GEOMINT_FORWARD_AT_TIME(h_qq)
  GEOMINT_FORWARD_AT_TIME(h_qp)
  GEOMINT_FORWARD_AT_TIME(h_pp)
  GEOMINT_FORWARD_AT_TIME(hessians)
  GEOMINT_FORWARD_AT_TIME(constraint)
  GEOMINT_FORWARD_AT_TIME(constraint_jacobian)
  GEOMINT_FORWARD_AT_TIME(constraint_hessian)
  GEOMINT_FORWARD_AT_TIME(constraint_time_derivative)
  GEOMINT_FORWARD_AT_TIME(potential_gradient)
#undef GEOMINT_FORWARD_AT_TIME
  /// The non-conservative force at this time (it takes the time in every system).
  template <class Q, class P, class Out>
  void force(const Q& q, const P& p, Out& out) const { s_->force(t_, q, p, out); }
  template <class Q, class Out>
  void position_force(const Q& q, Out& out) const { s_->position_force(t_, q, out); }
  /// The system's mass matrix (separable systems; it does not depend on the time).
  decltype(auto) mass() const { return s_->mass(); }

 private:
  const System* s_ = nullptr;
  double t_ = 0;
};

}  // namespace geomint
