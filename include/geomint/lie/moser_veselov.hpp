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
#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/lie/se3.hpp"
#include "geomint/lie/so3.hpp"

namespace geomint {

/// Which reduced heavy-top map of McLachlan–Scovel §6.2.
enum class heavy_top_scheme {
  rattle,     ///< reduced RATTLE, second order (symmetric)
  constraint  ///< reduced constraint algorithm γ(t), first order
};

struct moser_veselov_options {
  double tolerance = 4 * std::numeric_limits<double>::epsilon();  ///< on the change of ω − 1, relative to it
  int max_iterations = 100;
  heavy_top_scheme scheme = heavy_top_scheme::rattle;
};

namespace lie_detail {
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
}  // namespace lie_detail

template <class Algebra>
class moser_veselov {
  static constexpr bool heavy_top = std::is_same<Algebra, se3>::value;
  static constexpr int n = lie_detail::rigid_body_size<Algebra>::value;
  static constexpr int D = Algebra::dimension;
  using mat = matrix<n, n>;
  using vec = vector<D>;

 public:
  using algebra_type = Algebra;
  using state_type = vector<D>;
  using deriv_type = state_type;
  using time_type = double;
  using value_type = double;
  using order_type = unsigned short;
  using stepper_category = boost::numeric::odeint::stepper_tag;
  using attitude_type = mat;

  explicit moser_veselov(const moser_veselov_options& options = {}) : options_(options) {}

  order_type order() const { return heavy_top && options_.scheme == heavy_top_scheme::constraint ? 1 : 2; }
  moser_veselov_options& options() { return options_; }
  const moser_veselov_options& options() const { return options_; }
  const lie_statistics& statistics() const { return stats_; }
  void reset() {}
  /// ω of the last step (the body rotation increment; Q = q ωᵀ).
  const mat& last_rotation() const { return omega_; }

  /// Advances the body momentum y. On failure throws step_error and leaves y unchanged.
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
    const vec y1 = step(sys, alg, vec(y), t, dt);
    y = y1;
    ++stats_.steps;
  }

  /// Advances the body momentum y and the attitude q ∈ SO(n) (Q = q ωᵀ), so that the spatial
  /// momentum q hat(y) qᵀ can be monitored.
  template <class System, class State>
  void do_step(System&& system, attitude_type& q, State& x, time_type t, time_type dt) {
    do_step(system, x, t, dt);
    q += q * w_.transpose();
  }

 private:
  template <class Sys>
  vec step(const Sys& sys, const Algebra& alg, const vec& y, double t, double dt) {
    const vector<n> alpha = sys.rigid_body_moments();
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (!(alpha(i) + alpha(j) > 0))
          throw std::invalid_argument("geomint: moser_veselov needs α_i + α_j > 0 (the mass matrix J = diag(α) of "
                                      "McLachlan–Scovel §6.1); got α_" + std::to_string(i) + " + α_" +
                                      std::to_string(j) + " = " + std::to_string(alpha(i) + alpha(j)));
    if constexpr (heavy_top) {
      // In vectors: hat(ω x) = ω hat(x) ωᵀ for ω ∈ SO(3), and vχᵀ − χvᵀ = hat(χ × v). All
      // increments are summed before they are added to (u, v): one rounding of the O(1) part.
      using T = extended;
      const so3 rot;
      const T c = sys.gravity_constant();
      const vector_of<3, T> chi = sys.center_of_mass_direction().template cast<T>();
      const vector_of<3, T> u = y.template head<3>().template cast<T>(), v = y.template tail<3>().template cast<T>();
      const T kick = options_.scheme == heavy_top_scheme::rattle ? T(dt) * c / 2 : T(dt) * c;
      const vector_of<3, T> d1 = -kick * chi.cross(v);  // m₂ = m + hat(d1)
      solve_rotation(alpha, rot.hat(vector<3>((u + d1).template cast<double>())), t, dt);
      const vector_of<3, T> dv = rotate_vector_increment(v);
      vector_of<3, T> du = d1 + rotate_vector_increment(vector_of<3, T>(u + d1));  // ω m₂ ωᵀ − m
      if (options_.scheme == heavy_top_scheme::rattle) du -= (T(dt) * c / 2) * chi.cross(vector_of<3, T>(v + dv));
      vec out;
      out << (u + du).template cast<double>(), (v + dv).template cast<double>();
      check_finite(out, t, dt);
      return out;
    } else if constexpr (std::is_same<Algebra, so3>::value) {
      solve_rotation(alpha, alg.hat(y), t, dt);
      const vector_of<3, extended> x = y.template cast<extended>();
      const vec out = (x + rotate_vector_increment(x)).template cast<double>();  // hat(ω y) = ω m ωᵀ
      check_finite(out, t, dt);
      return out;
    } else {
      const mat m = alg.hat(y);
      solve_rotation(alpha, m, t, dt);
      const matrix_of<n, n, extended> d = rotate_increment(m);
      vec out(alg.dim());
      int k = 0;
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j, ++k) out(k) = static_cast<double>(extended(y(k)) + (d(i, j) - d(j, i)) / 2);
      check_finite(out, t, dt);
      return out;
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

  static void check_finite(const vec& out, double t, double dt) {
    if (!out.allFinite())
      throw step_error(failure_reason::non_finite_value, t, dt, 0, 0, "Moser–Veselov: the new state is not finite");
  }

  /// ωᵀJ − Jω = dt m with ω ∈ SO(n), by iteration (i)–(ii); result in omega_.
  void solve_rotation(const vector<n>& alpha, const mat& m, double t, double dt) {
    mat wa = mat::Zero(), ws = mat::Zero();
    double previous = std::numeric_limits<double>::infinity(), delta = 0;
    for (int it = 1; it <= options_.max_iterations; ++it) {
      ++stats_.iterations;
      mat wa_new;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          wa_new(i, j) = i == j ? 0.0 : (ws(i, j) * (alpha(j) - alpha(i)) - dt * m(i, j)) / (alpha(i) + alpha(j));
      const mat s = ws + wa_new;
      const mat ws_new = -0.5 * s.transpose() * s;
      // The change relative to |ω − 1|: ω must be orthogonal to round-off *relative to ω − 1*,
      // or |m| drifts by the absolute defect every step.
      delta = std::fmax((wa_new - wa).cwiseAbs().maxCoeff(), (ws_new - ws).cwiseAbs().maxCoeff()) /
              std::fmax(wa_new.cwiseAbs().maxCoeff(), 1e-300);
      wa = wa_new;
      ws = ws_new;
      if (!std::isfinite(delta) || delta > 1e3)
        throw step_error(failure_reason::newton_diverged, t, dt, it, delta,
                         "Moser–Veselov iteration for ω diverged (step too large for the O(t) contraction)");
      // Converged, or stalled at the round-off floor.
      if (delta <= options_.tolerance || (delta >= 0.5 * previous && delta <= 4 * options_.tolerance)) {
        w_ = wa + ws;
        omega_ = mat::Identity() + w_;
        return;
      }
      previous = delta;
    }
    throw step_error(failure_reason::max_iterations, t, dt, options_.max_iterations, delta,
                     "Moser–Veselov iteration for ω did not converge");
  }

  moser_veselov_options options_;
  lie_statistics stats_;
  mat omega_ = mat::Identity();
  mat w_ = mat::Zero();  ///< ω − 1
};

}  // namespace geomint
