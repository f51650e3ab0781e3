// The claims a stepper type makes (core/properties.hpp, the method catalogue) checked against
// geomint's diagnostics, once for every shipped method:
//   order          the log–log slope of the end-point error is properties::order ± 0.25
//   symmetric      the reversibility defect at four halving steps judged by its slope
//                  (diagnostics/defect_trend.hpp): held (at round-off) if claimed, violated
//                  (shrinking as hᵖ, p odd, or hᵖ⁺¹, p even) if not
//   symplectic     the symplecticity (or Poisson-map) defect's trend: held if claimed, violated
//                  (shrinking as hᵖ⁺¹) if not
//   conserves      every claimed invariant within round-off over 2000 steps
//   allocations    none in do_step after the first step
// Tolerances: solves stop at ≤ 10 ε; central differences with ε = 1e-5 leave ~1e-10 (see
// diagnostics/symplecticity.hpp); 2000 steps of round-off random walk stay below ~1e-13.
#pragma once

#include <boost/test/unit_test.hpp>

#include <string_view>
#include <vector>

#include "geomint/catalogue.hpp"
#include "geomint/diagnostics/allocation_counter.hpp"
#include "geomint/diagnostics/defect_trend.hpp"
#include "geomint/diagnostics/invariant_drift.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/reversibility.hpp"

namespace verification {

namespace dx = geomint::diagnostics;

struct order_check {
  double t_end;
  std::vector<int> counts;
  double tolerance = 0.25;  ///< on the slope
};

/// A claimed property's defect trend is held, an unclaimed one's violated (the catalogue's "no"
/// is a claim too: the method lacks the property).
inline void check_trend(std::string_view id, const char* what, bool claimed, const dx::property_judgement& j) {
  BOOST_TEST_MESSAGE(id << ": " << what << " " << dx::to_string(j.outcome) << ", " << j.note);
  const dx::verdict expected = claimed ? dx::verdict::held : dx::verdict::violated;
  BOOST_TEST((j.outcome == expected), id << ": " << what << (claimed ? " claimed: " : " not claimed: ")
                                         << dx::to_string(j.outcome) << ", " << j.note);
}

/// Catalogue row, order, symmetry and allocations of Stepper on (sys, x0); reference: the end
/// state at t_end of a far more accurate run.
template <class Stepper, class System, class State>
void check_common(std::string_view id, const System& sys, const State& x0, const State& reference,
                  const order_check& oc, double h_symmetry = 0.1) {
  constexpr geomint::method_properties p = geomint::properties_of<Stepper>;
  const geomint::method_entry* e = geomint::find_method_entry(id);
  BOOST_TEST_REQUIRE(e != nullptr, "not in the catalogue: " << id);
  BOOST_TEST(geomint::catalogue_matches<Stepper>(*e), id << ": the type's properties differ from the catalogue");
  BOOST_TEST(p.order() == e->properties.order());

  const double order = dx::observed_order(Stepper(), sys, x0, reference, oc.t_end, oc.counts).order;
  BOOST_TEST_MESSAGE(id << ": observed order " << order);
  BOOST_TEST(std::fabs(order - p.order()) <= oc.tolerance, id << ": observed order " << order << ", claimed " << p.order());

  check_trend(id, "reversibility", p.symmetric(),
              dx::reversibility_trend(Stepper(), sys, x0, 0.0, dx::halving_steps(h_symmetry, 4)));

  BOOST_TEST(dx::allocations_after_first_step(Stepper(), sys, x0, 0.0, 0.01, 49) == 0, id << ": allocates in do_step");
}

/// The largest relative change of each invariant over `steps` steps.
template <class Stepper, class System, class State, class Invariant>
double drift(const System& sys, const State& x0, double h, long steps, Invariant&& invariant) {
  Stepper stepper;
  State x = x0;
  return dx::invariant_drift(stepper, sys, x, 0.0, h, steps, invariant).max_deviation;
}

}  // namespace verification
