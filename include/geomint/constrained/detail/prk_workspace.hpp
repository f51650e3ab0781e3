// The workspace of a constrained PRK step (Hairer 2003, eqs. (2.6)–(2.9)) for one system type:
//   1. stage equations (2.6)–(2.7): the separable fast path (separable_stages.hpp) when
//      H = ½pᵀM⁻¹p + V(q) and a non-conservative force, if any, depends on (t, q) only (it is
//      folded into ∇V), else — and as the full-Newton fallback of the fast path — the general
//      stage solver (general_stages.hpp);
//   2. q1 = Q_s (â_sj = b_j), p̂ from (2.8) without Λ_s;
//   3. p1 = p̂ − G(q1)ᵀμ with G(q1) ∂H/∂p(q1, p1) = 0 (the free Λ_s; Example 2.3 when b_s = 0).
// ∇V, G and the factorized G M⁻¹ Gᵀ at the end point of a step are reused when the next step
// continues it (core/continuation.hpp) — with a position force, ∇V − f(t1, q1) only by a step
// that starts at t1.
#pragma once

#include <type_traits>
#include <utility>

#include "geomint/constrained/constrained_options.hpp"
#include "geomint/constrained/detail/explicit_two_stage.hpp"
#include "geomint/constrained/detail/general_stages.hpp"
#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/constrained/detail/separable_stages.hpp"
#include "geomint/constrained/detail/separable_two_stage.hpp"
#include "geomint/core/continuation.hpp"
#include "geomint/core/statistics.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint {
namespace detail {

/// The unknowns vector type of a stage solver, or a placeholder when that solver is not used.
template <bool Used, class Solver>
struct unknowns_of {
  using type = typename Solver::unknowns;
};
template <class Solver>
struct unknowns_of<false, Solver> {
  using type = vector<dynamic>;
};

template <class S, class = void>
struct has_inverse_diagonal_t : std::false_type {};
template <class S>
struct has_inverse_diagonal_t<S, std::void_t<decltype(std::declval<const S&>().mass().inverse_diagonal())>> : std::true_type {};

template <class System, int S>
class prk_workspace {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr bool fast_path = traits::separable && (!traits::has_force || traits::has_position_force);
  // The cached ∇V(q1) holds f(t1, q1): a step continues only from t1.
  static constexpr bool time_keyed = traits::separable && traits::has_position_force;
  static constexpr bool general_path = !traits::sparse_jacobian;
  static constexpr bool has_inverse_diagonal = has_inverse_diagonal_t<System>::value;
  static_assert(fast_path || general_path,
                "geomint: a system with a sparse constraint Jacobian must be separable, its force (if "
                "any) a position force (with_position_force)");
  using jacobian_type = typename traits::jacobian_type;
  // Two-stage methods have an explicit position stage (SHAKE iteration on Λ̃ only).
  using separable_solver = std::conditional_t<S == 2, separable_two_stage<System>, separable_stages<System, S>>;
  using separable_type = std::conditional_t<traits::separable, separable_solver, int>;
  using general_type = std::conditional_t<general_path, general_stages<System, S>, int>;

 public:
  explicit prk_workspace(const partitioned_tableau<S>& t)
      : tableau_(t), coupling_21_((t.aq * t.ap)(S - 1, 0)), c_end_(t.c()(S - 1)), separable_(make_separable(t)),
        general_(make_general(t)) {}

  /// A copy starts afresh (the stepper core calls this on copies).
  void forget() { cont_.forget(); }

  template <class QMap, class PMap>
  void step(const System& sys, QMap& q, PMap& p, double t, double dt, const constrained_options& opt,
            step_statistics& stats) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    const newton_context ctx{t, dt, "stage equations"};
    if constexpr (fast_path && has_inverse_diagonal) {
      if (m == 0 && S == 2) return explicit_diagonal_step(sys, q, p, t, dt, stats);
    }

    if (opt.linear_solver != linear_solver_) use(opt.linear_solver);
    // Without constraints nothing cached depends on p (no hidden constraint to check).
    bool continuing = m == 0 ? cont_.begin(sys, q) : cont_.begin(sys, q, p);
    if constexpr (time_keyed) continuing = continuing && cont_.ends_at(t);
    if (!continuing) start_fresh(sys, q, p, ctx, opt);
    const double ratio = h_previous_ == dt || h_previous_ == 0 ? 1.0 : dt / h_previous_;

    bool solved = false;
    if constexpr (fast_path) {
      if (m_ == 0 && S == 2) {
        explicit_step(sys, q, p, t, dt);
        cont_.record(sys, t + dt);
        finish_step(dt, stats);
        return;
      } else {
        solved = solve_separable(sys, q, p, dt, ratio * ratio, opt, stats, ctx);
      }
    }
    if constexpr (general_path) {
      if (!solved) {
        solve_general(sys, q, p, t, dt, continuing, ratio, opt, stats, ctx);
        ++stats.general_solver_steps;
      } else {
        general_.interrupt_sequence();
      }
    }

    cont_.commit(sys, t, dt, q, p);
    finish_step(dt, stats);
  }

 private:
  static separable_type make_separable(const partitioned_tableau<S>& t) {
    if constexpr (traits::separable) return separable_type(t); else return 0;
  }
  static general_type make_general(const partitioned_tableau<S>& t) {
    if constexpr (general_path) return general_type(t); else return 0;
  }

  /// Switches the stage factorization (see constrained_options::linear_solver); the cached one
  /// belongs to the previous solver, so the next step starts afresh.
  void use(external_linear_solver* solver) {
    linear_solver_ = solver;
    // The factorization serves the path the stages take: G M⁻¹ Gᵀ on the separable fast path,
    // the stage Jacobian on the general one (a separable H with a velocity-dependent force).
    if constexpr (fast_path) gram_.use(solver);
    else general_.use(solver);
    cont_.forget();
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    cont_.resize(n, n);
    for (auto& g : grad_) g.resize(n);
    v_.resize(n);
    force_.resize(n);
    gval_.resize(m);
    gv_.resize(m);
    for (auto& g : jac_) g.resize(m, n);
    gram_.resize(n, m);
    hidden_.resize(n, m);
    lambda_separable_.setZero(m, S - 1);
    if constexpr (traits::separable) {
      separable_.resize(n, m);
      const int k = separable_.unknown_count();
      zs_.resize(k);
      zs0_.resize(k);
      rs_.resize(k);
    }
    if constexpr (general_path) {
      general_.resize(n, m);
      const int k = general_.unknown_count();
      zg_.resize(k);
      zg0_.resize(k);
      rg_.resize(k);
    }
  }

  /// The step does not continue the previous one: check the state, evaluate G(q0) (and
  /// ∇V(q0), S0 for separable systems), forget the previous multipliers.
  template <class QMap, class PMap>
  void start_fresh(const System& sys, const QMap& q, const PMap& p, const newton_context& ctx,
                   const constrained_options& opt) {
    require_finite_state(ctx.t, ctx.dt, q, p);
    at_time(sys, ctx.t);
    h_previous_ = 0;
    lambda_separable_.setZero();
    if constexpr (general_path) general_.invalidate();
    if (m_ > 0) {
      sys.constraint_jacobian(q, g0());
      sys.constraint(q, gval_);
      sys.dh_dp(q, p, v_);
      gv_.noalias() = g0() * v_;
      constraint_residuals res;
      res.position = scaled_constraint_residual(g0(), gval_, q.norm());
      res.velocity = scaled_constraint_residual(g0(), gv_, v_.norm());
      if (!(res.position <= opt.consistency_tolerance && res.velocity <= opt.consistency_tolerance))
        throw step_error(failure_reason::inconsistent_initial_state, ctx.t, ctx.dt, 0,
                         std::fmax(res.position, res.velocity),
                         describe_residuals(res, opt.consistency_tolerance));
    }
    if constexpr (traits::separable) {
      net_gradient(sys, ctx.t, q, grad0(), force_);
      if (m_ > 0 && !gram_.factorize(sys, g0())) throw singular_gram(ctx);
    }
  }

  static step_error singular_gram(const newton_context& ctx) {
    return step_error(failure_reason::singular_constraint_jacobian, ctx.t, ctx.dt, 0, 0,
                      "G(q) M⁻¹ G(q)ᵀ is singular: the constraints are dependent at this "
                      "configuration (e.g. the same constraint given twice)");
  }

  /// explicit_step for diagonal masses, as the fused loops of explicit_two_stage.hpp.
  template <class QMap, class PMap>
  void explicit_diagonal_step(const System& sys, QMap& q, PMap& p, double t, double h, step_statistics& stats) {
    const double* w = sys.mass().inverse_diagonal().data();
    const double w0 = n_ > 0 ? w[0] : 0.0;
    const explicit_two_stage_coefficients c{h * tableau_.c()(S - 1), h * h * coupling_21_, h * tableau_.b(0),
                                            h * tableau_.b(S - 1)};
    const long n = n_;
    auto positions = [&] {  // loop (1), specialized for equal masses
      if (sys.mass().uniform())
        return explicit_positions(n, q.data(), p.data(), grad0().data(), [w0](long) { return w0; }, c, q1().data());
      return explicit_positions(n, q.data(), p.data(), grad0().data(), [w](long i) { return w[i]; }, c, q1().data());
    };
    bool continuing = cont_.begin(sys);  // the system; q is compared inside loop (1)
    if constexpr (time_keyed) continuing = continuing && cont_.ends_at(t);
    if (continuing) continuing = positions();
    if (!continuing) {
      net_gradient(sys, t, q, grad0(), force_);
      positions();
    }
    net_gradient(sys, t + c_end_ * h, q1(), grad1(), force_);
    if (!finite_entries(n, q1().data(), grad1().data()))
      throw step_error(failure_reason::non_finite_value, t, h, 0, 0, "the new state is not finite");
    explicit_update(n, q1().data(), grad0().data(), grad1().data(), c, q.data(), p.data());
    cont_.record(sys, t + h);
    finish_step(h, stats);
  }

  /// The new state is in place and recorded: the end point becomes the next step's start.
  void finish_step(double dt, step_statistics& stats) {
    start_ = 1 - start_;  // the end point's G and ∇V become the next start's (double buffer)
    h_previous_ = dt;
    ++stats.steps;
  }

  /// Two-stage methods without constraints are explicit (RATTLE is velocity Verlet):
  ///   q1 = q0 + M⁻¹(h c_2 p0 − h² B_21 ∇V(q0)),  p1 = p0 − h (b_1 ∇V(q0) + b_2 ∇V(q1)).
  /// Few passes over the state matter here: the momenta are updated in place once ∇V(q1) is
  /// known to be finite, the positions are copied from the workspace.
  template <class QMap, class PMap>
  void explicit_step(const System& sys, QMap& q, PMap& p, double t, double h) {
    const double cq = h * tableau_.c()(S - 1), cg = h * h * coupling_21_;
    sys.mass().apply_inverse_add(cq * p - cg * grad0(), q, q1());
    net_gradient(sys, t + c_end_ * h, q1(), grad1(), force_);
    if (!all_finite(q1(), grad1()))
      throw step_error(failure_reason::non_finite_value, t, h, 0, 0, "the new state is not finite");
    p -= (h * tableau_.b(0)) * grad0() + (h * tableau_.b(S - 1)) * grad1();
    q = q1();
  }

  template <class QMap, class PMap>
  bool solve_separable(const System& sys, const QMap& q, const PMap& p, double dt, double lambda_scale,
                       const constrained_options& opt, step_statistics& stats, const newton_context& ctx) {
    separable_.begin(sys, q, p, grad0(), g0(), gram_, ctx.t, dt);
    separable_.guess(zs_, lambda_separable_, lambda_scale);
    // Without constraints the two-stage methods are explicit (RATTLE is velocity Verlet).
    if (!(m_ == 0 && S == 2)) {
      try {
        try {
          newton_solve(separable_, zs_, zs0_, rs_, opt.newton, stats.newton, ctx);
        } catch (const step_error& e) {
          if (!worth_a_fresh_start(e)) throw;
          // The previous step's multipliers can put the start outside Newton's basin when the
          // motion turns fast: start again from zero multipliers (the explicit predictor).
          solve_separable_from_zero(opt, stats, ctx);
        }
      } catch (const fast_path_declined&) {
        return false;
      }
    }
    separable_.finish(zs_, p, grad0(), q1(), grad1(), g1(), p1());
    if (m_ > 0) {
      if (!gram_.factorize(sys, g1())) throw singular_gram(ctx);
      hidden_.project_separable(sys, q1(), g1(), gram_, p1());
    }
    lambda_separable_ = separable_.multipliers();
    return true;
  }

  /// The separable stage equations from zero multipliers. With sparse G, should the fixed
  /// matrix's iteration fail from there too, Newton with the exact Jacobian solves them, as a
  /// dense system's solver falls back to full Newton (separable_two_stage::exact).
  void solve_separable_from_zero(const constrained_options& opt, step_statistics& stats, const newton_context& ctx) {
    separable_.guess(zs_, lambda_separable_, 0.0);
    if constexpr (traits::sparse_jacobian && S == 2) {
      try {
        newton_solve(separable_, zs_, zs0_, rs_, opt.newton, stats.newton, ctx);
        return;
      } catch (const step_error& e) {
        if (!worth_a_fresh_start(e)) throw;
      }
      separable_.guess(zs_, lambda_separable_, 0.0);
      auto exact = separable_.exact();
      ++stats.newton.full_newton_fallbacks;
      newton_solve(exact, zs_, zs0_, rs_, opt.newton, stats.newton, ctx);
    } else {
      newton_solve(separable_, zs_, zs0_, rs_, opt.newton, stats.newton, ctx);
    }
  }

  template <class QMap, class PMap>
  void solve_general(const System& sys, const QMap& q, const PMap& p, double t, double dt, bool continuing,
                     double ratio, const constrained_options& opt, step_statistics& stats,
                     const newton_context& ctx) {
    if constexpr (general_path) {
      general_.begin(sys, q, p, g0(), t, dt);
      // A guess extrapolated from earlier steps, or a factorization kept from them, can lead
      // Newton out of its basin when the motion turns fast at a large step: start again from a
      // less extrapolated guess (the last step's increments), then from the explicit predictor
      // of a fresh step, each with a fresh factorization.
      for (int used = general_.guess(zg_, continuing, ratio);;) {
        const bool kept_factorization = general_.has_jacobian();
        const auto fallbacks = stats.newton.full_newton_fallbacks;
        try {
          newton_solve(general_, zg_, zg0_, rg_, opt.newton, stats.newton, ctx);
          // A solve that started from earlier steps' data (an extrapolated guess, a kept
          // factorization) and still needed full Newton has left the neighbourhood that data
          // described, and full Newton from there can reach another root of the stage equations
          // (a user's dumbbell, lobatto_iiia_iiib<4>: energy 3470 against 58 from a fresh
          // start). Such a step is solved again as a fresh stepper solves it.
          if ((used > 0 || kept_factorization) && stats.newton.full_newton_fallbacks != fallbacks) {
            used = general_.guess(zg_, continuing, ratio, 0);
            continue;
          }
          break;
        } catch (const step_error& e) {
          if ((used == 0 && !kept_factorization) || !worth_a_fresh_start(e)) throw;
          used = general_.guess(zg_, continuing, ratio, used > 1 ? 1 : 0);
        }
      }
      general_.finish(zg_, q1(), p1());
      at_time(sys, t + c_end_ * dt);
      if (m_ > 0) sys.constraint_jacobian(q1(), g1());
      if constexpr (traits::separable) {
        net_gradient(sys, t + c_end_ * dt, q1(), grad1(), force_);
        if (m_ > 0) {
          if (!gram_.factorize(sys, g1())) throw singular_gram(ctx);
          hidden_.project_separable(sys, q1(), g1(), gram_, p1());
        }
      } else {
        hidden_.project_general(sys, q1(), g1(), p1(), opt.newton, stats.newton, ctx);
      }
      lambda_separable_ = general_.multipliers() * dt;  // Λ̃ = h²Λ from Λ̃ = hΛ
    }
  }

  partitioned_tableau<S> tableau_;
  double coupling_21_;  // (â a)_{s1}: the ∇V(q0) coefficient of q1 in the explicit two-stage case
  double c_end_;        // c_s: the end point's time is t + c_s h (c_s = Σb = 1 up to rounding)
  int n_ = -1, m_ = -1;
  external_linear_solver* linear_solver_ = nullptr;
  double h_previous_ = 0;
  continuation<vector<N>, vector<N>> cont_;  // the last end point (q1, p1), where each step writes its result
  vector<N>& q1() { return cont_.template end<0>(); }
  vector<N>& p1() { return cont_.template end<1>(); }
  vector<N> v_, force_;
  vector<N> grad_[2];  // ∇V at the start and end of a step: grad_[start_], grad_[1 − start_]
  vector<M> gval_, gv_;
  jacobian_type jac_[2];  // G at the start and end of a step
  int start_ = 0;
  jacobian_type& g0() { return jac_[start_]; }
  jacobian_type& g1() { return jac_[1 - start_]; }
  vector<N>& grad0() { return grad_[start_]; }
  vector<N>& grad1() { return grad_[1 - start_]; }
  matrix<M, S - 1> lambda_separable_;
  constraint_gram<System> gram_;
  hidden_constraint_solver<System> hidden_;
  separable_type separable_;
  general_type general_;
  typename unknowns_of<traits::separable, separable_solver>::type zs_, zs0_, rs_;
  typename unknowns_of<general_path, general_stages<System, S>>::type zg_, zg0_, rg_;
};

}  // namespace detail
}  // namespace geomint
