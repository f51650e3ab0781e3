// Which momentum the state of a Reich / McLachlan–Scovel stepper holds (McLachlan–Scovel 1994,
// §2 and §5). The configuration manifold is N = {g(q) = 0} in the linear space ℝⁿ.
//
//   canonical_momentum (the default)
//     p is the canonical momentum on CM = {g(q) = 0, G(q) ∂H/∂p(q, p) = 0}, exactly as for rattle
//     and lobatto_iiia_iiib. A step maps CM to CM, so the Reich steppers compose and alternate
//     freely with every other constrained stepper of geomint. The step is eqs. (2)–(3): the last
//     projection P = p̃ − G(Q)ᵀν with G(Q) ∂H/∂p(Q, P) = 0 is linear for separable H and a small
//     Newton iteration otherwise.
//
//   metric_momentum<Metric>
//     the TN formulation of §5, eq. (9), with a constant metric W on ℝⁿ (given as a diagonal_mass
//     or dense_mass object, i.e. by W; for example euclidean_metric<N>(n)). The paper's state is a
//     tangent vector p_t ∈ T_qN; the state here holds the covector p = W p_t, so that H(q, p), ∂H/∂q
//     and ∂H/∂p keep their meaning; p satisfies G(q) W⁻¹ p = 0 (for the Euclidean metric p = p_t).
//     It is ψ(q, p_c), the W-orthogonal projection of the canonical momentum p_c,
//         ψ(q, p) = p − G(q)ᵀ (G W⁻¹ Gᵀ)⁻¹ G W⁻¹ p,
//     and the step ends with P = ψ(Q, ·): linear, also for non-separable H (the paper's point).
//     ψ restricted to CM is a symplectic diffeomorphism onto T*N (Theorem 1), so this stepper is
//     conjugate to the canonical one: step_metric = ψ ∘ step_canonical ∘ ψ|CM⁻¹. Do not mix
//     metric_momentum states with the canonical steppers (rattle, ...); convert first with
//     to_metric_momentum / to_canonical_momentum below.
//
// For separable H = ½ pᵀM⁻¹p + V(q) and W = M (the kinetic-energy metric) the two coincide.
#pragma once

#include <limits>
#include <utility>

#include "geomint/constrained/detail/hidden_constraint.hpp"
#include "geomint/core/step_checks.hpp"
#include "geomint/system/mass.hpp"

namespace geomint {

/// The state holds the canonical momentum on CM (as rattle does).
struct canonical_momentum {};

/// The state holds the metric representative W p_t of the tangent momentum p_t ∈ T_qN (§5).
/// Metric: diagonal_mass<N> or dense_mass<N> (W itself; only W⁻¹ is applied).
template <class Metric>
struct metric_momentum {
  using metric_type = Metric;
  Metric metric;
};

/// W = I on ℝⁿ.
template <int N>
diagonal_mass<N> euclidean_metric(int n = N) {
  return diagonal_mass<N>(vector<N>::Ones(n));
}

namespace detail {

/// ψ(q, ·): p ← p − Gᵀ (G W⁻¹ Gᵀ)⁻¹ G W⁻¹ p with G = G(q). Workspace sized once.
template <int N, int M>
class metric_projector {
 public:
  void resize(int n, int m) {
    w_.resize(m, n);
    ldlt_.resize(m);
    mu_.resize(m);
    v_.resize(n);
  }
  /// Factorizes S = G W⁻¹ Gᵀ; false if it is singular.
  template <class Metric, class G>
  bool factorize(const Metric& metric, const G& g) {
    metric.right_apply_inverse(g, w_);
    ldlt_.system_matrix().noalias() = w_ * g.transpose();
    return ldlt_.factorize();
  }
  /// p ← ψ p, with the G of the last factorize().
  template <class G, class P>
  void project(const G& g, P& p) {
    if (mu_.size() == 0) return;
    mu_.noalias() = w_ * p;
    ldlt_.solve_in_place(mu_);
    p.noalias() -= g.transpose() * mu_;
  }
  /// The matrix Π = I − Gᵀ S⁻¹ G W⁻¹ of ψ (n × n), with the G of the last factorize().
  template <class G, class Out>
  void projector_matrix(const G& g, Out& out) {
    const int n = static_cast<int>(out.rows());
    out.setIdentity();
    for (int j = 0; j < n && mu_.size() > 0; ++j) {
      mu_ = w_.col(j);
      ldlt_.solve_in_place(mu_);
      out.col(j).noalias() -= g.transpose() * mu_;
    }
  }

 private:
  matrix<M, N> w_;
  dense_ldlt<M> ldlt_;
  vector<M> mu_;
  vector<N> v_;
};

}  // namespace detail

/// p ← ψ(q, p) for a metric W: the metric_momentum representative of a canonical state.
/// Allocates; a conversion helper, not for inner loops. Throws step_error if G W⁻¹ Gᵀ is singular.
template <class System, class Metric, class Q, class P>
void to_metric_momentum(const System& sys, const Metric& w, const Q& q_state, P& p_state) {
  using traits = system_traits<System>;
  const int n = sys.position_count(), m = sys.constraint_count();
  require_size(q_state, n, "the position vector q");
  require_size(p_state, n, "the momentum vector p");
  if (m == 0) return;
  const vector<traits::n> q = view(q_state);
  vector<traits::n> p = view(p_state);
  typename traits::jacobian_type g(m, n);
  sys.constraint_jacobian(q, g);
  detail::metric_projector<traits::n, traits::m> psi;
  psi.resize(n, m);
  if (!psi.factorize(w, g))
    throw step_error(failure_reason::singular_constraint_jacobian, std::numeric_limits<double>::quiet_NaN(), 0, 0, 0,
                     "to_metric_momentum: G(q) W⁻¹ G(q)ᵀ is singular");
  psi.project(g, p);
  view(p_state) = p;
}

/// p ← ψ|CM⁻¹(q, p): adds G(q)ᵀν so that the hidden constraint G(q) ∂H/∂p(q, p) = 0 holds, i.e.
/// the canonical momentum of a metric_momentum state (McLachlan–Scovel eq. (3)). Allocates.
/// Throws step_error if the projection fails; p is then unchanged.
template <class System, class Q, class P>
void to_canonical_momentum(const System& sys, const Q& q_state, P& p_state) {
  using traits = system_traits<System>;
  static_assert(!traits::rheonomic, "geomint: the Reich steppers' momentum representations take constraints "
                                    "independent of t (driven ones: rattle, lobatto_iiia_iiib)");
  const int n = sys.position_count(), m = sys.constraint_count();
  require_size(q_state, n, "the position vector q");
  require_size(p_state, n, "the momentum vector p");
  if (m == 0) return;
  const vector<traits::n> q = view(q_state);
  vector<traits::n> p = view(p_state);
  typename traits::jacobian_type g(m, n);
  sys.constraint_jacobian(q, g);
  detail::hidden_constraint_solver<System> hidden;
  hidden.resize(n, m);
  if constexpr (traits::separable) {
    detail::constraint_gram<System> gram;
    gram.resize(n, m);
    if (!gram.factorize(sys, g))
      throw step_error(failure_reason::singular_constraint_jacobian, std::numeric_limits<double>::quiet_NaN(), 0, 0, 0,
                       "to_canonical_momentum: G M⁻¹ Gᵀ is singular");
    hidden.project_separable(system_at<System>(sys, 0.0), q, g, gram, p);
  } else {
    newton_statistics stats;
    hidden.project_general(system_at<System>(sys, 0.0), q, g, p, newton_options{}, stats,
                           newton_context{0, 0, "to_canonical_momentum"});
  }
  view(p_state) = p;
}

}  // namespace geomint
