// McLachlan–Scovel 1994, §6.3 and Figure 2: the double spherical pendulum integrated by two
// symplectic second-order methods,
//   (a) the implicit midpoint rule on the reduced equations (multipliers found analytically,
//       constrained/reduced_midpoint.hpp), and
//   (b) the constraint algorithm (reich_symmetric: γ(h/2) then its adjoint),
// printing over time the pointwise error |q(t) − q_ref(t)| of both, and the drift of the
// primary constraints |g(q)| (scaled, consistency.hpp) of both. The reference is the
// eighth-order composition of RATTLE (kahan_li8) with an eighth of the step.
//
//   midpoint_vs_constraint_algorithm [h = 0.01] [T = 40] [prints = 20]
#include <cstdio>
#include <cstdlib>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reduced_midpoint.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

int main(int argc, char** argv) {
  using namespace geomint;
  const double h = argc > 1 ? std::atof(argv[1]) : 0.01;
  const double T = argc > 2 ? std::atof(argv[2]) : 40.0;
  const int prints = argc > 3 ? std::atoi(argv[3]) : 20;
  const int steps = static_cast<int>(T / h + 0.5), every = std::max(1, steps / prints);

  const problems::double_spherical_pendulum sys;  // Marsden–Wendlandt §7 data
  using state = problems::double_spherical_pendulum::state_type;
  state mid = sys.initial_state(), alg = mid, ref = mid;
  reduced_midpoint<state> midpoint;
  reich_symmetric<state> constraint_algorithm;
  composition<rattle<state>, kahan_li8> reference;

  std::printf("# double spherical pendulum (m1=%g m2=%g l1=%g l2=%g), h = %g\n", sys.parameters().m1,
              sys.parameters().m2, sys.parameters().l1, sys.parameters().l2, h);
  std::printf("# %8s %14s %14s %14s %14s\n", "t", "err_midpoint", "err_constraint", "|g|_midpoint", "|g|_constraint");
  for (int i = 1; i <= steps; ++i) {
    const double t = (i - 1) * h;
    midpoint.do_step(sys, mid, t, h);
    constraint_algorithm.do_step(sys, alg, t, h);
    for (int k = 0; k < 8; ++k) reference.do_step(sys, ref, t + k * h / 8, h / 8);
    if (i % every == 0 || i == steps) {
      const constraint_residuals rm = constraint_residuals_of(sys, mid.first, mid.second);
      const constraint_residuals ra = constraint_residuals_of(sys, alg.first, alg.second);
      std::printf("%10.3f %14.6e %14.6e %14.6e %14.6e\n", i * h, (mid.first - ref.first).norm(),
                  (alg.first - ref.first).norm(), rm.position, ra.position);
    }
  }
  return 0;
}
