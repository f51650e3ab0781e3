// The Lie–Poisson system concept: a Hamiltonian H on g*, with ẏ = J(y)∇H(y) = −ad*_{∇H(y)} y
// (sign convention: algebra.hpp). A system is any class with
//
//   using algebra_type = so3;                 // or se3, so_n<N>, su_n<N>, structure_constants<D>
//   double hamiltonian(y) const;              // y: an Eigen vector (or map) of size d
//   void   gradient(y, out) const;            // ∇H(y) ∈ g (out: a vector of size d)
//
// and optionally
//
//   const algebra_type& algebra() const;      // default: a default-constructed algebra_type
//   void hessian(y, out) const;               // D²H(y), d × d; forward differences of ∇H
//                                             //   otherwise (they only shape Newton's matrix)
//
// Steppers take the state as an Eigen vector, std::array<double, d> or std::vector<double>.
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "geomint/core/state_view.hpp"
#include "geomint/solvers/solver_options.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/lie/algebra.hpp"
#include "geomint/lie/algebra_concept.hpp"

namespace geomint {

namespace detail {

template <class S, class = void>
struct has_algebra : std::false_type {};
template <class S>
struct has_algebra<S, std::void_t<decltype(std::declval<const S&>().algebra())>> : std::true_type {};

template <class S, class = void>
struct has_hessian : std::false_type {};
template <class S>
struct has_hessian<S, std::void_t<decltype(std::declval<const S&>().hessian(
                          std::declval<const typename S::algebra_type::vector_type&>(),
                          std::declval<typename S::algebra_type::operator_type&>()))>> : std::true_type {};

template <class S>
const typename S::algebra_type& algebra_of(const S& s) {
  if constexpr (has_algebra<S>::value) {
    return s.algebra();
  } else {
    static const typename S::algebra_type a{};
    return a;
  }
}

/// The vectors of hessian()'s forward differences (sized on first use).
template <class V>
struct hessian_buffers {
  V x, g0, g1;
};

/// D²H(y): the system's own, or forward differences of ∇H (√ε steps) in b's vectors.
template <class S, class Y, class Out>
void hessian(const S& s, const Y& y, Out& out, hessian_buffers<typename S::algebra_type::vector_type>& b) {
  if constexpr (has_hessian<S>::value) {
    s.hessian(y, out);
  } else {
    const int d = static_cast<int>(y.size());
    b.x = y;
    b.g0.resize(d);
    b.g1.resize(d);
    s.gradient(b.x, b.g0);
    const double scale = std::fmax(y.cwiseAbs().maxCoeff(), 1e-300);
    for (int j = 0; j < d; ++j) {
      const double h = std::sqrt(std::numeric_limits<double>::epsilon()) * std::fmax(std::fabs(y(j)), scale);
      b.x(j) = y(j) + h;
      s.gradient(b.x, b.g1);
      out.col(j) = (b.g1 - b.g0) / h;
      b.x(j) = y(j);
    }
  }
}

/// Rejects a state whose size differs from the algebra's dimension.
template <class State>
void require_state_size(const State& x, int expected, const char* algebra) {
  if (static_cast<int>(x.size()) != expected)
    throw std::invalid_argument(std::string("geomint: the Lie–Poisson state has ") + std::to_string(x.size()) +
                                " entries, but the algebra " + algebra + " has dimension " +
                                std::to_string(expected));
}

/// check_system for an algebra that has every member of the concept.
template <class System, class Algebra, class State>
auto check_algebra_system(const System& sys, const State& x) {
  constexpr bool same_algebra = std::is_same<typename System::algebra_type, Algebra>::value;
  constexpr bool fits = size_fits(state_size<State>::value, Algebra::dimension);
  static_assert(same_algebra, "geomint: the system's algebra_type differs from the stepper's algebra");
  static_assert(fits, "geomint: the state's compile-time size differs from the algebra's dimension");
  require_state_size(x, algebra_of(sys).dim(), Algebra::name());
  return std::bool_constant<same_algebra && fits>{};
}

/// The checks of every Lie–Poisson stepper's do_step: the algebra is one (the concept check of
/// algebra_concept.hpp, one static_assert naming what it lacks), the system's algebra is the
/// stepper's, the state has the algebra's dimension. Returns whether the compile-time types fit,
/// as a type (see require_pair_sizes): do_step compiles the step only if they do, so that an
/// incomplete algebra is that one error and none from inside the step.
template <class System, class Algebra, class State>
auto check_system(const System& sys, const State& x) {
  if constexpr (!is_lie_algebra_v<Algebra>) {
    static_assert(sizeof(lie_algebra_checked<Algebra>) != 0);  // the concept check (fails once)
    static_cast<void>(sys);
    static_cast<void>(x);
    return std::false_type{};
  } else {
    return check_algebra_system<System, Algebra>(sys, x);
  }
}

}  // namespace detail

/// ẏ = J(y)∇H(y) = −ad*_{∇H(y)} y as a Boost.Odeint system (x, dxdt, t), for reference solutions
/// computed with odeint's classical steppers. The system is held by reference.
template <class System>
class lie_poisson_vector_field {
 public:
  explicit lie_poisson_vector_field(const System& s) : system_(s) {}
  template <class State, class Deriv>
  void operator()(const State& x, Deriv& dxdt, double /*t*/) const {
    using vec = typename System::algebra_type::vector_type;
    const auto& a = detail::algebra_of(system_);
    const vec y = Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
    vec g(a.dim());
    system_.gradient(y, g);
    Eigen::Map<Eigen::VectorXd>(dxdt.data(), static_cast<Eigen::Index>(dxdt.size())) = -a.ad_star(g, y);
  }

 private:
  const System& system_;
};

/// The counters of the Lie–Poisson steppers: the core's and the stage solvers'.
using lie_statistics = solver_statistics;

}  // namespace geomint
