// The constrained partitioned Runge–Kutta method of Hairer 2003, eqs. (2.6)–(2.9), for a
// partitioned tableau satisfying Jay's conditions (2.10), as a Boost.Odeint stepper.
//
// One step maps (q0, p0) ∈ M to (q1, p1) ∈ M:
//   1. stage equations (2.6)–(2.7): the separable fast path (separable_stages.hpp) when
//      H = ½pᵀM⁻¹p + V(q) and there is no non-conservative force, else — and as the full-Newton
//      fallback of the fast path — the general stage solver (general_stages.hpp);
//   2. q1 = Q_s (â_sj = b_j), p̂ from (2.8) without Λ_s;
//   3. p1 = p̂ − G(q1)ᵀμ with G(q1) ∂H/∂p(q1, p1) = 0 (the free Λ_s; Example 2.3 when b_s = 0).
//
// The stepper caches ∇V, G and the factorized G M⁻¹ Gᵀ at the end point of a step and reuses
// them when the next step starts from exactly that state with the same system object. Call
// reset() after changing a system's parameters in place.
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <memory>
#include <type_traits>
#include <utility>

#include "geomint/constrained/detail/general_stages.hpp"
#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/constrained/detail/separable_stages.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint {

struct constrained_options {
  newton_options newton;
  /// A step starting from a state the stepper did not produce itself checks that the state
  /// lies on the constraint manifold: scaled residuals (consistency.hpp) above this are rejected.
  double consistency_tolerance = 1e-10;
};

struct constrained_statistics {
  long steps = 0;
  long general_solver_steps = 0;  ///< steps whose stages were solved by the general solver
  newton_statistics newton;
};

namespace detail {

template <class T>
const void* type_id() {
  static const char id = 0;
  return &id;
}

struct prk_solver_base {
  virtual ~prk_solver_base() = default;
  virtual std::unique_ptr<prk_solver_base> clone() const = 0;
  virtual const void* type() const = 0;
};

/// The unknowns vector type of a stage solver, or a placeholder when that solver is not used.
template <bool Used, class Solver>
struct unknowns_of {
  using type = typename Solver::unknowns;
};
template <class Solver>
struct unknowns_of<false, Solver> {
  using type = vector<dynamic>;
};

template <class System, int S>
class prk_solver final : public prk_solver_base {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr bool fast_path = traits::separable && !traits::has_force;
  static constexpr bool general_path = !traits::sparse_jacobian;
  static_assert(fast_path || general_path,
                "geomint: a system with a sparse constraint Jacobian must be separable and unforced");
  using jacobian_type = typename traits::jacobian_type;
  using separable_type = std::conditional_t<traits::separable, separable_stages<System, S>, int>;
  using general_type = std::conditional_t<general_path, general_stages<System, S>, int>;

 public:
  explicit prk_solver(const partitioned_tableau<S>& t) : tableau_(t), separable_(make_separable(t)), general_(make_general(t)) {}

  /// A copy starts afresh: factorizations are not shared between steppers.
  std::unique_ptr<prk_solver_base> clone() const override {
    auto copy = std::make_unique<prk_solver>(*this);
    copy->cache_valid_ = false;
    return copy;
  }
  const void* type() const override { return type_id<prk_solver>(); }

  template <class QMap, class PMap>
  void step(const System& sys, QMap& q, PMap& p, double t, double dt, const constrained_options& opt,
            constrained_statistics& stats) {
    const int n = sys.position_count(), m = sys.constraint_count();
    if (n != n_ || m != m_) resize(n, m);
    const newton_context ctx{t, dt, "stage equations"};

    const bool continuing = cache_valid_ && cached_system_ == &sys && (q.array() == q1_.array()).all() &&
                            (m == 0 || (p.array() == p1_.array()).all());
    cache_valid_ = false;
    if (!continuing) start_fresh(sys, q, p, ctx, opt);
    const double ratio = h_previous_ > 0 ? dt / h_previous_ : 1.0;

    bool solved = false;
    if constexpr (fast_path) solved = solve_separable(sys, q, p, dt, ratio * ratio, opt, stats, ctx);
    if constexpr (general_path) {
      if (!solved) {
        solve_general(sys, q, p, t, dt, continuing, ratio, opt, stats, ctx);
        ++stats.general_solver_steps;
      }
    }

    if (!q1_.allFinite() || !p1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "the new state is not finite");
    q = q1_;
    p = p1_;
    g0_.swap(g1_);  // member swap: O(1) for dynamic and sparse storage, no allocation
    grad0_.swap(grad1_);
    cache_valid_ = true;
    cached_system_ = &sys;
    h_previous_ = dt;
    ++stats.steps;
  }

 private:
  static separable_type make_separable(const partitioned_tableau<S>& t) {
    if constexpr (traits::separable) return separable_type(t); else return 0;
  }
  static general_type make_general(const partitioned_tableau<S>& t) {
    if constexpr (general_path) return general_type(t); else return 0;
  }

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    q1_.resize(n);
    p1_.resize(n);
    grad0_.resize(n);
    grad1_.resize(n);
    v_.resize(n);
    gval_.resize(m);
    gv_.resize(m);
    g0_.resize(m, n);
    g1_.resize(m, n);
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
    cache_valid_ = false;
  }

  /// The step does not continue the previous one: check the state, evaluate G(q0) (and
  /// ∇V(q0), S0 for separable systems), forget the previous multipliers.
  template <class QMap, class PMap>
  void start_fresh(const System& sys, const QMap& q, const PMap& p, const newton_context& ctx,
                   const constrained_options& opt) {
    h_previous_ = 0;
    lambda_separable_.setZero();
    if constexpr (general_path) general_.invalidate();
    if (m_ > 0) {
      sys.constraint_jacobian(q, g0_);
      sys.constraint(q, gval_);
      sys.dh_dp(q, p, v_);
      gv_.noalias() = g0_ * v_;
      constraint_residuals res;
      res.position = scaled_constraint_residual(g0_, gval_, q.norm());
      res.velocity = scaled_constraint_residual(g0_, gv_, v_.norm());
      if (!(res.position <= opt.consistency_tolerance && res.velocity <= opt.consistency_tolerance))
        throw step_error(failure_reason::inconsistent_initial_state, ctx.t, ctx.dt, 0,
                         std::fmax(res.position, res.velocity),
                         describe_residuals(res, opt.consistency_tolerance));
    }
    if constexpr (traits::separable) {
      sys.potential_gradient(q, grad0_);
      if (m_ > 0 && !gram_.factorize(sys, g0_)) throw singular_gram(ctx);
    }
  }

  static step_error singular_gram(const newton_context& ctx) {
    return step_error(failure_reason::singular_constraint_jacobian, ctx.t, ctx.dt, 0, 0,
                      "G(q) M⁻¹ G(q)ᵀ is singular: the constraints are dependent at this "
                      "configuration (e.g. the same constraint given twice)");
  }

  template <class QMap, class PMap>
  bool solve_separable(const System& sys, const QMap& q, const PMap& p, double dt, double lambda_scale,
                       const constrained_options& opt, constrained_statistics& stats, const newton_context& ctx) {
    separable_.begin(sys, q, p, grad0_, g0_, gram_, dt);
    separable_.guess(zs_, lambda_separable_, lambda_scale);
    // Without constraints the two-stage methods are explicit (RATTLE is velocity Verlet).
    if (!(m_ == 0 && S == 2)) {
      try {
        newton_solve(separable_, zs_, zs0_, rs_, opt.newton, stats.newton, ctx);
      } catch (const fast_path_declined&) {
        return false;
      }
    }
    separable_.finish(zs_, tableau_, p, q1_, grad1_, g1_, p1_);
    if (m_ > 0) {
      if (!gram_.factorize(sys, g1_)) throw singular_gram(ctx);
      hidden_.project_separable(sys, q1_, g1_, gram_, p1_);
    }
    lambda_separable_ = separable_.multipliers();
    return true;
  }

  template <class QMap, class PMap>
  void solve_general(const System& sys, const QMap& q, const PMap& p, double t, double dt, bool continuing,
                     double ratio, const constrained_options& opt, constrained_statistics& stats,
                     const newton_context& ctx) {
    if constexpr (general_path) {
      general_.begin(sys, q, p, g0_, t, dt);
      general_.guess(zg_, continuing, ratio);
      newton_solve(general_, zg_, zg0_, rg_, opt.newton, stats.newton, ctx);
      general_.finish(zg_, q1_, p1_);
      if (m_ > 0) sys.constraint_jacobian(q1_, g1_);
      if constexpr (traits::separable) {
        sys.potential_gradient(q1_, grad1_);
        if (m_ > 0) {
          if (!gram_.factorize(sys, g1_)) throw singular_gram(ctx);
          hidden_.project_separable(sys, q1_, g1_, gram_, p1_);
        }
      } else {
        hidden_.project_general(sys, q1_, g1_, p1_, opt.newton, stats.newton, ctx);
      }
      lambda_separable_ = general_.multipliers() * dt;  // Λ̃ = h²Λ from Λ̃ = hΛ
    }
  }

  partitioned_tableau<S> tableau_;
  int n_ = -1, m_ = -1;
  bool cache_valid_ = false;
  const System* cached_system_ = nullptr;
  double h_previous_ = 0;
  vector<N> q1_, p1_, grad0_, grad1_, v_;
  vector<M> gval_, gv_;
  jacobian_type g0_, g1_;
  matrix<M, S - 1> lambda_separable_;
  constraint_gram<System> gram_;
  hidden_constraint_solver<System> hidden_;
  separable_type separable_;
  general_type general_;
  typename unknowns_of<traits::separable, separable_stages<System, S>>::type zs_, zs0_, rs_;
  typename unknowns_of<general_path, general_stages<System, S>>::type zg_, zg0_, rg_;
};

}  // namespace detail

/// A constrained PRK method as a Boost.Odeint stepper. State = std::pair<Q, P>.
template <int S, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>>
class constrained_prk {
 public:
  using state_type = State;
  using deriv_type = State;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;

  explicit constrained_prk(const partitioned_tableau<S>& tableau, const constrained_options& options = {})
      : tableau_(tableau), options_(options) {}
  constrained_prk(const constrained_prk& other)
      : tableau_(other.tableau_), options_(other.options_), stats_(other.stats_),
        solver_(other.solver_ ? other.solver_->clone() : nullptr) {}
  constrained_prk(constrained_prk&&) noexcept = default;
  constrained_prk& operator=(const constrained_prk& other) {
    if (this != &other) *this = constrained_prk(other);
    return *this;
  }
  constrained_prk& operator=(constrained_prk&&) noexcept = default;

  order_type order() const { return static_cast<order_type>(tableau_.order); }

  /// Advances x = (q, p) from t to t + dt. On failure throws step_error and leaves x unchanged.
  template <class System>
  void do_step(System&& system, State& x, time_type t, time_type dt) {
    const auto& sys = unwrap_system(system);
    using sys_type = std::decay_t<decltype(sys)>;
    using solver_type = detail::prk_solver<sys_type, S>;
    static_assert(state_size<typename State::first_type>::value == dynamic || sys_type::position_size == dynamic ||
                      state_size<typename State::first_type>::value == sys_type::position_size,
                  "geomint: the state size does not match the system's position_size");
    require_size(x.first, sys.position_count(), "the position vector q");
    require_size(x.second, sys.position_count(), "the momentum vector p");
    if (!solver_ || solver_->type() != detail::type_id<solver_type>())
      solver_ = std::make_unique<solver_type>(tableau_);
    auto q = view(x.first);
    auto p = view(x.second);
    static_cast<solver_type&>(*solver_).step(sys, q, p, t, dt, options_, stats_);
  }

  const partitioned_tableau<S>& tableau() const { return tableau_; }
  constrained_options& options() { return options_; }
  const constrained_options& options() const { return options_; }
  const constrained_statistics& statistics() const { return stats_; }
  /// Drops every cache (call after changing a system's parameters in place).
  void reset() { solver_.reset(); }

 private:
  partitioned_tableau<S> tableau_;
  constrained_options options_;
  constrained_statistics stats_;
  std::unique_ptr<detail::prk_solver_base> solver_;
};

}  // namespace geomint
