// Events in an ensemble: each trajectory on a copy of the stepper wrapped in the dense-output
// layer (geomint/dense_output.hpp) with its own copy of an event locator (geomint/events.hpp).
//
//   geomint::event_locator<state> events;   // a prototype: every trajectory gets a copy
//   events.add("x = 0 upwards", [](double, const state& x) { return x.first(0); }, geomint::crossing::rising);
//   run_result r = run_with_events(geomint::rattle<state>(), M, member_of, grid, observer_for,
//                                  [&](std::uint64_t, const System&) { return events; }, execution{4});
//
// record.crossings then holds every event of trajectory i in time order (event index, time,
// interpolated state packed); a `stop` event ends trajectory i there (status ok, t_reached the
// event's time, final_state the state there). The steps are those of ensemble::run on the same
// grid, so final states and errors are the same as without events; the crossings are, like
// everything else in a record, identical bit for bit for any thread or rank count.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "geomint/dense_output.hpp"
#include "geomint/ensemble/ensemble.hpp"
#include "geomint/events.hpp"

namespace geomint::ensemble {

/// A stepper copy on the dense-output layer (dense_output.hpp) with its own event locator
/// (events.hpp): after every grid step the events of that step are located on the step's
/// continuous extension (the grid itself never changes, so the records are those of
/// stepper_trajectory, plus the events). integrate() copies each event into record.crossings
/// (event index, time, interpolated state packed) and ends the trajectory at a `stop` event.
template <class Stepper, class System, class State>
class event_trajectory {
 public:
  event_trajectory(const Stepper& prototype, const System& system, const State& initial,
                   event_locator<State> events, double t0, double dt)
      : dense_(prototype), system_(system), events_(std::move(events)) {
    dense_.initialize(initial, t0, dt);
  }
  /// One step of the grid the dense stepper was initialized with (t0 + k dt, as time_grid).
  void step(double t, double dt) {
    if (t != dense_.current_time() || dt != dense_.current_time_step())
      throw std::logic_error("geomint::ensemble::event_trajectory: steps must follow the grid it was made for");
    hits_ = nullptr;
    dense_.do_step(system_);
  }
  /// The events of the step just taken (integrate() calls it once the step is counted, so an
  /// event function that fails leaves the step's end as the last good state).
  void locate_events() { hits_ = &events_.locate(dense_); }
  const State& state() const { return stopped() ? hits_->back().state : dense_.current_state(); }
  /// The events of the last step, in time order (up to the first stop event).
  const std::vector<event_hit<State>>& events_found() const { return hits_ ? *hits_ : none_; }
  bool stopped() const { return events_.stopped() && hits_ && !hits_->empty(); }
  double stop_time() const { return hits_->back().t; }

 private:
  dense_output<Stepper> dense_;
  const System& system_;
  event_locator<State> events_;
  const std::vector<event_hit<State>>* hits_ = nullptr;
  std::vector<event_hit<State>> none_;
};

/// ensemble::run with events: events_for(i, system) gives trajectory i its event locator (a
/// copy of a prototype, or one built for its system); see the top of this file.
template <class Stepper, class MemberOf, class ObserverFor, class EventsFor, class Execution = execution>
run_result run_with_events(const Stepper& prototype, std::uint64_t count, MemberOf member_of, const time_grid& grid,
                           ObserverFor observer_for, EventsFor events_for, const Execution& exec = {}) {
  detail::check_grid(grid);
  detail::require_unshared_solver(prototype, exec);
  trajectory_work work = [&](std::uint64_t i, trajectory_record& record, const std::atomic<bool>& stop) {
    decltype(auto) m = member_of(i);
    using system_type = std::decay_t<decltype(m.system)>;
    using state_type = std::decay_t<decltype(m.initial)>;
    event_trajectory<Stepper, system_type, state_type> trajectory(prototype, m.system, m.initial,
                                                                  events_for(i, m.system), grid.t0, grid.dt);
    auto observer = observer_for(i, m.system);
    integrate(trajectory, grid, observer, record, stop);
  };
  return run_indexed(count, work, exec);
}

}  // namespace geomint::ensemble
