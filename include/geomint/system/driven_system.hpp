// Builder for separable systems with driven (rheonomic) constraints: H = ½ pᵀM⁻¹p + V(q),
// g(q, t) = 0, M constant — a bead on a rotating wire, a motor that prescribes a joint angle, a
// pulled distance. The constraints' functions take the time first:
//
//   Constraints: static constexpr int size (m or dynamic);  int count() const;
//                void value(t, q, out) const;            // g(q, t)
//                void jacobian(t, q, G) const;           // G = ∂g/∂q(q, t)
//                void time_derivative(t, q, out) const;  // ∂g/∂t(q, t)
//                [void hessian(t, q, λ, out) const;      // Σ_k λ_k ∇²_q g_k(q, t)]
//
// The result is a constrained system (constrained_system.hpp) that takes the time and declares
// constraint_time_derivative: the steppers that accept driven constraints (rattle,
// lobatto_iiia_iiib, constrained_symplectic_euler) integrate it in the extended phase space,
// docs/constrained.md "Driven constraints".
#pragma once

#include <type_traits>
#include <utility>

#include "geomint/system/constrained_system.hpp"
#include "geomint/system/mass.hpp"
#include "geomint/system/separable_system.hpp"

namespace geomint {

namespace detail {
template <class T, class V, class H, class = void>
struct driven_constraints_have_hessian : std::false_type {};
template <class T, class V, class H>
struct driven_constraints_have_hessian<
    T, V, H,
    std::void_t<decltype(std::declval<const T&>().hessian(0.0, std::declval<const V&>(), std::declval<const Eigen::VectorXd&>(),
                                                          std::declval<H&>()))>> : std::true_type {};
}  // namespace detail

template <int N, class Potential, class Constraints, class Mass = diagonal_mass<N>>
class driven_separable_system {
  using hessian_probe = matrix<N, N>;

 public:
  static constexpr int position_size = N;
  static constexpr int constraint_size = Constraints::size;
  static constexpr bool takes_time = true;
  using potential_type = Potential;
  using constraints_type = Constraints;
  using mass_type = Mass;

  driven_separable_system() = default;
  driven_separable_system(Mass mass, Potential potential, Constraints constraints)
      : mass_(std::move(mass)), potential_(std::move(potential)), constraints_(std::move(constraints)) {}

  int position_count() const { return mass_.size(); }
  int constraint_count() const { return constraints_.count(); }

  const Mass& mass() const { return mass_; }
  const Potential& potential() const { return potential_; }
  const Constraints& constraints() const { return constraints_; }

  template <class Q, class P>
  double hamiltonian(double, const Q& q, const P& p) const { return mass_.kinetic_energy(p) + potential_.value(q); }
  template <class Q, class P, class Out>
  void dh_dq(double, const Q& q, const P&, Out& out) const { potential_.gradient(q, out); }
  template <class Q, class P, class Out>
  void dh_dp(double, const Q&, const P& p, Out& out) const { mass_.apply_inverse(p, out); }
  template <class Q, class Out>
  void potential_gradient(double, const Q& q, Out& out) const { potential_.gradient(q, out); }

  template <class Q, class P, class Out>
  void h_qp(double, const Q&, const P&, Out& out) const { out.setZero(); }
  template <class Q, class P, class Out>
  void h_pp(double, const Q&, const P&, Out& out) const { mass_.inverse_matrix(out); }
  template <class Q, class P, class Out, class V = Potential,
            class = std::enable_if_t<detail::potential_has_hessian<V, vector<N>, hessian_probe>::value>>
  void h_qq(double, const Q& q, const P&, Out& out) const { potential_.hessian(q, out); }

  template <class Q, class Out>
  void constraint(double t, const Q& q, Out& out) const { constraints_.value(t, q, out); }
  template <class Q, class G>
  void constraint_jacobian(double t, const Q& q, G& g) const { constraints_.jacobian(t, q, g); }
  template <class Q, class Out>
  void constraint_time_derivative(double t, const Q& q, Out& out) const { constraints_.time_derivative(t, q, out); }
  template <class Q, class L, class Out, class C = Constraints,
            class = std::enable_if_t<detail::driven_constraints_have_hessian<C, vector<N>, hessian_probe>::value>>
  void constraint_hessian(double t, const Q& q, const L& lambda, Out& out) const {
    constraints_.hessian(t, q, lambda, out);
  }

 private:
  Mass mass_;
  Potential potential_;
  Constraints constraints_;
};

/// No potential (V = 0): free particles moved only by their constraints.
template <int N>
struct zero_potential {
  template <class Q> double value(const Q&) const { return 0; }
  template <class Q, class Out> void gradient(const Q&, Out& out) const { out.setZero(); }
  template <class Q, class Out> void hessian(const Q&, Out& out) const { out.setZero(); }
};

}  // namespace geomint
