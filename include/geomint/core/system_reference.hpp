// Systems may be passed to do_step by reference or as std::reference_wrapper (as odeint users
// do with std::ref); unwrap_system gives the system itself. Steppers never copy it.
#pragma once

#include <functional>
#include <type_traits>

namespace geomint {

namespace detail {
template <class S>
struct unwrapped {
  static S& get(S& s) { return s; }
};
template <class S>
struct unwrapped<std::reference_wrapper<S>> {
  static S& get(std::reference_wrapper<S> s) { return s.get(); }
};
}  // namespace detail

template <class S>
decltype(auto) unwrap_system(S& s) {
  if constexpr (std::is_const_v<S>) return detail::unwrapped<std::remove_const_t<S>>::get(const_cast<std::remove_const_t<S>&>(s));
  else return detail::unwrapped<S>::get(s);
}

}  // namespace geomint
