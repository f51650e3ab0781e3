// One trajectory of an ensemble: the loop every trajectory runs, whatever runs it (a thread of
// this process, an MPI rank, the geomint command).
//
//   integrate(trajectory, grid, observer, record, stop[, hook])
//
// steps `trajectory` over a fixed time grid; the observer sees the state at step 0, every
// grid.every steps and at the last step reached; a hook sees every step (section points plug in
// there); a geomint::step_error ends the trajectory as failed with its message, keeping the last
// good state; a stop request ends it as interrupted at the next step.
//
// A Trajectory has `step(t, dt)` (throws step_error and leaves its state as it was) and
// `state()`; stepper_trajectory makes one from a stepper, a system and an initial state, and
// event_trajectory (ensemble/events.hpp) one that also locates events (Poincaré sections) on the
// dense-output layer.
#pragma once

#include <time.h>

#include <Eigen/Core>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "geomint/core/step_error.hpp"
#include "geomint/ensemble/record.hpp"

namespace geomint::ensemble {

/// steps steps of dt from t0; observed at step 0, every `every` steps and at the last.
struct time_grid {
  double t0 = 0, dt = 0;
  std::int64_t steps = 0;
  std::int64_t every = 1;  ///< ≥ 1
  /// t0 + k dt, the time of step k's end point (computed so, not accumulated).
  double time(std::int64_t k) const { return t0 + static_cast<double>(k) * dt; }
};

/// CPU seconds of the calling thread.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// ---- packed states ----------------------------------------------------------------------------
/// A state as one vector of doubles: an Eigen vector as is, a (q, p) pair as q then p.
template <class Derived>
void pack_state(const Eigen::DenseBase<Derived>& x, std::vector<double>& out) {
  out.resize(static_cast<std::size_t>(x.size()));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, 1>>(out.data(), x.size()) = x.derived().reshaped();
}
inline void pack_state(const std::vector<double>& x, std::vector<double>& out) { out = x; }
template <class Q, class P>
void pack_state(const std::pair<Q, P>& x, std::vector<double>& out) {
  std::vector<double> p;
  pack_state(x.first, out);
  pack_state(x.second, p);
  out.insert(out.end(), p.begin(), p.end());
}

// ---- the pieces a trajectory is made of ---------------------------------------------------------
/// A copy of a stepper stepping its own state of one system (held by reference: it must outlive
/// the trajectory). Each trajectory gets its own copy; a copy starts afresh (no shared caches).
template <class Stepper, class System, class State>
class stepper_trajectory {
 public:
  stepper_trajectory(const Stepper& prototype, const System& system, State initial)
      : stepper_(prototype), system_(system), x_(std::move(initial)) {}
  void step(double t, double dt) { stepper_.do_step(system_, x_, t, dt); }
  const State& state() const { return x_; }
  const Stepper& stepper() const { return stepper_; }

 private:
  Stepper stepper_;
  const System& system_;
  State x_;
};

/// A trajectory with events has locate_events() (called after each counted step),
/// events_found() (the events of its last step), stopped() and stop_time():
/// ensemble/events.hpp's event_trajectory.
namespace detail {
template <class T, class = void>
struct has_events : std::false_type {};
template <class T>
struct has_events<T, std::void_t<decltype(std::declval<const T&>().events_found())>> : std::true_type {};
}  // namespace detail

/// Appends the events of trajectory's last step to record.crossings.
template <class Trajectory>
void record_events(const Trajectory& trajectory, trajectory_record& record) {
  for (const auto& hit : trajectory.events_found()) {
    crossing c;
    c.event = hit.index;
    c.t = hit.t;
    pack_state(hit.state, c.state);
    record.crossings.push_back(std::move(c));
  }
}

/// The hook that sees nothing: the default. A hook is called after every successful step as
/// hook(trajectory, t, record) — t the step's end time, trajectory.state() the state there — and
/// may append to record.crossings. This is where an event locator (Poincaré sections) observes
/// each step; it keeps the previous state itself if it needs one.
struct no_step_hook {
  template <class Trajectory>
  void operator()(const Trajectory&, double, trajectory_record&) {}
};

/// Largest and last errors of the quantities `values(x, out)` computes, into the record's
/// max_error and final_error: a conserved quantity's relative error (X − X₀)/max(1, |X₀|), X₀ at
/// the first sample, and a residual's value (its magnitude). A non-finite value counts as +inf.
template <class Values>
class invariant_observer {
 public:
  invariant_observer(std::vector<bool> conserved, Values values)
      : conserved_(std::move(conserved)), values_(std::move(values)) {}

  template <class State>
  void operator()(const State& x, double /*t*/, trajectory_record& r) {
    values_(x, v_);
    if (initial_.empty()) {
      initial_ = v_;
      r.max_error.assign(v_.size(), 0.0);
      r.final_error.assign(v_.size(), 0.0);
    }
    for (std::size_t i = 0; i < v_.size(); ++i) {
      const double e = conserved_.at(i) ? (v_[i] - initial_[i]) / std::fmax(1.0, std::fabs(initial_[i])) : v_[i];
      const double a = std::isfinite(e) ? std::fabs(e) : HUGE_VAL;
      r.final_error[i] = a;
      r.max_error[i] = std::fmax(r.max_error[i], a);
    }
  }

 private:
  std::vector<bool> conserved_;
  Values values_;
  std::vector<double> initial_, v_;
};

template <class Values>
invariant_observer<Values> make_invariant_observer(std::vector<bool> conserved, Values values) {
  return invariant_observer<Values>(std::move(conserved), std::move(values));
}

// ---- the loop -----------------------------------------------------------------------------------
/// Runs one trajectory over `grid` into `record` (whose index the caller has set): status ok,
/// failed (step_error: its message in record.reason) or interrupted (stop became true: checked
/// before every step). record.final_state is the last good state, t_reached its time, steps the
/// successful steps; the observer has seen that state last. A trajectory with events
/// (ensemble/events.hpp) adds each step's events to record.crossings; a `stop` event ends it as ok
/// at the event, whose (interpolated) state is then the final one and its time t_reached. cpu_seconds is this thread's CPU time
/// for the whole trajectory, observer and hook included.
template <class Trajectory, class Observer, class Hook = no_step_hook>
void integrate(Trajectory& trajectory, const time_grid& grid, Observer&& observe, trajectory_record& record,
               const std::atomic<bool>& stop, Hook&& hook = Hook{}) {
  const double c0 = thread_cpu_seconds();
  observe(trajectory.state(), grid.time(0), record);
  std::int64_t k = 0, observed = 0, until_sample = grid.every;
  double stopped_at = NAN;
  record.status = trajectory_status::ok;
  try {
    while (k < grid.steps) {
      if (stop.load(std::memory_order_relaxed)) {
        record.status = trajectory_status::interrupted;
        break;
      }
      trajectory.step(grid.time(k), grid.dt);
      ++k;
      hook(trajectory, grid.time(k), record);  // a step hook may add crossings of its own
      if constexpr (detail::has_events<Trajectory>::value) {
        trajectory.locate_events();
        record_events(trajectory, record);
        if (trajectory.stopped()) {  // a stop event: the trajectory ends there, ok
          observe(trajectory.state(), trajectory.stop_time(), record);
          observed = k;
          stopped_at = trajectory.stop_time();
          break;
        }
      }
      if (--until_sample == 0 || k == grid.steps) {
        observe(trajectory.state(), grid.time(k), record);
        observed = k;
        until_sample = grid.every;
      }
    }
  } catch (const std::exception& e) {  // step_error; an event function's domain_error (NaN)
    record.status = trajectory_status::failed;
    record.reason = e.what();
  }
  if (k > observed) observe(trajectory.state(), grid.time(k), record);  // the last good state
  record.steps = k;
  record.t_reached = std::isnan(stopped_at) ? grid.time(k) : stopped_at;
  pack_state(trajectory.state(), record.final_state);
  record.cpu_seconds = thread_cpu_seconds() - c0;
}

}  // namespace geomint::ensemble
