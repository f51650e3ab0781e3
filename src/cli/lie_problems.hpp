// Lie–Poisson problems for the command (lie/lie_poisson_system.hpp concept): the state is
// y ∈ g*, the invariants are H and the algebra's Casimirs. for_each_lie_problem(f) lists them
// for the method and reference translation units: f(type_tag<System>{}, "kebab-name").
#pragma once

#include "cli/constrained_problems.hpp"  // type_tag
#include "cli/registry.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"

namespace geomint::cli {

template <class System>
class lie_poisson_problem final : public problem_instance {
 public:
  using state_type = typename System::state_type;

  lie_poisson_problem(const System& sys, const state_type& y0) : sys_(sys), y0_(y0) {
    if (!y0_.allFinite()) throw usage_error("the initial data give a non-finite state");
  }
  const System& system() const { return sys_; }
  const state_type& start() const { return y0_; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (Eigen::Index i = 0; i < y0_.size(); ++i) n.push_back("y" + std::to_string(i + 1));
    return n;
  }
  std::vector<invariant> invariants() const override {
    std::vector<invariant> inv{{"energy", invariant_kind::energy}};
    const auto c = geomint::detail::algebra_of(sys_).casimirs(y0_);
    for (Eigen::Index i = 0; i < c.size(); ++i) inv.push_back({"casimir" + std::to_string(i + 1), invariant_kind::casimir});
    return inv;
  }
  std::vector<double> initial_state() const override { return std::vector<double>(y0_.data(), y0_.data() + y0_.size()); }
  void evaluate_invariants(const std::vector<double>& s, std::vector<double>& out) const override {
    const state_type y = Eigen::Map<const Eigen::VectorXd>(s.data(), static_cast<Eigen::Index>(s.size()));
    const auto c = geomint::detail::algebra_of(sys_).casimirs(y);
    out.assign(1, sys_.hamiltonian(y));
    for (Eigen::Index i = 0; i < c.size(); ++i) out.push_back(c(i));
  }

 private:
  System sys_;
  state_type y0_;
};

template <class System>
const lie_poisson_problem<System>& as_lie_problem(const problem_instance& p) {
  return dynamic_cast<const lie_poisson_problem<System>&>(p);
}

/// Steps y ∈ g* with a Lie–Poisson stepper.
template <class System, class Stepper>
class lie_runner final : public runner {
 public:
  lie_runner(const System& sys, const typename System::state_type& y0) : sys_(sys), y0_(y0), y_(y0) {}
  void step(double t, double dt) override {
    if (!started_) {
      dense_.initialize(y0_, t, dt);
      started_ = true;
    }
    dense_.do_step(std::cref(sys_));
  }
  void state(std::vector<double>& out) const override {
    const auto& y = started_ ? dense_.current_state() : y0_;
    out.assign(y.data(), y.data() + y.size());
  }
  /// On the coadjoint orbit (lie_continuous_extension.hpp; algebras of dimension ≤ 64).
  void interpolate(double t, std::vector<double>& out) override {
    try {
      dense_.calc_state(t, y_);
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
    out.assign(y_.data(), y_.data() + y_.size());
  }

 private:
  const System& sys_;  // the problem instance's, which outlives the runner
  typename System::state_type y0_, y_;
  dense_output<Stepper> dense_;
  bool started_ = false;
};

template <class Stepper, class System>
runner_factory lie_runner_for() {
  return [](const problem_instance& p) -> std::unique_ptr<runner> {
    const auto& problem = as_lie_problem<System>(p);
    return std::make_unique<lie_runner<System, Stepper>>(problem.system(), problem.start());
  };
}

using sine_euler_su3 = problems::sine_euler<3>;
using rigid_body_so5 = problems::rigid_body_so_n<5>;

template <class F>
void for_each_lie_problem(F&& f) {
  f(type_tag<problems::free_rigid_body>{}, "free-rigid-body");
  f(type_tag<problems::heavy_top_se3>{}, "heavy-top-se3");
  f(type_tag<rigid_body_so5>{}, "rigid-body-so5");
  f(type_tag<sine_euler_su3>{}, "sine-euler-su3");
}

}  // namespace geomint::cli
