// Event location (events.hpp) on the continuous extension: event times converge at the
// method's order as dt is halved; events in one step come in time order; direction filters;
// a stop event ends the integration there; a root on a grid point is reported once.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
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

// A root's time is the end of the final bracket past the root, so the reported state is on the
// new side (g ≥ 0 after a rise, ≤ 0 after a fall): with the bracket's midpoint about half of
// them were on the old side, and a restart from one (initialize at the event, reset) found the
// same crossing again in its first step.
BOOST_AUTO_TEST_CASE(a_reported_state_is_past_the_root_and_a_restart_from_it_does_not_repeat_it) {
  const pendulum sys;
  auto x_plane = [](double, const pendulum_state& x) { return x.first(0); };
  dense_output<lobatto_iiia_iiib<3, pendulum_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.01);
  event_locator<pendulum_state> events;
  events.add("x = 0", x_plane);
  int hits = 0;
  while (d.current_time() < 10) {
    d.do_step(sys);
    for (const auto& hit : events.locate(d)) {
      if (hit.t < 9.5) ++hits;  // the restarted run below ends on another grid
      const double g = x_plane(hit.t, hit.state);
      BOOST_TEST((hit.rising ? g >= 0 : g <= 0), "crossing " << hits << " at t = " << hit.t << ": g = " << g);
    }
  }
  BOOST_TEST(hits >= 10);

  // Stop at each crossing and restart from the event's state: every crossing once.
  event_locator<pendulum_state> stopping;
  stopping.add("x = 0, stop", x_plane, crossing::both, event_action::stop);
  dense_output<lobatto_iiia_iiib<3, pendulum_state>> r;
  r.initialize(sys.initial_state(), 0.0, 0.01);
  std::vector<double> times;
  while (r.current_time() < 10) {
    r.do_step(sys);
    const auto& found = stopping.locate(r);
    if (!stopping.stopped()) continue;
    const event_hit<pendulum_state> hit = found.back();
    BOOST_TEST_REQUIRE(times.size() < 1000u);
    if (!times.empty()) BOOST_TEST(hit.t > times.back() + 0.1, "crossing at " << hit.t << " reported again");
    times.push_back(hit.t);
    r.initialize(hit.state, hit.t, 0.01);
    stopping.reset();
  }
  while (!times.empty() && times.back() >= 9.5) times.pop_back();
  BOOST_TEST(times.size() == static_cast<std::size_t>(hits));
}

// An event added after integration began starts from the state at the start of the next step
// (before, its g there was taken as 0, and a crossing in that step went unreported).
BOOST_AUTO_TEST_CASE(an_event_added_during_the_integration_sees_its_first_step) {
  const pendulum sys;
  auto x_plane = [](double, const pendulum_state& x) { return x.first(0); };
  std::vector<double> all;
  {
    dense_output<rattle<pendulum_state>> d;
    d.initialize(sys.initial_state(), 0.0, 0.01);
    event_locator<pendulum_state> events;
    events.add("x = 0", x_plane);
    while (d.current_time() < 3) {
      d.do_step(sys);
      for (const auto& hit : events.locate(d)) all.push_back(hit.t);
    }
  }
  BOOST_TEST_REQUIRE(all.size() >= 2u);
  // Add the event in the step before the first crossing.
  dense_output<rattle<pendulum_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.01);
  event_locator<pendulum_state> events;
  events.add("t = 100", [](double t, const pendulum_state&) { return t - 100; });
  std::vector<double> late;
  while (d.current_time() < 3) {
    d.do_step(sys);
    if (d.current_time() + 0.01 > all.front() && events.count() == 1) events.add("x = 0", x_plane);
    for (const auto& hit : events.locate(d)) late.push_back(hit.t);
  }
  BOOST_TEST(late == all, boost::test_tools::per_element());
}

// g is NaN on the interpolant between two grid points where it is finite (sqrt of a quantity
// the interpolated state takes below zero): a domain_error naming the event and the time, not
// a root lost or a complaint about t.
BOOST_AUTO_TEST_CASE(an_event_that_is_nan_inside_a_step_throws_naming_it) {
  const pendulum sys;
  dense_output<rattle<pendulum_state>> d;
  d.initialize(sys.initial_state(), 0.0, 0.01);
  event_locator<pendulum_state> events;
  // Negative at the first grid point, positive at the second, NaN at every time in between.
  events.add("nan inside", [](double t, const pendulum_state&) {
    if (t == 0) return -1.0;
    if (t == 0.01) return 1.0;
    return std::nan("");
  });
  d.do_step(sys);
  try {
    events.locate(d);
    BOOST_ERROR("no exception");
  } catch (const std::domain_error& e) {
    const std::string what = e.what();
    BOOST_TEST_MESSAGE(what);
    BOOST_TEST(what.find("'nan inside' returned NaN at t = 0.00") != std::string::npos, what);
  }
}
