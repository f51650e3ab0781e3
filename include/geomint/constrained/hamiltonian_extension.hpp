// The continuous extension of a step of a constrained Hamiltonian system
// (q̇ = ∂H/∂p, ṗ = −∂H/∂q − Gᵀλ + f): Hermite interpolation on [t0, t0 + h] with the exact
// derivatives at both ends, λ from the index-1 condition (system/index1.hpp) — cubic (error
// O(h⁴)) for methods of order ≤ 3, quintic (O(h⁶), second derivatives by a central difference of
// the vector field along itself) above; optionally projected onto the constraint manifold. The
// constrained family's steppers name it (dense_output.hpp); the C module uses it directly.
// Derivatives are computed on the first evaluation in a step, and the end derivatives serve as
// the next step's start derivatives when that step continues this one.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <memory>

#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/core/state_view.hpp"
#include "geomint/solvers/hermite.hpp"
#include "geomint/system/index1.hpp"

namespace geomint {

template <class System, class State>
class hamiltonian_extension {
 public:
  /// The extension for a method of the given order.
  hamiltonian_extension(const System& sys, const State& shape, int order)
      : sys_(&sys), field_(sys), n_(sys.position_count()), quintic_(order >= 4),
        projection_(std::make_unique<manifold_projection<System>>(sys)) {
    const Eigen::Index k = detail::flat_size(shape);
    for (Eigen::VectorXd* v : {&y0_, &y1_, &d0_, &d1_, &a0_, &a1_, &work_, &f_, &g_, &out_}) v->resize(k);
  }
  template <class Stepper>
  hamiltonian_extension(const Stepper& stepper, const System& sys, const State& shape)
      : hamiltonian_extension(sys, shape, stepper.order()) {}

  /// A new step [t0, t0 + h] from x0 to x1. `continued`: the step continued the last one (same
  /// system value); its end derivatives then become this step's start derivatives if the step
  /// also starts where it ended, in time and in state.
  void begin_step(const State& x0, const State& x1, double t0, double h, bool continued) {
    detail::flatten(x0, y0_);
    const bool continues = continued && have_end_ && t0 == t1_ && y0_ == y1_;
    if (continues) {
      d0_.swap(d1_);
      a0_.swap(a1_);
    }
    have_start_ = continues;
    have_end_ = false;
    detail::flatten(x1, y1_);
    t0_ = t0;
    h_ = h;
    t1_ = t0 + h;
  }

  /// x (k = 0) or ẋ (k = 1) at t ∈ [t0, t0 + h]; project: onto the constraint manifold (k = 0).
  void evaluate(double t, State& x, int k, bool project) {
    if (!have_start_) derivatives(t0_, y0_, d0_, a0_);
    if (!have_end_) derivatives(t1_, y1_, d1_, a1_);
    have_start_ = have_end_ = true;
    const double s = (t - t0_) / h_;
    const hermite_weights w = quintic_ ? quintic_hermite(s) : cubic_hermite(s);
    const auto& c = k == 0 ? w.value : w.slope;
    out_ = c[0] * y0_ + (c[1] * h_) * d0_ + (c[4] * h_) * d1_ + c[5] * y1_;
    if (quintic_) out_ += (c[2] * h_ * h_) * a0_ + (c[3] * h_ * h_) * a1_;
    if (k == 1) out_ /= h_;
    detail::unflatten(out_, x);
    if (project && k == 0) {
      projection_options opt;
      opt.t = t;
      projection_->project(*sys_, x.first, x.second, opt);
    }
  }

 private:
  /// ẏ = (q̇, ṗ) at (t, y).
  void field(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
    q_ = y.head(n_);
    p_ = y.tail(n_);
    field_(t, q_, p_, dq_, dp_);
    dy.head(n_) = dq_;
    dy.tail(n_) = dp_;
  }
  /// ẏ at (t, y), and for the quintic ÿ = ∂f/∂y f + ∂f/∂t by a central difference along (f, 1).
  /// The difference moves y by 1e-5 of its size, and t by at most 1e-3 of the step: a state at
  /// rest under a time-dependent force has f = 0 but ÿ = ∂f/∂t ≠ 0, and a force the step
  /// resolves (ω|h| ≲ 1) changes little over 1e-3|h| (truncation (ω eps)²/6 ≤ 2e-7 relative).
  void derivatives(double t, const Eigen::VectorXd& y, Eigen::VectorXd& d, Eigen::VectorXd& a) {
    field(t, y, d);
    if (!quintic_) return;
    const double eps = std::fmin(1e-5 * std::fmax(1.0, y.cwiseAbs().maxCoeff()) / d.cwiseAbs().maxCoeff(),
                                 1e-3 * std::fabs(h_));
    work_ = y + eps * d;
    field(t + eps, work_, f_);
    work_ = y - eps * d;
    field(t - eps, work_, g_);
    a = (f_ - g_) / (2 * eps);
  }

  const System* sys_;
  index1_vector_field<System> field_;
  int n_;
  bool quintic_;
  std::unique_ptr<manifold_projection<System>> projection_;
  vector<system_traits<System>::n> q_, p_, dq_, dp_;
  Eigen::VectorXd y0_, y1_, d0_, d1_, a0_, a1_, work_, f_, g_, out_;
  double t0_ = 0, t1_ = 0, h_ = 0;
  bool have_start_ = false, have_end_ = false;
};

}  // namespace geomint
