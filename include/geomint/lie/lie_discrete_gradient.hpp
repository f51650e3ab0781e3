// The energy-conserving Lie–Poisson integrators of Engø–Faltinsen 1999, Theorem 2:
//
//   y₁ = Ad*_{ψ(−σ)} y₀,   σ = h DH(y₀, y₁),
//
// with ψ = exp or cay and DH a discrete gradient, DH(x, y)·(y − x) = H(y) − H(x). Since
// y₁ − y₀ = J(·)σ with J skew (Lemma 2), H(y₁) = H(y₀); the coadjoint update keeps the orbit
// and the Casimirs. Order 2.
//   trapezoidal_gradient: DH = ½(∇H(x) + ∇H(y)), a discrete gradient for quadratic H (rigid
//                         body, heavy top, sine-Euler): the Lie trapezoidal rule of §5.2. For
//                         H = ½yᵀAy + bᵀy, ½(∇H(x) + ∇H(y))·(y − x) = H(y) − H(x) exactly; for
//                         any other H it is off by O(|y − x|³) and the energy drifts (a quartic
//                         term on the rigid body: 1.7e-4 over 1000 steps of 0.1, tested in
//                         tests/verification). So it claims energy conservation only on a system that
//                         declares `hamiltonian_is_quadratic` (conserves_energy_if_quadratic,
//                         core/properties.hpp); on others it is a symmetric order-2 method.
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

#include <initializer_list>
#include <limits>
#include <type_traits>

#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/lie/lie_options.hpp"
#include "geomint/lie/lie_poisson_system.hpp"

namespace geomint {

/// DH(x, y) = ½(∇H(x) + ∇H(y)): a discrete gradient for quadratic Hamiltonians.
struct trapezoidal_gradient {
  static const char* name() { return "trapezoidal"; }
  /// What the discrete-gradient condition holds for, hence the energy claim.
  static constexpr unsigned energy = conserves_energy_if_quadratic;
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
  static constexpr unsigned energy = conserves_energy;
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

/// lie_discrete_gradient's options: newton's tolerance defaults to
/// DiscreteGradient::tolerance_ulps ulps (lie_discrete_gradient::default_options()).
struct lie_discrete_gradient_options : solver_options {
  lie_discrete_gradient_options() { newton = lie_newton_defaults(); }
  lie_jacobian jacobian = lie_jacobian::exact;
};

namespace detail {

/// What a discrete gradient's energy claim is (its `energy` member; a discrete gradient without
/// one is taken for one of any H, as its name says).
template <class G, class = void>
struct discrete_gradient_energy : std::integral_constant<unsigned, conserves_energy> {};
template <class G>
struct discrete_gradient_energy<G, std::void_t<decltype(G::energy)>> : std::integral_constant<unsigned, G::energy> {};

template <class Algebra, class Coordinates, class DiscreteGradient>
class discrete_gradient_cache {
  static constexpr int D = Algebra::dimension;
  using vec = vector<D>;
  using mat = typename Algebra::operator_type;
  using context = step_context<lie_discrete_gradient_options, solver_statistics>;

 public:
  static constexpr reuse kept = reuse::nothing;
  using end_state = vec;

  template <class Sys, class Y>
  void start(const Sys&, const Y&, const context&) {}

  template <class Sys, class Y, class Y1>
  void advance(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    const Algebra& alg = detail::algebra_of(sys);
    const double t = c.t, dt = c.h;
    const lie_discrete_gradient_options& opt = c.options;
    if (d_ != alg.dim()) resize(alg.dim());
    y0_ = y;
    sys.gradient(y0_, g0_);
    sigma_ = dt * g0_;  // initial guess σ⁰ = h ∇H(y₀)
    problem<Sys> p{*this, sys, alg, opt.jacobian, t, dt};
    newton_options newton = opt.newton;
    if (opt.jacobian == lie_jacobian::exact) newton.refresh_contraction = 0;  // full Newton: (5.28) at every iterate
    else newton.refresh_contraction = 1;  // a refresh would return the same frozen matrix
    newton_solve(p, sigma_, sigma0_, r_, newton, c.stats.newton,
                 newton_context{t, dt, "Lie discrete-gradient equation g(σ) = 0 (5.27)"});
    Coordinates::act_into(alg, sigma_, y0_, y1, ops_);
  }

 private:
  void resize(int d) {
    d_ = d;
    for (vec* v : {&y0_, &y1_, &g0_, &dh_, &sigma_, &sigma0_, &r_, &scratch_, &point_}) v->resize(d);
    for (mat* a : {&hess_, &dpsi_inv_, &poisson_}) a->resize(d, d);
    lu_.resize(d);
  }

  template <class Sys>
  struct problem {
    discrete_gradient_cache& m;
    const Sys& sys;
    const Algebra& alg;
    lie_jacobian jacobian;
    double t, dt;
    bool valid = false;

    void residual(const vec& sigma, vec& r) {
      Coordinates::act_into(alg, sigma, m.y0_, m.y1_, m.ops_);
      DiscreteGradient::evaluate(sys, m.y0_, m.y1_, m.g0_, m.scratch_, m.dh_);
      r = sigma - dt * m.dh_;
    }
    void update_jacobian(const vec& sigma) {
      auto& b = m.lu_.system_matrix();
      if (jacobian == lie_jacobian::frozen) {
        detail::hessian(sys, m.y0_, m.hess_, m.hessian_buffers_);
        detail::poisson_tensor_into(alg, m.y0_, m.poisson_, m.ops_);
        b.noalias() = (-dt / 2) * m.hess_ * m.poisson_;
        b.diagonal().array() += 1;
        m.dpsi_inv_.setIdentity();
      } else {
        Coordinates::act_into(alg, sigma, m.y0_, m.y1_, m.ops_);
        DiscreteGradient::hessian_point(m.y0_, m.y1_, m.point_);
        detail::hessian(sys, m.point_, m.hess_, m.hessian_buffers_);
        Coordinates::inverse_differential_matrix(alg, sigma, m.dpsi_inv_, m.differential_);
        detail::poisson_tensor_into(alg, m.y1_, m.poisson_, m.ops_);
        b = m.dpsi_inv_;
        b.noalias() += (-dt / 2) * m.hess_ * m.poisson_;
      }
      if (!m.lu_.factorize()) {
        if (!b.allFinite())
          throw step_error(failure_reason::non_finite_value, t, dt, 0, 0,
                           "Lie discrete gradient: Newton's matrix dψ⁻¹ − (h/2) D²H J is not finite (a NaN "
                           "or Inf in the system's second derivatives)");
        throw step_error(failure_reason::singular_iteration_matrix, t, dt, 0, 0,
                         "Lie discrete gradient: Newton's matrix dψ⁻¹ − (h/2) D²H J is singular");
      }
      valid = true;
    }
    bool has_jacobian() const { return valid; }
    /// r ← Dg⁻¹ r = dψ⁻¹ B⁻¹ r.
    void solve_in_place(vec& r) {
      m.lu_.solve_in_place(r);
      if (jacobian == lie_jacobian::exact) {
        m.scratch_.noalias() = m.dpsi_inv_ * r;
        r = m.scratch_;
      }
    }
    double increment_norm(const vec& sigma, const vec& ds) const {
      return ds.cwiseAbs().maxCoeff() / std::fmax(sigma.cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  int d_ = -1;
  vec y0_, y1_, g0_, dh_, sigma_, sigma0_, r_, scratch_, point_;
  mat hess_, dpsi_inv_, poisson_;
  typename Coordinates::template differential_scratch<Algebra> differential_;
  detail::op_buffers<Algebra> ops_;
  detail::hessian_buffers<vec> hessian_buffers_;
  dense_lu<size::fixed_if_small(D)> lu_;
};

}  // namespace detail

/// Symmetric (DH(x, y) = DH(y, x) for both discrete gradients, and ψ(−σ) = ψ(σ)⁻¹), order 2,
/// coadjoint orbit conserved, and the energy: for any H with gonzalez_gradient, for a system
/// declaring a quadratic H with trapezoidal_gradient (DiscreteGradient::energy); not a Poisson map.
template <class Algebra, class Coordinates = exp_coordinates, class DiscreteGradient = trapezoidal_gradient>
class lie_discrete_gradient
    : public stepper_base<lie_discrete_gradient<Algebra, Coordinates, DiscreteGradient>,
                          vector<detail::algebra_dimension<Algebra>>, lie_discrete_gradient_options, solver_statistics> {
  // The algebra concept first (one static_assert naming what the algebra lacks, algebra_concept.hpp).
  using algebra_concept_checked = detail::lie_algebra_checked<Algebra>;
  static_assert(detail::coordinates_apply<Coordinates, Algebra>::value,
                "geomint: Cayley coordinates need a quadratic group (Algebra::has_cayley)");
  using base = stepper_base<lie_discrete_gradient<Algebra, Coordinates, DiscreteGradient>,
                            vector<detail::algebra_dimension<Algebra>>, lie_discrete_gradient_options, solver_statistics>;

 public:
  using algebra_type = Algebra;
  using coordinates_type = Coordinates;
  static constexpr method_properties properties = method_properties()
                                                      .order(2)
                                                      .symmetric(true)
                                                      .conserves(conserves_casimirs | detail::discrete_gradient_energy<DiscreteGradient>::value)
                                                      .state(state_kind::coadjoint_vector);
  template <class System>
  using cache = detail::discrete_gradient_cache<Algebra, Coordinates, DiscreteGradient>;
  template <class System>
  using continuous_extension = lie_continuous_extension<System>;

  explicit lie_discrete_gradient(const lie_discrete_gradient_options& options = default_options()) : base(options) {}

  /// Newton to round-off: the tolerance is DiscreteGradient::tolerance_ulps ulps.
  static lie_discrete_gradient_options default_options() {
    lie_discrete_gradient_options o;
    o.newton.tolerance = DiscreteGradient::tolerance_ulps * std::numeric_limits<double>::epsilon();
    return o;
  }

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return detail::check_system<System, Algebra, X>(sys, x);
  }
};

}  // namespace geomint
