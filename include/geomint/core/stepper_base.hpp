// The stepper core: the step's lifecycle, written once. A family supplies its mathematics:
//
//   class my_method : public stepper_base<my_method, State, Options, Statistics> {
//    public:
//     static constexpr method_properties properties = method_properties().order(2).symmetric(true);
//     template <class System> using cache = my_cache<System>;        // per system type, sized once
//     template <class System> using continuous_extension = ...;      // for dense_output
//     template <class System, class X> static auto check_state(const System&, const X&);
//   };
//
//   template <class System> class my_cache {
//    public:
//     static constexpr reuse kept = reuse::state;     // what it keeps for the next step (step_record.hpp)
//     using end_state = std::pair<vector<N>, vector<N>>;  // the core's storage of x1 (or one vector)
//     explicit my_cache(const my_method&);             // optional: else default-constructed
//     void start(const System&, x0..., const step_context<Options, Statistics>&);
//     void advance(const System&, x0..., x1..., const step_context<Options, Statistics>&);
//   };
//
// x0... are read-only views of the parts of the state passed in ((q, p) of a std::pair state, or
// the one vector), x1... the parts of the core's end_state, sized like x0's already.
// start() runs on a fresh start only: the evaluations at the start point and the check that it
// lies on the method's manifold (throwing step_error inconsistent_initial_state with the
// residuals). advance() takes the step from x0 into x1, using what start() — or, when
// ctx.continuing, the previous advance() — left in the cache; it throws step_error on failure,
// and may return advance_result::repeat_afresh to have a continued step taken again as a fresh
// stepper takes it (a solve led away from its root by data kept from earlier steps).
//
// do_step(system, x, t, dt) does the rest:
//   1. unwraps the system (std::ref), rejects a zero or non-finite dt or t, checks the state's
//      sizes (check_state: std::invalid_argument, or a static_assert for fixed sizes, after
//      which the step is not compiled, so that the compiler reports that one message);
//   2. finds or creates the cache for the system's type;
//   3. decides whether the step continues the last one (step_record.hpp: same system object and
//      value, the state bit for bit the one it wrote, the time if the cache is time-keyed);
//   4. on a fresh start, checks that the state is finite (step_error non_finite_value before any
//      work) and calls start();
//   5. calls advance(); a continued step that fails for a reason worth a fresh start
//      (worth_a_fresh_start) is taken again as a fresh start, once;
//   6. checks that the end state is finite, copies it into x (only now: a failed step leaves x
//      bit for bit as it was), records it as the next step's continuation point, counts it.
// A copy keeps the options, statistics and cache but not the record: its next step is a fresh
// start. reset() forgets the record the same way (the cache's storage stays: no allocation).
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <tuple>
#include <type_traits>
#include <utility>

#include "geomint/core/cache_slot.hpp"
#include "geomint/core/options.hpp"
#include "geomint/core/properties.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/statistics.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/core/step_record.hpp"
#include "geomint/core/system_reference.hpp"

namespace geomint {

/// What the core tells a family's start() and advance() about the step [t, t + h].
template <class Options, class Statistics>
struct step_context {
  double t;                ///< the start time
  double h;                ///< the step size (either sign)
  const Options& options;
  Statistics& stats;       ///< the family's counters (the core counts steps itself)
  bool continuing;         ///< the cache holds the data of the start point: the last step's end
  double h_previous;       ///< the last step's size when continuing, 0 on a fresh start
  /// Under reuse::compared_in_advance, when continuing: the last end positions, which advance()
  /// compares q0 with (null otherwise).
  const double* last_positions = nullptr;
};

/// What advance() may return (void means done).
enum class advance_result {
  done,
  repeat_afresh,  ///< take this continued step again as a fresh start (ignored on a fresh start)
  not_continued,  ///< under reuse::compared_in_advance: q0 differs from the last end positions
};

namespace detail {
/// What a check_state's return type says: void (run-time checks only) fits, a
/// std::bool_constant says itself.
template <class R>
constexpr bool compile_time_fit() {
  if constexpr (std::is_void<R>::value) return true;
  else return R::value;
}

template <class C, class = void>
struct declares_reuse : std::false_type {};
template <class C>
struct declares_reuse<C, std::void_t<decltype(C::kept)>> : std::is_same<std::decay_t<decltype(C::kept)>, reuse> {};

/// The parts of a state as views for start/advance: (q, p) of a std::pair, or the vector.
template <class X>
struct parts_of {
  using in = std::tuple<const_state_map<X>>;
};
template <class Q, class P>
struct parts_of<std::pair<Q, P>> {
  using in = std::tuple<const_state_map<Q>, const_state_map<P>>;
};

template <class C, class Sys, class Ctx, class In, class Out, class = void>
struct can_start : std::false_type {};
template <class C, class Sys, class Ctx, class... In, class... Out>
struct can_start<C, Sys, Ctx, std::tuple<In...>, std::tuple<Out...>,
                 std::void_t<decltype(std::declval<C&>().start(std::declval<const Sys&>(), std::declval<const In&>()...,
                                                               std::declval<const Ctx&>()))>> : std::true_type {};
template <class C, class Sys, class Ctx, class In, class Out, class = void>
struct can_advance : std::false_type {};
template <class C, class Sys, class Ctx, class... In, class... Out>
struct can_advance<C, Sys, Ctx, std::tuple<In...>, std::tuple<Out...>,
                   std::void_t<decltype(std::declval<C&>().advance(std::declval<const Sys&>(), std::declval<const In&>()...,
                                                                   std::declval<Out&>()..., std::declval<const Ctx&>()))>>
    : std::true_type {};

template <class End>
struct end_tuple {
  using type = std::tuple<End>;
};
template <class Q, class P>
struct end_tuple<std::pair<Q, P>> {
  using type = std::tuple<Q, P>;
};

template <class C, class = void>
struct declares_end_state : std::false_type {};
template <class C>
struct declares_end_state<C, std::void_t<typename C::end_state>> : std::true_type {};
template <class C, bool = declares_end_state<C>::value>
struct end_state_of {
  using type = vector<1>;  // placeholder: the static_assert in step() reports the missing member
};
template <class C>
struct end_state_of<C, true> {
  using type = typename C::end_state;
};

/// A cache and the end states the core keeps beside it: end[current] is the last committed one
/// (what a continued step compares with), the other the one the step in progress writes.
template <class C>
struct cache_entry {
  C cache;
  typename end_state_of<C>::type end[2];
  int current = 0;
};

/// Whether an end state's sizes are all fixed (it can live on the stack).
template <class E>
struct fixed_end : std::bool_constant<E::SizeAtCompileTime != Eigen::Dynamic> {};
template <class Q, class P>
struct fixed_end<std::pair<Q, P>> : std::bool_constant<Q::SizeAtCompileTime != Eigen::Dynamic &&
                                                       P::SizeAtCompileTime != Eigen::Dynamic> {};
}  // namespace detail

/// The CRTP argument of a family class template that named methods derive from: the named
/// method (Final), or the family class itself where it is used directly — so that the core always
/// reads the properties of the class the user instantiates.
template <class Final, class Self>
using final_class = std::conditional_t<std::is_void<Final>::value, Self, Final>;

template <class Derived, class State, class Options = step_options, class Statistics = step_statistics>
class stepper_base {
 public:
  using state_type = State;
  using deriv_type = State;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;
  using options_type = Options;
  using statistics_type = Statistics;
  using context_type = step_context<Options, Statistics>;
  /// The class whose properties describe this stepper (core/properties.hpp).
  using final_type = Derived;

  stepper_base() = default;
  explicit stepper_base(const Options& options) : options_(options) {}
  /// A copy keeps the options, the statistics and the cache, not the last step: its next step is
  /// a fresh start.
  stepper_base(const stepper_base& o) : options_(o.options_), stats_(o.stats_), slot_(o.slot_) {}
  stepper_base& operator=(const stepper_base& o) {
    if (this != &o) {
      options_ = o.options_;
      stats_ = o.stats_;
      slot_ = o.slot_;
      record_.invalidate();
    }
    return *this;
  }
  stepper_base(stepper_base&&) noexcept = default;
  stepper_base& operator=(stepper_base&&) noexcept = default;

  /// The method's order (its properties'; a family with a run-time tableau overrides it).
  order_type order() const { return static_cast<order_type>(properties_of<Derived>.order()); }

  /// Advances x from t to t + dt. On failure throws step_error (std::invalid_argument for a
  /// misuse: dt = 0, wrong sizes) and leaves x exactly as it was.
  template <class System, class X>
  void do_step(System&& system, X& x, time_type t, time_type dt) {
    const auto& sys = unwrap_system(system);
    require_step_size(t, dt);
    using sizes_fit = decltype(Derived::check_state(sys, x));
    Derived::check_state(sys, x);
    if constexpr (detail::compile_time_fit<sizes_fit>()) step(sys, x, t, dt);
  }

  Options& options() { return options_; }
  const Options& options() const { return options_; }
  const Statistics& statistics() const { return stats_; }
  /// The next step is a fresh start. Needed only after changing a system's parameters behind a
  /// pointer (step_record.hpp says when); the cache's storage is kept.
  void reset() { record_.invalidate(); }
  /// Whether the last step continued the one before it (same system and value, and it started
  /// from that step's end state); false for a method whose cache keeps nothing.
  bool last_step_continued() const { return record_.continued(); }

 protected:
  /// The cache for System if one exists (to read what the last step computed).
  template <class System>
  auto* find_cache() {
    auto* entry = slot_.template find<detail::cache_entry<typename Derived::template cache<System>>>();
    return entry ? &entry->cache : nullptr;
  }

 private:
  template <class System, class X>
  void step(const System& sys, X& x, double t, double h) {
    using cache_type = typename Derived::template cache<System>;
    using entry_type = detail::cache_entry<cache_type>;
    using in = typename detail::parts_of<X>::in;
    using out = typename detail::end_tuple<typename detail::end_state_of<cache_type>::type>::type;
    constexpr bool has_reuse = detail::declares_reuse<cache_type>::value;
    constexpr bool has_end = detail::declares_end_state<cache_type>::value;
    constexpr bool has_start = detail::can_start<cache_type, System, context_type, in, out>::value;
    constexpr bool has_advance = detail::can_advance<cache_type, System, context_type, in, out>::value;
    static_assert(has_reuse && has_end && has_start && has_advance,
                  "geomint: a family's cache<System> needs all of: `static constexpr geomint::reuse kept`, "
                  "`using end_state = ...` (a std::pair of Eigen vectors, or one), `start(const System&, x0 "
                  "parts..., const step_context&)` and `advance(const System&, x0 parts..., x1 parts..., const "
                  "step_context&)` (core/stepper_base.hpp)");
    if constexpr (has_reuse && has_end && has_start && has_advance) {
      bool created = false;
      entry_type& entry =
          slot_.template get<entry_type>([this] { return entry_type{make_cache<cache_type>(), {}, 0}; }, created);
      cache_type& cache = entry.cache;
      constexpr reuse rule = cache_type::kept;
      using end_type = typename cache_type::end_state;
      if constexpr (rule == reuse::nothing) {
        // Every step is a fresh start and nothing is recorded; a fixed-size end state lives on
        // the stack (registers, for small ones), a dynamic one in the entry.
        context_type ctx{t, h, options_, stats_, false, 0.0};
        start(cache, sys, x, ctx);
        auto commit = [&](end_type& end) {
          advance(cache, end, sys, x, ctx);
          if (!step_record::finite(end))
            detail::throw_non_finite(t, h, "the new state is not finite");
          step_record::copy(end, x);
        };
        if constexpr (detail::fixed_end<end_type>::value) {
          end_type end;
          commit(end);
        } else {
          step_record::shape_like(entry.end[0], x);
          commit(entry.end[0]);
        }
      } else {
        const bool continuing = !created && record_.continues(sys, x, t, entry.end[entry.current], rule);
        context_type ctx{t, h, options_, stats_, continuing, continuing ? record_.step_size() : 0.0};
        if constexpr (has(rule, reuse::compared_in_advance))
          if (continuing) ctx.last_positions = entry.end[entry.current].first.data();
        record_.invalidate();  // a step in progress is no continuation point until it succeeds
        const int next = 1 - entry.current;
        end_type& end = entry.end[next];
        step_record::shape_like(entry.end[0], x);  // both on the first step: nothing allocated after it
        step_record::shape_like(entry.end[1], x);

        if (!continuing) start(cache, sys, x, ctx);
        advance_result result = advance_result::done;
        try {
          result = advance(cache, end, sys, x, ctx);
        } catch (const step_error& e) {
          if (!continuing || !worth_a_fresh_start(e)) throw;
          result = advance_result::repeat_afresh;
        }
        if (continuing && result != advance_result::done) {  // as a fresh stepper takes it
          if (result == advance_result::repeat_afresh) ++stats_.retries;
          ctx.continuing = false;
          ctx.h_previous = 0;
          ctx.last_positions = nullptr;
          start(cache, sys, x, ctx);
          advance(cache, end, sys, x, ctx);
        }

        // x equals the last end state in the parts a continued step compared: those are copied
        // while checked, and restored from it should the rest not be finite.
        const int restorable = ctx.continuing ? step_record::compared_parts<end_type>(rule) : 0;
        if (!step_record::commit(end, entry.end[entry.current], x, restorable))
          detail::throw_non_finite(t, h, "the new state is not finite");
        entry.current = next;
        record_.record(sys, t, h, ctx.continuing);
      }
      ++stats_.steps;
    }
  }

  template <class Cache, class System, class X>
  void start(Cache& cache, const System& sys, const X& x, const context_type& ctx) {
    ++stats_.fresh_starts;
    detail::with_parts(x, [&](const auto&... in) {
      require_finite_state(ctx.t, ctx.h, in...);
      cache.start(sys, in..., ctx);
    });
  }

  template <class Cache, class End, class System, class X>
  advance_result advance(Cache& cache, End& end, const System& sys, const X& x, const context_type& ctx) {
    return detail::with_parts(x, [&](const auto&... in) {
      return detail::with_end_parts(end, [&](auto&... out) {
        using result = decltype(cache.advance(sys, in..., out..., ctx));
        if constexpr (std::is_void<result>::value) {
          cache.advance(sys, in..., out..., ctx);
          return advance_result::done;
        } else {
          static_assert(std::is_same<result, advance_result>::value,
                        "geomint: a cache's advance returns void or geomint::advance_result");
          return cache.advance(sys, in..., out..., ctx);
        }
      });
    });
  }

  template <class C>
  C make_cache() const {
    if constexpr (std::is_constructible<C, const Derived&>::value) return C(static_cast<const Derived&>(*this));
    else return C();
  }

  Options options_;
  Statistics stats_;
  cache_slot slot_;
  step_record record_;
};

}  // namespace geomint
