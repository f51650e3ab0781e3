// Exponential coordinates for RKMK methods (Engø–Faltinsen §4.1): the group element is
// exp(σ), the update is the coadjoint action y₁ = exp(−ad*_σ) y₀ (4.22), and σ obeys
// σ' = dexp⁻¹_σ(∇H(y)) (4.20) with dexp⁻¹ the Bernoulli series (4.19).
#pragma once

#include <Eigen/LU>
#include <limits>

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
  GEOMINT_ALWAYS_INLINE static typename Algebra::vector_type act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                           const Eigen::MatrixBase<Y>& y) {
    return a.exp_coadjoint(sigma, y);
  }
  /// The same action for a stage point of a Runge–Kutta method, which only feeds ∇H: in double
  /// precision where the algebra offers it (its rounding never reaches the orbit).
  template <class Algebra, class S, class Y>
  GEOMINT_ALWAYS_INLINE static typename Algebra::vector_type stage_act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                 const Eigen::MatrixBase<Y>& y) {
    if constexpr (detail::has_double_actions<Algebra>::value)
      return a.exp_coadjoint_double(sigma, y);
    else
      return a.exp_coadjoint(sigma, y);
  }
  /// act and stage_act into out (the algebra's into-forms where it has them, algebra.hpp).
  template <class Algebra, class S, class Y, class Out>
  GEOMINT_ALWAYS_INLINE static void act_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                              const Eigen::MatrixBase<Y>& y, Out&& out, detail::op_buffers<Algebra>& b) {
    if constexpr (detail::writes_into<Algebra>) a.exp_coadjoint(sigma, y, out, b.algebra);
    else out = act(a, sigma, y);
  }
  template <class Algebra, class S, class Y, class Out>
  GEOMINT_ALWAYS_INLINE static void stage_act_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                    const Eigen::MatrixBase<Y>& y, Out&& out,
                                                    detail::op_buffers<Algebra>& b) {
    if constexpr (!detail::writes_into<Algebra>) out = stage_act(a, sigma, y);
    else if constexpr (detail::has_double_actions<Algebra>::value) a.exp_coadjoint_double(sigma, y, out, b.algebra);
    else a.exp_coadjoint(sigma, y, out, b.algebra);
  }
  /// The stage points' actions for one step (see cayley_coordinates::prepared_action).
  template <class Algebra>
  using prepared_action = detail::plain_action<Algebra, exp_coordinates>;
  /// dexp⁻¹_σ v truncated after degree q in σ (full_series: to round-off).
  template <class Algebra, class S, class V>
  GEOMINT_ALWAYS_INLINE static typename Algebra::vector_type inverse_differential(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                            const Eigen::MatrixBase<V>& v, int q) {
    return dexp_inv(a, sigma, v, q);
  }
  /// inverse_differential into out.
  template <class Algebra, class S, class V, class Out>
  GEOMINT_ALWAYS_INLINE static void inverse_differential_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                               const Eigen::MatrixBase<V>& v, int q, Out&& out,
                                                               detail::op_buffers<Algebra>& b) {
    detail::dexp_inv_into(a, sigma, v, q, out, b);
  }
  /// Buffers of inverse_differential_matrix, sized on first use.
  template <class Algebra>
  struct differential_scratch {
    typename Algebra::operator_type ad, power, next;
    detail::op_buffers<Algebra> ops;
  };
  /// The matrix of dexp⁻¹_σ to round-off, into out: the Bernoulli series Σ_k (B_k/k!) ad_σ^k as
  /// d × d matrices where it converges (spectral radius of ad_σ below 2π); beyond that radius the
  /// inverse of dexp_σ = Σ_k ad_σ^k/(k+1)!, an entire series, taken as the upper right block of
  /// exp([[ad_σ, I], [0, 0]]) = [[e^{ad_σ}, dexp_σ], [0, I]] (compare the power series). Where dexp_σ
  /// is singular (ad_σ has an eigenvalue 2πik, k ≠ 0) every entry is NaN. The series runs in the
  /// caller's buffers; the case beyond its radius (a step that turns by more than 2π) allocates.
  template <class Algebra, class S, class Out>
  static void inverse_differential_matrix(const Algebra& a, const Eigen::MatrixBase<S>& sigma, Out& out,
                                          differential_scratch<Algebra>& w) {
    using op = typename Algebra::operator_type;
    const int d = a.dim();
    detail::ad_into(a, sigma, w.ad, w.ops);
    if (detail::bernoulli_series_into(op::Identity(d, d), full_series,
                                          [&](const op& x, op& next) { next.noalias() = w.ad * x; }, out, w.power,
                                          w.next))
      return;
    constexpr int rows = op::RowsAtCompileTime;
    using block_matrix = Eigen::Matrix<double, rows == Eigen::Dynamic ? Eigen::Dynamic : 2 * rows,
                                       rows == Eigen::Dynamic ? Eigen::Dynamic : 2 * rows>;
    block_matrix b = block_matrix::Zero(2 * d, 2 * d);
    b.topLeftCorner(d, d) = w.ad;
    b.topRightCorner(d, d).setIdentity();
    const op dexp_matrix = detail::expm1(b).topRightCorner(d, d);  // e^B − 1 has the same block
    const Eigen::FullPivLU<op> lu(dexp_matrix);
    if (!lu.isInvertible()) out.setConstant(d, d, std::numeric_limits<double>::quiet_NaN());
    else out = lu.inverse();
  }
  template <class Algebra, class S>
  static typename Algebra::operator_type inverse_differential_matrix(const Algebra& a, const Eigen::MatrixBase<S>& sigma) {
    typename Algebra::operator_type out;
    differential_scratch<Algebra> w;
    inverse_differential_matrix(a, sigma, out, w);
    return out;
  }
};

}  // namespace geomint
