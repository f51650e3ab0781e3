// The cache of a constrained PRK step (Hairer 2003, eqs. (2.6)–(2.9)) for one system type:
//   1. stage equations (2.6)–(2.7): the separable fast path (separable_stages.hpp) when
//      H = ½pᵀM⁻¹p + V(q) and a non-conservative force, if any, depends on (t, q) only (it is
//      folded into ∇V), else — and as the full-Newton fallback of the fast path — the general
//      stage solver (general_stages.hpp);
//   2. q1 = Q_s (â_sj = b_j), p̂ from (2.8) without Λ_s;
//   3. p1 = p̂ − G(q1)ᵀμ with G(q1) ∂H/∂p(q1, p1) = 0 (the free Λ_s; Example 2.3 when b_s = 0).
// ∇V, G and the factorized G M⁻¹ Gᵀ at the end point of a step serve the next step when the core
// says it continues the last one (core/step_record.hpp) — with a position force, ∇V − f(t1, q1)
// only for a step that starts at t1, and so for every system whose functions take the time.
// Driven constraints g(q, t) = 0 (system_traits::rheonomic) are the extended phase space's
// (docs/constrained.md): the stages already see their times, the hidden constraint gains ∂g/∂t,
// and the work of the constraint forces, h Σ b_i ∂g/∂t(Q_i, t_i)·Λ_i, is the step's
// constrained_statistics::driving_work.
#pragma once

#include <type_traits>
#include <utility>

#include "geomint/constrained/constrained_options.hpp"
#include "geomint/constrained/detail/explicit_two_stage.hpp"
#include "geomint/constrained/detail/general_stages.hpp"
#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/constrained/detail/separable_stages.hpp"
#include "geomint/constrained/detail/separable_two_stage.hpp"
#include "geomint/core/stepper_base.hpp"
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
class prk_cache {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr bool fast_path = traits::separable && (!traits::has_force || traits::has_position_force);
  // The cached ∇V(q1) holds f(t1, q1), the cached G(q1) is G(q1, t1) when the system takes the
  // time: a step continues only from t1.
  static constexpr bool time_keyed = (traits::separable && traits::has_position_force) || takes_time_v<System>;
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
  using context = step_context<constrained_options, constrained_statistics>;

 public:
  /// The last step's multipliers Λ_1..Λ_s (column i: the constraint force at stage i is
  /// −G(Q_i, t_i)ᵀΛ_i, Hairer 2003, (2.6)–(2.8); the last column belongs to the end point's
  /// hidden constraint). Each approximates λ(t_i) to the stage order (docs/constrained.md).
  const matrix<M, S>& multipliers() const { return multipliers_; }

  /// Without constraints nothing kept depends on p (no hidden constraint to check).
  /// The explicit step compares q0 with the last end positions in its first loop.
  static constexpr reuse kept = (M == 0 ? reuse::positions | reuse::compared_in_advance : reuse::state) |
                                (time_keyed ? reuse::at_time : reuse::nothing);

  using end_state = std::pair<vector<N>, vector<N>>;

  template <class Method, class = decltype(std::declval<const Method&>().tableau())>
  explicit prk_cache(const Method& method) : prk_cache(method.tableau()) {}
  explicit prk_cache(const partitioned_tableau<S>& t)
      : tableau_(t), coupling_21_((t.aq * t.ap)(S - 1, 0)), c_end_(t.c()(S - 1)), separable_(make_separable(t)),
        general_(make_general(t)) {}

  /// A fresh start: check the state, evaluate G(q0) (and ∇V(q0), S0 for separable systems),
  /// forget the previous multipliers and stage increments.
  template <class Q0, class P0>
  void start(const System& sys, const Q0& q, const P0& p, const context& c) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    if (external_linear_solver* solver = solver_for(c.options); solver != linear_solver_) use(solver);
    lambda_separable_.setZero();
    if constexpr (general_path) general_.invalidate();
    if (m_ > 0) {
      const system_at<System> at(sys, c.t);
      at.constraint_jacobian(q, g0());
      at.constraint(q, gval_);
      constraint_residuals res;
      res.position = scaled_constraint_residual(g0(), gval_, q.norm());
      res.velocity = velocity_residual(at, q, p, g0(), v_, gv_, rate_);
      if (!(res.position <= c.options.consistency_tolerance && res.velocity <= c.options.consistency_tolerance))
        throw step_error(failure_reason::inconsistent_initial_state, c.t, c.h, 0, std::fmax(res.position, res.velocity),
                         describe_residuals(res, c.options.consistency_tolerance));
    }
    if constexpr (traits::separable) {
      if constexpr (fast_path) net_gradient(sys, c.t, q, grad0(), force_);
      if (m_ > 0) factorize_gram(sys, g0(), c);
    }
  }

  template <class Q0, class P0, class Q1, class P1>
  advance_result advance(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    // Another linear solver set between steps: its factorization is not the kept one.
    if (c.continuing && solver_for(c.options) != linear_solver_) return advance_result::repeat_afresh;
    if (c.continuing) start_ = 1 - start_;  // the last end point's G and ∇V are this start's
    const newton_context ctx{c.t, c.h, "stage equations"};
    if constexpr (fast_path && has_inverse_diagonal) {
      if (m_ == 0 && S == 2)
        return explicit_diagonal_step(sys, q, p, q1, p1, c) ? advance_result::done : advance_result::not_continued;
    }
    if constexpr (M == 0) {
      if (c.last_positions && !detail::bitwise_equal(q, Eigen::Map<const vector<N>>(c.last_positions, q.size())))
        return advance_result::not_continued;
    }
    if constexpr (fast_path) {
      if (m_ == 0 && S == 2) {
        explicit_step(sys, q, p, q1, p1, c);
        return advance_result::done;
      }
    }
    const double ratio = c.h_previous == c.h || c.h_previous == 0 ? 1.0 : c.h / c.h_previous;
    bool solved = false;
    if constexpr (fast_path) solved = solve_separable(sys, q, p, c, ratio * ratio, ctx, q1, p1);
    if constexpr (general_path) {
      if (!solved) {
        const advance_result r = solve_general(sys, q, p, c, ratio, ctx, q1, p1);
        if (r == advance_result::done) ++c.stats.general_solver_steps;
        return r;
      }
      general_.interrupt_sequence();
    }
    return advance_result::done;
  }

 private:
  static separable_type make_separable(const partitioned_tableau<S>& t) {
    if constexpr (traits::separable) return separable_type(t); else return 0;
  }
  static general_type make_general(const partitioned_tableau<S>& t) {
    if constexpr (general_path) return general_type(t); else return 0;
  }

  /// The external solver the options ask for: theirs, or one made for this cache by their factory.
  external_linear_solver* solver_for(const constrained_options& o) {
    if (o.linear_solver) return o.linear_solver;
    if (o.linear_solver_factory) return made_solver_.get_or_make(o.linear_solver_factory);
    return nullptr;
  }

  /// Switches the stage factorization (see constrained_options::linear_solver).
  void use(external_linear_solver* solver) {
    linear_solver_ = solver;
    // The factorization serves the path the stages take: G M⁻¹ Gᵀ on the separable fast path,
    // the stage Jacobian on the general one (a separable H with a velocity-dependent force).
    if constexpr (fast_path) gram_.use(solver);
    else general_.use(solver);
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    for (auto& g : grad_) g.resize(n);
    v_.resize(n);
    force_.resize(n);
    gval_.resize(m);
    gv_.resize(m);
    rate_.resize(m);
    multipliers_.setZero(m, S);
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

  /// The step's driving work: the stage multipliers' part and the final multiplier's,
  /// ∂g/∂t(q1, t1)·μ (p1 = p̂ − G(q1)ᵀμ).
  void record_work(double stage_work, const context& c) {
    if (m_ > 0) c.stats.driving_work += stage_work + hidden_.constraint_rate().dot(hidden_.multiplier());
  }
  /// Λ_1..Λ_s in force units from Λ̃_k = h²Λ_k and μ = h b_s Λ_s (μ = hΛ_s when b_s = 0,
  /// Hairer's Example 2.3).
  void record_multipliers(double h) {
    if (m_ == 0) return;
    multipliers_.template leftCols<S - 1>() = lambda_separable_ / (h * h);
    const double bs = tableau_.b(S - 1);
    multipliers_.col(S - 1) = hidden_.multiplier() / (bs != 0 ? h * bs : h);
  }

  /// Why S is singular, and what the user can do about it.
  step_error singular_gram(const context& c) const {
    const bool external = fast_path && linear_solver_ != nullptr;  // only the fast path hands it S
    if (c.options.rank_tolerance > 0 && !traits::sparse_jacobian && !external)
      return step_error(failure_reason::singular_constraint_jacobian, c.t, c.h, 0, 0,
                        "G(q) M⁻¹ G(q)ᵀ is zero to the rank tolerance: no constraint acts at this configuration");
    const char* remedy = traits::sparse_jacobian ? "redundant constraints are solved for dense G only"
        : external                              ? "the external linear solver refused it"
                                                : "if they are redundant everywhere, set constrained_options::rank_tolerance";
    return step_error(failure_reason::singular_constraint_jacobian, c.t, c.h, 0, 0,
                      std::string("G(q) M⁻¹ G(q)ᵀ is singular: the constraints are dependent at this configuration "
                                  "(e.g. the same constraint given twice); ") + remedy);
  }
  /// S = G M⁻¹ Gᵀ at G, rank-revealing if options.rank_tolerance asks for it; the rank found
  /// goes to the statistics.
  void factorize_gram(const System& sys, const jacobian_type& g, const context& c) {
    const bool ok = gram_.factorize(sys, g, c.options.rank_tolerance);
    c.stats.constraint_rank = gram_.rank();
    if (!ok) throw singular_gram(c);
  }

  /// Two-stage methods without constraints are explicit (RATTLE is velocity Verlet):
  ///   q1 = q0 + M⁻¹(h c_2 p0 − h² B_21 ∇V(q0)),  p1 = p0 − h (b_1 ∇V(q0) + b_2 ∇V(q1)).
  template <class Q0, class P0, class Q1, class P1>
  void explicit_step(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    const double h = c.h, cq = h * tableau_.c()(S - 1), cg = h * h * coupling_21_;
    sys.mass().apply_inverse_add(cq * p - cg * grad0(), q, q1);
    net_gradient(sys, c.t + c_end_ * h, q1, grad1(), force_);
    p1 = p - ((h * tableau_.b(0)) * grad0() + (h * tableau_.b(S - 1)) * grad1());
  }

  /// explicit_step for diagonal masses, in the loops of explicit_two_stage.hpp; false (nothing
  /// computed past q1) if q0 is not the last end point it was told to continue from.
  template <class Q0, class P0, class Q1, class P1>
  bool explicit_diagonal_step(const System& sys, const Q0& q, const P0& p, Q1& q1, P1& p1, const context& c) {
    const double h = c.h;
    const double* w = sys.mass().inverse_diagonal().data();
    const double w0 = n_ > 0 ? w[0] : 0.0;
    const explicit_two_stage_coefficients k{h * tableau_.c()(S - 1), h * h * coupling_21_, h * tableau_.b(0),
                                            h * tableau_.b(S - 1)};
    const long n = n_;
    const bool same = sys.mass().uniform()
        ? explicit_positions(n, q.data(), p.data(), grad0().data(), [w0](long) { return w0; }, k, q1.data(), c.last_positions)
        : explicit_positions(n, q.data(), p.data(), grad0().data(), [w](long i) { return w[i]; }, k, q1.data(), c.last_positions);
    if (!same) return false;
    net_gradient(sys, c.t + c_end_ * h, q1, grad1(), force_);
    explicit_momenta(n, p.data(), grad0().data(), grad1().data(), k, p1.data());
    return true;
  }

  template <class Q0, class P0, class Q1, class P1>
  bool solve_separable(const System& sys, const Q0& q, const P0& p, const context& c, double lambda_scale,
                       const newton_context& ctx, Q1& q1, P1& p1) {
    separable_.begin(sys, q, p, grad0(), g0(), gram_, c.t, c.h);
    separable_.guess(zs_, lambda_separable_, lambda_scale);
    if (!(m_ == 0 && S == 2)) {
      try {
        if constexpr (traits::sparse_jacobian && S == 2) {
          try {
            newton_solve(separable_, zs_, zs0_, rs_, c.options.newton, c.stats.newton, ctx);
          } catch (const step_error& e) {
            // From the previous step's multipliers the core retries as a fresh start; from
            // zero multipliers (a fresh start), Newton with the exact Jacobian, as a dense
            // system's solver falls back to full Newton (separable_two_stage::exact).
            if (c.continuing || !worth_a_fresh_start(e)) throw;
            separable_.guess(zs_, lambda_separable_, 0.0);
            auto exact = separable_.exact();
            ++c.stats.newton.full_newton_fallbacks;
            newton_solve(exact, zs_, zs0_, rs_, c.options.newton, c.stats.newton, ctx);
          }
        } else {
          newton_solve(separable_, zs_, zs0_, rs_, c.options.newton, c.stats.newton, ctx);
        }
      } catch (const fast_path_declined&) {
        return false;
      }
    }
    separable_.finish(zs_, p, grad0(), q1, grad1(), g1(), p1);
    if (m_ > 0) {
      factorize_gram(sys, g1(), c);
      hidden_.project_separable(system_at<System>(sys, c.t + c_end_ * c.h), q1, g1(), gram_, p1);
    }
    lambda_separable_ = separable_.multipliers();
    if constexpr (traits::rheonomic) record_work(separable_.stage_work(), c);
    record_multipliers(c.h);
    return true;
  }

  /// The general stage equations. A guess extrapolated from earlier steps, or a factorization
  /// kept from them, can lead Newton out of its basin when the motion turns fast at a large step:
  /// the step then fails, and the core takes it again as a fresh start. A continued solve that
  /// succeeded only after falling back to full Newton has left the neighbourhood that kept data
  /// described, and full Newton from there can reach another root of the stage equations: such a
  /// step is taken again as a fresh start too.
  template <class Q0, class P0, class Q1, class P1>
  advance_result solve_general(const System& sys, const Q0& q, const P0& p, const context& c, double ratio,
                               const newton_context& ctx, Q1& q1, P1& p1) {
    if constexpr (general_path) {
      general_.begin(sys, q, p, g0(), c.t, c.h);
      const int used = general_.guess(zg_, c.continuing, ratio);
      const bool kept_factorization = general_.has_jacobian();
      const auto fallbacks = c.stats.newton.full_newton_fallbacks;
      const newton_report solve = newton_solve(general_, zg_, zg0_, rg_, c.options.newton, c.stats.newton, ctx);
      if ((used > 0 || kept_factorization) && c.stats.newton.full_newton_fallbacks != fallbacks && c.continuing)
        return advance_result::repeat_afresh;
      general_.finish(zg_, solve, q1, p1);
      const system_at<System> at_end(sys, c.t + c_end_ * c.h);
      if (m_ > 0) at_end.constraint_jacobian(q1, g1());
      if constexpr (traits::separable) {
        // ∇V(q1) serves the fast path's next step; a velocity-dependent force never takes it.
        if constexpr (fast_path) net_gradient(sys, c.t + c_end_ * c.h, q1, grad1(), force_);
        if (m_ > 0) {
          factorize_gram(sys, g1(), c);
          hidden_.project_separable(at_end, q1, g1(), gram_, p1);
        }
      } else {
        hidden_.project_general(at_end, q1, g1(), p1, c.options.newton, c.stats.newton, ctx);
      }
      lambda_separable_ = general_.multipliers() * c.h;  // Λ̃ = h²Λ from Λ̃ = hΛ
      if constexpr (traits::rheonomic) record_work(general_.stage_work(), c);
      record_multipliers(c.h);
    }
    return advance_result::done;
  }

  partitioned_tableau<S> tableau_;
  double coupling_21_;  // (â a)_{s1}: the ∇V(q0) coefficient of q1 in the explicit two-stage case
  double c_end_;        // c_s: the end point's time is t + c_s h (c_s = Σb = 1 up to rounding)
  int n_ = -1, m_ = -1;
  external_linear_solver* linear_solver_ = nullptr;
  owned_linear_solver made_solver_;  // from constrained_options::linear_solver_factory
  vector<N> v_, force_;
  vector<N> grad_[2];  // ∇V at the start and end of a step: grad_[start_], grad_[1 − start_]
  vector<M> gval_, gv_, rate_;
  matrix<M, S> multipliers_;  // Λ_1..Λ_s of the last step
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
