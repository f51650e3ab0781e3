// geomint::dense_output<Stepper>: any geomint stepper as a Boost.Odeint dense-output stepper.
// The geometric steps stay on the fixed grid t₀ + k·dt; calc_state(t, x) evaluates the
// stepper's continuous extension inside the last step, so odeint's integrate_const /
// integrate_times / integrate_adaptive (and event location, events.hpp) observe at any times
// without changing the step sequence. A step that is not interpolated costs one copy of the state.
//
// The extension is the stepper's own (Stepper::continuous_extension<System>): the constrained
// family's Hermite interpolant of the vector field (constrained/hamiltonian_extension.hpp), the
// Lie–Poisson steppers' orbit-preserving one (lie/lie_continuous_extension.hpp), SHAKE's for its
// two-step state (variational/shake.hpp), or the Hermite interpolant of the stepper's own flow
// (solvers/flow_difference_extension.hpp). Derivatives are computed only for steps that are
// interpolated, and the end derivative serves as the next step's start derivative when that step
// continues this one (the stepper says whether it did).
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "geomint/core/cache_slot.hpp"
#include "geomint/core/system_reference.hpp"

namespace geomint {

namespace detail {
/// The states a dense_output stepper holds and hands to odeint (current_state()): a (q, p) pair
/// is held as this type, derived from it, because odeint copies a std::pair<V, V> as a range of
/// iterators (util/detail/is_range.hpp) — a geomint-owned type is copied by assignment, without
/// specializing odeint's templates for std::pair.
template <class State>
struct dense_state_of {
  using type = State;
};
template <class Q, class P>
struct pair_state : std::pair<Q, P> {
  pair_state() = default;
  pair_state(const std::pair<Q, P>& x) : std::pair<Q, P>(x) {}  // NOLINT: converts, as the pair it is
  using std::pair<Q, P>::operator=;
};
template <class Q, class P>
struct dense_state_of<std::pair<Q, P>> {
  using type = pair_state<Q, P>;
};

template <class S, class System, class = void>
struct has_continuous_extension : std::false_type {};
template <class S, class System>
struct has_continuous_extension<S, System, std::void_t<typename S::template continuous_extension<System>>>
    : std::true_type {};
}  // namespace detail

template <class Stepper>
class dense_output {
 public:
  using stepper_type = Stepper;
  using state_type = typename Stepper::state_type;
  using deriv_type = state_type;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::dense_output_stepper_tag;

  dense_output() = default;
  explicit dense_output(const Stepper& stepper) : stepper_(stepper) {}
  /// A copy keeps the stepper (which starts afresh), the states and the grid; its
  /// continuous extension is rebuilt on its next interpolation.
  dense_output(const dense_output& other)
      : stepper_(other.stepper_), states_{other.states_[0], other.states_[1], other.states_[2]},
        current_(other.current_), previous_(other.previous_), t0_(other.t0_), dt_(other.dt_),
        t_previous_(other.t_previous_), t_current_(other.t_current_), steps_(other.steps_), project_(other.project_),
        continued_(other.continued_), extension_system_(other.extension_system_),
        extension_type_(other.extension_type_), make_extension_(other.make_extension_) {}
  dense_output& operator=(const dense_output& other) {
    if (this != &other) *this = dense_output(other);
    return *this;
  }
  dense_output(dense_output&&) noexcept = default;
  dense_output& operator=(dense_output&&) noexcept = default;

  order_type order() const { return stepper_.order(); }

  /// Starts at (t0, x0) with the fixed step dt0 (odeint's initialize).
  template <class X>
  void initialize(const X& x0, time_type t0, time_type dt0) {
    for (held_state& x : states_) x = x0;  // sized once: a step copies into them
    current_ = 0;
    previous_ = 1;
    t0_ = t0;
    dt_ = dt0;
    steps_ = 0;
    t_previous_ = t_current_ = t0;
    extension_.reset();
    extension_system_ = nullptr;
  }

  /// One geometric step of dt; returns (t_old, t_new). Grid times are t0 + k·dt (a plain loop
  /// computes them the same way). A failing step throws step_error; the last step's states,
  /// times and interpolant are kept.
  template <class System>
  std::pair<time_type, time_type> do_step(System&& system) {
    const auto& sys = unwrap_system(system);
    using system_type = std::decay_t<decltype(sys)>;
    static_assert(detail::has_continuous_extension<Stepper, system_type>::value,
                  "geomint::dense_output: the stepper names no continuous extension for this system "
                  "(Stepper::continuous_extension<System>)");
    const time_type t = t_current_;
    // The step goes into the third buffer (the one copy per step), so that a step that throws
    // leaves the last step's two states, and its interpolation, as they were.
    const int next = 3 - current_ - previous_;
    states_[next] = states_[current_];
    stepper_.do_step(sys, static_cast<state_type&>(states_[next]), t, dt_);
    previous_ = current_;
    current_ = next;
    ++steps_;
    t_previous_ = t;
    t_current_ = t0_ + static_cast<double>(steps_) * dt_;
    continued_ = stepper_.last_step_continued();
    // The extension is built on the first interpolation (steps that are never interpolated
    // cost nothing more), and again if the system object changes.
    if (extension_system_ != &sys || extension_type_ != detail::type_id<system_type>()) {
      extension_.reset();
      extension_system_ = &sys;
      extension_type_ = detail::type_id<system_type>();
      make_extension_ = [](const Stepper& stepper, const void* system, const state_type& shape) -> extension_base* {
        return new extension_model<system_type>(stepper, *static_cast<const system_type*>(system), shape);
      };
      continued_ = false;
    }
    pending_ = true;
    return {t, current_time()};
  }

  /// The state at t in [previous_time(), current_time()] (the last step).
  template <class X>
  void calc_state(time_type t, X& x) {
    evaluate(t, x, 0);
  }
  /// dx/dt at t in the last step (the interpolant's derivative).
  template <class X>
  void calc_derivative(time_type t, X& dx) {
    evaluate(t, dx, 1);
  }

  /// The grid states (a (q, p) pair as a type derived from it, see dense_state_of).
  const auto& current_state() const { return states_[current_]; }
  const auto& previous_state() const { return states_[previous_]; }
  time_type current_time() const { return t_current_; }
  time_type previous_time() const { return t_previous_; }
  time_type current_time_step() const { return dt_; }
  /// Project interpolated states onto the constraint manifold (constrained systems; off by default).
  void set_projection(bool project) { project_ = project; }

  Stepper& stepper() { return stepper_; }
  const Stepper& stepper() const { return stepper_; }
  /// The stepper's options and statistics (every grid step is one of its steps).
  decltype(auto) options() { return stepper_.options(); }
  decltype(auto) options() const { return stepper_.options(); }
  decltype(auto) statistics() const { return stepper_.statistics(); }
  /// Forgets the stepper's caches (its next step is a fresh start); the grid, the states and
  /// the last step's interpolant stay.
  void reset() { stepper_.reset(); }

 private:
  using held_state = typename detail::dense_state_of<state_type>::type;

  struct extension_base {
    virtual ~extension_base() = default;
    virtual void begin_step(const state_type& x0, const state_type& x1, double t0, double h, bool continued) = 0;
    virtual void evaluate(double t, state_type& x, int k, bool project) = 0;
  };
  template <class System>
  struct extension_model final : extension_base {
    using type = typename Stepper::template continuous_extension<System>;
    extension_model(const Stepper& stepper, const System& sys, const state_type& shape) : e(stepper, sys, shape) {}
    void begin_step(const state_type& x0, const state_type& x1, double t0, double h, bool continued) override {
      e.begin_step(x0, x1, t0, h, continued);
    }
    void evaluate(double t, state_type& x, int k, bool project) override { e.evaluate(t, x, k, project); }
    type e;
  };

  template <class X>
  void evaluate(time_type t, X& x, int k) {
    if (steps_ == 0) throw std::logic_error("geomint::dense_output: no step taken yet");
    if constexpr (std::is_assignable_v<X&, const state_type&>) {
      if (k == 0 && (t == t_current_ || t == t_previous_)) {  // on the grid: the state itself
        x = t == t_current_ ? static_cast<const state_type&>(current_state())
                            : static_cast<const state_type&>(previous_state());
        return;
      }
    }
    const double slack = 1e-12 * std::fabs(dt_);
    const bool forward = dt_ > 0;
    const double lo = forward ? t_previous_ : t_current_, hi = forward ? t_current_ : t_previous_;
    if (!(t >= lo - slack && t <= hi + slack))
      throw std::invalid_argument("geomint::dense_output: t is outside the last step");
    if (!extension_) {
      extension_.reset(make_extension_(stepper_, extension_system_, current_state()));
      pending_ = true;
    }
    if (pending_) {
      extension_->begin_step(previous_state(), current_state(), previous_time(), dt_, continued_);
      pending_ = false;
    }
    if constexpr (std::is_same_v<X, state_type>) {
      extension_->evaluate(t, x, k, project_);
    } else {
      scratch_ = current_state();
      extension_->evaluate(t, scratch_, k, project_);
      x = scratch_;
    }
  }

  Stepper stepper_;
  held_state states_[3]{};
  state_type scratch_{};
  int current_ = 0, previous_ = 1;  ///< indices in states_ (the third takes the next step)
  time_type t0_ = 0, dt_ = 0;
  time_type t_previous_ = 0, t_current_ = 0;  ///< t0 + (k − 1)·dt and t0 + k·dt after k ≥ 1 steps
  long steps_ = 0;
  bool project_ = false, pending_ = false;
  bool continued_ = false;  ///< the last step continued the one before (the stepper's word)
  std::unique_ptr<extension_base> extension_;
  const void* extension_system_ = nullptr;
  const void* extension_type_ = nullptr;
  extension_base* (*make_extension_)(const Stepper&, const void*, const state_type&) = nullptr;
};

}  // namespace geomint
