// C++ use of the installed adapter: the IDA reference on a geomint problem.
#include <cstdio>

#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/sundials/geomint_sundials.h"
#include "geomint/sundials/ida_reference.hpp"

int main() {
  const geomint::problems::spherical_pendulum sys;
  const auto x0 = sys.initial_state();
  geomint::sundials::ida_options o;
  o.output_times = {1.0};
  const auto r = geomint::sundials::solve_ida(sys, x0.first, x0.second, 0.0, o);
  std::printf("%s, %s\n", r.flag_name.c_str(), GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_4_3));
  return r.ok() ? 0 : 1;
}
