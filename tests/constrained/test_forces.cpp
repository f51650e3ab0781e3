// Non-conservative forces with a closed-form solution: a particle of unit
// mass on the unit circle g(q) = (|q|² − 1)/2, V = 0, pushed along the circle by a tangential
// force a(t)·(−q₂, q₁), optionally damped by −c p. In the angle θ (q = (cos θ, sin θ),
// p = θ̇ (−sin θ, cos θ)) the motion is the scalar ODE θ̈ = a(t) − c θ̇, solved exactly below.
// The observed orders show that every stage evaluates the force at its own time t0 + c_i h:
// the local error of a force frozen at the step's start is O(h²), which would cap the order at 1.
#define BOOST_TEST_MODULE constrained_forces
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <type_traits>

#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/tableau/collocation.hpp"

using namespace geomint;

namespace {

using state = std::pair<vector<2>, vector<2>>;

struct no_potential {
  template <class Q> double value(const Q&) const { return 0; }
  template <class Q, class O> void gradient(const Q&, O& out) const { out.setZero(); }
};
struct unit_circle {
  static constexpr int size = 1;
  int count() const { return 1; }
  template <class Q, class O> void value(const Q& q, O& out) const { out(0) = 0.5 * (q.squaredNorm() - 1); }
  template <class Q, class G> void jacobian(const Q& q, G& g) const { g = q.transpose(); }
};

/// V = ½|q|² (the unconstrained oscillator below).
struct spring {
  template <class Q> double value(const Q& q) const { return 0.5 * q.squaredNorm(); }
  template <class Q, class O> void gradient(const Q& q, O& out) const { out = q; }
};

const auto circle = make_separable_system(diagonal_mass<2>(vector<2>::Ones()), no_potential{}, unit_circle{});

constexpr double theta0 = 0.3, omega0 = 0.7, damping = 0.5;

/// Driving a(t) = cos 2t undamped: θ = θ0 + ω0 t + (1 − cos 2t)/4, θ̇ = ω0 + (sin 2t)/2.
/// Driving a(t) = cos t with damping c: θ̇ = (c cos t + sin t)/(1 + c²) + (ω0 − c/(1 + c²)) e^{−ct},
/// θ = θ0 + (c sin t − cos t + 1)/(1 + c²) + (ω0 − c/(1 + c²))(1 − e^{−ct})/c.
state exact(double t, bool damped) {
  double theta, omega;
  if (!damped) {
    theta = theta0 + omega0 * t + (1 - std::cos(2 * t)) / 4;
    omega = omega0 + std::sin(2 * t) / 2;
  } else {
    const double c = damping, k = 1 + c * c, transient = omega0 - c / k;
    theta = theta0 + (c * std::sin(t) - std::cos(t) + 1) / k + transient * (1 - std::exp(-c * t)) / c;
    omega = (c * std::cos(t) + std::sin(t)) / k + transient * std::exp(-c * t);
  }
  state x;
  x.first << std::cos(theta), std::sin(theta);
  x.second << -omega * std::sin(theta), omega * std::cos(theta);
  return x;
}

/// a(t)(−q₂, q₁): tangential on the circle.
template <class Q, class O>
void push(double a, const Q& q, O& out) {
  out(0) = -a * q(1);
  out(1) = a * q(0);
}
const auto driven = with_position_force(circle, [](double t, const auto& q, auto& out) { push(std::cos(2 * t), q, out); });
// The same force through the general interface: the general stage solver.
const auto driven_general = with_force(circle, [](double t, const auto& q, const auto&, auto& out) {
  push(std::cos(2 * t), q, out);
});
const auto damped = with_force(circle, [](double t, const auto& q, const auto& p, auto& out) {
  push(std::cos(t), q, out);
  out -= damping * p;
});

// Orders from a least-squares slope over a factor 8 in h, errors between 1e-2 and 1e-9 (above
// the stage solver's tolerance): the next error term shifts the slope by O(h) relative, 0.25 is
// a quarter of the gap to the next integer order.
constexpr double order_tolerance = 0.25;
constexpr double t_end = 2.0;

template <class Stepper, class System>
diagnostics::order_estimate order_on(const System& sys, bool is_damped, std::vector<int> counts) {
  return diagnostics::observed_order(Stepper{}, sys, exact(0, is_damped), exact(t_end, is_damped), t_end, counts);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(forces)

BOOST_AUTO_TEST_CASE(a_position_force_keeps_the_fast_path_and_the_order) {
  static_assert(system_traits<std::decay_t<decltype(driven)>>::has_position_force);
  static_assert(!system_traits<std::decay_t<decltype(driven_general)>>::has_position_force);
  const auto r2 = order_on<rattle<state>>(driven, false, {20, 40, 80, 160});
  const auto r4 = order_on<lobatto_iiia_iiib<3, state>>(driven, false, {10, 20, 40, 80});
  BOOST_TEST_MESSAGE("position force: RATTLE order " << r2.order << ", Lobatto 3 order " << r4.order);
  BOOST_TEST(std::fabs(r2.order - 2) <= order_tolerance);
  BOOST_TEST(std::fabs(r4.order - 4) <= order_tolerance);
  // The fast path ran: no step took the general solver.
  rattle<state> a;
  lobatto_iiia_iiib<3, state> b;
  state x = exact(0, false), y = x;
  for (int i = 0; i < 50; ++i) {
    a.do_step(driven, x, i * 0.04, 0.04);
    b.do_step(driven, y, i * 0.04, 0.04);
  }
  BOOST_TEST(a.statistics().general_solver_steps == 0);
  BOOST_TEST(b.statistics().general_solver_steps == 0);
}

BOOST_AUTO_TEST_CASE(a_velocity_dependent_force_takes_the_general_path_with_the_order) {
  const auto r2 = order_on<rattle<state>>(damped, true, {20, 40, 80, 160});
  const auto r4 = order_on<lobatto_iiia_iiib<3, state>>(damped, true, {10, 20, 40, 80});
  BOOST_TEST_MESSAGE("damped and driven: RATTLE order " << r2.order << ", Lobatto 3 order " << r4.order);
  BOOST_TEST(std::fabs(r2.order - 2) <= order_tolerance);
  BOOST_TEST(std::fabs(r4.order - 4) <= order_tolerance);
}

BOOST_AUTO_TEST_CASE(a_velocity_dependent_force_without_constraints_keeps_the_order) {
  // The general stage solver with no multipliers (m = 0): the damped oscillator q̈ = −q − c q̇,
  // q(0) = 1, q̇(0) = 0, solved exactly: q = e^{−ct/2}(cos ωt + c/(2ω) sin ωt), q̇ = −e^{−ct/2} sin(ωt)/ω,
  // ω = √(1 − c²/4).
  using line = std::pair<vector<1>, vector<1>>;
  const auto oscillator = with_force(
      make_separable_system(diagonal_mass<1>(vector<1>::Ones()), spring{}, no_constraints<1>{}),
      [](double, const auto&, const auto& p, auto& out) { out = -damping * p; });
  const auto at = [](double t) {
    const double w = std::sqrt(1 - damping * damping / 4), decay = std::exp(-damping * t / 2);
    line x;
    x.first << decay * (std::cos(w * t) + damping / (2 * w) * std::sin(w * t));
    x.second << -decay * std::sin(w * t) / w;
    return x;
  };
  const auto r2 = diagnostics::observed_order(rattle<line>{}, oscillator, at(0), at(t_end), t_end, {20, 40, 80, 160});
  const auto r4 = diagnostics::observed_order(lobatto_iiia_iiib<3, line>{}, oscillator, at(0), at(t_end), t_end, {10, 20, 40, 80});
  BOOST_TEST_MESSAGE("damped oscillator, m = 0: RATTLE order " << r2.order << ", Lobatto 3 order " << r4.order);
  BOOST_TEST(std::fabs(r2.order - 2) <= order_tolerance);
  BOOST_TEST(std::fabs(r4.order - 4) <= order_tolerance);
}

BOOST_AUTO_TEST_CASE(fast_and_general_paths_agree_for_a_position_force) {
  // Both solve the same stage equations, to the stage tolerance (1e-12 relative by default)
  // per step; over 100 steps the difference stays within 1e-10.
  lobatto_iiia_iiib<3, state> fast, general;
  state x = exact(0, false), y = x;
  for (int i = 0; i < 100; ++i) {
    fast.do_step(driven, x, i * 0.02, 0.02);
    general.do_step(driven_general, y, i * 0.02, 0.02);
  }
  BOOST_TEST(general.statistics().general_solver_steps == 100);
  BOOST_TEST(diagnostics::state_distance(x, y) <= 1e-10);
}

BOOST_AUTO_TEST_CASE(a_cached_force_is_not_reused_at_another_time) {
  // A step from the previous step's end point but at another time must not reuse ∇V − f(t1, q1)
  // cached at t1: it equals, bit for bit, a fresh stepper's step from that state and time.
  for (double t : {5.0, 0.04}) {  // another time; the continuing time (the cache is reused)
    rattle<state> continuing, fresh;
    state x = exact(0, false);
    continuing.do_step(driven, x, 0.0, 0.04);
    state y = x;
    continuing.do_step(driven, x, t, 0.04);
    fresh.do_step(driven, y, t, 0.04);
    if (t == 5.0) BOOST_TEST(diagnostics::state_distance(x, y) == 0.0);
    else BOOST_TEST(diagnostics::state_distance(x, y) <= 1e-12);  // another Newton start
  }
}

BOOST_AUTO_TEST_CASE(no_heap_allocation_after_the_first_step_with_forces) {
  auto count = [](auto stepper, const auto& sys) {
    return diagnostics::allocations_after_first_step(stepper, sys, exact(0, false), 0.0, 0.01, 99);
  };
  BOOST_TEST(count(rattle<state>{}, driven) == 0);
  BOOST_TEST(count(lobatto_iiia_iiib<3, state>{}, driven) == 0);
  BOOST_TEST(count(rattle<state>{}, damped) == 0);
  BOOST_TEST(count(lobatto_iiia_iiib<3, state>{}, damped) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
