// The cache and step logic shared by reich_constrained, reich_constrained_adjoint and
// reich_symmetric (McLachlan–Scovel 1994, §3 and §5, eqs. (2)–(3), (9), (10), (12)).
//
// One half step from (q, p) to (Q, P):
//   γ(t)        p̃ = p − t(∂H/∂q(q, p̃) − G(q)ᵀμ),  Q = q + t ∂H/∂p(q, p̃),  g(Q) = 0,  P = ψ(Q, p̃)
//   γ⁻¹(−t)     p̃ = p + t G(q)ᵀμ,  Q = q + t ∂H/∂p(Q, p̃),  g(Q) = 0,  P = ψ(Q, p̃ − t ∂H/∂q(Q, p̃))
// where ψ is the metric projection (metric_momentum) or the lift to CM of eq. (3)
// (canonical_momentum); see momentum_representation.hpp.
#pragma once

#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/constrained/detail/reich_general.hpp"
#include "geomint/constrained/detail/reich_separable.hpp"
#include "geomint/constrained/momentum_representation.hpp"
#include "geomint/constrained/reich_options.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint {

namespace detail {

/// Which map one do_step applies.
enum class reich_scheme {
  forward,    ///< γ(t), eq. (9): first order
  adjoint,    ///< γ⁻¹(−t), eq. (10): first order
  symmetric,  ///< γ⁻¹(−t/2) ∘ γ(t/2): γ with t/2, then its adjoint with t/2; second order
};

template <class Momentum>
struct is_metric_momentum : std::false_type {};
template <class Metric>
struct is_metric_momentum<metric_momentum<Metric>> : std::true_type {};

template <class System, class Momentum>
class reich_cache {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr bool separable = traits::separable;
  static constexpr bool metric = is_metric_momentum<Momentum>::value;
  using jacobian_type = typename traits::jacobian_type;
  static_assert(!traits::has_force,
                "geomint: reich_constrained is defined for conservative systems only (no force(t, q, p))");
  static_assert(!traits::rheonomic, "geomint: reich_constrained does not take driven constraints (constraint_time_derivative); rattle, lobatto_iiia_iiib and constrained_symplectic_euler do");
  static_assert(!traits::sparse_jacobian,
                "geomint: reich_constrained needs a dense constraint Jacobian (use rattle for sparse chains)");
  using multiplier_type = std::conditional_t<separable, reich_multiplier_problem<System>, int>;
  using position_type = std::conditional_t<separable, reich_position_problem<System>, int>;
  using context = step_context<reich_options, constrained_statistics>;

 public:
  static constexpr reuse kept = reuse::state;
  using end_state = std::pair<vector<N>, vector<N>>;

  template <class Method, class = decltype(std::declval<const Method&>().representation())>
  explicit reich_cache(const Method& method) : representation_(method.representation()), scheme_(Method::scheme) {}

  /// Checks that (q, p) is a consistent state of the representation and forgets old multipliers.
  template <class Q0, class P0>
  void start(const System& sys, const Q0& q, const P0& p, const context& c) {
    if constexpr (!separable) {
      if (c.options.formulation == reich_formulation::positions)
        throw std::invalid_argument(
            "geomint: reich_formulation::positions (McLachlan–Scovel eq. (12)) needs a separable "
            "H = ½pᵀM⁻¹p + V(q) with constant M; use reich_formulation::multipliers");
    }
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(sys, n, m);
    invalidate_jacobians();
    for (int d = 0; d < 2; ++d) {
      nu_[d].setZero();
      correction_[d].setZero();
    }
    // M of this system (eq. (12) uses M itself): another system of the same size, or this one
    // rebuilt with other masses, is a fresh start too.
    if constexpr (separable) position_.set_mass(sys);
    if (m_ == 0) return;
    const system_at<System> at(sys, c.t);
    at.constraint_jacobian(q, g0_);
    at.constraint(q, gval_);
    if constexpr (metric) representation_.metric.apply_inverse(p, v_);  // G W⁻¹ p = 0
    else at.dh_dp(q, p, v_);                                          // G ∂H/∂p = 0
    gv_.noalias() = g0_ * v_;
    constraint_residuals res;
    res.position = scaled_constraint_residual(g0_, gval_, q.norm());
    res.velocity = scaled_constraint_residual(g0_, gv_, v_.norm());
    if (!(res.position <= c.options.consistency_tolerance && res.velocity <= c.options.consistency_tolerance)) {
      std::string what = describe_residuals(res, c.options.consistency_tolerance);
      if constexpr (metric)
        what += " (metric_momentum: the momentum condition is G(q) W⁻¹ p = 0; convert a canonical "
                "state with geomint::to_metric_momentum)";
      throw step_error(failure_reason::inconsistent_initial_state, c.t, c.h, 0,
                       std::fmax(res.position, res.velocity), what);
    }
  }

  template <class Q0, class P0, class Q1, class P1>
  void advance(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    // The last step's multipliers, scaled to this one, are the guess of a continued step.
    const double ratio = c.continuing ? c.h / c.h_previous : 0.0;
    qa_ = q;
    pa_ = p;
    switch (scheme_) {
      case reich_scheme::forward: half_step(sys, false, c.t, c.h, ratio, c); break;
      case reich_scheme::adjoint: half_step(sys, true, c.t, c.h, ratio, c); break;
      case reich_scheme::symmetric:
        half_step(sys, false, c.t, c.h / 2, ratio, c);
        half_step(sys, true, c.t + c.h / 2, c.h / 2, ratio, c);
        break;
    }
    q1 = qa_;
    p1 = pa_;
    if (!separable) ++c.stats.general_solver_steps;
  }

 private:
  void resize(const System& sys, int n, int m) {
    n_ = n;
    m_ = m;
    qa_.resize(n);
    pa_.resize(n);
    v_.resize(n);
    grad_.resize(n);
    pbase_.resize(n);
    base_.resize(n);
    gval_.resize(m);
    gv_.resize(m);
    g0_.resize(m, n);
    g1_.resize(m, n);
    psi_.resize(n, m);
    hidden_.resize(n, m);
    for (int d = 0; d < 2; ++d) {
      nu_[d].setZero(m);
      correction_[d].setZero(n);
    }
    if constexpr (separable) {
      multiplier_.resize(n, m);
      position_.resize(n, m);
      pi_.resize(n, n);
      zm_.resize(m);
      zm0_.resize(m);
      rm_.resize(m);
      zq_.resize(n);
      zq0_.resize(n);
      rq_.resize(n);
    } else {
      (void)sys;
      forward_.resize(n, m);
      adjoint_.resize(n, m);
      zg_.resize(n + m);
      zg0_.resize(n + m);
      rg_.resize(n + m);
    }
  }

  void invalidate_jacobians() {
    if constexpr (separable) {
      multiplier_.invalidate();
      position_.invalidate();
    } else {
      forward_.invalidate();
      adjoint_.invalidate();
    }
  }

  /// (qa_, pa_) ← γ(h) or γ⁻¹(−h) of (qa_, pa_); ratio: h over the last step's half step of this
  /// direction (0 on a fresh start).
  void half_step(const System& sys, bool adjoint, double t, double h, double ratio, const context& c) {
    const newton_context ctx{t, h, adjoint ? "constraint algorithm, adjoint step (10)" : "constraint algorithm, step (9)"};
    const int d = adjoint ? 1 : 0;
    const reich_options& opt = c.options;
    auto& stats = c.stats;
    const system_at<System> at(sys, t);
    if (m_ > 0) at.constraint_jacobian(qa_, g0_);
    if constexpr (separable) {
      // p₀ = p − h∇V(q) for γ, p for the adjoint.
      pbase_ = pa_;
      if (!adjoint) {
        at.potential_gradient(qa_, grad_);
        pbase_ -= h * grad_;
      }
      sys.mass().apply_inverse(pbase_, v_);
      base_ = qa_ + h * v_;  // unconstrained drift
      const double q_scale = qa_.cwiseAbs().maxCoeff();
      if (m_ == 0) {
        pa_ = pbase_;  // no constraint: the drift is explicit
      } else if (opt.formulation == reich_formulation::multipliers) {
        // eq. (9)/(10): Q = q + h M⁻¹p₀ + M⁻¹G(q)ᵀν, p̃ = p₀ + G(q)ᵀν/h
        multiplier_.begin(sys, base_, g0_, q_scale, ctx);
        zm_ = ratio * ratio * nu_[d];
        newton_solve(multiplier_, zm_, zm0_, rm_, opt.newton, stats.newton, ctx);
        nu_[d] = zm_;
        multiplier_.position(zm_, base_);
        pa_ = pbase_;
        v_.noalias() = g0_.transpose() * zm_;
        pa_ += v_ / h;
      } else {
        // eq. (12): Π(q)(M(Q − q) − h p₀) = 0, g(Q) = 0; p̃ = M(Q − q)/h
        if constexpr (metric) psi_.factorize(representation_.metric, g0_);
        else psi_.factorize(sys.mass(), g0_);
        psi_.projector_matrix(g0_, pi_);
        v_ = h * pbase_;
        position_.begin(sys, qa_, v_, pi_, g0_, q_scale, ctx);
        zq_ = base_ + ratio * ratio * correction_[d];
        newton_solve(position_, zq_, zq0_, rq_, opt.newton, stats.newton, ctx);
        correction_[d] = zq_ - base_;
        base_ = zq_;
        position_.momentum(zq_, h, pa_);
      }
      qa_ = base_;
      if (adjoint) {
        at.potential_gradient(qa_, grad_);
        pa_ -= h * grad_;
      }
    } else {
      if (adjoint) general_half(sys, adjoint_, h, d, ratio, opt, stats, ctx);
      else general_half(sys, forward_, h, d, ratio, opt, stats, ctx);
    }
    project(at, opt, stats, ctx);
  }

  template <class Problem>
  void general_half(const System& sys, Problem& problem, double h, int d, double ratio, const reich_options& opt,
                    constrained_statistics& stats, const newton_context& ctx) {
    problem.begin(sys, qa_, pa_, g0_, h, ctx);
    problem.guess(zg_, ratio * nu_[d]);
    newton_solve(problem, zg_, zg0_, rg_, opt.newton, stats.newton, ctx);
    nu_[d] = zg_.tail(m_);
    problem.finish(zg_, base_, pbase_);
    qa_ = base_;
    pa_ = pbase_;
  }

  /// pa_ ← ψ(qa_, pa_): the metric projection, or the lift to CM (eq. (3)).
  void project(const system_at<System>& sys, const reich_options& opt, constrained_statistics& stats,
               const newton_context& ctx) {
    if (m_ == 0) return;
    sys.constraint_jacobian(qa_, g1_);
    auto singular = [&] {
      return step_error(failure_reason::singular_constraint_jacobian, ctx.t, ctx.dt, 0, 0,
                        "the projection matrix G(Q) W⁻¹ G(Q)ᵀ is singular at the new position");
    };
    if constexpr (metric) {
      if (!psi_.factorize(representation_.metric, g1_)) throw singular();
      psi_.project(g1_, pa_);
    } else if constexpr (separable) {
      if (!psi_.factorize(sys.mass(), g1_)) throw singular();
      psi_.project(g1_, pa_);
    } else {
      hidden_.project_general(sys, qa_, g1_, pa_, opt.newton, stats.newton, ctx);
    }
  }

  Momentum representation_;
  reich_scheme scheme_;
  int n_ = -1, m_ = -1;
  vector<N> qa_, pa_, v_, grad_, pbase_, base_;
  vector<M> gval_, gv_, nu_[2];
  vector<N> correction_[2];  // Q − (q + h M⁻¹p₀) of the last half step, per direction (first guess)
  jacobian_type g0_, g1_;
  matrix<N, N> pi_;
  metric_projector<N, M> psi_;
  hidden_constraint_solver<System> hidden_;
  multiplier_type multiplier_{};
  position_type position_{};
  reich_general_problem<System, false> forward_;
  reich_general_problem<System, true> adjoint_;
  vector<M> zm_, zm0_, rm_;
  vector<N> zq_, zq0_, rq_;
  typename reich_general_problem<System, false>::unknowns zg_, zg0_, rg_;
};

}  // namespace detail
}  // namespace geomint
