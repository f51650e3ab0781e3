// Glue between geomint's Hamiltonian problem objects (constrained_system.hpp concept, states
// std::pair<Q, P>) and the command's type-erased interface (registry.hpp):
//
//   hamiltonian_problem<System>  a problem_instance: the system, its initial state and its
//                                invariants (H, scaled g and hidden-constraint residuals from
//                                consistency.hpp, named momentum maps)
//   stepper_runner<System, Stepper>  a runner stepping a copy of the initial state
//   runner_for<Stepper, System>()    the factory a family registers for one (method, problem)
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/registry.hpp"
#include "geomint/dense_output.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint::cli {

/// (q, p) → [q; p]
template <class State>
void pack(const State& x, std::vector<double>& out) {
  const Eigen::Index n1 = x.first.size(), n2 = x.second.size();
  out.resize(static_cast<std::size_t>(n1 + n2));
  Eigen::Map<Eigen::VectorXd>(out.data(), n1) = x.first;
  Eigen::Map<Eigen::VectorXd>(out.data() + n1, n2) = x.second;
}

/// Σ_k (x_k × p_k)·e_z over the point masses of q = (x_1, x_2, …) ∈ ℝ³ᴺ: the angular momentum
/// about the vertical axis, the momentum map of rotations about it.
inline double vertical_angular_momentum(const Eigen::VectorXd& q, const Eigen::VectorXd& p) {
  double l = 0;
  for (Eigen::Index k = 0; k + 2 < q.size(); k += 3) l += q(k) * p(k + 1) - q(k + 1) * p(k);
  return l;
}

/// A value that must be > 0 (usage_error otherwise).
inline double positive(const parameter_values& v, const std::string& name) {
  const double x = v[name];
  if (!(x > 0)) throw usage_error("--set " + name + ": must be > 0, got " + format_number(x));
  return x;
}

/// The double spherical pendulum's masses, rods and gravity from --set m1, m2, l1, l2, gravity
/// (shared by its absolute-coordinate and S² × S² forms).
inline problems::double_spherical_pendulum_parameters double_pendulum_parameters(const parameter_values& v) {
  problems::double_spherical_pendulum_parameters p;
  p.m1 = positive(v, "m1");
  p.m2 = positive(v, "m2");
  p.l1 = positive(v, "l1");
  p.l2 = positive(v, "l2");
  p.gravity = v["gravity"];
  return p;
}

template <class System>
class hamiltonian_problem final : public problem_instance {
 public:
  using state_type = typename System::state_type;
  using scalar_map = std::function<double(const Eigen::VectorXd& q, const Eigen::VectorXd& p)>;
  struct named_map {
    std::string name;
    scalar_map value;
  };

  /// Rejects (usage_error) an initial state that is not finite or off the constraint manifold
  /// (scaled residuals above 1e-10, the steppers' consistency tolerance).
  hamiltonian_problem(System sys, state_type x0, std::vector<named_map> momenta = {})
      : sys_(std::move(sys)), x0_(std::move(x0)), momenta_(std::move(momenta)) {
    if (!x0_.first.allFinite() || !x0_.second.allFinite())
      throw usage_error("the initial data give a non-finite state (a position off the constraint, e.g. a "
                        "horizontal offset longer than the rod?)");
    if (sys_.constraint_count() > 0) {
      const constraint_residuals r = constraint_residuals_of(sys_, x0_.first, x0_.second);
      if (r.position > 1e-10 || r.velocity > 1e-10) throw usage_error(detail::describe_residuals(r, 1e-10));
    }
  }

  const System& system() const { return sys_; }
  const state_type& start() const { return x0_; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    const Eigen::Index n = x0_.first.size(), np = x0_.second.size();
    for (Eigen::Index i = 0; i < n; ++i) names.push_back("q" + std::to_string(i + 1));
    for (Eigen::Index i = 0; i < np; ++i) names.push_back("p" + std::to_string(i + 1));
    return names;
  }
  std::vector<invariant> invariants() const override {
    std::vector<invariant> inv{{"energy", invariant_kind::energy}};
    if (sys_.constraint_count() > 0) {
      inv.push_back({"constraint", invariant_kind::constraint});
      inv.push_back({"hidden_constraint", invariant_kind::hidden_constraint});
    }
    for (const auto& m : momenta_) inv.push_back({m.name, invariant_kind::momentum});
    return inv;
  }
  std::vector<double> initial_state() const override {
    std::vector<double> s;
    pack(x0_, s);
    return s;
  }
  void evaluate_invariants(const std::vector<double>& s, std::vector<double>& out) const override {
    const Eigen::Index n = x0_.first.size();
    q_ = Eigen::Map<const Eigen::VectorXd>(s.data(), n);
    p_ = Eigen::Map<const Eigen::VectorXd>(s.data() + n, static_cast<Eigen::Index>(s.size()) - n);
    out.clear();
    out.push_back(sys_.hamiltonian(q_, p_));
    if (sys_.constraint_count() > 0) {
      const constraint_residuals r = constraint_residuals_of(sys_, q_, p_);
      out.push_back(r.position);
      out.push_back(r.velocity);
    }
    for (const auto& m : momenta_) out.push_back(m.value(q_, p_));
  }

 private:
  System sys_;
  state_type x0_;
  std::vector<named_map> momenta_;
  mutable Eigen::VectorXd q_, p_;
};

/// Steps through dense_output<Stepper>: the same steps (bit for bit) as the plain stepper, and
/// the continuous extension of the last one for sections.
template <class System, class Stepper>
class stepper_runner final : public runner {
 public:
  stepper_runner(const System& sys, typename Stepper::state_type x0) : sys_(sys), x0_(std::move(x0)), x_(x0_) {}
  void step(double t, double dt) override {
    if (!started_) {
      dense_.initialize(x0_, t, dt);
      started_ = true;
    }
    dense_.do_step(sys_);
  }
  void state(std::vector<double>& out) const override { pack(started_ ? dense_.current_state() : x0_, out); }
  void interpolate(double t, std::vector<double>& out) override {
    dense_.calc_state(t, x_);
    pack(x_, out);
  }

 private:
  System sys_;
  typename Stepper::state_type x0_, x_;
  dense_output<Stepper> dense_;
  bool started_ = false;
};

/// The problem_instance of a registered Hamiltonian problem (registration guarantees the type).
template <class System>
const hamiltonian_problem<System>& as_problem(const problem_instance& p) {
  return dynamic_cast<const hamiltonian_problem<System>&>(p);
}

/// Factory of a Stepper on System, both stepping System's own state_type.
template <class Stepper, class System>
runner_factory runner_for() {
  return [](const problem_instance& p) -> std::unique_ptr<runner> {
    const auto& problem = as_problem<System>(p);
    return std::make_unique<stepper_runner<System, Stepper>>(problem.system(), problem.start());
  };
}

}  // namespace geomint::cli
