// The stepper core (core/stepper_base.hpp): the lifecycle it runs once for every family, tested
// on a family written for the test — an explicit map whose cache records what the core asked of
// it — and the core's small pieces (properties by name, the finiteness test, system references,
// what including dense_output.hpp does to odeint, the allocation counter).
#include <boost/numeric/odeint/util/copy.hpp>
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "geomint/constrained/rattle.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/diagnostics/allocation_counter.hpp"

using namespace geomint;

namespace {

/// y' = −y by explicit Euler, y₁ = (1 − h) y₀, with knobs: the cache counts its calls, can fail
/// its continued advances, or ask for them to be taken afresh; `kept` is the template argument.
struct toy_system {
  double rate = 1;
};

struct toy_log {
  int starts = 0, advances = 0, continued_advances = 0;
  bool fail_continued = false, repeat_continued = false;
  failure_reason failure = failure_reason::newton_diverged;
  double h_previous_seen = -1;
};

template <reuse Kept>
struct toy_method;

template <class System, reuse Kept>
struct toy_cache {
  static constexpr reuse kept = Kept;
  using end_state = std::pair<vector<2>, vector<2>>;
  toy_log* log;
  explicit toy_cache(const toy_method<Kept>& m) : log(m.log) {}

  template <class Q, class P, class Context>
  void start(const System&, const Q& q, const P&, const Context& c) {
    ++log->starts;
    if (q(0) > 1e3) throw step_error(failure_reason::inconsistent_initial_state, c.t, c.h, 0, q(0), "q off the toy manifold");
  }
  template <class Q, class P, class Q1, class P1, class Context>
  advance_result advance(const System& sys, const Q& q, const P& p, Q1& q1, P1& p1, const Context& c) {
    ++log->advances;
    log->h_previous_seen = c.h_previous;
    if (c.continuing) {
      ++log->continued_advances;
      if (log->fail_continued) throw step_error(log->failure, c.t, c.h, 3, 1.0, "continued advance fails");
    }
    q1 = (1 - sys.rate * c.h) * q;
    p1 = (1 - sys.rate * c.h) * p;
    return c.continuing && log->repeat_continued ? advance_result::repeat_afresh : advance_result::done;
  }
};

template <reuse Kept>
struct toy_method : stepper_base<toy_method<Kept>, std::pair<vector<2>, vector<2>>, solver_options, solver_statistics> {
  static constexpr method_properties properties = method_properties().order(1);
  template <class System>
  using cache = toy_cache<System, Kept>;
  template <class System, class X>
  static void check_state(const System&, const X&) {}
  toy_log* log = nullptr;
};

using state = std::pair<vector<2>, vector<2>>;
const state x0{vector<2>(1, 2), vector<2>(3, 4)};

using dynamic_state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
struct order4 {
  static constexpr method_properties value = properties_of<constrained_prk<3, dynamic_state>>.order(4).symmetric(true);
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_core_decides_continuation_and_counts_every_step) {
  toy_log log;
  toy_method<reuse::state> m;
  m.log = &log;
  const toy_system sys;
  state x = x0;
  for (int k = 0; k < 4; ++k) m.do_step(sys, x, 0.1 * k, 0.1);
  BOOST_TEST(log.starts == 1);  // a fresh start, then three continued steps
  BOOST_TEST(log.continued_advances == 3);
  BOOST_TEST(log.h_previous_seen == 0.1);
  BOOST_TEST(m.statistics().steps == 4);
  BOOST_TEST(m.statistics().fresh_starts == 1);
  BOOST_TEST(m.last_step_continued());

  // An edit of the state, another system value, a copy, reset(): each a fresh start.
  x.second(1) += 1e-12;
  m.do_step(sys, x, 0.4, 0.1);
  BOOST_TEST(log.starts == 2);
  BOOST_TEST(!m.last_step_continued());
  const toy_system other{2.0};
  m.do_step(other, x, 0.5, 0.1);
  BOOST_TEST(log.starts == 3);
  toy_method<reuse::state> copy = m;
  copy.do_step(other, x, 0.6, 0.1);
  BOOST_TEST(log.starts == 4);
  m.reset();
  m.do_step(other, x, 0.6, 0.1);
  BOOST_TEST(log.starts == 5);
}

BOOST_AUTO_TEST_CASE(reuse_rules_compare_what_the_cache_depends_on) {
  const toy_system sys;
  {  // positions only: an edit of p continues, an edit of q does not
    toy_log log;
    toy_method<reuse::positions> m;
    m.log = &log;
    state x = x0;
    m.do_step(sys, x, 0.0, 0.1);
    x.second(0) += 1;
    m.do_step(sys, x, 0.1, 0.1);
    BOOST_TEST(log.starts == 1);
    x.first(0) += 1;
    m.do_step(sys, x, 0.2, 0.1);
    BOOST_TEST(log.starts == 2);
  }
  {  // at time: a step that does not start at the last end time is fresh
    toy_log log;
    toy_method<reuse::state_at_time> m;
    m.log = &log;
    state x = x0;
    m.do_step(sys, x, 0.0, 0.1);
    m.do_step(sys, x, 0.1 + 4e-17, 0.1);  // within the rounding of the time arithmetic
    BOOST_TEST(log.starts == 1);
    m.do_step(sys, x, 0.5, 0.1);
    BOOST_TEST(log.starts == 2);
  }
  {  // nothing kept: every step is fresh, and last_step_continued() says false
    toy_log log;
    toy_method<reuse::nothing> m;
    m.log = &log;
    state x = x0;
    for (int k = 0; k < 3; ++k) m.do_step(sys, x, 0.1 * k, 0.1);
    BOOST_TEST(log.starts == 3);
    BOOST_TEST(log.continued_advances == 0);
    BOOST_TEST(!m.last_step_continued());
  }
}

BOOST_AUTO_TEST_CASE(a_continued_step_that_fails_is_taken_again_as_a_fresh_start) {
  const toy_system sys;
  toy_log log;
  toy_method<reuse::state> m;
  m.log = &log;
  state x = x0;
  m.do_step(sys, x, 0.0, 0.1);
  log.fail_continued = true;
  state fresh = x;
  m.do_step(sys, x, 0.1, 0.1);  // fails continued, succeeds fresh
  BOOST_TEST(log.starts == 2);
  BOOST_TEST(m.statistics().retries == 1);
  BOOST_TEST(m.statistics().steps == 2);
  toy_log other_log;
  toy_method<reuse::state> f;
  f.log = &other_log;
  f.do_step(sys, fresh, 0.1, 0.1);
  BOOST_TEST((x.first == fresh.first && x.second == fresh.second));

  // A reason no fresh start can mend (a state off the manifold) is not retried.
  log.failure = failure_reason::inconsistent_initial_state;
  const state before = x;
  BOOST_CHECK_THROW(m.do_step(sys, x, 0.2, 0.1), step_error);
  BOOST_TEST(m.statistics().retries == 1);
  BOOST_TEST((x.first == before.first && x.second == before.second));  // untouched
}

BOOST_AUTO_TEST_CASE(advance_may_ask_for_a_continued_step_to_be_taken_afresh) {
  const toy_system sys;
  toy_log log;
  toy_method<reuse::state> m;
  m.log = &log;
  log.repeat_continued = true;
  state x = x0;
  m.do_step(sys, x, 0.0, 0.1);  // fresh: done
  m.do_step(sys, x, 0.1, 0.1);  // continued: repeated afresh
  BOOST_TEST(log.starts == 2);
  BOOST_TEST(log.advances == 3);
  BOOST_TEST(m.statistics().retries == 1);
  BOOST_TEST(m.statistics().steps == 2);
}

BOOST_AUTO_TEST_CASE(a_failed_start_or_non_finite_end_leaves_the_state_as_it_was) {
  const toy_system sys;
  toy_log log;
  toy_method<reuse::state> m;
  m.log = &log;
  state x{vector<2>(2e3, 0), vector<2>(0, 0)};
  const state before = x;
  BOOST_CHECK_THROW(m.do_step(sys, x, 0.0, 0.1), step_error);
  BOOST_TEST((x.first == before.first && x.second == before.second));
  // A finite state whose end overflows: non_finite_value from the core, x untouched.
  state big{vector<2>(1, 1), vector<2>(1e308, 1e308)};
  const state big_before = big;
  try {
    m.do_step(sys, big, 0.0, -1e10);
    BOOST_ERROR("expected step_error");
  } catch (const step_error& e) {
    BOOST_TEST((e.reason() == failure_reason::non_finite_value));
  }
  BOOST_TEST((big.first == big_before.first && big.second == big_before.second));
}

BOOST_AUTO_TEST_CASE(properties_are_read_by_name_from_the_class_instantiated) {
  using state6 = dynamic_state;
  constexpr method_properties r = properties_of<rattle<state6>>;
  static_assert(r.order() == 2 && r.symmetric() && r.symplectic() && r.state() == state_kind::phase_space);
  static_assert((r.conserves() & conserves_constraints) != 0);
  // The CRTP argument is the final class: rattle's order() is rattle's.
  BOOST_TEST(rattle<state6>().order() == 2);
  // A declaration of other properties goes through declared_properties, and order() follows it.
  using declared = declared_properties<constrained_prk<3, state6>, order4>;
  static_assert(properties_of<declared>.order() == 4 && properties_of<declared>.symmetric());
  BOOST_TEST(declared(constrained_prk<3, state6>(lobatto_iiia_iiib_tableau<3>())).order() == 4);
  // A stepper not written for geomint claims nothing.
  struct foreign {};
  static_assert(properties_of<foreign> == method_properties());
}

BOOST_AUTO_TEST_CASE(all_finite_does_not_overflow_on_large_finite_vectors) {
  const vector<3> big = vector<3>::Constant(1e308);
  BOOST_TEST(all_finite(big, big));  // (a + b)·0 would be NaN
  BOOST_TEST(!all_finite(big, vector<3>(1, std::numeric_limits<double>::infinity(), 0)));
  BOOST_TEST(!all_finite(vector<3>(1, std::numeric_limits<double>::quiet_NaN(), 0), big));
  BOOST_TEST(all_finite(vector<9>::Ones(), vector<3>::Ones()));  // parts of different sizes
}

BOOST_AUTO_TEST_CASE(systems_are_unwrapped_read_only) {
  const toy_system sys;
  using from_cref = decltype(unwrap_system(std::cref(sys)));
  using from_ref = decltype(unwrap_system(std::ref(const_cast<toy_system&>(sys))));
  using from_value = decltype(unwrap_system(sys));
  static_assert(std::is_same_v<from_cref, const toy_system&>);
  static_assert(std::is_same_v<from_ref, const toy_system&>);  // a stepper never writes the system
  static_assert(std::is_same_v<from_value, const toy_system&>);
  BOOST_TEST(&unwrap_system(std::cref(sys)) == &sys);
}

BOOST_AUTO_TEST_CASE(dense_output_leaves_odeints_copy_of_pairs_alone) {
  // odeint copies a std::pair of two iterators as the range they span; including geomint's
  // dense output (this file does) must not change that for any pair.
  double from_data[3] = {1, 2, 3}, to_data[3] = {0, 0, 0};
  const std::pair<double*, double*> from{from_data, from_data + 3};
  std::pair<double*, double*> to{to_data, to_data + 3};
  boost::numeric::odeint::copy(from, to);
  BOOST_TEST((to.first == to_data && to.second == to_data + 3));  // the pointers stay
  BOOST_TEST((to_data[0] == 1 && to_data[1] == 2 && to_data[2] == 3));  // the values are copied
  // The states dense_output hands odeint are geomint's own type, copied by assignment.
  using held = std::decay_t<decltype(dense_output<rattle<state>>().current_state())>;
  static_assert(std::is_base_of_v<state, held> && !std::is_same_v<state, held>);
  held h(x0);
  state out;
  boost::numeric::odeint::copy(h, out);
  BOOST_TEST((out.first == x0.first && out.second == x0.second));
}

BOOST_AUTO_TEST_CASE(reading_an_allocation_count_needs_the_counter) {
  // This binary counts (test_core.cpp includes count_allocations.hpp); with the counter off, a
  // count is an error, not a 0 that would pass every "no allocation" check.
  BOOST_TEST_REQUIRE(diagnostics::counting_enabled());
  diagnostics::counting.store(false);
  const diagnostics::allocation_scope scope;
  BOOST_CHECK_THROW(scope.count(), std::logic_error);
  diagnostics::counting.store(true);
  BOOST_TEST(scope.count() >= 0);
}

namespace {
// V = |q|²/2, whose gradient is NaN once q₀ passes `limit`: RATTLE without constraints on a
// diagonal mass takes the explicit path, where the core compares q in the family's first pass
// (reuse::compared_in_advance) and checks p in the pass that copies q.
struct poisoned_harmonic {
  double limit;
  template <class Q> double value(const Q& q) const { return 0.5 * q.squaredNorm(); }
  template <class Q, class Out> void gradient(const Q& q, Out& out) const {
    out = q;
    if (q(0) > limit) out(1) = std::numeric_limits<double>::quiet_NaN();
  }
};
using free_state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
auto free_particles(double limit) {
  return make_separable_system(diagonal_mass<dynamic>(Eigen::VectorXd::Constant(4, 2.0)), poisoned_harmonic{limit},
                               no_constraints<dynamic>{});
}
bool same_state(const free_state& a, const free_state& b) {
  return std::memcmp(a.first.data(), b.first.data(), 4 * sizeof(double)) == 0 &&
         std::memcmp(a.second.data(), b.second.data(), 4 * sizeof(double)) == 0;
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_explicit_path_sees_edited_positions_and_restores_a_continued_step) {
  const auto sys = free_particles(0.2);  // the amplitude is about 0.235
  free_state x{Eigen::VectorXd::Constant(4, 0.1), Eigen::VectorXd::Constant(4, 0.3)};
  rattle<free_state> st;
  st.do_step(sys, x, 0.0, 0.05);
  st.do_step(sys, x, 0.05, 0.05);
  BOOST_TEST(st.last_step_continued());
  // q edited between steps: not a continuation, and the step is a fresh stepper's, bit for bit.
  x.first(2) += 1e-3;
  free_state fresh = x;
  st.do_step(sys, x, 0.1, 0.05);
  BOOST_TEST(!st.last_step_continued());
  rattle<free_state>().do_step(sys, fresh, 0.1, 0.05);
  BOOST_TEST(same_state(x, fresh));
  // Continued steps until ∇V(q₁) turns NaN: that step fails with the state bit for bit as it was.
  double t = 0.15;
  for (int k = 0; k < 100; ++k, t += 0.05) {
    const free_state before = x;
    try {
      st.do_step(sys, x, t, 0.05);
    } catch (const step_error& e) {
      BOOST_TEST(static_cast<int>(e.reason()) == static_cast<int>(failure_reason::non_finite_value));
      BOOST_TEST(same_state(x, before));
      BOOST_TEST(st.last_step_continued() == false);
      return;
    }
    BOOST_TEST(st.last_step_continued());
  }
  BOOST_FAIL("q0 never passed the limit");
}
