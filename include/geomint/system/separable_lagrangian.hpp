// A separable constrained Hamiltonian system H = ½pᵀM⁻¹p + V(q) (separable_system.hpp) seen as the
// Lagrangian system L = ½q̇ᵀMq̇ − V(q) with the same constraints (lagrangian_system.hpp), so one
// problem object feeds the constrained steppers, shake and the variational steppers alike.
//
// The view refers to the system (which must outlive it) and holds M = (M⁻¹)⁻¹, computed once.
// ∂²V comes from the system's h_qq when it has one, else from forward differences of ∇V; the
// view keeps the scratch for those, so use one view per thread.
#pragma once

#include <Eigen/LU>

#include "geomint/system/constrained_system.hpp"
#include "geomint/system/lagrangian_system.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {

namespace detail {
/// What shake and the variational steppers need of a system, checked where they take one
/// (`static_assert(takes_variational_system<System>::value)`).
template <class System>
struct takes_variational_system {
  using traits = system_traits<System>;
  static_assert(traits::separable,
                "geomint: shake and the variational steppers need a separable system (H = ½pᵀM⁻¹p + V(q))");
  static_assert(!traits::sparse_jacobian, "geomint: shake and the variational steppers need a dense constraint Jacobian");
  static_assert(!traits::has_force,
                "geomint: shake and the variational steppers integrate conservative systems only: the force "
                "(with_force, with_position_force) would be ignored; use rattle or lobatto_iiia_iiib");
  static_assert(!traits::rheonomic, "geomint: shake (and the variational steppers) does not take driven constraints (constraint_time_derivative); rattle, lobatto_iiia_iiib and constrained_symplectic_euler do");
  static constexpr bool value = true;
};
}  // namespace detail

template <class System>
class lagrangian_view {
  using traits = system_traits<System>;
  static_assert(detail::takes_variational_system<System>::value);

 public:
  static constexpr int position_size = traits::n;
  static constexpr int constraint_size = traits::m;

  explicit lagrangian_view(const System& sys) : sys_(&sys) {
    const int n = sys.position_count();
    matrix<traits::n, traits::n> minv(n, n);
    sys.mass().inverse_matrix(minv);
    mass_ = minv.inverse();
    zero_ = vector<traits::n>::Zero(n);
    second_.resize(n);
  }

  int position_count() const { return sys_->position_count(); }
  int constraint_count() const { return sys_->constraint_count(); }
  const System& system() const { return *sys_; }
  /// The constant mass matrix M.
  const matrix<traits::n, traits::n>& mass() const { return mass_; }

  template <class Q, class V>
  double lagrangian(const Q& q, const V& v) const {
    return 0.5 * v.dot(mass_ * v) - sys_->hamiltonian(q, zero_);
  }
  template <class Q, class V, class DQ, class DV>
  void lagrangian_gradient(const Q& q, const V& v, DQ& dq, DV& dv) const {
    sys_->potential_gradient(q, dq);
    dq = -dq;
    dv.noalias() = mass_ * v;
  }
  template <class Q, class V, class QQ, class QV, class VV>
  void lagrangian_hessian(const Q& q, const V&, QQ& qq, QV& qv, VV& vv) const {
    second_.h_qq(system_at<System>(*sys_, 0.0), q, zero_, qq);  // ∂²H/∂q² = ∂²V (a system of the variational family does not take the time)
    qq = -qq;
    qv.setZero();
    vv = mass_;
  }
  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { sys_->constraint(q, out); }
  template <class Q, class J>
  void constraint_jacobian(const Q& q, J& jac) const { sys_->constraint_jacobian(q, jac); }

 private:
  const System* sys_;
  matrix<traits::n, traits::n> mass_;
  vector<traits::n> zero_;
  mutable detail::second_derivatives<System> second_;
};

}  // namespace geomint
