// Composition to high order (Yoshida 1990, Suzuki 1990, Kahan–Li 1997) of two symmetric
// constrained methods — RATTLE and the Reich / McLachlan–Scovel pair — on the double spherical
// pendulum of Marsden–Wendlandt §7. For each scheme: the endpoint error at T = 1 for a range of
// steps, the observed order between successive rows, the number of base steps, and the largest
// constraint residual met along the way.
//
//   composed_orders
#include <cmath>
#include <cstdio>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

using namespace geomint;
using state = problems::double_spherical_pendulum::state_type;

template <class Stepper>
void table(const char* name, const problems::double_spherical_pendulum& sys, const state& ref, std::initializer_list<int> counts) {
  std::printf("\n%s\n%8s %14s %8s %12s %14s\n", name, "steps", "error", "order", "base steps", "max residual");
  double previous = 0;
  int previous_n = 0;
  for (int n : counts) {
    Stepper stepper;
    state x = sys.initial_state();
    double residual = 0;
    for (int i = 0; i < n; ++i) {
      stepper.do_step(sys, x, i * 1.0 / n, 1.0 / n);
      const constraint_residuals r = constraint_residuals_of(sys, x.first, x.second);
      residual = std::fmax(residual, std::fmax(r.position, r.velocity));
    }
    const double err = (x.first - ref.first).norm();
    if (previous_n) std::printf("%8d %14.4e %8.2f %12zu %14.2e\n", n, err, std::log(previous / err) / std::log(double(n) / previous_n), n * Stepper::scheme_type::stages, residual);
    else std::printf("%8d %14.4e %8s %12zu %14.2e\n", n, err, "", n * Stepper::scheme_type::stages, residual);
    previous = err;
    previous_n = n;
  }
}

int main() {
  const problems::double_spherical_pendulum sys;
  state ref = sys.initial_state();
  composition<rattle<state>, kahan_li8> reference;
  for (int i = 0; i < 800; ++i) reference.do_step(sys, ref, i / 800.0, 1 / 800.0);

  table<composition<rattle<state>, yoshida4>>("yoshida4 (3 stages) of RATTLE", sys, ref, {20, 40, 80, 160});
  table<composition<rattle<state>, suzuki4>>("suzuki4 (5 stages) of RATTLE", sys, ref, {20, 40, 80, 160});
  table<composition<reich_symmetric<state>, yoshida6>>("yoshida6 (7 stages) of the Reich pair", sys, ref, {16, 24, 32, 48});
  table<composition<reich_symmetric<state>, kahan_li6>>("kahan_li6 (9 stages) of the Reich pair", sys, ref, {16, 24, 32, 48});
  table<composition<rattle<state>, kahan_li8>>("kahan_li8 (17 stages) of RATTLE", sys, ref, {12, 16, 20, 24});
  table<composition<reich_symmetric<state>, kahan_li8>>("kahan_li8 (17 stages) of the Reich pair", sys, ref, {12, 16, 20, 24});
  return 0;
}
