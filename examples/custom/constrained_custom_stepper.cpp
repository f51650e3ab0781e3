// The user-written symmetric_projection (symmetric_projection.hpp) on the spherical pendulum,
// checked as docs/extending.md recommends: the order against an independent reference (the
// 5-stage Lobatto IIIA–IIIB pair), the order composed with yoshida4, reversibility, the
// constraints over a long run, the energy error (bounded, no drift: a symmetric method on a
// reversible system), an inconsistent initial state refused with the state untouched, and no
// allocation after the first step. count_allocations.hpp counts the heap allocations.
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdio>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/invariant_drift.hpp"
#include "geomint/diagnostics/reversibility.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "symmetric_projection.hpp"

using state = geomint::problems::spherical_pendulum::state_type;

int main() {
  namespace dx = geomint::diagnostics;
  const geomint::problems::spherical_pendulum pendulum;
  const state x0 = pendulum.initial_state();
  const symmetric_projection<state> stepper;
  const auto exact = dx::integrate_steps(geomint::lobatto_iiia_iiib<5, state>(), pendulum, x0, 1.0, 200);

  const double order = dx::observed_order(stepper, pendulum, x0, exact, 1.0, {100, 200, 400, 800}).order;
  const double order4 = dx::observed_order(geomint::composition<symmetric_projection<state>, geomint::yoshida4>(),
                                           pendulum, x0, exact, 1.0, {25, 50, 100, 200}).order;
  const double symmetry = dx::reversibility_defect(stepper, pendulum, x0, 0.0, 0.05);
  const double symplecticity = dx::constrained_symplecticity_defect(stepper, pendulum, x0, 0.05);
  const long allocations = dx::allocations_after_first_step(stepper, pendulum, x0, 0.0, 0.01);

  symmetric_projection<state> run;  // 1e5 steps of h = 0.01: constraints and energy
  state x = x0;
  auto energy = [&](const state& s) { return pendulum.hamiltonian(s.first, s.second); };
  const auto drift = dx::invariant_drift(run, pendulum, x, 0.0, 0.01, 100000, energy);
  const geomint::constraint_residuals on_manifold = geomint::constraint_residuals_of(pendulum, x.first, x.second);

  state off = x0;  // a state off the sphere is refused, with its residuals, and left as it was
  off.first(0) += 1e-3;
  const state before = off;
  bool refused = false;
  try {
    symmetric_projection<state>().do_step(pendulum, off, 0.0, 0.01);
  } catch (const geomint::step_error& e) {
    refused = e.reason() == geomint::failure_reason::inconsistent_initial_state && off == before;
    std::printf("refused: %s\n", e.what());
  }
  x = x0;
  const std::size_t steps = boost::numeric::odeint::integrate_const(run, std::cref(pendulum), x, 0.0, 10.0, 0.01);
  // odeint's integrate_const takes no step at all, silently, for dt ≤ 0 or NaN (docs/extending.md):
  // check its count.
  std::size_t silent = 0;
  for (double dt : {-0.01, 0.0, std::nan("")}) {
    state y = x0;
    silent += boost::numeric::odeint::integrate_const(run, std::cref(pendulum), y, 0.0, 10.0, dt) + (y == x0 ? 0 : 1);
  }

  std::printf("order %.2f (composed: %.2f), reversibility %.1e, symplecticity defect %.1e (not symplectic), "
              "after 1e5 steps: |g| %.1e, |G Hp| %.1e, energy error %.1e (slope %.1e), allocations after the first "
              "step %ld, odeint steps %zu (for dt = -0.01, 0, NaN: %zu)\n",
              order, order4, symmetry, symplecticity, on_manifold.position, on_manifold.velocity, drift.max_deviation,
              drift.slope, allocations, steps, silent);
  const bool ok = std::fabs(order - 2) < 0.1 && std::fabs(order4 - 4) < 0.2 && symmetry < 1e-12 &&
                  on_manifold.position < 1e-14 && on_manifold.velocity < 1e-13 && drift.max_deviation < 1e-3 &&
                  refused && dx::counting_enabled() && allocations == 0 && steps == 1000 &&
                  silent == 0;
  return ok ? 0 : 1;
}
