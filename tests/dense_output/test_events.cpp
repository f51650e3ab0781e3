// Event location (events.hpp) on the continuous extension: event times converge at the
// method's order as dt is halved; events in one step come in time order; direction filters;
// a stop event ends the integration there; a root on a grid point is reported once.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/events.hpp"
#include "geomint/problems/spherical_pendulum.hpp"

using namespace geomint;
using pendulum = problems::spherical_pendulum;
using pendulum_state = pendulum::state_type;

namespace {

/// Times at which the pendulum crosses the vertical plane x = 0 on [0, T], with step h.
template <class Stepper>
std::vector<double> plane_crossings(double h, double T, crossing direction = crossing::both) {
  const pendulum sys;
  dense_output<Stepper> d;
  d.initialize(sys.initial_state(), 0.0, h);
  event_locator<pendulum_state> events;
  events.add("x = 0", [](double, const pendulum_state& x) { return x.first(0); }, direction);
  std::vector<double> times;
  while (d.current_time() < T - 0.5 * h) {
    d.do_step(sys);
    for (const auto& hit : events.locate(d)) times.push_back(hit.t);
  }
  return times;
}

}  // namespace

// The first crossings converge at order 2 (RATTLE) and 4 (Lobatto IIIA–IIIB 3) against a
// kahan_li8 ∘ RATTLE reference at h/16 (its error ≪ the ones measured): the event error is
// the trajectory's, the extension's (h⁴, h⁶) is smaller. ±0.3.
BOOST_AUTO_TEST_CASE(event_times_converge_at_the_methods_order) {
  const std::vector<double> ref = plane_crossings<composition<rattle<pendulum_state>, kahan_li8>>(0.005, 3.0);
  BOOST_TEST_REQUIRE(ref.size() >= 3u);
  auto order = [&](auto tag, std::vector<double> steps) {
    using stepper = typename decltype(tag)::type;
    std::vector<double> errors;
    for (double h : steps) {
      const std::vector<double> t = plane_crossings<stepper>(h, 3.0);
      BOOST_TEST_REQUIRE(t.size() == ref.size());
      double e = 0;
      for (std::size_t k = 0; k < t.size(); ++k) e = std::fmax(e, std::fabs(t[k] - ref[k]));
      errors.push_back(e);
    }
    BOOST_TEST_MESSAGE("event time errors " << errors.front() << " … " << errors.back());
    return diagnostics::loglog_slope(steps, errors);
  };
  struct rattle_tag { using type = rattle<pendulum_state>; };
  struct lobatto_tag { using type = lobatto_iiia_iiib<3, pendulum_state>; };
  const double p2 = order(rattle_tag{}, {0.04, 0.02, 0.01, 0.005});
  const double p4 = order(lobatto_tag{}, {0.08, 0.04, 0.02, 0.01});
  BOOST_TEST_MESSAGE("event time orders: rattle " << p2 << ", lobatto3 " << p4);
  BOOST_TEST(std::fabs(p2 - 2) <= 0.3);
  BOOST_TEST(std::fabs(p4 - 4) <= 0.3);
}

BOOST_AUTO_TEST_CASE(direction_filters_and_order_within_a_step) {
  const std::vector<double> both = plane_crossings<rattle<pendulum_state>>(0.01, 3.0);
  const std::vector<double> rising = plane_crossings<rattle<pendulum_state>>(0.01, 3.0, crossing::rising);
  const std::vector<double> falling = plane_crossings<rattle<pendulum_state>>(0.01, 3.0, crossing::falling);
  BOOST_TEST(rising.size() + falling.size() == both.size());
  BOOST_TEST(!rising.empty());
  BOOST_TEST(!falling.empty());

  // Two events in one long step: x = ±0.1·l around a crossing, reported in time order.
  const pendulum sys;
  dense_output<lobatto_iiia_iiib<3, pendulum_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.5);
  event_locator<pendulum_state> events;
  events.add("x = -0.1", [](double, const pendulum_state& x) { return x.first(0) + 0.1; });
  events.add("x = +0.1", [](double, const pendulum_state& x) { return x.first(0) - 0.1; });
  std::vector<double> seen;
  for (int k = 0; k < 6 && seen.size() < 2; ++k) {
    d.do_step(sys);
    const auto& hits = events.locate(d);
    for (std::size_t i = 1; i < hits.size(); ++i) BOOST_TEST(hits[i - 1].t <= hits[i].t);
    if (hits.size() == 2) seen = {hits[0].t, hits[1].t};
  }
  BOOST_TEST(seen.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_stop_event_ends_at_the_event_and_a_grid_root_is_reported_once) {
  const pendulum sys;
  dense_output<rattle<pendulum_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.01);
  event_locator<pendulum_state> events;
  // t = 0.05 is a grid point: reported once, by the step that ends there.
  events.add("t = 0.05", [](double t, const pendulum_state&) { return t - 0.05; });
  events.add("x = 0, stop", [](double, const pendulum_state& x) { return x.first(0); }, crossing::both, event_action::stop);
  int grid_reports = 0;
  double stop_time = -1;
  while (!events.stopped() && d.current_time() < 5) {
    d.do_step(sys);
    for (const auto& hit : events.locate(d)) {
      if (hit.index == 0) {
        ++grid_reports;
        BOOST_TEST(hit.t == 0.05);
      }
      if (hit.index == 1) {
        stop_time = hit.t;
        BOOST_TEST(std::fabs(hit.state.first(0)) <= 1e-9);
      }
    }
  }
  BOOST_TEST(grid_reports == 1);
  BOOST_TEST(events.stopped());
  BOOST_TEST(stop_time > d.previous_time());
  BOOST_TEST(stop_time <= d.current_time());
}
