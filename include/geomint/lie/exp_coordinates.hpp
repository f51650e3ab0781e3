// Exponential coordinates for RKMK methods (Engø–Faltinsen §4.1): the group element is
// exp(σ), the update is the coadjoint action y₁ = exp(−ad*_σ) y₀ (4.22), and σ obeys
// σ' = dexp⁻¹_σ(∇H(y)) (4.20) with dexp⁻¹ the Bernoulli series (4.19).
#pragma once

#include "geomint/lie/algebra.hpp"

namespace geomint {

struct exp_coordinates {
  template <class Algebra>
  static constexpr bool applies_to = true;
  /// Degree after which dexp⁻¹ may be truncated for a tableau of order p: q = max(p − 2, 0)
  /// (Hairer–Lubich–Wanner IV.8). Every term of degree j ≥ 1 is a commutator ad_σ^j v, and since
  /// σ = h v(y₀) + O(h²) is nearly parallel to v it is O(h^{j+1}): dropping it changes σ by
  /// O(h^{j+2}), harmless for j ≥ p − 1.
  static constexpr int truncation(int order) { return order > 2 ? order - 2 : 0; }
  static const char* name() { return "exp"; }

  /// y ↦ Ad*_{exp(−σ)} y, i.e. coadjoint(exp(σ), y).
  template <class Algebra, class S, class Y>
  [[gnu::always_inline]] static typename Algebra::vector_type act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                           const Eigen::MatrixBase<Y>& y) {
    return a.exp_coadjoint(sigma, y);
  }
  /// The same action for a stage point of a Runge–Kutta method, which only feeds ∇H: in double
  /// precision where the algebra offers it (its rounding never reaches the orbit).
  template <class Algebra, class S, class Y>
  [[gnu::always_inline]] static typename Algebra::vector_type stage_act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                 const Eigen::MatrixBase<Y>& y) {
    if constexpr (lie_detail::has_double_actions<Algebra>::value)
      return a.exp_coadjoint_double(sigma, y);
    else
      return a.exp_coadjoint(sigma, y);
  }
  /// The stage points' actions for one step (see cayley_coordinates::prepared_action).
  template <class Algebra>
  using prepared_action = lie_detail::plain_action<Algebra, exp_coordinates>;
  /// dexp⁻¹_σ v truncated after degree q in σ (full_series: to round-off).
  template <class Algebra, class S, class V>
  [[gnu::always_inline]] static typename Algebra::vector_type inverse_differential(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                            const Eigen::MatrixBase<V>& v, int q) {
    return dexp_inv(a, sigma, v, q);
  }
  /// The matrix of dexp⁻¹_σ summed to round-off: Σ_k (B_k/k!) ad_σ^k as d × d matrices.
  template <class Algebra, class S>
  static typename Algebra::operator_type inverse_differential_matrix(const Algebra& a, const Eigen::MatrixBase<S>& sigma) {
    using op = typename Algebra::operator_type;
    const op ad = a.ad(sigma);
    return lie_detail::bernoulli_series(op(op::Identity(a.dim(), a.dim())), full_series,
                                        [&](const op& x) -> op { return ad * x; });
  }
};

}  // namespace geomint
