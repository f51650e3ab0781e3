// geomint::dense_output<Stepper>: any geomint stepper as a Boost.Odeint dense-output stepper.
// The geometric steps stay on the fixed grid t₀ + k·dt; calc_state(t, x) evaluates a continuous
// extension inside the last step, so odeint's integrate_const / integrate_times /
// integrate_adaptive (and event location, events.hpp) observe at any times without changing
// the step sequence. A step that is not interpolated costs one copy of the state.
//
// Continuous extensions (continuous_extension<Stepper, System>, chosen by the system):
//   * constrained Hamiltonian systems (q̇ = ∂H/∂p, ṗ = −∂H/∂q − Gᵀλ + f): Hermite interpolation
//     with the exact derivatives at both ends, λ from the index-1 condition (index1.hpp):
//     cubic (error O(h⁴)) for methods of order ≤ 3, quintic (O(h⁶), second derivatives by a
//     central difference of the vector field along itself) above; optionally projected onto
//     the constraint manifold (set_projection(true); off by default);
//   * Lie–Poisson systems (a System with algebra_type): Hermite in the algebra, σ(θ), and the
//     coadjoint action y(θ) = Ad*_{exp(−σ(θ))} y₀ — interpolated states stay on the coadjoint
//     orbit (lie/lie_continuous_extension.hpp);
//   * other systems (Riemannian, Lagrangian): cubic Hermite with the derivative of the
//     stepper's own flow at the grid states, by central differences of two tiny steps;
//   * a stepper that names its own (Stepper::continuous_extension<System>) uses it: SHAKE, whose
//     state (q_{k−1}, q_k) is not a point of phase space (variational/shake.hpp).
// Derivatives are computed only for steps that are interpolated, and the end derivative is
// reused as the next step's start derivative.
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <boost/numeric/odeint/util/copy.hpp>
#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "geomint/core/continuation.hpp"
#include "geomint/core/hermite.hpp"
#include "geomint/core/properties.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/system_reference.hpp"
#include "geomint/core/workspace_slot.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/system/index1.hpp"

namespace geomint {

namespace detail {

/// A state as one flat vector: (q, p) of a std::pair, or the vector itself.
template <class Q, class P>
Eigen::Index flat_size(const std::pair<Q, P>& x) { return static_cast<Eigen::Index>(x.first.size() + x.second.size()); }
template <class X>
Eigen::Index flat_size(const X& x) { return static_cast<Eigen::Index>(x.size()); }
template <class Q, class P>
void flatten(const std::pair<Q, P>& x, Eigen::VectorXd& y) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.first.size());
  y.resize(flat_size(x));  // allocates only the first time
  y.head(n) = view(x.first);
  y.tail(y.size() - n) = view(x.second);
}
template <class X>
void flatten(const X& x, Eigen::VectorXd& y) { y = view(x); }
template <class Q, class P>
void unflatten(const Eigen::VectorXd& y, std::pair<Q, P>& x) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.first.size());
  view(x.first) = y.head(n);
  view(x.second) = y.tail(y.size() - n);
}
template <class X>
void unflatten(const Eigen::VectorXd& y, X& x) { view(x) = y; }

/// The stepper's own continuous extension for System, if it names one (a stepper whose state is
/// not a point of phase space, as SHAKE's two configurations); void otherwise.
template <class Stepper, class System, class = void>
struct own_extension {
  using type = void;
};
template <class Stepper, class System>
struct own_extension<Stepper, System, std::void_t<typename Stepper::template continuous_extension<System>>> {
  using type = typename Stepper::template continuous_extension<System>;
};

/// A Lie–Poisson system (lie_poisson_system.hpp).
template <class S, class = void>
struct is_lie_poisson : std::false_type {};
template <class S>
struct is_lie_poisson<S, std::void_t<typename S::algebra_type>> : std::true_type {};

/// A constrained Hamiltonian system (constrained_system.hpp): sizes, ∂H/∂p, g. ∂H/∂p is probed
/// with vectors of the system's own size, so that members written for concrete types
/// (`const Eigen::Vector3d&`) are recognized as the steppers recognize them.
template <class S, class = void>
struct is_constrained_hamiltonian : std::false_type {};
template <class S>
struct is_constrained_hamiltonian<
    S, std::void_t<decltype(S::position_size), decltype(S::constraint_size),
                   decltype(std::declval<const S&>().dh_dp(std::declval<const vector<S::position_size>&>(),
                                                           std::declval<const vector<S::position_size>&>(),
                                                           std::declval<vector<S::position_size>&>())),
                   decltype(std::declval<const S&>().constraint_count())>> : std::true_type {};

/// The vector field (q̇, ṗ) of a constrained Hamiltonian system on its manifold.
template <class System>
class hamiltonian_field {
 public:
  explicit hamiltonian_field(const System& sys) : field_(sys), n_(sys.position_count()) {}
  void operator()(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
    q_ = y.head(n_);
    p_ = y.tail(n_);
    field_(t, q_, p_, dq_, dp_);
    dy.head(n_) = dq_;
    dy.tail(n_) = dp_;
  }

 private:
  index1_vector_field<System> field_;
  int n_;
  vector<system_traits<System>::n> q_, p_, dq_, dp_;
};

/// The derivative of a stepper's own flow: (Φ_ε(y) − Φ_{−ε}(y))/(2ε), error O(εᵖ) + O(ε_mach/ε).
/// ε = min(1e-5, 1e-3|h|) for steps of h: dynamics that a step of 1e-6 resolves must not be
/// differenced over 1e-5 (ten steps), and the round-off ε_mach/ε then enters the interpolant as
/// |h|·ε_mach/ε ≤ 1e3 ε_mach.
template <class Stepper, class System>
class flow_difference_field {
 public:
  flow_difference_field(const Stepper& stepper, const System& sys, const typename Stepper::state_type& shape)
      : stepper_(stepper), sys_(&sys), plus_(shape), minus_(shape) {}
  void set_step(double h) { eps_ = std::fmin(1e-5, 1e-3 * std::fabs(h)); }
  void operator()(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
    const double eps = eps_;
    unflatten(y, plus_);
    unflatten(y, minus_);
    Stepper forward = stepper_, backward = stepper_;  // copies start afresh
    forward.do_step(*sys_, plus_, t, eps);
    backward.do_step(*sys_, minus_, t, -eps);
    flatten(plus_, a_);
    flatten(minus_, b_);
    dy = (a_ - b_) / (2 * eps);
  }

 private:
  Stepper stepper_;
  const System* sys_;
  typename Stepper::state_type plus_, minus_;
  Eigen::VectorXd a_, b_;
  double eps_ = 1e-5;
};

}  // namespace detail

/// Hermite interpolation of one step from a vector field; the default continuous extension.
template <class Stepper, class System>
class continuous_extension {
  static constexpr bool hamiltonian = detail::is_constrained_hamiltonian<System>::value;
  using field_type = std::conditional_t<hamiltonian, detail::hamiltonian_field<System>,
                                        detail::flow_difference_field<Stepper, System>>;

 public:
  using state_type = typename Stepper::state_type;

  continuous_extension(const Stepper& stepper, const System& sys, const state_type& shape)
      : sys_(&sys), field_(make_field(stepper, sys, shape)),
        quintic_(hamiltonian && (properties_of<Stepper>::order >= 4 || stepper.order() >= 4)) {
    allocate(shape);
  }
  /// Constrained Hamiltonian systems only: the extension for a method of the given order
  /// without a stepper object (the C module's interpolant; Stepper need only name state_type).
  continuous_extension(const System& sys, const state_type& shape, int order)
      : sys_(&sys), field_(sys), quintic_(order >= 4) {
    static_assert(hamiltonian, "continuous_extension(sys, shape, order) is for constrained Hamiltonian systems");
    allocate(shape);
  }

  /// A new step [t0, t0 + h] from x0 to x1. The last step's end derivatives become the start's
  /// if this step starts where that one ended, in time and in state (not after a restart at the
  /// same time from another state, as the C module's GeomintReInit after a kick).
  void begin_step(const state_type& x0, const state_type& x1, double t0, double h) {
    detail::flatten(x0, y0_);
    const bool continues = have_end_ && t0 == t1_ && y0_ == y1_;
    if (continues) {
      d0_.swap(d1_);
      a0_.swap(a1_);
    }
    have_start_ = continues;
    have_end_ = false;
    if constexpr (!hamiltonian) field_.set_step(h);
    detail::flatten(x1, y1_);
    t0_ = t0;
    h_ = h;
    t1_ = t0 + h;
  }

  /// The system's parameters changed (same object, rebuilt in place): the last step's end
  /// derivatives are not the next step's start derivatives.
  void forget_end() { have_end_ = false; }

  /// x (k = 0) or ẋ (k = 1) at t ∈ [t0, t0 + h]; project: onto the constraint manifold (k = 0).
  void evaluate(double t, state_type& x, int k, bool project) {
    if (!have_start_) derivatives(t0_, y0_, d0_, a0_);
    if (!have_end_) derivatives(t1_, y1_, d1_, a1_);
    have_start_ = have_end_ = true;
    const double s = (t - t0_) / h_;
    const hermite_weights w = quintic_ ? quintic_hermite(s) : cubic_hermite(s);
    const auto& c = k == 0 ? w.value : w.slope;
    out_ = c[0] * y0_ + (c[1] * h_) * d0_ + (c[4] * h_) * d1_ + c[5] * y1_;
    if (quintic_) out_ += (c[2] * h_ * h_) * a0_ + (c[3] * h_ * h_) * a1_;
    if (k == 1) out_ /= h_;
    detail::unflatten(out_, x);
    if constexpr (hamiltonian) {
      if (project && k == 0) {
        projection_options opt;
        opt.t = t;
        projection_->project(*sys_, x.first, x.second, opt);
      }
    }
  }

 private:
  void allocate(const state_type& shape) {
    const Eigen::Index k = detail::flat_size(shape);
    for (Eigen::VectorXd* v : {&y0_, &y1_, &d0_, &d1_, &a0_, &a1_, &work_, &f_, &g_, &out_}) v->resize(k);
    if constexpr (hamiltonian) projection_ = std::make_unique<manifold_projection<System>>(*sys_);
  }

  static field_type make_field(const Stepper& stepper, const System& sys, const state_type& shape) {
    if constexpr (hamiltonian) return field_type(sys);
    else return field_type(stepper, sys, shape);
  }

  /// ẏ at (t, y), and for the quintic ÿ = ∂f/∂y f + ∂f/∂t by a central difference along (f, 1).
  /// The difference moves y by 1e-5 of its size, and t by at most 1e-3 of the step: a state at
  /// rest under a time-dependent force has f = 0 but ÿ = ∂f/∂t ≠ 0, and a force the step
  /// resolves (ω|h| ≲ 1) changes little over 1e-3|h| (truncation (ω eps)²/6 ≤ 2e-7 relative).
  void derivatives(double t, const Eigen::VectorXd& y, Eigen::VectorXd& d, Eigen::VectorXd& a) {
    field_(t, y, d);
    if (!quintic_) return;
    const double eps = std::fmin(1e-5 * std::fmax(1.0, y.cwiseAbs().maxCoeff()) / d.cwiseAbs().maxCoeff(),
                                 1e-3 * std::fabs(h_));
    work_ = y + eps * d;
    field_(t + eps, work_, f_);
    work_ = y - eps * d;
    field_(t - eps, work_, g_);
    a = (f_ - g_) / (2 * eps);
  }

  const System* sys_;
  field_type field_;
  bool quintic_;
  std::conditional_t<hamiltonian, std::unique_ptr<manifold_projection<System>>, int> projection_{};
  Eigen::VectorXd y0_, y1_, d0_, d1_, a0_, a1_, work_, f_, g_, out_;
  double t0_ = 0, t1_ = 0, h_ = 0;
  bool have_start_ = false, have_end_ = false;
};

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
        t_previous_(other.t_previous_), t_current_(other.t_current_), steps_(other.steps_), project_(other.project_) {
    extension_system_ = other.extension_system_;
    extension_type_ = other.extension_type_;
    extension_key_ = other.extension_key_;
    make_extension_ = other.make_extension_;
  }
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
    for (state_type& x : states_) x = x0;  // sized once: a step copies into them
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
    const time_type t = t_current_;
    // The step goes into the third buffer (the one copy per step), so that a step that throws
    // leaves the last step's two states, and its interpolation, as they were.
    const int next = 3 - current_ - previous_;
    states_[next] = states_[current_];
    stepper_.do_step(sys, states_[next], t, dt_);
    previous_ = current_;
    current_ = next;
    ++steps_;
    t_previous_ = t;
    t_current_ = t0_ + static_cast<double>(steps_) * dt_;
    // The extension is built on the first interpolation (steps that are never interpolated
    // cost nothing more), and again if the system object changes. The same object with other
    // parameters (rebuilt in place: std::optional::emplace) keeps the extension but not the
    // derivatives it carries from the last step (the continuation rule, core/continuation.hpp).
    if (extension_system_ != &sys || extension_type_ != detail::type_id<system_type>()) {
      extension_.reset();
      extension_system_ = &sys;
      extension_type_ = detail::type_id<system_type>();
      make_extension_ = [](const Stepper& stepper, const void* system, const state_type& shape) -> extension_base* {
        return new extension_model<system_type>(stepper, *static_cast<const system_type*>(system), shape);
      };
      extension_key_.record(sys);
    } else if (!extension_key_.matches(sys)) {
      if (extension_) extension_->forget_end();
      extension_key_.record(sys);
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

  const state_type& current_state() const { return states_[current_]; }
  const state_type& previous_state() const { return states_[previous_]; }
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
  struct extension_base {
    virtual ~extension_base() = default;
    virtual void begin_step(const state_type& x0, const state_type& x1, double t0, double h) = 0;
    virtual void evaluate(double t, state_type& x, int k, bool project) = 0;
    virtual void forget_end() = 0;
  };
  template <class System>
  struct extension_model final : extension_base {
    using own_type = typename detail::own_extension<Stepper, System>::type;
    static constexpr bool own = !std::is_void_v<own_type>;
    static constexpr bool lie = detail::is_lie_poisson<System>::value;
    using type = std::conditional_t<
        own, own_type, std::conditional_t<lie, lie_continuous_extension<System>, continuous_extension<Stepper, System>>>;
    extension_model(const Stepper& stepper, const System& sys, const state_type& shape) : e(make(stepper, sys, shape)) {}
    static type make(const Stepper& stepper, const System& sys, const state_type& shape) {
      if constexpr (own || lie) return type(sys);
      else return type(stepper, sys, shape);
    }
    void begin_step(const state_type& x0, const state_type& x1, double t0, double h) override { e.begin_step(x0, x1, t0, h); }
    void evaluate(double t, state_type& x, int k, bool project) override { e.evaluate(t, x, k, project); }
    void forget_end() override {
      if constexpr (own || !lie) e.forget_end();  // the Lie extension carries nothing from step to step
    }
    type e;
  };

  template <class X>
  void evaluate(time_type t, X& x, int k) {
    if (steps_ == 0) throw std::logic_error("geomint::dense_output: no step taken yet");
    if constexpr (std::is_assignable_v<X&, const state_type&>) {
      if (k == 0 && (t == t_current_ || t == t_previous_)) {  // on the grid: the state itself
        x = t == t_current_ ? current_state() : previous_state();
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
      extension_->begin_step(previous_state(), current_state(), previous_time(), dt_);
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
  state_type states_[3]{}, scratch_{};
  int current_ = 0, previous_ = 1;  ///< indices in states_ (the third takes the next step)
  time_type t0_ = 0, dt_ = 0;
  time_type t_previous_ = 0, t_current_ = 0;  ///< t0 + (k − 1)·dt and t0 + k·dt after k ≥ 1 steps
  long steps_ = 0;
  bool project_ = false, pending_ = false;
  std::unique_ptr<extension_base> extension_;
  const void* extension_system_ = nullptr;
  const void* extension_type_ = nullptr;
  system_fingerprint extension_key_;  ///< the system's value at the last step
  extension_base* (*make_extension_)(const Stepper&, const void*, const state_type&) = nullptr;
};

}  // namespace geomint

// odeint copies states with boost::range when a type looks like a range, and std::pair looks
// like one (a pair of iterators); geomint's (q, p) states are copied by assignment.
namespace boost::numeric::odeint {
template <class Q, class P>
struct copy_impl<std::pair<Q, P>, std::pair<Q, P>> {
  static void copy(const std::pair<Q, P>& from, std::pair<Q, P>& to) { to = from; }
};
}  // namespace boost::numeric::odeint
