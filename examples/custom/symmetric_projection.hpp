// A constrained stepper geomint does not ship, on its core: the symmetric projection method
// (Hairer 2000, BIT 40; Hairer–Lubich–Wanner, Geometric Numerical Integration, §V.4.1) around
// the implicit midpoint rule for the index-1 equations of a constrained Hamiltonian system
// (geomint::index1_vector_field: q̇, ṗ with the multipliers λ(q, p) eliminated), onto the
// manifold M = {c(y) = 0}, c(q, p) = (g(q), G(q) ∂H/∂p):
//
//   ỹ₀ = y₀ + D(q₀)μ,   ỹ₁ = ỹ₀ + h f(t + h/2, (ỹ₀ + ỹ₁)/2),   y₁ = ỹ₁ + D(q₁)μ,   c(y₁) = 0,
//
// with D(q) = diag(G(q)ᵀ, G(q)ᵀ), transversal to M (c′D is block triangular, G Gᵀ and
// G H_pp Gᵀ on its diagonal). One μ at both ends and a symmetric base make the step symmetric,
// of the base's order 2; it keeps the constraints to round-off; it is not symplectic.
// (ỹ₁, y₁, μ) are one fixed-point iteration: the midpoint equation, the projection, and
// μ ← μ − K⁻¹ c(y₁) with K = 2 diag(G Gᵀ, G H_pp Gᵀ) at y₀ (K sets the speed, not the answer).
#pragma once

#include <optional>

#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/flow_difference_extension.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/index1.hpp"

template <class System>
struct projection_cache {
  using traits = geomint::system_traits<System>;
  static constexpr int n = traits::n, m = traits::m, z_size = 4 * n + 2 * m;  // z = (ỹ₁, y₁, μ)
  static_assert(n > 0 && m >= 0, "this example is written for fixed-size systems");
  static constexpr geomint::reuse kept = geomint::reuse::nothing;
  using end_state = std::pair<geomint::vector<n>, geomint::vector<n>>;

  template <class Q, class P, class Context>
  void start(const System& sys, const Q& q, const P& p, const Context& c) {  // every step: kept is nothing
    check_.require(sys, q, p, c.t, c.h, c.options.consistency_tolerance);      // y₀ on M, or the residuals
    if (!field_ || &field_->system() != &sys) field_.emplace(sys);
  }
  template <class Q, class P, class Q1, class P1, class Context>
  void advance(const System& sys, const Q& q, const P& p, Q1& q1, P1& p1, const Context& c) {
    y0_ << q, p;
    sys.constraint_jacobian(y0_.head(n), g0_);
    for (int j = 0; j < m; ++j) {  // H_pp Gᵀ by differences of ∂H/∂p (exact for a quadratic kinetic energy)
      sys.dh_dp(y0_.head(n), y0_.tail(n) + g0_.row(j).transpose(), v_), sys.dh_dp(y0_.head(n), y0_.tail(n), dq_);
      hpp_gt_.col(j) = v_ - dq_;
    }
    k_.setZero(), k_.topLeftCorner(m, m) = 2 * g0_ * g0_.transpose(), k_.bottomRightCorner(m, m) = 2 * g0_ * hpp_gt_;
    lu_.system_matrix() = k_;
    lu_.factorize();
    z_ << y0_, y0_, geomint::vector<2 * m>::Zero();
    auto map = [&](const geomint::vector<z_size>& z, geomint::vector<z_size>& next) {
      const auto mu_q = z.template segment<m>(4 * n), mu_p = z.template tail<m>();
      sys.constraint_jacobian(z.template segment<n>(2 * n), g1_);  // G(q₁) at the current y₁
      yt0_ << y0_.head(n) + g0_.transpose() * mu_q, y0_.tail(n) + g0_.transpose() * mu_p;
      mid_ = (yt0_ + z.template head<2 * n>()) / 2;
      (*field_)(c.t + c.h / 2, mid_.head(n), mid_.tail(n), dq_, dp_);
      next.template head<n>() = yt0_.head(n) + c.h * dq_, next.template segment<n>(n) = yt0_.tail(n) + c.h * dp_;
      next.template segment<n>(2 * n) = next.template head<n>() + g1_.transpose() * mu_q;
      next.template segment<n>(3 * n) = next.template segment<n>(n) + g1_.transpose() * mu_p;
      sys.constraint(next.template segment<n>(2 * n), g_);  // c(y₁) = (g, G ∂H/∂p)
      sys.dh_dp(next.template segment<n>(2 * n), next.template segment<n>(3 * n), v_);
      r_ << g_, g1_ * v_;
      lu_.solve_in_place(r_);
      next.template tail<2 * m>() = z.template tail<2 * m>() - r_;
    };
    auto problem = geomint::fixed_point_of(map);
    geomint::fixed_point_solve(problem, z_, next_, c.options.newton, c.stats.fixed_point, {c.t, c.h, "projection"});
    q1 = z_.template segment<n>(2 * n), p1 = z_.template segment<n>(3 * n);
  }

  geomint::consistency_check<System> check_;
  std::optional<geomint::index1_vector_field<System>> field_;
  geomint::vector<2 * n> y0_, yt0_, mid_;
  geomint::vector<n> dq_, dp_, v_;
  geomint::vector<z_size> z_, next_;
  geomint::vector<m> g_;
  geomint::vector<2 * m> r_;
  geomint::matrix<m, n> g0_, g1_;
  geomint::matrix<n, m> hpp_gt_;
  geomint::matrix<2 * m, 2 * m> k_;
  geomint::dense_lu<2 * m> lu_;
};

template <class State>
struct symmetric_projection
    : geomint::stepper_base<symmetric_projection<State>, State, geomint::solver_options, geomint::solver_statistics> {
  static constexpr auto properties =
      geomint::method_properties().order(2).symmetric(true).conserves(geomint::conserves_constraints);
  template <class System> using cache = projection_cache<System>;
  template <class System> using continuous_extension = geomint::flow_difference_extension<symmetric_projection, System>;
  template <class System, class X> static auto check_state(const System& sys, const X& x) {
    return geomint::require_pair_sizes<System::position_size>(x, sys.position_count(), "q", "p");
  }
};
