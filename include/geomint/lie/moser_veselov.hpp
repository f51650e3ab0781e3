// The McLachlan–Scovel constraint integrator reduced to so(n)* — the Moser–Veselov map of the
// free rigid body (McLachlan–Scovel 1994, §6.1, Theorem 6) — and the reduced heavy-top maps
// of §6.2.
//
// Free rigid body on SO(n) (so3 or so_n<N> systems), body momentum m = hat(y), mass matrix
// J = diag(α) (principal moments I₁ = α₂ + α₃, … for n = 3):
//   solve  ωᵀJ − Jω = t m,  ω ∈ SO(n);   M = ω m ωᵀ;   attitude Q = q ωᵀ.
// The map is symplectic on the coadjoint orbits (Lie–Poisson), symmetric, order 2, integrable,
// conserves the spatial momentum q m qᵀ and, for the free rigid body, the energy.
//
// Heavy top on se(3)* (se3 systems), y = (u, v), m = hat(u), potential c v·χ:
//   rattle (second order, the reduced RATTLE of §6.2):
//     m₂ = m − ½ t c (vχᵀ − χvᵀ);  ωᵀJ − Jω = t m₂;  V = ω v;  M = ω m₂ ωᵀ − ½ t c (Vχᵀ − χVᵀ)
//   constraint (first order, the reduced constraint algorithm (9) of §6.2):
//     m₂ = m − t c (vχᵀ − χvᵀ);    ωᵀJ − Jω = t m₂;  V = ω v;  M = ω m₂ ωᵀ
// (McLachlan–Scovel write the last rotation as M = (Jωᵀ − ωJ)/t, equal to ω m₂ ωᵀ once ω is
// orthogonal; the coadjoint form is used here because it is exact in the rounding of ω.)
// For the Lagrange top (α₁ = α₂, χ = (0, 0, ±1)) both maps conserve m₁₂ = −u₃ exactly.
//
// ω is found by McLachlan–Scovel's iteration with convergence factor O(t): with
// ω = 1 + ωᵃ + ωˢ (antisymmetric, symmetric parts),
//   (i)  ωᵃ_ij ← (ωˢ_ij (α_j − α_i) − t m_ij)/(α_i + α_j)      (ωᵀJ − Jω = t m)
//   (ii) ωˢ ← −½ (ωˢ + ωᵃ)ᵀ(ωˢ + ωᵃ)                          (ωᵀω = 1)
// iterated to round-off.
//
// System requirements: `vector<n> rigid_body_moments() const` (α); for se3 also
// `double gravity_constant() const` (c) and `vector<3> center_of_mass_direction() const` (χ).
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "geomint/core/stepper_base.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/solver_options.hpp"
#include "geomint/lie/se3.hpp"
#include "geomint/lie/so3.hpp"

namespace geomint {

/// Which reduced heavy-top map of McLachlan–Scovel §6.2.
enum class heavy_top_scheme {
  rattle,     ///< reduced RATTLE, second order (symmetric)
  constraint  ///< reduced constraint algorithm γ(t), first order
};

/// The iteration for ω stops at 4 ulps of change of ω − 1, relative to it (or a stall within 4 ×
/// that), and never earlier: the exact invariants need ω orthogonal to round-off relative to
/// ω − 1 (the Lagrange top's m₁₂ = −u₃ among them), so the solvers' round-off-floor exit, which
/// would accept a change of up to 1e-9 where the two-block iteration grows once on its way down,
/// is off.
struct moser_veselov_options : solver_options {
  moser_veselov_options() {
    newton.tolerance = 4 * std::numeric_limits<double>::epsilon();
    newton.stall_factor = 4;
    newton.max_iterations = 100;
    newton.roundoff_floor = 0;
  }
};

namespace detail {
template <class Algebra>
struct rigid_body_size {
  static constexpr int value = Algebra::n;
};
template <>
struct rigid_body_size<so3> {
  static constexpr int value = 3;
};
template <>
struct rigid_body_size<se3> {
  static constexpr int value = 3;
};
}  // namespace detail

namespace detail {

template <class Algebra, heavy_top_scheme Scheme>
class moser_veselov_cache {
  static constexpr bool heavy_top = std::is_same<Algebra, se3>::value;
  static constexpr int n = detail::rigid_body_size<Algebra>::value;
  static constexpr int D = Algebra::dimension;
  using mat = matrix<n, n>;
  using vec = vector<D>;
  using context = step_context<moser_veselov_options, solver_statistics>;

 public:
  static constexpr reuse kept = reuse::nothing;
  using end_state = vec;

  template <class Sys, class Y>
  void start(const Sys&, const Y&, const context&) {}

  template <class Sys, class Y, class Y1>
  void advance(const Sys& sys, const Y& y, Y1& y1, const context& c) {
    y0_ = y;
    step(sys, detail::algebra_of(sys), y0_, y1, c.t, c.h, c.options, c.stats);
  }
  /// ω − 1 of the last step.
  const mat& rotation_increment() const { return w_; }
  const mat& rotation() const { return omega_; }

 private:
  /// The step from y into out.
  template <class Sys>
  void step(const Sys& sys, const Algebra& alg, const vec& y, vec& out, double t, double dt,
            const moser_veselov_options& opt, solver_statistics& stats) {
    const vector<n> alpha = sys.rigid_body_moments();
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (!(alpha(i) + alpha(j) > 0))
          throw std::invalid_argument("geomint: moser_veselov needs α_i + α_j > 0 (the mass matrix J = diag(α) of "
                                      "McLachlan–Scovel §6.1); got α_" + std::to_string(i) + " + α_" +
                                      std::to_string(j) + " = " + detail::decimal(alpha(i) + alpha(j)));
    if constexpr (heavy_top) {
      // In vectors: hat(ω x) = ω hat(x) ωᵀ for ω ∈ SO(3), and vχᵀ − χvᵀ = hat(χ × v). All
      // increments are summed before they are added to (u, v): one rounding of the O(1) part.
      using T = extended;
      const so3 rot;
      const T c = sys.gravity_constant();
      const vector_of<3, T> chi = sys.center_of_mass_direction().template cast<T>();
      const vector_of<3, T> u = y.template head<3>().template cast<T>(), v = y.template tail<3>().template cast<T>();
      const T kick = Scheme == heavy_top_scheme::rattle ? T(dt) * c / 2 : T(dt) * c;
      const vector_of<3, T> d1 = -kick * chi.cross(v);  // m₂ = m + hat(d1)
      solve_rotation(alpha, rot.hat(vector<3>((u + d1).template cast<double>())), t, dt, opt, stats);
      const vector_of<3, T> dv = rotate_vector_increment(v);
      vector_of<3, T> du = d1 + rotate_vector_increment(vector_of<3, T>(u + d1));  // ω m₂ ωᵀ − m
      if (Scheme == heavy_top_scheme::rattle) du -= (T(dt) * c / 2) * chi.cross(vector_of<3, T>(v + dv));
      out << (u + du).template cast<double>(), (v + dv).template cast<double>();
    } else if constexpr (std::is_same<Algebra, so3>::value) {
      solve_rotation(alpha, alg.hat(y), t, dt, opt, stats);
      const vector_of<3, extended> x = y.template cast<extended>();
      out = (x + rotate_vector_increment(x)).template cast<double>();  // hat(ω y) = ω m ωᵀ
    } else {
      const mat m = alg.hat(y);
      solve_rotation(alpha, m, t, dt, opt, stats);
      const matrix_of<n, n, extended> d = rotate_increment(m);
      out.resize(alg.dim());
      int k = 0;
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j, ++k) out(k) = static_cast<double>(extended(y(k)) + (d(i, j) - d(j, i)) / 2);
    }
  }

  /// ω is applied through its Cayley parameter, ω = cay(A), A = 2(ω − 1)(ω + 1)⁻¹ =
  /// 2w(2 + w)⁻¹ with w = ω − 1 (skew at convergence; its skew part is taken), and in increment
  /// form: ω x − x for vectors (n = 3), ω m ωᵀ − m = E m + m Eᵀ + E m Eᵀ with
  /// E = cay(A) − 1 = (1 − A/2)⁻¹A. Both keep |m| to round-off over long runs, where forming
  /// ω = 1 + w itself leaves an orthogonality defect of the order of the rounding of w, which
  /// accumulates when the rotation per step is large.
  mat cayley_parameter() const {
    const mat a = 2 * (mat(2 * mat::Identity() + w_).transpose().partialPivLu().solve(w_.transpose())).transpose();
    return (a - a.transpose()) / 2;
  }
  /// ω x − x in x's precision (extended: algebra.hpp).
  template <class X>
  vector_of<3, typename X::Scalar> rotate_vector_increment(const X& x) const {
    const mat a = cayley_parameter();
    const vector<3> av(a(2, 1), a(0, 2), a(1, 0));
    return so3().cayley_increment(vector<3>(-av), x);
  }
  /// ω m ωᵀ − m in extended precision.
  matrix_of<n, n, extended> rotate_increment(const mat& m) const {
    using T = matrix_of<n, n, extended>;
    const T a = cayley_parameter().template cast<extended>();
    const T e = (T::Identity() - a / 2).partialPivLu().solve(a);
    const T mm = m.template cast<extended>();
    const T em = e * mm;
    return em + mm * e.transpose() + em * e.transpose();
  }

  /// Iteration (i)–(ii) on z = [ωᵃ ωˢ] (n × 2n): ωᵃ from ωˢ, then ωˢ from ωˢ + ωᵃ. The change is
  /// measured relative to |ω − 1|: ω must be orthogonal to round-off *relative to ω − 1*, or |m|
  /// drifts by the absolute defect every step.
  struct rotation_iteration {
    const vector<n>& alpha;
    const mat& m;
    double dt;
    void map(const matrix<n, 2 * n>& z, matrix<n, 2 * n>& next) const {
      const mat ws = z.template rightCols<n>();
      mat wa;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          wa(i, j) = i == j ? 0.0 : (ws(i, j) * (alpha(j) - alpha(i)) - dt * m(i, j)) / (alpha(i) + alpha(j));
      const mat s = ws + wa;
      next.template leftCols<n>() = wa;
      next.template rightCols<n>() = -0.5 * s.transpose() * s;
    }
    double change_norm(const matrix<n, 2 * n>& next, const matrix<n, 2 * n>& z) const {
      return (next - z).cwiseAbs().maxCoeff() / std::fmax(next.template leftCols<n>().cwiseAbs().maxCoeff(), 1e-300);
    }
  };

  /// ωᵀJ − Jω = dt m with ω ∈ SO(n), by iteration (i)–(ii); result in omega_.
  void solve_rotation(const vector<n>& alpha, const mat& m, double t, double dt, const moser_veselov_options& opt,
                      solver_statistics& stats) {
    matrix<n, 2 * n> z = matrix<n, 2 * n>::Zero(), next;
    rotation_iteration iteration{alpha, m, dt};
    fixed_point_solve(iteration, z, next, opt.newton, stats.fixed_point,
                      newton_context{t, dt, "Moser–Veselov iteration for ω (its contraction is O(t): a smaller step converges)"});
    w_ = z.template leftCols<n>() + z.template rightCols<n>();
    omega_ = mat::Identity() + w_;
  }

  mat omega_ = mat::Identity();
  mat w_ = mat::Zero();  ///< ω − 1
  vec y0_;  ///< the step's start (a member: nothing allocated after the first step)
};

}  // namespace detail

/// Moser–Veselov on so(3), so(n) (symmetric, order 2, a Poisson map) and the reduced heavy-top
/// maps on se(3) (Scheme rattle: the same; constraint: order 1, not symmetric).
template <class Algebra, heavy_top_scheme Scheme = heavy_top_scheme::rattle>
class moser_veselov : public stepper_base<moser_veselov<Algebra, Scheme>, vector<detail::algebra_dimension<Algebra>>,
                                          moser_veselov_options, solver_statistics> {
  static constexpr int n = detail::rigid_body_size<Algebra>::value;
  static constexpr bool first_order = std::is_same<Algebra, se3>::value && Scheme == heavy_top_scheme::constraint;
  using base = stepper_base<moser_veselov<Algebra, Scheme>, vector<detail::algebra_dimension<Algebra>>,
                            moser_veselov_options, solver_statistics>;

 public:
  using algebra_type = Algebra;
  using attitude_type = matrix<n, n>;
  static constexpr method_properties properties = method_properties()
                                                      .order(first_order ? 1 : 2)
                                                      .symmetric(!first_order)
                                                      .symplectic(true)
                                                      .conserves(conserves_casimirs)
                                                      .state(state_kind::coadjoint_vector);
  template <class System>
  using cache = detail::moser_veselov_cache<Algebra, Scheme>;
  template <class System>
  using continuous_extension = lie_continuous_extension<System>;

  using base::base;
  using base::do_step;

  /// Advances the body momentum y and the attitude q ∈ SO(n) (Q = q ωᵀ), so that the spatial
  /// momentum q hat(y) qᵀ can be monitored.
  template <class System, class State>
  void do_step(System&& system, attitude_type& q, State& x, double t, double dt) {
    base::do_step(system, x, t, dt);
    q += q * this->template find_cache<void>()->rotation_increment().transpose();  // one cache for all systems
  }
  /// ω of the last step (the body rotation increment; Q = q ωᵀ); the identity before any step.
  attitude_type last_rotation() {
    const auto* w = this->template find_cache<void>();
    return w ? w->rotation() : attitude_type(attitude_type::Identity());
  }

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return detail::check_system<System, Algebra, X>(sys, x);
  }
};

}  // namespace geomint
