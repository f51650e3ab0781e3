// The energy-conserving Lie–Poisson integrators of Engø–Faltinsen 1999, Theorem 2:
//
//   y₁ = Ad*_{ψ(−σ)} y₀,   σ = h DH(y₀, y₁),
//
// with ψ = exp or cay and DH a discrete gradient, DH(x, y)·(y − x) = H(y) − H(x). Since
// y₁ − y₀ = J(·)σ with J skew (Lemma 2), H(y₁) = H(y₀); the coadjoint update keeps the orbit
// and the Casimirs. Order 2.
//   trapezoidal_gradient: DH = ½(∇H(x) + ∇H(y)), a discrete gradient for quadratic H (rigid
//                         body, heavy top, sine-Euler): the Lie trapezoidal rule of §5.2.
//   gonzalez_gradient:    DH = ∇H(m) + (H(y) − H(x) − ∇H(m)·(y − x)) (y − x)/|y − x|²,
//                         m = (x + y)/2 (Gonzalez 1996), a discrete gradient for any H.
//
// The equation g(σ) = σ − h DH(y₀, y₁(σ)) = 0 is solved by Newton's method (5.27) to near
// round-off — §5.3: energy conservation depends on it. Two Jacobians:
//   exact:  Dg(σ) = 1 − (h/2) D²H(y₁) J(y₁) dψ_σ   (5.28) at every iterate (Newton's method),
//           inverted as dψ⁻¹_σ (dψ⁻¹_σ − (h/2) D²H J)⁻¹;
//           for trapezoidal DH it is exact, for Gonzalez D²H is taken at m.
//   frozen: Dg(0) = 1 − (h/2) D²H(y₀) J(y₀), the modified Newton method of §5.3.
// (d/dσ Ad*_{ψ(−σ)} y₀ = J(y₁) dψ_σ by Theorem 1; for ψ = cay in the operator form (4.24) this
// is exactly (5.28).)
#pragma once

#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "geomint/core/linear_solvers.hpp"
#include "geomint/core/newton.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_poisson_system.hpp"

namespace geomint {

/// DH(x, y) = ½(∇H(x) + ∇H(y)): a discrete gradient for quadratic Hamiltonians.
struct trapezoidal_gradient {
  static const char* name() { return "trapezoidal"; }
  /// Newton tolerance in ulps: DH is evaluated to round-off.
  static constexpr double tolerance_ulps = 1;
  /// out = DH(x, y), given gx = ∇H(x).
  template <class Sys, class V>
  static void evaluate(const Sys& sys, const V& x, const V& y, const V& gx, V& scratch, V& out) {
    (void)x;
    sys.gradient(y, scratch);
    out = (gx + scratch) / 2;
  }
  /// Where D²H is taken in Newton's matrix.
  template <class V>
  static void hessian_point(const V&, const V& y, V& out) { out = y; }
};

/// Gonzalez's discrete gradient, for any H.
struct gonzalez_gradient {
  static const char* name() { return "gonzalez"; }
  /// The correction (H(y) − H(x) − ∇H(m)·(y − x))/|y − x|² cancels: its round-off is
  /// ~ε|H|/|y − x|, so σ is only defined to ~ε/h; the tolerance leaves room for that.
  static constexpr double tolerance_ulps = 16;
  template <class Sys, class V>
  static void evaluate(const Sys& sys, const V& x, const V& y, const V&, V& scratch, V& out) {
    scratch = (x + y) / 2;
    sys.gradient(scratch, out);
    scratch = y - x;
    const double dd = scratch.squaredNorm();
    if (dd > 0) out += ((sys.hamiltonian(y) - sys.hamiltonian(x) - out.dot(scratch)) / dd) * scratch;
  }
  template <class V>
  static void hessian_point(const V& x, const V& y, V& out) { out = (x + y) / 2; }
};

/// Newton's matrix for lie_discrete_gradient.
enum class lie_jacobian {
  exact,  ///< Newton's method (5.27) with the Jacobian (5.28) at every iterate
  frozen  ///< 1 − (h/2) D²H(y₀) J(y₀), once per step (§5.3)
};

struct lie_discrete_gradient_options {
  newton_options newton = lie_newton_defaults();
  lie_jacobian jacobian = lie_jacobian::exact;
};

template <class Algebra, class Coordinates = exp_coordinates, class DiscreteGradient = trapezoidal_gradient>
class lie_discrete_gradient {
  static_assert(Coordinates::template applies_to<Algebra>,
                "geomint: Cayley coordinates need a quadratic group (Algebra::has_cayley)");
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;
  using mat = matrix<D, D>;

 public:
  using algebra_type = Algebra;
  using coordinates_type = Coordinates;
  using state_type = vector<D>;
  using deriv_type = state_type;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;

  explicit lie_discrete_gradient(const lie_discrete_gradient_options& options = default_options()) : options_(options) {}

  /// Newton to round-off: the tolerance is DiscreteGradient::tolerance_ulps ulps.
  static lie_discrete_gradient_options default_options() {
    lie_discrete_gradient_options o;
    o.newton.tolerance = DiscreteGradient::tolerance_ulps * std::numeric_limits<double>::epsilon();
    return o;
  }

  order_type order() const { return 2; }
  lie_discrete_gradient_options& options() { return options_; }
  const lie_discrete_gradient_options& options() const { return options_; }
  const lie_statistics& statistics() const { return stats_; }
  void reset() {}

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
    if (d_ != alg.dim()) resize(alg.dim());
    y0_ = y;
    sys.gradient(y0_, g0_);
    sigma_ = dt * g0_;  // initial guess σ⁰ = h ∇H(y₀)
    problem<sys_type> p{*this, sys, alg, t, dt};
    newton_options newton = options_.newton;
    if (options_.jacobian == lie_jacobian::exact) newton.refresh_contraction = 0;  // (5.28) at every iterate
    else newton.refresh_contraction = 1;  // a refresh would return the same frozen matrix
    newton_solve(p, sigma_, sigma0_, r_, newton, stats_.newton,
                 newton_context{t, dt, "Lie discrete-gradient equation g(σ) = 0 (5.27)"});
    y1_ = Coordinates::act(alg, sigma_, y0_);
    if (!y1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0,
                       "Lie discrete gradient: the new state is not finite");
    y = y1_;
    ++stats_.steps;
  }

 private:
  void resize(int d) {
    d_ = d;
    for (vec* v : {&y0_, &y1_, &g0_, &dh_, &sigma_, &sigma0_, &r_, &scratch_, &point_}) v->resize(d);
    hess_.resize(d, d);
    dpsi_inv_.resize(d, d);
    lu_.resize(d);
  }

  template <class Sys>
  struct problem {
    lie_discrete_gradient& m;
    const Sys& sys;
    const Algebra& alg;
    double t, dt;
    bool valid = false;

    void residual(const vec& sigma, vec& r) {
      m.y1_ = Coordinates::act(alg, sigma, m.y0_);
      DiscreteGradient::evaluate(sys, m.y0_, m.y1_, m.g0_, m.scratch_, m.dh_);
      r = sigma - dt * m.dh_;
    }
    void update_jacobian(const vec& sigma) {
      auto& b = m.lu_.system_matrix();
      if (m.options_.jacobian == lie_jacobian::frozen) {
        lie_detail::hessian(sys, m.y0_, m.hess_);
        b.noalias() = (-dt / 2) * m.hess_ * alg.poisson_tensor(m.y0_);
        b.diagonal().array() += 1;
        m.dpsi_inv_.setIdentity();
      } else {
        m.y1_ = Coordinates::act(alg, sigma, m.y0_);
        DiscreteGradient::hessian_point(m.y0_, m.y1_, m.point_);
        lie_detail::hessian(sys, m.point_, m.hess_);
        m.dpsi_inv_ = Coordinates::inverse_differential_matrix(alg, sigma);
        b = m.dpsi_inv_;
        b.noalias() += (-dt / 2) * m.hess_ * alg.poisson_tensor(m.y1_);
      }
      if (!m.lu_.factorize())
        throw step_error(failure_reason::singular_constraint_jacobian, t, dt, 0, 0,
                         "Lie discrete gradient: Newton's matrix dψ⁻¹ − (h/2) D²H J is singular");
      valid = true;
    }
    bool has_jacobian() const { return valid; }
    /// r ← Dg⁻¹ r = dψ⁻¹ B⁻¹ r.
    void solve_in_place(vec& r) {
      m.lu_.solve_in_place(r);
      if (m.options_.jacobian == lie_jacobian::exact) {
        m.scratch_.noalias() = m.dpsi_inv_ * r;
        r = m.scratch_;
      }
    }
    double increment_norm(const vec& sigma, const vec& ds) const {
      return ds.cwiseAbs().maxCoeff() / std::fmax(sigma.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  lie_discrete_gradient_options options_;
  lie_statistics stats_;
  int d_ = -1;
  vec y0_, y1_, g0_, dh_, sigma_, sigma0_, r_, scratch_, point_;
  mat hess_, dpsi_inv_;
  dense_lu<D> lu_;
};

}  // namespace geomint
