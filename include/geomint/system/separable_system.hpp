// Builder for separable constrained systems H = ½ pᵀM⁻¹p + V(q), g(q) = 0, M constant.
//
//   Potential:   double value(q) const;  void gradient(q, out) const;  [void hessian(q, out) const;]
//   Constraints: static constexpr int size (m or dynamic);  int count() const;
//                void value(q, out) const;  void jacobian(q, G) const;
//                [void hessian(q, λ, out) const;   // Σ_k λ_k ∇²g_k(q)]
//                [using jacobian_type = ...;       // e.g. Eigen::SparseMatrix<double, Eigen::RowMajor>]
//
// The result satisfies the constrained system concept (constrained_system.hpp) and exposes the
// separable structure, so RATTLE needs one m × m nonlinear solve for the positions and one
// linear m × m solve for the momenta per step.
#pragma once

#include <type_traits>
#include <utility>

#include "geomint/system/constrained_system.hpp"
#include "geomint/system/mass.hpp"

namespace geomint {

namespace detail {
template <class T, class V, class H, class = void>
struct potential_has_hessian : std::false_type {};
template <class T, class V, class H>
struct potential_has_hessian<T, V, H, std::void_t<decltype(std::declval<const T&>().hessian(std::declval<const V&>(), std::declval<H&>()))>>
    : std::true_type {};

template <class T, class V, class H, class = void>
struct constraints_have_hessian : std::false_type {};
template <class T, class V, class H>
struct constraints_have_hessian<T, V, H, std::void_t<decltype(std::declval<const T&>().hessian(std::declval<const V&>(), std::declval<const Eigen::VectorXd&>(), std::declval<H&>()))>>
    : std::true_type {};

template <class C, int M, int N, class = void>
struct constraint_jacobian_of {
  using type = matrix<M, N>;
};
template <class C, int M, int N>
struct constraint_jacobian_of<C, M, N, std::void_t<typename C::jacobian_type>> {
  using type = typename C::jacobian_type;
};
}  // namespace detail

template <int N, class Potential, class Constraints, class Mass = diagonal_mass<N>>
class separable_system {
  using hessian_probe = matrix<N, N>;

 public:
  static constexpr int position_size = N;
  static constexpr int constraint_size = Constraints::size;
  using constraint_jacobian_type =
      typename detail::constraint_jacobian_of<Constraints, constraint_size, N>::type;
  using potential_type = Potential;
  using constraints_type = Constraints;
  using mass_type = Mass;

  separable_system() = default;
  separable_system(Mass mass, Potential potential, Constraints constraints)
      : mass_(std::move(mass)), potential_(std::move(potential)), constraints_(std::move(constraints)) {}

  int position_count() const { return mass_.size(); }
  int constraint_count() const { return constraints_.count(); }

  const Mass& mass() const { return mass_; }
  const Potential& potential() const { return potential_; }
  const Constraints& constraints() const { return constraints_; }
  Potential& potential() { return potential_; }
  Constraints& constraints() { return constraints_; }

  template <class Q, class P>
  double hamiltonian(const Q& q, const P& p) const { return mass_.kinetic_energy(p) + potential_.value(q); }
  template <class Q, class P, class Out>
  void dh_dq(const Q& q, const P&, Out& out) const { potential_.gradient(q, out); }
  template <class Q, class P, class Out>
  void dh_dp(const Q&, const P& p, Out& out) const { mass_.apply_inverse(p, out); }

  template <class Q, class Out>
  void potential_gradient(const Q& q, Out& out) const { potential_.gradient(q, out); }

  template <class Q, class P, class Out>
  void h_qp(const Q&, const P&, Out& out) const { out.setZero(); }
  template <class Q, class P, class Out>
  void h_pp(const Q&, const P&, Out& out) const { mass_.inverse_matrix(out); }
  template <class Q, class P, class Out, class V = Potential,
            class = std::enable_if_t<detail::potential_has_hessian<V, vector<N>, hessian_probe>::value>>
  void h_qq(const Q& q, const P&, Out& out) const { potential_.hessian(q, out); }

  template <class Q, class Out>
  void constraint(const Q& q, Out& out) const { constraints_.value(q, out); }
  template <class Q, class G>
  void constraint_jacobian(const Q& q, G& g) const { constraints_.jacobian(q, g); }
  template <class Q, class L, class Out, class C = Constraints,
            class = std::enable_if_t<detail::constraints_have_hessian<C, vector<N>, hessian_probe>::value>>
  void constraint_hessian(const Q& q, const L& lambda, Out& out) const { constraints_.hessian(q, lambda, out); }

 private:
  Mass mass_;
  Potential potential_;
  Constraints constraints_;
};

/// No constraints (m = 0): the constrained steppers then reduce to their unconstrained forms
/// (RATTLE becomes velocity Verlet).
template <int N>
struct no_constraints {
  static constexpr int size = 0;
  int count() const { return 0; }
  template <class Q, class Out>
  void value(const Q&, Out&) const {}
  template <class Q, class G>
  void jacobian(const Q&, G&) const {}
  template <class Q, class L, class Out>
  void hessian(const Q&, const L&, Out& out) const { out.setZero(); }
};

template <int N, class Potential, class Constraints>
separable_system<N, Potential, Constraints, diagonal_mass<N>> make_separable_system(
    diagonal_mass<N> mass, Potential v, Constraints g) {
  return {std::move(mass), std::move(v), std::move(g)};
}
template <int N, class Potential, class Constraints>
separable_system<N, Potential, Constraints, dense_mass<N>> make_separable_system(
    dense_mass<N> mass, Potential v, Constraints g) {
  return {std::move(mass), std::move(v), std::move(g)};
}

}  // namespace geomint
