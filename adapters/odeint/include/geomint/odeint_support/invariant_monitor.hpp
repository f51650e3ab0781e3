// An odeint observer recording how well a trajectory keeps the structure of a constrained
// system: energy error, constraint and hidden-constraint residuals (scaled, see
// geomint/system/consistency.hpp) and, optionally, a momentum map. It observes geomint states
// std::pair<Q, P> and packed (q, p) vectors of the index-1 ODE alike. Copies share the record,
// so it survives odeint passing observers by value.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "geomint/system/consistency.hpp"

namespace geomint::odeint_support {

struct invariant_sample {
  double t = 0;
  double energy_error = 0;        ///< H − H(first sample)
  double position_residual = 0;   ///< scaled |g(q)|
  double velocity_residual = 0;   ///< scaled |G ∂H/∂p|
  double momentum_error = 0;      ///< J − J(first sample), if a momentum map is given
};

struct invariant_record {
  std::vector<invariant_sample> samples;
  double reference_energy = 0, reference_momentum = 0;  ///< at the first sample
  double max_energy_error() const { return max_of(&invariant_sample::energy_error); }
  double max_position_residual() const { return max_of(&invariant_sample::position_residual); }
  double max_velocity_residual() const { return max_of(&invariant_sample::velocity_residual); }
  double max_momentum_error() const { return max_of(&invariant_sample::momentum_error); }

 private:
  double max_of(double invariant_sample::*field) const {
    double m = 0;
    for (const auto& s : samples) m = std::fmax(m, std::fabs(s.*field));
    return m;
  }
};

template <class System>
class invariant_monitor {
 public:
  using momentum_map = std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)>;

  explicit invariant_monitor(const System& sys, momentum_map momentum = {})
      : sys_(&sys), momentum_(std::move(momentum)), record_(std::make_shared<invariant_record>()) {}

  /// Observer for std::pair<Q, P> states.
  template <class Q, class P>
  void operator()(const std::pair<Q, P>& x, double t) {
    observe(view(x.first), view(x.second), t);
  }
  /// Observer for packed (q, p) states of the index-1 ODE.
  void operator()(const std::vector<double>& x, double t) {
    const Eigen::Index n = sys_->position_count();
    observe(Eigen::Map<const Eigen::VectorXd>(x.data(), n), Eigen::Map<const Eigen::VectorXd>(x.data() + n, n), t);
  }

  const invariant_record& record() const { return *record_; }

 private:
  template <class Q, class P>
  void observe(const Q& q_in, const P& p_in, double t) {
    const Eigen::VectorXd q = q_in, p = p_in;
    invariant_sample s;
    s.t = t;
    const double h = sys_->hamiltonian(q, p);
    const double j = momentum_ ? momentum_(q, p) : 0.0;
    if (record_->samples.empty()) {
      record_->reference_energy = h;
      record_->reference_momentum = j;
    }
    s.energy_error = h - record_->reference_energy;
    s.momentum_error = j - record_->reference_momentum;
    const constraint_residuals r = constraint_residuals_of(*sys_, q, p);
    s.position_residual = r.position;
    s.velocity_residual = r.velocity;
    record_->samples.push_back(s);
  }

  const System* sys_;
  momentum_map momentum_;
  std::shared_ptr<invariant_record> record_;
};

}  // namespace geomint::odeint_support
