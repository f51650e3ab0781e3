// Continuous extension of a Lie–Poisson step that stays on the coadjoint orbit: the step
// y₀ → y₁ is written as y₁ = Ad*_{exp(−σ₁)} y₀ and the interpolant is
//
//   y(θ) = Ad*_{exp(−σ(θ))} y₀,   θ = (t − t₀)/h ∈ [0, 1],
//
// with σ(θ) the cubic Hermite polynomial in the algebra through σ(0) = 0, σ'(0) = h ∇H(y₀),
// σ(1) = σ₁, σ'(1) = h dexp⁻¹_{σ₁} ∇H(y₁) — the exact flow's σ(t) satisfies
// σ' = dexp⁻¹_σ ∇H(y(t)) (Engø–Faltinsen 1999, (4.21)–(4.23), with ẏ = −ad*_{∇H(y)} y). Every
// interpolated state is a coadjoint image of y₀, so all Casimirs hold between grid points to
// the rounding of one coadjoint action; the interpolation error is O(h⁴) plus the method's.
//
// σ₁ is found from the two grid states alone (any Lie–Poisson stepper): Gauss–Newton on
// Ad*_{exp(−σ)} y₀ = y₁ from the trapezoidal guess h(∇H(y₀) + ∇H(y₁))/2 (error O(h³)), with the
// minimum-norm correction (the stabilizer of y₀ makes the map rank-deficient; Eigen's
// complete orthogonal decomposition) and a central-difference Jacobian. That costs d + 1
// coadjoint actions per iteration, so it is offered for algebras of dimension ≤ 64 (so3, se3,
// so(n ≤ 11), su(n ≤ 8), structure constants); larger ones are rejected at construction.
#pragma once

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "geomint/solvers/hermite.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_poisson_system.hpp"

namespace geomint {

template <class System>
class lie_continuous_extension {
  using algebra_type = typename System::algebra_type;
  using vec = typename algebra_type::vector_type;

 public:
  static constexpr int max_dimension = 64;

  template <class Stepper, class State>
  lie_continuous_extension(const Stepper&, const System& sys, const State&) : lie_continuous_extension(sys) {}
  explicit lie_continuous_extension(const System& sys) : sys_(&sys), alg_(&detail::algebra_of(sys)) {
    const int d = alg_->dim();
    if (d > max_dimension)
      throw std::invalid_argument("geomint::dense_output: the orbit-preserving Lie–Poisson extension is offered up to "
                                  "dimension " + std::to_string(max_dimension) + ", this algebra has " + std::to_string(d));
    for (vec* v : {&y0_, &y1_, &sigma1_, &v0_, &v1_, &g_, &r_, &plus_, &minus_}) v->resize(d);
    jacobian_.resize(d, d);
    decomposition_ = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(d, d);
  }

  /// A new step [t0, t0 + h] from x0 to x1; σ₁ is found on the first evaluation (nothing is
  /// carried from one step to the next).
  template <class State>
  void begin_step(const State& x0, const State& x1, double t0, double h, bool /*continued*/ = false) {
    y0_ = view(x0);
    y1_ = view(x1);
    t0_ = t0;
    h_ = h;
    ready_ = false;
  }

  /// x (k = 0) or ẋ (k = 1) at t ∈ [t0, t0 + h]. `project` has no meaning here (the states are
  /// on the orbit by construction).
  template <class State>
  void evaluate(double t, State& x, int k, bool /*project*/) {
    if (!ready_) prepare();
    const double s = (t - t0_) / h_;
    if (k == 0) {
      view(x) = at(s);
    } else {  // the interpolant's derivative, by a central difference in θ (error O(δ²))
      const double delta = 1e-5;
      view(x) = (at(s + delta) - at(s - delta)) / (2 * delta * h_);
    }
  }

 private:
  vec at(double s) const {
    const hermite_weights w = cubic_hermite(s);
    const vec sigma = w.value[1] * v0_ + w.value[4] * v1_ + w.value[5] * sigma1_;
    return exp_coordinates::act(*alg_, sigma, y0_);
  }

  void prepare() {
    sys_->gradient(y0_, g_);
    v0_ = h_ * g_;
    sys_->gradient(y1_, r_);
    sigma1_ = 0.5 * h_ * (g_ + r_);
    solve_for_sigma1();
    sys_->gradient(y1_, g_);
    // σ'(1) = h dexp⁻¹_{σ₁} ∇H(y₁): the Bernoulli series, or beyond its radius (|σ₁| ≥ 2π on
    // so3, a long step of a fast body) the inverse of dexp's matrix.
    bool converged = false;
    v1_ = detail::bernoulli_series(g_, full_series, [&](const vec& x) -> vec { return alg_->bracket(sigma1_, x); },
                                       &converged);
    if (!converged) v1_ = exp_coordinates::inverse_differential_matrix(*alg_, sigma1_) * g_;
    if (!v1_.allFinite())
      throw step_error(failure_reason::non_finite_value, t0_, h_, 0, 0,
                       "dense output: the end slope dexp^-1 grad H(y1) is not finite (a non-finite gradient, or "
                       "dexp singular at a rotation by a multiple of 2 pi: take shorter steps)");
    v1_ *= h_;
    ready_ = true;
  }

  /// Gauss–Newton on r(σ) = Ad*_{exp(−σ)} y₀ − y₁ with minimum-norm corrections.
  void solve_for_sigma1() {
    const int d = alg_->dim();
    const double scale = std::fmax(y1_.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    double norm = 0;
    for (int iteration = 0; iteration < 10; ++iteration) {
      r_ = exp_coordinates::act(*alg_, sigma1_, y0_) - y1_;
      norm = r_.cwiseAbs().maxCoeff();
      // The action's own rounding grows with σ (its terms are brackets with σ, up to |σ|² |y|).
      const double size = std::fmax(1.0, sigma1_.cwiseAbs().maxCoeff());
      const double target = 16 * std::numeric_limits<double>::epsilon() * scale * size * size;
      if (!(norm > target)) {
        if (std::isfinite(norm)) return;
        break;
      }
      const double eps = 1e-6 * std::fmax(1.0, sigma1_.cwiseAbs().maxCoeff());
      for (int j = 0; j < d; ++j) {
        plus_ = sigma1_;
        minus_ = sigma1_;
        plus_(j) += eps;
        minus_(j) -= eps;
        jacobian_.col(j) = (exp_coordinates::act(*alg_, plus_, y0_) - exp_coordinates::act(*alg_, minus_, y0_)) / (2 * eps);
      }
      decomposition_.setThreshold(1e-7);
      decomposition_.compute(jacobian_);
      sigma1_ -= decomposition_.solve(r_);
    }
    throw step_error(failure_reason::newton_diverged, t0_, h_, 10, norm / scale,
                     "dense output: no algebra element σ with Ad*_{exp(-σ)} y0 = y1 found near the trapezoidal "
                     "guess (a step that rotates this far needs shorter steps, or the two grid states are not on "
                     "one coadjoint orbit)");
  }

  const System* sys_;
  const algebra_type* alg_;
  vec y0_, y1_, sigma1_, v0_, v1_, g_, r_, plus_, minus_;
  // Dynamic sizes (one instantiation of the decomposition for every algebra): this runs once per
  // interpolated step, not in the step itself.
  Eigen::MatrixXd jacobian_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> decomposition_;
  double t0_ = 0, h_ = 0;
  bool ready_ = false;
};

}  // namespace geomint
