// A stepper geomint does not ship, on its core: the implicit midpoint rule y₁ = y₀ + h J∇H(ȳ),
// ȳ = (y₀ + y₁)/2, for an unconstrained H(q, p) — symmetric, symplectic, order 2. The cache is
// the mathematics; the core does the rest (checks, continuation, the strong guarantee, counters).
#pragma once

#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/flow_difference_extension.hpp"

template <class System>
struct midpoint_cache {
  static constexpr int n = System::position_size;
  static constexpr geomint::reuse kept = geomint::reuse::nothing;  // nothing is carried between steps
  using end_state = std::pair<geomint::vector<n>, geomint::vector<n>>;

  template <class... Any> void start(const Any&...) {}  // no manifold to check
  template <class Q, class P, class Q1, class P1, class Context>
  void advance(const System& sys, const Q& q, const P& p, Q1& q1, P1& p1, const Context& c) {
    y0_ << q, p;
    y_ = y0_;
    auto map = [&](const geomint::vector<2 * n>& y, geomint::vector<2 * n>& next) {  // y₀ + h J∇H((y₀ + y)/2)
      mid_ = (y0_ + y) / 2;
      sys.dh_dp(mid_.head(n), mid_.tail(n), dq_), sys.dh_dq(mid_.head(n), mid_.tail(n), dp_);
      next << y0_.head(n) + c.h * dq_, y0_.tail(n) - c.h * dp_;
    };
    auto problem = geomint::fixed_point_of(map);
    geomint::fixed_point_solve(problem, y_, next_, c.options.newton, c.stats.fixed_point, {c.t, c.h, "midpoint"});
    q1 = y_.head(n), p1 = y_.tail(n);
  }
  geomint::vector<2 * n> y0_, y_, next_, mid_;
  geomint::vector<n> dq_, dp_;
};

template <class State>
struct implicit_midpoint
    : geomint::stepper_base<implicit_midpoint<State>, State, geomint::solver_options, geomint::solver_statistics> {
  static constexpr auto properties = geomint::method_properties().order(2).symmetric(true).symplectic(true);
  template <class System> using cache = midpoint_cache<System>;
  template <class System> using continuous_extension = geomint::flow_difference_extension<implicit_midpoint, System>;
  template <class System, class X> static auto check_state(const System& sys, const X& x) {
    return geomint::require_pair_sizes<System::position_size>(x, sys.position_count(), "q", "p");
  }
};
