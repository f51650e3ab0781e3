// Systems may be passed to do_step by reference or as std::reference_wrapper (as odeint users
// do with std::ref or std::cref); unwrap_system gives the system itself, read-only. Steppers
// never copy it.
#pragma once

#include <boost/numeric/odeint/util/unwrap_reference.hpp>

namespace geomint {

template <class S>
const typename boost::numeric::odeint::unwrap_reference<S>::type& unwrap_system(const S& s) {
  return s;  // a std::reference_wrapper<T> converts to T&
}

}  // namespace geomint
