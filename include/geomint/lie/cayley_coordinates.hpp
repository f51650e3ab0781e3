// Cayley coordinates for RKMK methods on quadratic groups (Engø–Faltinsen §4.2): the group
// element is cay(σ) = (1 − hat σ/2)⁻¹(1 + hat σ/2), the update is the coadjoint action
// y₁ = Ad*_{cay(−σ)} y₀ (4.23), and σ obeys σ' = dcay⁻¹_σ(∇H(y)).
#pragma once

#include <type_traits>

#include "geomint/lie/algebra.hpp"

namespace geomint {

namespace detail {
template <class Algebra, class = void>
struct cayley_prepared {
  using type = void;
};
template <class Algebra>
struct cayley_prepared<Algebra, std::void_t<typename Algebra::cayley_action>> {
  using type = typename Algebra::cayley_action;
};
}  // namespace detail

struct cayley_coordinates {
  template <class Algebra>
  static constexpr bool applies_to = Algebra::has_cayley;
  /// Degree after which dcay⁻¹_σ v = v − ½[σ, v] − ¼ σvσ may be truncated for a tableau of order
  /// p. Its degree-2 term is not a commutator: with σ = h v + O(h²) it is O(h²), not O(h³) as
  /// the corresponding exp term, so dropping it changes σ by O(h³) — order 2 at most. Hence
  /// q = 0 for p ≤ 2 (both terms are O(h³) in σ) and the whole series (degree 2) for p ≥ 3;
  /// exp's rule max(p − 2, 0) gave order 2 for third-order tableaux.
  static constexpr int truncation(int order) { return order > 2 ? 2 : 0; }
  static const char* name() { return "cayley"; }

  /// y ↦ coadjoint(cayley(σ), y).
  template <class Algebra, class S, class Y>
  static typename Algebra::vector_type act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                           const Eigen::MatrixBase<Y>& y) {
    return a.cayley_coadjoint(sigma, y);
  }
  /// The same action for a stage point of a Runge–Kutta method, which only feeds ∇H: in double
  /// precision where the algebra offers it (its rounding never reaches the orbit).
  template <class Algebra, class S, class Y>
  static typename Algebra::vector_type stage_act(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                 const Eigen::MatrixBase<Y>& y) {
    if constexpr (detail::has_double_actions<Algebra>::value)
      return a.cayley_coadjoint_double(sigma, y);
    else
      return a.cayley_coadjoint(sigma, y);
  }
  /// act and stage_act into out (the algebra's into-forms where it has them, algebra.hpp).
  template <class Algebra, class S, class Y, class Out>
  static void act_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y, Out&& out,
                       detail::op_buffers<Algebra>& b) {
    if constexpr (detail::writes_into<Algebra>) a.cayley_coadjoint(sigma, y, out, b.algebra);
    else out = act(a, sigma, y);
  }
  template <class Algebra, class S, class Y, class Out>
  static void stage_act_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma, const Eigen::MatrixBase<Y>& y,
                             Out&& out, detail::op_buffers<Algebra>& b) {
    if constexpr (!detail::writes_into<Algebra>) out = stage_act(a, sigma, y);
    else if constexpr (detail::has_double_actions<Algebra>::value) a.cayley_coadjoint_double(sigma, y, out, b.algebra);
    else a.cayley_coadjoint(sigma, y, out, b.algebra);
  }
  /// The stage points' actions for one step: Algebra::cayley_action where the algebra keeps
  /// work that depends on y₀ alone across them (su_n: W(y₀), see su_n::cayley_action), else
  /// stage_act / act. Interface: prepare(a, y₀), stage(a, σ, y), act(a, σ, y), which write
  /// the stage point or the update into y.
  template <class Algebra>
  using prepared_action =
      std::conditional_t<std::is_void<typename detail::cayley_prepared<Algebra>::type>::value,
                         detail::plain_action<Algebra, cayley_coordinates>,
                         typename detail::cayley_prepared<Algebra>::type>;
  /// dcay⁻¹_σ v truncated after degree q in σ (it has degree 2; full_series: exact).
  template <class Algebra, class S, class V>
  static typename Algebra::vector_type inverse_differential(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                            const Eigen::MatrixBase<V>& v, int q) {
    return a.dcay_inv(sigma, v, q == full_series ? 2 : q);
  }
  /// inverse_differential into out.
  template <class Algebra, class S, class V, class Out>
  static void inverse_differential_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                        const Eigen::MatrixBase<V>& v, int q, Out&& out,
                                        detail::op_buffers<Algebra>& b) {
    if constexpr (detail::writes_into<Algebra>) a.dcay_inv(sigma, v, q == full_series ? 2 : q, out, b.algebra);
    else out = inverse_differential(a, sigma, v, q);
  }
  /// Buffers of inverse_differential_matrix (the interface is exp_coordinates').
  template <class Algebra>
  struct differential_scratch {
    detail::op_buffers<Algebra> ops;
  };
  /// The matrix of dcay⁻¹_σ, column by column into out.
  template <class Algebra, class S, class Out>
  static void inverse_differential_matrix(const Algebra& a, const Eigen::MatrixBase<S>& sigma, Out& out,
                                          differential_scratch<Algebra>& w) {
    detail::assemble_by_columns(a, out, w.ops, [&](const auto& e, auto& col) {
      inverse_differential_into(a, sigma, e, 2, col, w.ops);
    });
  }
};

}  // namespace geomint
