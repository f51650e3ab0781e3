// Event location on a fixed-step geometric integration: user functions gᵢ(t, x) whose sign
// changes between grid points are bracketed and refined on the step's continuous extension
// (dense_output.hpp) with Boost.Math's toms748_solve. The step sequence is never changed; an
// event whose action is `stop` ends the integration at the event (the state there is the
// interpolated one).
//
//   geomint::dense_output<geomint::rattle<state>> stepper;
//   geomint::event_locator<state> events;
//   events.add("crosses x = 0", [](double, const state& x) { return x.first(0); },
//              geomint::crossing::rising);
//   stepper.initialize(x0, 0.0, dt);
//   while (stepper.current_time() < t_end) {
//     stepper.do_step(system);
//     for (const auto& hit : events.locate(stepper)) { /* hit.index, hit.t, hit.state */ }
//     if (events.stopped()) break;
//   }
//
// Several events in one step are returned in time order; a root exactly at a grid point is
// reported once (by the step that ends there); a g that is zero at the start of a step does not
// report a crossing there again. A root's time is the end of the final bracket on the new side
// of the crossing (as IDA's), so a restart from an event's state (initialize, reset) does not
// find the same crossing again. A g that is NaN at a grid point or on the interpolant throws
// std::domain_error naming the event and the time.
#pragma once

#include <boost/math/tools/roots.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "geomint/core/step_error.hpp"

namespace geomint {

/// Which sign changes of g count: from negative to positive (rising), the converse (falling), or both.
enum class crossing { rising, falling, both };
/// What an event does: recorded, or recorded and the integration stops there.
enum class event_action { record, stop };

template <class State>
struct event_hit {
  int index = 0;   ///< which event (order of add())
  double t = 0;    ///< the time of the root (to the root finder's tolerance)
  State state{};   ///< the interpolated state there
  bool rising = true;
};

template <class State>
class event_locator {
 public:
  using function = std::function<double(double t, const State& x)>;

  /// Adds an event; returns its index.
  int add(std::string name, function g, crossing direction = crossing::both, event_action action = event_action::record) {
    events_.push_back({std::move(name), std::move(g), direction, action});
    return static_cast<int>(events_.size()) - 1;
  }
  const std::string& name(int index) const { return events_[index].name; }
  int count() const { return static_cast<int>(events_.size()); }

  /// Relative tolerance of the event times: the root is bracketed to within tolerance·|h|.
  void set_tolerance(double relative) { tolerance_ = relative; }
  /// Filters event i by direction (as IDASetRootDirection).
  void set_direction(int index, crossing direction) { events_.at(index).direction = direction; }

  /// Forgets the values at the last grid point (after a jump in the state or a restart).
  void reset() {
    for (auto& e : events_) e.started = false;
    stopped_ = false;
  }
  bool stopped() const { return stopped_; }

  /// The events in the last step of `dense` (a dense_output stepper), in time order, up to and
  /// including the first `stop` event. Call after every do_step.
  template <class Dense>
  const std::vector<event_hit<State>>& locate(Dense& dense) {
    hits_.clear();
    const double t0 = dense.previous_time(), t1 = dense.current_time();
    for (int i = 0; i < count(); ++i) {
      auto& e = events_[i];
      if (!e.started) {  // the first step, or an event added since the last one
        e.last = checked(e, t0, e.g(t0, dense.previous_state()));
        e.started = true;
      }
      const double g0 = e.last, g1 = checked(e, t1, e.g(t1, dense.current_state()));
      // g0 = 0: the root at the start was this event's report in the previous step.
      const bool rises = g0 < 0 && g1 >= 0, falls = g0 > 0 && g1 <= 0;
      if ((rises && e.direction != crossing::falling) || (falls && e.direction != crossing::rising)) {
        event_hit<State> hit;
        hit.index = i;
        hit.rising = rises;
        hit.state = dense.current_state();
        hit.t = g1 == 0 ? t1 : root(dense, e, t0, t1, g0, g1, hit.state);
        if (g1 != 0) dense.calc_state(hit.t, hit.state);
        hits_.push_back(std::move(hit));
      }
      e.last = g1;
    }
    std::stable_sort(hits_.begin(), hits_.end(), [&](const auto& a, const auto& b) {
      return (t1 >= t0) ? a.t < b.t : a.t > b.t;
    });
    for (std::size_t k = 0; k < hits_.size(); ++k)
      if (events_[hits_[k].index].action == event_action::stop) {
        hits_.resize(k + 1);
        stopped_ = true;
        break;
      }
    return hits_;
  }

 private:
  struct event {
    std::string name;
    function g;
    crossing direction;
    event_action action;
    double last = 0;       ///< g at the last grid point
    bool started = false;  ///< last holds g at the start of the coming step
  };

  static double checked(const event& e, double t, double g) {
    if (std::isnan(g)) throw std::domain_error("geomint: event '" + e.name + "' returned NaN at t = " + detail::decimal(t));
    return g;
  }

  /// The root of g(t, x(t)) in (t0, t1) on the interpolant, by TOMS 748.
  template <class Dense>
  double root(Dense& dense, event& e, double t0, double t1, double g0, double g1, State& scratch) {
    auto g = [&](double t) {
      dense.calc_state(t, scratch);
      return checked(e, t, e.g(t, scratch));
    };
    const double width = tolerance_ * std::fabs(t1 - t0);
    auto close = [width](double a, double b) { return std::fabs(b - a) <= width; };
    std::uintmax_t iterations = 100;
    const double a = std::fmin(t0, t1), b = std::fmax(t0, t1);
    const double ga = t0 <= t1 ? g0 : g1, gb = t0 <= t1 ? g1 : g0;
    const auto bracket = boost::math::tools::toms748_solve(g, a, b, ga, gb, close, iterations);
    return t0 <= t1 ? bracket.second : bracket.first;  // the end past the root
  }

  std::vector<event> events_;
  std::vector<event_hit<State>> hits_;
  double tolerance_ = 1e-14;
  bool stopped_ = false;
};

}  // namespace geomint
