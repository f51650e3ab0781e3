// The constrained partitioned Runge–Kutta method of Hairer 2003, eqs. (2.6)–(2.9), for a
// partitioned tableau satisfying Jay's conditions (2.10), as a Boost.Odeint stepper
// (state std::pair<Q, P>). The step's mathematics is detail/prk_cache.hpp; its lifecycle
// (continuation, checks, the strong guarantee, statistics) is core/stepper_base.hpp.
//
// The tableau is checked at construction: a declared order below 1, weights not summing to 1, an
// order condition (bicoloured trees) failing below the declared order, or a violated condition
// of (2.10) is a std::invalid_argument naming it. A tableau whose last weight b_s is 0 is accepted (the step
// then adds the −h G(q1)ᵀΛ_s term of Hairer's Example 2.3, as constrained symplectic Euler).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "geomint/constrained/constrained_options.hpp"
#include "geomint/constrained/detail/prk_cache.hpp"
#include "geomint/core/stepper_base.hpp"
#include "geomint/constrained/hamiltonian_extension.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint {

/// Throws std::invalid_argument naming the first of Jay's conditions (2.10) that `t` violates, then
/// the first order condition below its declared order (require_declared_order: a declared order
/// ≥ 1, Σb = 1, the bicoloured trees). The last tableau that passed is remembered per thread, so
/// that constructing many steppers on one tableau (an ensemble) checks its 24314 trees of order
/// ≤ 8 once.
template <int S>
void require_prk_conditions(const partitioned_tableau<S>& t) {
  thread_local partitioned_tableau<S> last_passed;
  thread_local bool have_passed = false;
  if (have_passed && last_passed.order == t.order && last_passed.aq == t.aq && last_passed.ap == t.ap && last_passed.b == t.b)
    return;
  const prk_condition_report r = check_prk_conditions(t);
  const double tol = 64 * std::numeric_limits<double>::epsilon();
  auto reject = [](const char* what, double value) {
    char buf[320];
    std::snprintf(buf, sizeof buf, "geomint: the partitioned tableau violates Jay's conditions (Hairer 2003, (2.10)): %s (%.3e)",
                  what, value);
    throw std::invalid_argument(buf);
  };
  if (!(r.first_position_row <= tol)) reject("the first row of the position tableau â must vanish", r.first_position_row);
  if (!(r.last_position_row <= tol)) reject("the last row of â must equal the weights b", r.last_position_row);
  if (!(r.last_momentum_column <= tol)) reject("the last column of the momentum tableau a must vanish", r.last_momentum_column);
  if (!(r.coupling_pivot_ratio > tol))
    reject("the coupling matrix (Σ_k â_ik a_kj), i = 2..s, j = 1..s−1, must be invertible; its pivot ratio is",
           r.coupling_pivot_ratio);
  require_declared_order(t);
  last_passed = t;
  have_passed = true;
}

/// Final: the named method deriving from this class (rattle, lobatto_iiia_iiib, ...), or void.
template <int S, class State = std::pair<Eigen::VectorXd, Eigen::VectorXd>, class Final = void>
class constrained_prk : public stepper_base<final_class<Final, constrained_prk<S, State, Final>>, State,
                                            constrained_options, constrained_statistics> {
  using base = stepper_base<final_class<Final, constrained_prk<S, State, Final>>, State, constrained_options,
                            constrained_statistics>;

 public:
  /// A tableau given at run time: the type claims neither an order nor symmetry nor
  /// symplecticity (order() and symplectic() read the tableau; declared_symmetric<constrained_prk<S>>
  /// declares a symmetric one). The named methods (rattle, lobatto_iiia_iiib, ...) declare theirs.
  static constexpr method_properties properties =
      method_properties().conserves(conserves_constraints | conserves_linear_momentum_maps);
  template <class System>
  using cache = detail::prk_cache<System, S>;
  template <class System>
  using continuous_extension = hamiltonian_extension<System, State>;

  explicit constrained_prk(const partitioned_tableau<S>& tableau, const constrained_options& options = {})
      : base(options), tableau_(tableau) {
    require_prk_conditions(tableau_);
  }

  typename base::order_type order() const { return static_cast<typename base::order_type>(tableau_.order); }
  /// The tableau satisfies the symplecticity condition (2.11) (to 64 ε): the flow map on the
  /// constraint manifold is symplectic.
  bool symplectic() const { return check_prk_conditions(tableau_).symplectic(64 * std::numeric_limits<double>::epsilon()); }
  const partitioned_tableau<S>& tableau() const { return tableau_; }

  /// The multipliers of the last step taken on a System: column i is Λ_i, the constraint force at
  /// stage i being −G(Q_i, t_i)ᵀΛ_i (Hairer 2003, (2.6)–(2.8)); the last column is the end point's.
  /// Each approximates λ(t_i) to the stage order; RATTLE's end and next start multipliers, at the
  /// same point, average to second order (docs/constrained.md). Throws std::logic_error before a
  /// step on a System.
  template <class System>
  matrix<System::constraint_size, S> last_multipliers() {
    auto* cache = this->template find_cache<std::decay_t<System>>();
    if (!cache) throw std::logic_error("geomint: last_multipliers: no step has been taken on this system type");
    return cache->multipliers();
  }

  template <class System, class X>
  static auto check_state(const System& sys, const X& x) {
    return require_pair_sizes<System::position_size>(x, sys.position_count(), "the position vector q", "the momentum vector p");
  }

 private:
  partitioned_tableau<S> tableau_;
};

}  // namespace geomint
