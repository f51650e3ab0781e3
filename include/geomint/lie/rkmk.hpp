// Runge–Kutta–Munthe-Kaas methods on coadjoint orbits: Algorithm 2 of Engø–Faltinsen 1999.
//
// One step from y₀ with any Butcher tableau (a, b):
//   σ_i = h Σ_j a_ij k_j,   k_i = dψ⁻¹_{σ_i}(∇H(Ad*_{ψ(−σ_i)} y₀))    (stage equations of (4.20))
//   y₁  = Ad*_{ψ(−σ)} y₀,   σ = h Σ_i b_i k_i                           ((4.21), (4.23))
// with ψ = exp (exp_coordinates) or ψ = cay (cayley_coordinates), and dψ⁻¹ truncated after
// degree q = max(p − 2, 0) in σ, p the order of the tableau (Hairer–Lubich–Wanner IV.8: this
// keeps order p; for p ≤ 2 no commutator correction is needed, as for the Lie midpoint and
// trapezoidal rules of §4.1). The update is a coadjoint action, so y₁ stays on the coadjoint
// orbit of y₀ and every Casimir is preserved to round-off, for every tableau (Lemma 1).
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

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <type_traits>
#include <utility>

#include "geomint/core/linear_solvers.hpp"
#include "geomint/core/newton.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/tableau/named_tableaux.hpp"

namespace geomint {

/// How the stage equations of implicit tableaux are solved.
enum class lie_stage_solver {
  automatic,    ///< newton up to s·d = fixed_point_threshold unknowns, fixed_point above
  newton,       ///< simplified Newton with the frozen (s·d)² matrix 1 − h A ⊗ J₀
  fixed_point,  ///< K ← F(K), matrix-free; converges for small h
};

struct lie_options {
  newton_options newton = lie_newton_defaults();  ///< also the fixed point's tolerance and iteration cap
  lie_stage_solver stage_solver = lie_stage_solver::automatic;
  static constexpr int fixed_point_threshold = 1000;
};

/// RKMK with an S-stage tableau given at run time (rkmk below names it by a tag type). One
/// instantiation serves every tableau with S stages.
template <class Algebra, int S, class Coordinates = exp_coordinates>
class rkmk_method {
  static_assert(Coordinates::template applies_to<Algebra>,
                "geomint: Cayley coordinates need a quadratic group (Algebra::has_cayley)");
  static constexpr int D = Algebra::dimension;
  static constexpr int SD = size::fixed_if_small(size::product(S, D));
  using vec = vector<D>;

 public:
  using algebra_type = Algebra;
  using coordinates_type = Coordinates;
  using state_type = vector<D>;
  using deriv_type = state_type;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;

  explicit rkmk_method(const butcher_tableau<S>& tableau, const lie_options& options = {})
      : tableau_(tableau), options_(options), explicit_(tableau.is_explicit()) {
    for (int i = 0; i < S; ++i)
      for (int j = 0; j < S; ++j)
        if (tableau_.a(i, j) != 0) nonzero_[i][nonzero_count_[i]++] = j;
  }

  order_type order() const { return static_cast<order_type>(tableau_.order); }
  /// Degree in σ after which dexp⁻¹ / dcay⁻¹ are truncated.
  int truncation() const { return std::max(tableau_.order - 2, 0); }
  const butcher_tableau<S>& tableau() const { return tableau_; }
  lie_options& options() { return options_; }
  const lie_options& options() const { return options_; }
  const lie_statistics& statistics() const { return stats_; }
  /// Whether the implicit stages of the current system are solved by fixed-point iteration.
  bool uses_fixed_point(int d) const {
    return options_.stage_solver == lie_stage_solver::fixed_point ||
           (options_.stage_solver == lie_stage_solver::automatic && S * d > lie_options::fixed_point_threshold);
  }
  /// Forgets the stage Jacobian and the previous step's stages (call after changing a system's
  /// parameters in place).
  void reset() {
    jacobian_valid_ = false;
    continuation_ = false;
  }

  /// Advances y from t to t + dt. On failure throws step_error and leaves y unchanged.
  template <class System, class State>
  void do_step(System&& system, State& x, time_type t, time_type dt) {
    const auto& sys = lie_detail::unwrap(system);
    using sys_type = std::decay_t<decltype(sys)>;
    static_assert(std::is_same<typename sys_type::algebra_type, Algebra>::value,
                  "geomint: the system's algebra_type differs from the stepper's algebra");
    lie_detail::check_static_state_size<State, Algebra>();
    const Algebra& alg = lie_detail::algebra_of(sys);
    lie_detail::require_state_size(x, alg.dim(), Algebra::name());
    auto y = view(x);
    if (d_ != alg.dim() || fixed_point_ != uses_fixed_point(alg.dim())) resize(alg.dim());
    if constexpr (D != dynamic) {
      if (explicit_) {
        // Fixed size: the scratch on the stack, so that the chain of dependent stages runs in
        // registers instead of through stores to and loads from *this.
        workspace w;
        w.y0 = y;
        explicit_stages(sys, alg, dt, w);
        return finish(alg, t, dt, w, y);
      }
    }
    w_.y0 = y;
    if (explicit_)
      explicit_stages(sys, alg, dt, w_);
    else if (fixed_point_)
      fixed_point_stages(sys, alg, t, dt);
    else
      implicit_stages(sys, alg, t, dt);
    finish(alg, t, dt, w_, y);
    if (fixed_point_) {  // only after a successful step
      k_previous_ = w_.k;
      y_previous_end_ = w_.y1;
      dt_previous_ = dt;
      continuation_ = true;
    }
  }

 private:
  void resize(int d) {
    d_ = d;
    w_.resize(d);
    g0_.resize(d);
    fixed_point_ = uses_fixed_point(d);
    continuation_ = false;
    if (!tableau_.is_explicit() && fixed_point_) {
      k_next_.resize(d, S);
      k_previous_.resize(d, S);
      y_previous_end_.resize(d);
    } else if (!tableau_.is_explicit()) {
      z_.resize(S * d);
      z0_.resize(S * d);
      r_.resize(S * d);
      j0_.resize(d, d);
      hess_.resize(d, d);
      lu_.resize(S * d);
    }
    jacobian_valid_ = false;
  }

  /// The step's state y₀, the stage slopes k = (k_1, …, k_s), one stage's σ_i, y_i, ∇H(y_i),
  /// and the new state.
  struct workspace {
    vec y0, sigma, ys, g, y1;
    matrix<D, S> k;
    void resize(int d) {
      for (vec* v : {&y0, &sigma, &ys, &g, &y1}) v->resize(d);
      k.resize(d, S);
    }
  };

  /// σ = h Σ b_i k_i, y₁ = Ad*_{ψ(−σ)} y₀ ((4.21), (4.23)); y is only written if y₁ is finite.
  template <class Y>
  void finish(const Algebra& alg, double t, double dt, workspace& w, Y& y) {
    w.sigma.noalias() = w.k * (dt * tableau_.b);  // h b_i first: one product less after the last k_i
    w.y1 = Coordinates::act(alg, w.sigma, w.y0);
    if (!w.y1.allFinite()) throw_non_finite(t, dt);
    y = w.y1;
    ++stats_.steps;
  }
  /// Out of line: keeps finish() small enough to inline into the step.
  [[noreturn, gnu::cold, gnu::noinline]] static void throw_non_finite(double t, double dt) {
    throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "RKMK: the new state is not finite");
  }

  /// Stage i: σ_i from the stage slopes in `slopes`, then k_i = dψ⁻¹_{σ_i}(∇H(y_i)) into out.
  /// Only the nonzero a_ij enter (nonzero_, found once); a zero row is the stage y_i = y₀.
  template <class Sys, class Slopes, class Out>
  void stage(const Sys& sys, const Algebra& alg, const Slopes& slopes, int i, double dt, Out&& out,
             workspace& w) const {
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
    w.ys = Coordinates::stage_act(alg, w.sigma, w.y0);
    sys.gradient(w.ys, w.g);
    out = Coordinates::inverse_differential(alg, w.sigma, w.g, truncation());
  }

  /// Explicit tableaux: the stages one after the other, unrolled at compile time so that the
  /// slopes k_j are addressed by constants (registers, not indexed memory, on the critical path).
  template <class Sys>
  void explicit_stages(const Sys& sys, const Algebra& alg, double dt, workspace& w) const {
    explicit_stages(sys, alg, dt, w, std::make_integer_sequence<int, S>{});
  }
  template <class Sys, int... I>
  void explicit_stages(const Sys& sys, const Algebra& alg, double dt, workspace& w,
                       std::integer_sequence<int, I...>) const {
    (explicit_stage<I>(sys, alg, dt, w), ...);
  }
  /// Stage I of an explicit tableau: σ_I = h Σ_{j<I} a_Ij k_j, then as stage().
  template <int I, class Sys>
  void explicit_stage(const Sys& sys, const Algebra& alg, double dt, workspace& w) const {
    if (nonzero_count_[I] == 0) {
      sys.gradient(w.y0, w.g);
      w.k.col(I) = w.g;
      return;
    }
    w.sigma.setZero();
    for (int j = 0; j < I; ++j)
      if (tableau_.a(I, j) != 0) w.sigma.noalias() += (dt * tableau_.a(I, j)) * w.k.col(j);
    w.ys = Coordinates::stage_act(alg, w.sigma, w.y0);
    sys.gradient(w.ys, w.g);
    w.k.col(I) = Coordinates::inverse_differential(alg, w.sigma, w.g, truncation());
  }

  /// The stage equations as a problem for newton_solve (unknowns z = (k_1, …, k_s)).
  template <class Sys>
  struct stage_problem {
    rkmk_method& m;
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
      lie_detail::hessian(sys, m.w_.y0, m.hess_);
      m.j0_.noalias() = m.hess_ * alg.poisson_tensor(m.w_.y0);
      if (m.truncation() >= 1) m.j0_ += 0.5 * alg.ad(m.g0_);
      auto& a = m.lu_.system_matrix();
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j)
          a.block(i * d, j * d, d, d) = (-dt * m.tableau_.a(i, j)) * m.j0_;
      a.diagonal().array() += 1;
      if (!m.lu_.factorize())
        throw step_error(failure_reason::singular_constraint_jacobian, t, dt, 0, 0,
                         "RKMK: the stage Jacobian 1 − h A ⊗ D²H J is singular");
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
  void implicit_stages(const Sys& sys, const Algebra& alg, double t, double dt) {
    sys.gradient(w_.y0, g0_);
    for (int i = 0; i < S; ++i) z_.segment(i * d_, d_) = g0_;  // initial guess: k_i = ∇H(y₀)
    stage_problem<Sys> problem{*this, sys, alg, t, dt};
    newton_solve(problem, z_, z0_, r_, options_.newton, stats_.newton,
                 newton_context{t, dt, "RKMK stage equations"});
    for (int i = 0; i < S; ++i) w_.k.col(i) = z_.segment(i * d_, d_);
  }

  /// The stage equations k_i = F_i(K) by Jacobi fixed-point iteration, until the relative change
  /// is below the tolerance, or stalls within 100 × tolerance (round-off).
  /// Starting guess: k_i = ∇H(y₀), an O(h) error. When y₀ is where the previous step ended, with
  /// the same h, the line through the previous step's k_i (at t − h + c_i h) and ∇H(y₀) (at t),
  /// taken to t + c_i h: k_i = ∇H(y₀) + c_i/(1 − c_i) (∇H(y₀) − k_i^prev), an O(h²) error, which
  /// saves iterations; the converged stages are the same to round-off (tested).
  template <class Sys>
  void fixed_point_stages(const Sys& sys, const Algebra& alg, double t, double dt) {
    sys.gradient(w_.y0, g0_);
    const bool extrapolate = continuation_ && dt == dt_previous_ && w_.y0 == y_previous_end_;
    for (int i = 0; i < S; ++i) {
      const double c = tableau_.c(i);
      if (extrapolate && c > 0 && c < 1)
        w_.k.col(i) = g0_ + (c / (1 - c)) * (g0_ - k_previous_.col(i));
      else
        w_.k.col(i) = g0_;
    }
    const newton_options& o = options_.newton;
    double previous = std::numeric_limits<double>::infinity(), change = 0, first = 0;
    for (int it = 1; it <= o.max_iterations; ++it) {
      for (int i = 0; i < S; ++i)
        stage(sys, alg, [this](int j) { return w_.k.col(j); }, i, dt, k_next_.col(i), w_);
      change = (k_next_ - w_.k).cwiseAbs().maxCoeff() / std::fmax(k_next_.cwiseAbs().maxCoeff(), 1e-300);
      w_.k.swap(k_next_);
      ++stats_.iterations;
      if (!std::isfinite(change))
        throw step_error(failure_reason::non_finite_value, t, dt, it, change,
                         "RKMK fixed-point stage iteration: a stage value is not finite");
      if (change <= o.tolerance) return;
      // No longer decreasing: converged if at round-off (which grows with the cost of the stage
      // map, e.g. ~ε N for su(N) products), else diverging.
      if (it == 1) first = change;
      if (change >= previous &&
          (change <= 100 * o.tolerance || (change <= o.roundoff_floor && change <= 1e-4 * first)))
        return;
      if (it >= 3 && change > previous)
        throw step_error(failure_reason::newton_diverged, t, dt, it, change,
                         "RKMK fixed-point stage iteration diverges: the step is too large for it "
                         "(use a smaller h or lie_stage_solver::newton)");
      previous = change;
    }
    throw step_error(failure_reason::max_iterations, t, dt, o.max_iterations, change,
                     "RKMK fixed-point stage iteration: no convergence within " +
                         std::to_string(o.max_iterations) + " iterations");
  }

  butcher_tableau<S> tableau_;
  lie_options options_;
  lie_statistics stats_;
  int d_ = -1;
  bool explicit_;
  std::array<std::array<int, S>, S> nonzero_{};  ///< nonzero_[i][0..nonzero_count_[i]): the j with a_ij ≠ 0
  std::array<int, S> nonzero_count_{};
  workspace w_;  ///< for dynamic sizes and implicit tableaux
  vec g0_;
  matrix<D, S> k_next_;
  matrix<D, S> k_previous_;  ///< the last successful fixed-point step's stages, for the next guess
  vec y_previous_end_;
  double dt_previous_ = 0;
  bool continuation_ = false;
  bool fixed_point_ = false;
  vector<SD> z_, z0_, r_;
  matrix<D, D> j0_, hess_;
  dense_lu<SD> lu_;
  bool jacobian_valid_ = false;
  double jacobian_dt_ = 0;
};

/// rkmk<Algebra, Tableau, Coordinates>: Tableau a method tag (rk::rk4, rk::heun,
/// rk::forward_euler, rk::gauss_legendre<S>, rk::implicit_midpoint = GL2, rk::trapezoidal, …).
template <class Algebra, class Tableau, class Coordinates = exp_coordinates>
class rkmk : public rkmk_method<Algebra, Tableau::stages, Coordinates> {
 public:
  explicit rkmk(const lie_options& options = {})
      : rkmk_method<Algebra, Tableau::stages, Coordinates>(Tableau::tableau(), options) {}
};

}  // namespace geomint
