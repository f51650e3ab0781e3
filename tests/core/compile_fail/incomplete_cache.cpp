// Refused: a family's cache names what it keeps (`kept`), its end state, start() and advance();
// one left out (here `kept`) is the core's one static_assert naming all four, not a default the
// core would pick silently (tests/core/CMakeLists.txt expects the message). Twin: all four.
#include <utility>

#include "geomint/core/stepper_base.hpp"

struct decay {
  double rate = 1;
};

template <class System>
struct euler_cache {
#if !GEOMINT_COMPILE_FAIL
  static constexpr geomint::reuse kept = geomint::reuse::nothing;
#endif
  using end_state = std::pair<geomint::vector<1>, geomint::vector<1>>;
  template <class... Any>
  void start(const Any&...) {}
  template <class Q, class P, class Q1, class P1, class Context>
  void advance(const System& sys, const Q& q, const P& p, Q1& q1, P1& p1, const Context& c) {
    q1 = q + c.h * p;
    p1 = p - (c.h * sys.rate) * q;
  }
};

struct euler : geomint::stepper_base<euler, std::pair<geomint::vector<1>, geomint::vector<1>>> {
  static constexpr geomint::method_properties properties = geomint::method_properties().order(1);
  template <class System>
  using cache = euler_cache<System>;
  template <class System, class X>
  static void check_state(const System&, const X&) {}
};

int main() {
  std::pair<geomint::vector<1>, geomint::vector<1>> x{geomint::vector<1>(1.0), geomint::vector<1>(0.0)};
  euler().do_step(decay{}, x, 0.0, 0.1);
  return 0;
}
