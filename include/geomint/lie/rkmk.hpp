// Runge–Kutta–Munthe-Kaas methods on coadjoint orbits: Algorithm 2 of Engø–Faltinsen 1999.
//
// One step from y₀ with any Butcher tableau (a, b):
//   σ_i = h Σ_j a_ij k_j,   k_i = dψ⁻¹_{σ_i}(∇H(Ad*_{ψ(−σ_i)} y₀))    (stage equations of (4.20))
//   y₁  = Ad*_{ψ(−σ)} y₀,   σ = h Σ_i b_i k_i                           ((4.21), (4.23))
// with ψ = exp (exp_coordinates) or ψ = cay (cayley_coordinates), and dψ⁻¹ truncated after
// degree q in σ, Coordinates::truncation(p) for a tableau of order p (exp: max(p − 2, 0),
// Hairer–Lubich–Wanner IV.8; Cayley: 0 for p ≤ 2, all of dcay⁻¹ above — see cayley_coordinates.hpp;
// for p ≤ 2 no correction is needed, as for the Lie midpoint and trapezoidal rules of §4.1). The update is a coadjoint action, so y₁ stays on the coadjoint
// orbit of y₀ and every Casimir is preserved to round-off, for every tableau (Lemma 1).
//
// rk::rk4_two_commutators is classical RK4 in RKMK form with dexp⁻¹ cut to the two commutators
// order 4 needs (Munthe-Kaas–Owren 1999; Iserles, Munthe-Kaas, Nørsett, Zanna, Acta Numerica
// 2000, §5): with F_i = h ∇H(y_i),
//   y_2 = Ad*_{exp(−F₁/2)} y₀,  y_3 = Ad*_{exp(−F₂/2 + [F₁, F₂]/8)} y₀,  y_4 = Ad*_{exp(−F₃)} y₀,
//   y₁ = Ad*_{exp(−σ)} y₀,  σ = (F₁ + 2F₂ + 2F₃ + F₄)/6 − [F₁, F₄]/12,
// exp coordinates only. Same order, same orbit; no dexp⁻¹ on the chain of dependent stages.
//
// Implicit tableaux (Gauss: GL2 = implicit midpoint; Lobatto IIIA 2 = trapezoidal rule) solve
// the stage equations for K = (k_1, …, k_s) by simplified Newton (geomint::newton_solve) to
// near round-off, with the frozen matrix 1 − h A ⊗ J₀, J₀ = D²H(y₀) J(y₀) (+ ½ ad_{∇H(y₀)} when
// the commutator term is kept): the derivative of the stage map at σ = 0. That matrix has
// (s·d)² entries; for large algebras (su(N): d = N² − 1) the stages are solved matrix-free
// instead, by the fixed-point iteration K ← F(K) of the stage map itself (lie_stage_solver):
// it contracts with factor ~ h‖A‖ ‖D²H J‖, i.e. for small h, costs one stage map per
// iteration and O(s·d) memory, and stops at round-off like the Newton driver.
#pragma once

#include <array>
#include <cmath>
#include <type_traits>
#include <utility>

#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/lie/lie_options.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/solvers/extrapolation.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/tableau/named_tableaux.hpp"
#include "geomint/tableau/order_conditions.hpp"

namespace geomint {

namespace rk {
/// Classical RK4 in RKMK form with two commutators instead of a truncated dexp⁻¹ per stage
/// (exp coordinates; see the header comment). Its tableau is rk4's.
struct rk4_two_commutators : rk4 {};
}  // namespace rk

namespace detail {

/// Whether a method tag states its explicit tableau as constants (Tag::a(i, j), Tag::b(i)).
template <class Tag, class = void>
struct has_constant_tableau : std::false_type {};
template <class Tag>
struct has_constant_tableau<Tag, std::void_t<decltype(std::integral_constant<bool, (Tag::a(0, 0), Tag::b(0), true)>{})>>
    : std::true_type {};

/// The RKMK step for one algebra, tableau size and coordinates. The tableau is data, except for
/// a method tag Tag with a constant explicit tableau (rk::forward_euler, rk::heun, rk::rk4): its
/// stages are then formed from compile-time coefficients (see explicit_stage).
template <class Algebra, int S, class Coordinates, class Tag = void>
class rkmk_cache {
  static constexpr bool constant_tableau = has_constant_tableau<Tag>::value;
  static constexpr bool two_commutators = std::is_same_v<Tag, rk::rk4_two_commutators>;
  static constexpr int D = Algebra::dimension;
  static constexpr int SD = size::fixed_if_small(size::product(S, D));
  using vec = vector<D>;
  using context = step_context<lie_options, solver_statistics>;

 public:
  /// An explicit method named by a tag keeps nothing between steps; an implicit tableau keeps
  /// its stage Jacobian (Newton) or the stages of the last steps (fixed point) for the next guess.
  static constexpr reuse kept = constant_tableau || two_commutators ? reuse::nothing : reuse::state;
  using end_state = vec;

  template <class Method, class = decltype(std::declval<const Method&>().tableau())>
  explicit rkmk_cache(const Method& method) : rkmk_cache(method.tableau()) {}
  explicit rkmk_cache(const butcher_tableau<S>& tableau)
      : tableau_(tableau), explicit_(tableau.is_explicit()), truncation_(Coordinates::truncation(tableau.order)) {
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j)
        if (tableau_.a(i, j) != 0) nonzero_[i][nonzero_count_[i]++] = j;
  }

  /// A fresh start: no stage Jacobian, no previous stages.
  template <class Sys, class Y>
  void start(const Sys&, const Y&, const context&) {
    jacobian_valid_ = false;
    k_history_.forget();
  }

  template <class Sys, class Y, class Y1>
  void advance(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    if constexpr (two_commutators) {
      static_assert(std::is_same_v<Coordinates, exp_coordinates>,
                    "geomint: rk::rk4_two_commutators is an RKMK method in exp coordinates");
      explicit_step(sys, y, y1, c.h);
    } else if constexpr (constant_tableau) {
      // A method tag's constant tableau is explicit: no stage solver is instantiated for it.
      static_assert(strictly_lower_constant_tableau(), "geomint: a constant tableau must be explicit");
      explicit_step(sys, y, y1, c.h);
    } else if (explicit_) {
      explicit_step(sys, y, y1, c.h);
    } else {
      implicit_step(sys, y, y1, c);
    }
  }

  static bool uses_fixed_point(const lie_options& opt, int d) {
    return opt.stage_solver == lie_stage_solver::fixed_point ||
           (opt.stage_solver == lie_stage_solver::automatic && S * d > lie_options::fixed_point_threshold);
  }

 private:
  static constexpr bool strictly_lower_constant_tableau() {
    for (int i = 0; i < S; ++i)
      for (int j = i; j < S; ++j)
        if (Tag::a(i, j) != 0) return false;
    return true;
  }

  template <class Sys, class Y, class Y1>
  void explicit_step(const Sys& sys, const Y& y, Y1& y1, double dt) {
    const Algebra& alg = detail::algebra_of(sys);
    if constexpr (D != dynamic) {
      // Fixed size: the scratch on the stack, so that the chain of dependent stages runs in
      // registers instead of through stores to and loads from *this.
      stage_scratch w;
      w.y0 = y;
      explicit_stages_and_finish(sys, alg, dt, w, y1);
    } else {
      if (d_ != alg.dim()) resize(alg.dim(), false);
      w_.y0 = y;
      explicit_stages_and_finish(sys, alg, dt, w_, y1);
    }
  }

  template <class Sys, class Y, class Y1>
  void implicit_step(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    const Algebra& alg = detail::algebra_of(sys);
    const bool fixed_point = uses_fixed_point(c.options, alg.dim());
    if (d_ != alg.dim() || fixed_point_ != fixed_point) resize(alg.dim(), fixed_point);
    w_.y0 = y;
    action_.prepare(alg, w_.y0);
    if (fixed_point_) fixed_point_stages(sys, alg, c);
    else implicit_stages(sys, alg, c);
    finish<true>(alg, c.h, w_, y1);
    if (fixed_point_) k_history_.record(w_.k);  // the next step may extrapolate from it
  }

  void resize(int d, bool fixed_point) {
    d_ = d;
    w_.resize(d);
    g0_.resize(d);
    fixed_point_ = fixed_point;
    if (!explicit_ && fixed_point_) {
      k_next_.resize(d, S);
      k_history_.forget();
    } else if (!explicit_) {
      z_.resize(S * d);
      z0_.resize(S * d);
      r_.resize(S * d);
      j0_.resize(d, d);
      hess_.resize(d, d);
      operator_.resize(d, d);
      lu_.resize(S * d);
    }
    jacobian_valid_ = false;
  }

  /// The step's state y₀, the stage slopes k = (k_1, …, k_s), one stage's σ_i, y_i, ∇H(y_i),
  /// the new state, and the buffers of the algebra's operations (empty unless they write into
  /// them, detail::writes_into).
  struct stage_scratch {
    vec y0, sigma, ys, g, y1;
    matrix<D, S> k;
    detail::op_buffers<Algebra> ops;
    void resize(int d) {
      for (vec* v : {&y0, &sigma, &ys, &g, &y1}) v->resize(d);
      k.resize(d, S);
    }
  };

  /// The stages of an explicit method, then the update.
  template <class Sys, class Y1>
  GEOMINT_ALWAYS_INLINE void explicit_stages_and_finish(const Sys& sys, const Algebra& alg, double dt,
                                                        stage_scratch& w, Y1& y1) {
    if constexpr (two_commutators) {
      two_commutator_stages(sys, alg, dt, w);
      finish_at<false>(alg, w, y1);
    } else {
      explicit_stages(sys, alg, dt, w);
      finish<false>(alg, dt, w, y1);
    }
  }

  /// σ = h Σ b_i k_i, y₁ = Ad*_{ψ(−σ)} y₀ ((4.21), (4.23)) into y1.
  /// Prepared: the implicit stages' action_ (prepared for w.y0) acts.
  template <bool Prepared, class Y1>
  GEOMINT_ALWAYS_INLINE void finish(const Algebra& alg, double dt, stage_scratch& w, Y1& y1) {
    w.sigma.noalias() = w.k * (dt * tableau_.b);  // h b_i first: one product less after the last k_i
    finish_at<Prepared>(alg, w, y1);
  }
  /// y₁ = Ad*_{ψ(−σ)} y₀ for the σ in w.sigma.
  template <bool Prepared, class Y1>
  GEOMINT_ALWAYS_INLINE void finish_at(const Algebra& alg, stage_scratch& w, Y1& y1) {
    if constexpr (Prepared)
      action_.act(alg, w.sigma, y1);
    else
      Coordinates::act_into(alg, w.sigma, w.y0, y1, w.ops);
  }

  /// Stage i: σ_i from the stage slopes in `slopes`, then k_i = dψ⁻¹_{σ_i}(∇H(y_i)) into out.
  /// Only the nonzero a_ij enter (nonzero_, found once); a zero row is the stage y_i = y₀.
  /// Implicit tableaux only: the stage point is action_'s (prepared for w.y0 in step()).
  template <class Sys, class Slopes, class Out>
  void stage(const Sys& sys, const Algebra& alg, const Slopes& slopes, int i, double dt, Out&& out,
             stage_scratch& w) {
    if (nonzero_count_[i] == 0) {
      sys.gradient(w.y0, w.g);
      out = w.g;
      return;
    }
    w.sigma.noalias() = (dt * tableau_.a(i, nonzero_[i][0])) * slopes(nonzero_[i][0]);
    for (int n = 1; n < nonzero_count_[i]; ++n) {
      const int j = nonzero_[i][n];
      w.sigma.noalias() += (dt * tableau_.a(i, j)) * slopes(j);
    }
    action_.stage(alg, w.sigma, w.ys);
    sys.gradient(w.ys, w.g);
    if (truncation_ == 0)  // dψ⁻¹ truncated after degree 0 is the identity (a copy, not a new vector)
      out = w.g;
    else
      Coordinates::inverse_differential_into(alg, w.sigma, w.g, truncation_, out, w.ops);
  }

  /// Explicit tableaux: the stages one after the other, unrolled at compile time so that the
  /// slopes k_j are addressed by constants (registers, not indexed memory, on the critical path).
  /// The stage functions are always_inline: a stage left as a call keeps the scratch in memory,
  /// a store and a load on the chain for every vector passed.
  template <class Sys>
  GEOMINT_ALWAYS_INLINE void explicit_stages(const Sys& sys, const Algebra& alg, double dt, stage_scratch& w) const {
    explicit_stages(sys, alg, dt, w, std::make_integer_sequence<int, S>{});
  }
  template <class Sys, int... I>
  GEOMINT_ALWAYS_INLINE void explicit_stages(const Sys& sys, const Algebra& alg, double dt, stage_scratch& w,
                       std::integer_sequence<int, I...>) const {
    (explicit_stage<I>(sys, alg, dt, w), ...);
  }
  /// Stage I of an explicit tableau: σ_I = h Σ_{j<I} a_Ij k_j, then as stage().
  ///
  /// With a run-time tableau σ_I starts from zero and adds the terms whose a_Ij ≠ 0, tested at
  /// run time. On the rigid body (bench_rkmk_vs_rk4) that cost RKMK-RK4 ~0.5× runge_kutta4's
  /// time against the same loop with constant coefficients: the stages form one chain of
  /// dependent operations, and the zero start and the tests put an addition and data-dependent
  /// selects on it in every stage, which the compiler cannot remove since the coefficients are
  /// data. With a constant tableau only the nonzero terms are emitted, the first one assigned.
  template <int I, class Sys>
  GEOMINT_ALWAYS_INLINE void explicit_stage(const Sys& sys, const Algebra& alg, double dt, stage_scratch& w) const {
    if constexpr (constant_tableau) {
      constexpr int j0 = first_nonzero(I);
      if constexpr (j0 == I) {
        sys.gradient(w.y0, w.g);
        w.k.col(I) = w.g;
        return;
      } else {
        w.sigma.noalias() = (dt * Tag::a(I, j0)) * w.k.col(j0);
        add_constant_terms<I, j0 + 1>(dt, w);
      }
    } else {
      if (nonzero_count_[I] == 0) {
        sys.gradient(w.y0, w.g);
        w.k.col(I) = w.g;
        return;
      }
      w.sigma.setZero();
      for (int j = 0; j < I; ++j)
        if (tableau_.a(I, j) != 0) w.sigma.noalias() += (dt * tableau_.a(I, j)) * w.k.col(j);
    }
    Coordinates::stage_act_into(alg, w.sigma, w.y0, w.ys, w.ops);
    sys.gradient(w.ys, w.g);
    Coordinates::inverse_differential_into(alg, w.sigma, w.g, truncation_, w.k.col(I), w.ops);
  }

  /// rk::rk4_two_commutators: the stages of the header comment with k_i = ∇H(y_i) (F_i = h k_i),
  /// and σ for the update in w.sigma. The slopes are locals (registers for a fixed-size algebra;
  /// in the scratch's matrix they cost bench_rkmk_vs_rk4 15%). The brackets' factors go on k₁,
  /// known early, so that after k₂ (k₄) only the bracket and one sum remain; σ's terms without
  /// k₄ are summed while the last stage runs. An algebra that writes into buffers keeps the
  /// slopes in w.k and its temporaries in w (nothing allocated).
  template <class Sys>
  GEOMINT_ALWAYS_INLINE void two_commutator_stages(const Sys& sys, const Algebra& alg, double dt,
                                                    stage_scratch& w) const {
    const double half = 0.5 * dt;
    if constexpr (detail::writes_into<Algebra>) {
      auto next_slope = [&](int i) {  // k_i = ∇H(Ad*_{exp(−σ)} y₀) for the σ in w.sigma
        exp_coordinates::stage_act_into(alg, w.sigma, w.y0, w.ys, w.ops);
        sys.gradient(w.ys, w.g);
        w.k.col(i) = w.g;
      };
      sys.gradient(w.y0, w.g);
      w.k.col(0) = w.g;
      w.sigma = half * w.k.col(0);
      next_slope(1);
      w.y1 = (dt * dt / 8) * w.k.col(0);
      detail::bracket_into(alg, w.y1, w.g, w.sigma, w.ops);
      w.sigma = half * w.g - w.sigma;
      next_slope(2);
      w.sigma = dt * w.g;
      exp_coordinates::stage_act_into(alg, w.sigma, w.y0, w.ys, w.ops);
      sys.gradient(w.ys, w.g);  // k₄
      w.y1 = (dt * dt / 12) * w.k.col(0);
      detail::bracket_into(alg, w.y1, w.g, w.ys, w.ops);
      w.sigma = ((dt / 6) * (w.k.col(0) + 2 * (w.k.col(1) + w.k.col(2))) + (dt / 6) * w.g) - w.ys;
    } else {
      const int d = int(w.y0.size());
      vec k1(d), k2(d), k3(d), k4(d);
      sys.gradient(w.y0, k1);
      sys.gradient(exp_coordinates::stage_act(alg, vec(half * k1), w.y0), k2);
      sys.gradient(exp_coordinates::stage_act(alg, vec(half * k2 - alg.bracket(vec((dt * dt / 8) * k1), k2)), w.y0), k3);
      sys.gradient(exp_coordinates::stage_act(alg, vec(dt * k3), w.y0), k4);
      const vec partial = (dt / 6) * (k1 + 2 * (k2 + k3));
      w.sigma = (partial + (dt / 6) * k4) - alg.bracket(vec((dt * dt / 12) * k1), k4);
    }
  }

  /// The first j < i with a constant a_ij ≠ 0 (i if there is none).
  static constexpr int first_nonzero(int i) {
    int j = 0;
    while (j < i && Tag::a(i, j) == 0) ++j;
    return j;
  }
  /// σ_I += h a_IJ k_J for the constant a_IJ ≠ 0, J < I.
  template <int I, int J>
  void add_constant_terms(double dt, stage_scratch& w) const {
    if constexpr (J < I) {
      if constexpr (Tag::a(I, J) != 0) w.sigma.noalias() += (dt * Tag::a(I, J)) * w.k.col(J);
      add_constant_terms<I, J + 1>(dt, w);
    }
  }

  /// The stage equations as a problem for newton_solve (unknowns z = (k_1, …, k_s)).
  template <class Sys>
  struct stage_problem {
    rkmk_cache& m;
    const Sys& sys;
    const Algebra& alg;
    double t, dt;

    auto slopes(const vector<SD>& z) const {
      return [&z, d = m.d_](int j) { return z.segment(j * d, d); };
    }
    void residual(const vector<SD>& z, vector<SD>& r) {
      for (int i = 0; i < S; ++i) {
        m.stage(sys, alg, slopes(z), i, dt, r.segment(i * m.d_, m.d_), m.w_);
        r.segment(i * m.d_, m.d_) = z.segment(i * m.d_, m.d_) - r.segment(i * m.d_, m.d_);
      }
    }
    /// 1 − h A ⊗ J₀ at y₀ (independent of z).
    void update_jacobian(const vector<SD>&) {
      const int d = m.d_;
      detail::hessian(sys, m.w_.y0, m.hess_, m.hessian_buffers_);
      detail::poisson_tensor_into(alg, m.w_.y0, m.operator_, m.w_.ops);
      m.j0_.noalias() = m.hess_ * m.operator_;
      if (m.truncation_ >= 1) {
        detail::ad_into(alg, m.g0_, m.operator_, m.w_.ops);
        m.j0_ += 0.5 * m.operator_;
      }
      auto& a = m.lu_.system_matrix();
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j)
          a.block(i * d, j * d, d, d) = (-dt * m.tableau_.a(i, j)) * m.j0_;
      a.diagonal().array() += 1;
      if (!m.lu_.factorize()) {
        if (!a.allFinite())
          throw step_error(failure_reason::non_finite_value, t, dt, 0, 0,
                           "RKMK: the stage iteration matrix 1 − h A ⊗ D²H J is not finite (a NaN or Inf "
                           "in the system's second derivatives)");
        throw step_error(failure_reason::singular_iteration_matrix, t, dt, 0, 0,
                         "RKMK: the stage iteration matrix 1 − h A ⊗ D²H J is singular");
      }
      m.jacobian_valid_ = true;
      m.jacobian_dt_ = dt;
    }
    bool has_jacobian() const { return m.jacobian_valid_ && m.jacobian_dt_ == dt; }
    void solve_in_place(vector<SD>& r) { m.lu_.solve_in_place(r); }
    double increment_norm(const vector<SD>& z, const vector<SD>& dz) const {
      return dz.cwiseAbs().maxCoeff() / std::fmax(z.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  template <class Sys>
  void implicit_stages(const Sys& sys, const Algebra& alg, const context& c) {
    sys.gradient(w_.y0, g0_);
    for (int i = 0; i < S; ++i) z_.segment(i * d_, d_) = g0_;  // initial guess: k_i = ∇H(y₀)
    stage_problem<Sys> problem{*this, sys, alg, c.t, c.h};
    newton_solve(problem, z_, z0_, r_, c.options.newton, c.stats.newton, newton_context{c.t, c.h, "RKMK stage equations"});
    for (int i = 0; i < S; ++i) w_.k.col(i) = z_.segment(i * d_, d_);
  }

  /// K ← F(K), the stage map itself (solvers/fixed_point.hpp).
  template <class Sys>
  struct fixed_point_problem {
    rkmk_cache& m;
    const Sys& sys;
    const Algebra& alg;
    double dt;
    void map(const matrix<D, S>& k, matrix<D, S>& next) {
      for (int i = 0; i < S; ++i) m.stage(sys, alg, [&k](int j) { return k.col(j); }, i, dt, next.col(i), m.w_);
    }
    double change_norm(const matrix<D, S>& next, const matrix<D, S>& k) const {
      return (next - k).cwiseAbs().maxCoeff() / std::fmax(next.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  /// The stage equations k_i = F_i(K) by Jacobi fixed-point iteration to round-off.
  /// Starting guess: k_i = ∇H(y₀), an O(h) error. When the step continues the previous one
  /// (core/step_record.hpp) with the same h: after one such step, the line through its k_i (at
  /// t − h + c_i h) and ∇H(y₀) (at t), taken to t + c_i h: k_i = ∇H(y₀) + c_i/(1 − c_i)
  /// (∇H(y₀) − k_i^prev), an O(h²) error; after two or more, the extrapolation of their stages
  /// (equally spaced by h; solvers/extrapolation.hpp, through up to six steps). Every sweep
  /// contracts by a fixed factor, so each power of h the guess gains saves sweeps; the converged
  /// stages are the same to round-off (tested). A stage whose tableau row is zero is ∇H(y₀).
  /// Should the iteration fail from an extrapolated guess, the core takes the step again as a
  /// fresh start, from ∇H(y₀).
  template <class Sys>
  void fixed_point_stages(const Sys& sys, const Algebra& alg, const context& c) {
    const double t = c.t, dt = c.h;
    sys.gradient(w_.y0, g0_);
    if (!(c.continuing && dt == c.h_previous)) k_history_.forget();
    const int steps = k_history_.size();
    if (steps >= 2) k_history_.predict(w_.k);
    for (int i = 0; i < S; ++i) {
      const double c = tableau_.c(i);
      if (steps == 1 && nonzero_count_[i] > 0 && c > 0 && c < 1)
        w_.k.col(i) = g0_ + (c / (1 - c)) * (g0_ - k_history_.latest().col(i));
      else if (steps < 2 || nonzero_count_[i] == 0)  // fresh, or σ_i = 0: k_i = ∇H(y₀) exactly
        w_.k.col(i) = g0_;
    }
    fixed_point_problem<Sys> problem{*this, sys, alg, dt};
    fixed_point_solve(problem, w_.k, k_next_, c.options.newton, c.stats.fixed_point,
                      newton_context{t, dt, "RKMK fixed-point stage iteration (use a smaller h or lie_stage_solver::newton)"},
                      c.options.acceleration, anderson_);
  }

  butcher_tableau<S> tableau_;
  bool explicit_;
  int truncation_;  ///< degree after which dψ⁻¹ is truncated
  std::array<std::array<int, S>, S> nonzero_{};  ///< nonzero_[i][0..nonzero_count_[i]): the j with a_ij ≠ 0
  std::array<int, S> nonzero_count_{};
  int d_ = -1;
  bool fixed_point_ = false;
  stage_scratch w_;  ///< for dynamic sizes and implicit tableaux
  /// The implicit stages' coadjoint actions on w_.y0 (su_n in Cayley coordinates keeps W(y₀)).
  typename Coordinates::template prepared_action<Algebra> action_;
  vec g0_;
  matrix<D, S> k_next_;
  sequence_extrapolation<matrix<D, S>> k_history_;  ///< the last fixed-point steps' stages, for the next guess
  anderson_workspace anderson_;  ///< the accelerated fixed-point iteration's history (opt.acceleration)
  vector<SD> z_, z0_, r_;
  typename Algebra::operator_type j0_, hess_, operator_;  ///< operator_: J(y₀), then ad_{∇H(y₀)}
  detail::hessian_buffers<vec> hessian_buffers_;
  dense_lu<SD> lu_;
  bool jacobian_valid_ = false;
  double jacobian_dt_ = 0;
};

}  // namespace detail

/// RKMK with an S-stage tableau given at run time (rkmk below names it by a tag type). One
/// instantiation serves every tableau with S stages. The tableau is checked at construction
/// (require_consistent_tableau: a declared order, Σb = 1, row sums = c).
/// Final: the named method deriving from this class (rkmk), or void.
template <class Algebra, int S, class Coordinates = exp_coordinates, class Tag = void, class Final = void>
class rkmk_method : public stepper_base<final_class<Final, rkmk_method<Algebra, S, Coordinates, Tag, Final>>,
                                        vector<detail::algebra_dimension<Algebra>>, lie_options, solver_statistics> {
  // The algebra concept first (one static_assert naming what the algebra lacks, algebra_concept.hpp).
  using algebra_concept_checked = detail::lie_algebra_checked<Algebra>;
  static_assert(detail::coordinates_apply<Coordinates, Algebra>::value,
                "geomint: Cayley coordinates need a quadratic group (Algebra::has_cayley)");
  using base = stepper_base<final_class<Final, rkmk_method<Algebra, S, Coordinates, Tag, Final>>,
                            vector<detail::algebra_dimension<Algebra>>, lie_options, solver_statistics>;

 public:
  using algebra_type = Algebra;
  using coordinates_type = Coordinates;
  /// The order is the tableau's (order()); every RKMK method keeps the coadjoint orbit.
  static constexpr method_properties properties =
      method_properties().conserves(conserves_casimirs).state(state_kind::coadjoint_vector);
  template <class System>
  using cache = detail::rkmk_cache<Algebra, S, Coordinates, Tag>;
  template <class System>
  using continuous_extension = lie_continuous_extension<System>;

  explicit rkmk_method(const butcher_tableau<S>& tableau, const lie_options& options = {})
      : base(options), tableau_(tableau) {
    require_consistent_tableau(tableau_);
    if constexpr (detail::has_constant_tableau<Tag>::value)  // its stages use Tag's constants
      if (tableau_.a != Tag::tableau().a || tableau_.b != Tag::tableau().b || tableau_.c != Tag::tableau().c)
        throw std::invalid_argument("geomint: an RKMK method named by a tag takes the tag's own tableau");
  }

  typename base::order_type order() const { return static_cast<typename base::order_type>(tableau_.order); }
  /// Degree in σ after which dexp⁻¹ / dcay⁻¹ are truncated.
  int truncation() const { return Coordinates::truncation(tableau_.order); }
  const butcher_tableau<S>& tableau() const { return tableau_; }
  /// Whether the implicit stages of a d-dimensional system are solved by fixed-point iteration.
  bool uses_fixed_point(int d) const {
    return !tableau_.is_explicit() && detail::rkmk_cache<Algebra, S, Coordinates, Tag>::uses_fixed_point(this->options(), d);
  }

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return detail::check_system<System, Algebra, X>(sys, x);
  }

 private:
  butcher_tableau<S> tableau_;
};

/// Symmetric RKMK methods: a step is y₁ = ψ(σ)y₀ with every stage at ψ(σ_i)y₀ and σ_i a multiple
/// of σ (the truncation is 0), so the reversed step's stages are the same points if ψ(−σ)ψ(σ_i) =
/// ψ(σ_i − σ): the one-stage Gauss method (σ₁ = σ/2) in exp coordinates, and the trapezoidal rule
/// (σ_i ∈ {0, σ}, ψ(−σ) = ψ(σ)⁻¹) in both. Checked against the reversibility defect in the tests.
template <class Tableau, class Coordinates>
inline constexpr bool rkmk_is_symmetric =
    std::is_same_v<Tableau, rk::trapezoidal> ||
    (std::is_same_v<Tableau, rk::implicit_midpoint> && std::is_same_v<Coordinates, exp_coordinates>);

/// rkmk<Algebra, Tableau, Coordinates>: Tableau a method tag (rk::rk4, rk::heun,
/// rk::forward_euler, rk::gauss_legendre<S>, rk::implicit_midpoint = GL2, rk::trapezoidal, …).
/// A tag with a constant explicit tableau is passed on, so that the stages use its coefficients
/// as constants; the other tags share rkmk_method<Algebra, S, Coordinates>.
template <class Algebra, class Tableau, class Coordinates = exp_coordinates, class Final = void>
using rkmk_base = rkmk_method<Algebra, Tableau::stages, Coordinates,
                              std::conditional_t<detail::has_constant_tableau<Tableau>::value, Tableau, void>, Final>;

template <class Algebra, class Tableau, class Coordinates = exp_coordinates>
class rkmk : public rkmk_base<Algebra, Tableau, Coordinates, rkmk<Algebra, Tableau, Coordinates>> {
  using base = rkmk_base<Algebra, Tableau, Coordinates, rkmk>;

 public:
  static constexpr method_properties properties = method_properties()
                                                      .order(Tableau::order)
                                                      .symmetric(rkmk_is_symmetric<Tableau, Coordinates>)
                                                      .conserves(conserves_casimirs)
                                                      .state(state_kind::coadjoint_vector);
  explicit rkmk(const lie_options& options = {}) : base(Tableau::tableau(), options) {}
};

}  // namespace geomint
