// c_lie_system (the callbacks as a Lie–Poisson system, lie_poisson_system.hpp) and the
// c_lie_stepper of every Lie–Poisson method id on one algebra; included by one translation unit
// per algebra.
#pragma once

#include <nvector/nvector_serial.h>

#include <string>

#include "c_lie_model.hpp"
#include "c_system.hpp"  // callback_error
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/lie_continuous_extension.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/rkmk.hpp"
#include "sundials_handles.hpp"

namespace geomint::sundials::detail {

/// H and ∇H by the callbacks, on N_Vector views re-aimed at the steppers' Eigen data (no copies,
/// no allocation per call). The D²H Newton needs is taken by forward differences of ∇H
/// (lie_poisson_system.hpp).
template <class Algebra>
class c_lie_system {
 public:
  /// Keyed on its address (the callbacks' time changes its bytes every step; settings reset
  /// the stepper): see core/step_record.hpp.
  long parameter_version() const { return 0; }
  using algebra_type = Algebra;

  explicit c_lie_system(const c_lie_problem& pr) : pr_(&pr) {
    y_.reset(N_VMake_Serial(pr.dimension, nullptr, pr.ctx));
    out_.reset(N_VMake_Serial(pr.dimension, nullptr, pr.ctx));
    if (!y_ || !out_) throw std::bad_alloc();
  }
  c_lie_system(const c_lie_system&) = delete;
  c_lie_system& operator=(const c_lie_system&) = delete;

  /// The time the callbacks receive in the calls that follow (the Lie–Poisson methods pass each
  /// step's start time); set by the C module before a step, the system's own state.
  void at(double t) { t_ = t; }

  template <class Y>
  double hamiltonian(const Y& y) const {
    if (!pr_->hamiltonian) throw std::invalid_argument("geomint: no hamiltonian callback was given (GeomintLieInit)");
    sunrealtype h = 0;
    ++pr_->energy_evals;
    check(pr_->hamiltonian(t_, aim(y_, y.data()), &h, pr_->user_data), "hamiltonian");
    return h;
  }
  template <class Y, class Out>
  void gradient(const Y& y, Out& out) const {
    ++pr_->gradient_evals;
    check(pr_->gradient(t_, aim(y_, y.data()), aim(out_, out.data()), pr_->user_data), "grad_h");
  }

 private:
  static N_Vector aim(const vector_handle& v, const double* data) {
    NV_DATA_S(v.get()) = const_cast<double*>(data);  // a serial view made here
    return v.get();
  }
  static void check(int code, const char* name) {
    if (code != 0) throw callback_error(code, name);
  }

  const c_lie_problem* pr_;
  double t_ = 0;
  vector_handle y_, out_;
};

template <class Algebra, class Stepper>
class c_lie_stepper_impl final : public c_lie_stepper {
  using state = Eigen::Map<Eigen::VectorXd>;

 public:
  c_lie_stepper_impl(const c_lie_problem& pr, const Stepper& stepper)
      : system_(pr), stepper_(stepper), defaults_(stepper.options().newton), d_(pr.dimension) {}

  void step(double t, double dt, double* y) override {
    state x(y, d_);
    system_.at(t);
    stepper_.do_step(system_, x, t, dt);
  }
  void configure(const c_lie_settings& settings) override {
    newton_options& o = stepper_.options().newton;
    o = defaults_;
    if (settings.tolerance > 0) o.tolerance = settings.tolerance;
    if (settings.max_iterations > 0) o.max_iterations = settings.max_iterations;
  }
  const lie_statistics& statistics() const override { return stepper_.statistics(); }
  int casimir_count() const override { return Algebra::casimir_count; }
  void casimirs(const double* y, double* out) const override {
    const Eigen::Map<const Eigen::VectorXd> yv(y, d_);
    Eigen::Map<Eigen::VectorXd>(out, Algebra::casimir_count) = algebra_.casimirs(yv);
  }
  double energy(const double* y) const override { return system_.hamiltonian(Eigen::Map<const Eigen::VectorXd>(y, d_)); }
  void reset() override { stepper_.reset(); }
  void begin_interpolation(double t0, const double* y0, double t1, const double* y1) override {
    if (!extension_) extension_ = std::make_unique<lie_continuous_extension<c_lie_system<Algebra>>>(system_);
    using vec = typename Algebra::vector_type;
    system_.at(t0);  // the extension's gradients (H autonomous on a step)
    extension_->begin_step(vec(Eigen::Map<const vec>(y0)), vec(Eigen::Map<const vec>(y1)), t0, t1 - t0);
  }
  void interpolate(double t, int k, double* out) override {
    typename Algebra::vector_type y;
    extension_->evaluate(t, y, k, false);
    Eigen::Map<Eigen::VectorXd>(out, d_) = y;
  }

 private:
  std::unique_ptr<lie_continuous_extension<c_lie_system<Algebra>>> extension_;
  c_lie_system<Algebra> system_;
  Stepper stepper_;
  const newton_options defaults_;
  const Algebra algebra_{};
  const int d_;
};

template <class Algebra, class Stepper>
std::unique_ptr<c_lie_stepper> make_lie(const c_lie_problem& pr, const Stepper& stepper) {
  return std::make_unique<c_lie_stepper_impl<Algebra, Stepper>>(pr, stepper);
}

/// Every Lie–Poisson method id on Algebra (geomint_sundials.h, GeomintMethodID 200-299).
template <class Algebra>
std::unique_ptr<c_lie_stepper> make_lie_stepper(const c_lie_problem& pr, int method) {
  switch (method) {
    case GEOMINT_LIE_RKMK_RK4_EXP_4_4:
      return make_lie<Algebra>(pr, rkmk<Algebra, rk::rk4, exp_coordinates>());
    case GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4:
      return make_lie<Algebra>(pr, rkmk<Algebra, rk::rk4, cayley_coordinates>());
    case GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1:
      return make_lie<Algebra>(pr, rkmk<Algebra, rk::implicit_midpoint, exp_coordinates>());
    case GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1:
      return make_lie<Algebra>(pr, rkmk<Algebra, rk::implicit_midpoint, cayley_coordinates>());
    case GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2:
      return make_lie<Algebra>(pr, lie_discrete_gradient<Algebra, exp_coordinates, gonzalez_gradient>());
    case GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2:
      return make_lie<Algebra>(pr, lie_discrete_gradient<Algebra, cayley_coordinates, gonzalez_gradient>());
    default: return nullptr;
  }
}

}  // namespace geomint::sundials::detail
