// A constrained system in its index-1 form (geomint/system/index1.hpp) as an odeint system
// over a packed state x = (q, p) in a std::vector<double> — "what a user does today" with
// runge_kutta4 or runge_kutta_dopri5. Its solutions drift off the constraint manifold.
#pragma once

#include <utility>
#include <vector>

#include "geomint/core/state_view.hpp"
#include "geomint/system/index1.hpp"

namespace geomint::odeint_support {

template <class System>
class index1_ode {
 public:
  using state_type = std::vector<double>;

  explicit index1_ode(const System& sys) : field_(sys), n_(sys.position_count()) {}

  void operator()(const state_type& x, state_type& dxdt, double t) {
    const Eigen::Map<const Eigen::VectorXd> q(x.data(), n_), p(x.data() + n_, n_);
    Eigen::Map<Eigen::VectorXd> dq(dxdt.data(), n_), dp(dxdt.data() + n_, n_);
    field_(t, q, p, dq, dp);
  }

  /// x = (q, p) packed.
  template <class Q, class P>
  state_type pack(const Q& q, const P& p) const {
    state_type x(2 * n_);
    Eigen::Map<Eigen::VectorXd>(x.data(), n_) = q;
    Eigen::Map<Eigen::VectorXd>(x.data() + n_, n_) = p;
    return x;
  }
  Eigen::Map<const Eigen::VectorXd> positions(const state_type& x) const { return {x.data(), n_}; }
  Eigen::Map<const Eigen::VectorXd> momenta(const state_type& x) const { return {x.data() + n_, n_}; }

 private:
  index1_vector_field<System> field_;
  Eigen::Index n_;
};

}  // namespace geomint::odeint_support
