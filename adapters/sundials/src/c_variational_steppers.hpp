// The variational family in the C API's (q, p) lifecycle, for separable systems with a dense G
// seen as Lagrangian systems (geomint/system/separable_lagrangian.hpp):
//
//   variational_midpoint_stepper   the one-step DEL map (Marsden–Wendlandt 1997, §6, eqs. (44)–(46))
//   shake_stepper                  SHAKE, the two-step form (q_{k−1}, q_k) ↦ (q_k, q_{k+1}) of the
//                                  same equations, behind a (q, p) interface
//
// Both map the C API's settings onto variational_options (stage tolerance and iteration limit:
// newton_options; consistency tolerance) and their counters onto constrained_statistics.
#pragma once

#include <Eigen/Core>
#include <utility>

#include "c_model.hpp"
#include "c_state_view.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/legendre.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

namespace geomint::sundials::detail {

inline void apply(const constrained_options& from, variational_options& to) {
  to.newton = from.newton;
  to.consistency_tolerance = from.consistency_tolerance;
}

inline void accumulate(const variational_statistics& from, constrained_statistics& to) {
  to.steps += from.steps;
  to.newton.solves += from.newton.solves;
  to.newton.iterations += from.newton.iterations;
  to.newton.jacobian_updates += from.newton.jacobian_updates;
  to.newton.full_newton_fallbacks += from.newton.full_newton_fallbacks;
}

template <class System>
class variational_midpoint_stepper final : public c_stepper {
 public:
  explicit variational_midpoint_stepper(const System& system) : system_(system), lagrangian_(system_) {}
  void step(double t, double dt, double* q, double* p) override {
    const int n = system_.position_count();
    state_view x{Eigen::Map<Eigen::VectorXd>(q, n), Eigen::Map<Eigen::VectorXd>(p, n)};
    system_.at(t);
    stepper_.do_step(lagrangian_, x, t, dt);
  }
  void configure(const constrained_options& options) override { apply(options, stepper_.options()); }
  constrained_statistics statistics() const override {
    constrained_statistics s;
    accumulate(stepper_.statistics(), s);
    return s;
  }
  bool uses_linear_solver() const override { return false; }
  int stages() const override { return 0; }
  void reset() override { stepper_.reset(); }

 private:
  c_at_time<System> system_;  // the callbacks at the step's start time
  const lagrangian_view<c_at_time<System>> lagrangian_;
  variational_midpoint<state_view> stepper_;
};

/// SHAKE behind (q, p). The stepper keeps the pair (q_{k−1}, q_k) of its last step and the
/// (q, p) it returned. A call continuing that step (same (q, p) bit for bit, same dt) is one
/// SHAKE step, after which p_{k+1} is the discrete Legendre transform (eq. (31)) of
/// (q_k, q_{k+1}) projected onto the phase space (momentum_from_positions). Any other call
/// starts afresh: one variational-midpoint step from (q, p) gives q_1 (the one-step form's
/// positions are the two-step form's, discrete_euler_lagrange.hpp) and p_1.
/// Every buffer is a member, sized by the first call: no allocation per step afterwards.
template <class System>
class shake_stepper final : public c_stepper {
 public:
  explicit shake_stepper(const System& system) : system_(system), lagrangian_(system_) {}

  void step(double t, double dt, double* q, double* p) override {
    const int n = system_.position_count();
    Eigen::Map<Eigen::VectorXd> qm(q, n), pm(p, n);
    system_.at(t);
    const bool continuing = valid_ && dt == dt_ && (qm.array() == q_out_.array()).all() &&
                            (pm.array() == p_out_.array()).all();
    if (continuing) {
      work_ = pair_;  // shake leaves work_ as it was on failure; pair_ is only replaced on success
      shake_.do_step(system_, work_, t, dt);
      legendre_(lagrangian_, work_.first, work_.second, dt, p1_);
      pair_ = work_;
      qm = pair_.second;
      pm = p1_;
    } else {
      valid_ = false;
      start_.first = qm;
      start_.second = pm;
      starter_.do_step(lagrangian_, start_, t, dt);
      pair_.first = qm;
      pair_.second = start_.first;
      qm = start_.first;
      pm = start_.second;
    }
    q_out_ = qm;
    p_out_ = pm;
    dt_ = dt;
    valid_ = true;
  }
  void configure(const constrained_options& options) override {
    apply(options, shake_.options());
    apply(options, starter_.options());
  }
  constrained_statistics statistics() const override {
    constrained_statistics s;
    accumulate(shake_.statistics(), s);
    accumulate(starter_.statistics(), s);
    return s;
  }
  bool uses_linear_solver() const override { return false; }
  int stages() const override { return 0; }
  void reset() override {
    shake_.reset();
    starter_.reset();
    valid_ = false;
  }

 private:
  c_at_time<System> system_;  // the callbacks at the step's start time
  const lagrangian_view<c_at_time<System>> lagrangian_;
  shake<std::pair<Eigen::VectorXd, Eigen::VectorXd>> shake_;
  variational_midpoint<std::pair<Eigen::VectorXd, Eigen::VectorXd>> starter_;
  discrete_legendre_transform<midpoint_discrete_lagrangian, lagrangian_view<c_at_time<System>>> legendre_;
  std::pair<Eigen::VectorXd, Eigen::VectorXd> pair_, work_;  // (q_{k−1}, q_k)
  std::pair<Eigen::VectorXd, Eigen::VectorXd> start_;        // (q, p) of a fresh start
  Eigen::VectorXd q_out_, p_out_, p1_;
  double dt_ = 0;
  bool valid_ = false;
};

}  // namespace geomint::sundials::detail
