// The partitioned tableaux of the constrained family (Hairer 2003, §2) and the checks of
// Jay's conditions (2.10) and the symplecticity condition (2.11).
#pragma once

#include <Eigen/LU>
#include <cmath>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/tableau/collocation.hpp"
#include "geomint/tableau/order_conditions.hpp"

namespace geomint {

/// Jay's Lobatto IIIA–IIIB pair (Hairer 2003, Example 2.2), order 2S − 2. S = 2 is RATTLE.
/// Computed once per S.
template <int S>
const partitioned_tableau<S>& lobatto_iiia_iiib_tableau() {
  static const partitioned_tableau<S> t = [] {
    const butcher_tableau<S> a = lobatto_iiia<S>();
    const butcher_tableau<S> b = lobatto_iiib<S>();
    partitioned_tableau<S> r;
    r.aq = a.a;
    r.ap = b.a;
    r.b = a.b;
    r.order = 2 * S - 2;
    return r;
  }();
  return t;
}

/// RATTLE (Hairer 2003, Table 1): the S = 2 Lobatto pair.
inline const partitioned_tableau<2>& rattle_tableau() { return lobatto_iiia_iiib_tableau<2>(); }

/// Symplectic Euler for constrained systems (Hairer 2003, Table 2), order 1. It has b_s = 0,
/// so the stepper adds the −h Gᵀ(q1) Λ_s term of Example 2.3.
inline partitioned_tableau<2> constrained_symplectic_euler_tableau() {
  partitioned_tableau<2> t;
  t.aq << 0, 0, 1, 0;
  t.ap << 1, 0, 1, 0;
  t.b << 1, 0;
  t.order = 1;
  return t;
}

/// The coupling matrix (Σ_k â_ik a_kj) for i = 2..s, j = 1..s−1 whose invertibility (2.10)
/// requires. (Column s of âa vanishes because a_is = 0, so the index ranges of (2.10) are
/// i = 2..s and j = 1..s−1, as in Jay 1996.)
template <int S>
matrix<S - 1, S - 1> coupling_matrix(const partitioned_tableau<S>& t) {
  const matrix<S, S> aa = t.aq * t.ap;
  return aa.template bottomLeftCorner<S - 1, S - 1>();
}

/// How far a tableau is from Jay's conditions (2.10) and from symplecticity (2.11).
struct prk_condition_report {
  double first_position_row = 0;   ///< max_j |â_1j|            (must be 0)
  double last_position_row = 0;    ///< max_j |â_sj − b_j|      (must be 0)
  double last_momentum_column = 0; ///< max_i |a_is|            (must be 0)
  double last_weight = 0;          ///< |b_s|                   (must be ≠ 0, else Example 2.3)
  double coupling_pivot_ratio = 0; ///< min/max pivot of the coupling matrix (must be > 0)
  double symplecticity = 0;        ///< max_ij |b_i â_ij + b_j a_ji − b_i b_j|  (2.11)

  /// (2.10) holds to `tol`, with or without the b_s ≠ 0 requirement.
  bool jay_conditions(double tol, bool require_last_weight = true) const {
    return first_position_row <= tol && last_position_row <= tol && last_momentum_column <= tol &&
           (!require_last_weight || last_weight > tol) && coupling_pivot_ratio > tol;
  }
  bool symplectic(double tol) const { return symplecticity <= tol; }
};

template <int S>
prk_condition_report check_prk_conditions(const partitioned_tableau<S>& t) {
  prk_condition_report r;
  r.first_position_row = t.aq.row(0).cwiseAbs().maxCoeff();
  r.last_position_row = (t.aq.row(S - 1).transpose() - t.b).cwiseAbs().maxCoeff();
  r.last_momentum_column = t.ap.col(S - 1).cwiseAbs().maxCoeff();
  r.last_weight = std::fabs(t.b(S - 1));
  // A dynamic-size matrix: one FullPivLU instantiation serves every stage count (this runs once,
  // at construction).
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(Eigen::MatrixXd(coupling_matrix(t)));
  r.coupling_pivot_ratio = detail::pivot_ratio(lu.matrixLU().diagonal());
  for (int i = 0; i < S; ++i)
    for (int j = 0; j < S; ++j)
      r.symplecticity = std::fmax(
          r.symplecticity, std::fabs(t.b(i) * t.aq(i, j) + t.b(j) * t.ap(j, i) - t.b(i) * t.b(j)));
  return r;
}

}  // namespace geomint
