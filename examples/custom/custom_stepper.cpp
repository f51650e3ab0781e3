// The user-written implicit_midpoint (implicit_midpoint.hpp) checked with geomint's diagnostics,
// run under odeint's integrate_const, and composed to order 4 — on the Kepler problem.
// count_allocations.hpp counts the heap allocations (included in one translation unit).
#include <boost/numeric/odeint.hpp>
#include <cstdio>

#include "geomint/compose/composition.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/invariant_drift.hpp"
#include "geomint/diagnostics/reversibility.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/system/separable_system.hpp"
#include "implicit_midpoint.hpp"

struct kepler_potential {  // V(q) = −1/|q|
  template <class Q> double value(const Q& q) const { return -1 / q.norm(); }
  template <class Q, class O> void gradient(const Q& q, O& out) const { out = q / std::pow(q.norm(), 3); }
};
using state = std::pair<geomint::vector<2>, geomint::vector<2>>;

int main() {
  namespace dx = geomint::diagnostics;
  const auto kepler = geomint::make_separable_system(geomint::diagonal_mass<2>(geomint::vector<2>::Ones()),
                                                     kepler_potential{}, geomint::no_constraints<2>{});
  const state x0{{0.5, 0}, {0, std::sqrt(3.0)}};  // eccentricity 0.5
  const implicit_midpoint<state> stepper;
  const auto exact = dx::integrate_steps(geomint::composition<implicit_midpoint<state>, geomint::kahan_li8>(),
                                         kepler, x0, 2.0, 400);

  const double order = dx::observed_order(stepper, kepler, x0, exact, 2.0, {100, 200, 400, 800}).order;
  const double order4 = dx::observed_order(geomint::composition<implicit_midpoint<state>, geomint::yoshida4>(), kepler,
                                           x0, exact, 2.0, {50, 100, 200, 400}).order;
  const double symmetry = dx::reversibility_defect(stepper, kepler, x0, 0.0, 0.05);
  const double symplecticity = dx::constrained_symplecticity_defect(stepper, kepler, x0, 0.05);
  const long allocations = dx::allocations_after_first_step(stepper, kepler, x0, 0.0, 0.01);
  implicit_midpoint<state> run;
  state x = x0;
  const auto angular = dx::invariant_drift(run, kepler, x, 0.0, 0.01, 100000, [](const state& s) {
    return s.first(0) * s.second(1) - s.first(1) * s.second(0);  // quadratic: kept by the midpoint rule
  });
  x = x0;
  const std::size_t steps = boost::numeric::odeint::integrate_const(run, std::cref(kepler), x, 0.0, 10.0, 0.01);

  std::printf("order %.2f (composed: %.2f), reversibility %.1e, symplecticity %.1e, |dL| %.1e, "
              "allocations after the first step %ld, odeint steps %zu\n",
              order, order4, symmetry, symplecticity, angular.max_deviation, allocations, steps);
  const bool ok = std::fabs(order - 2) < 0.1 && std::fabs(order4 - 4) < 0.2 && symmetry < 1e-12 &&
                  symplecticity < 1e-7 && angular.max_deviation < 1e-12 && dx::counting_enabled() && allocations == 0 &&
                  steps == 1000;
  return ok ? 0 : 1;
}
