// Butcher and partitioned Runge–Kutta tableaux (their checks: order_conditions.hpp).
#pragma once

#include "geomint/core/types.hpp"

namespace geomint {

/// y_i = y0 + h Σ_j a_ij f(Y_j),  y1 = y0 + h Σ_i b_i f(Y_i),  c_i = Σ_j a_ij.
template <int S>
struct butcher_tableau {
  static constexpr int stages = S;
  matrix<S, S> a;
  vector<S> b;
  vector<S> c;
  int order = 0;

  /// a_ij = 0 for j >= i: every stage is explicit.
  bool is_explicit() const {
    for (int i = 0; i < S; ++i)
      for (int j = i; j < S; ++j)
        if (a(i, j) != 0) return false;
    return true;
  }
};

/// A partitioned Runge–Kutta method for constrained Hamiltonian systems in the notation of
/// Hairer 2003, eqs. (2.6)–(2.9): positions use `aq` (Hairer's â), momenta use `ap` (Hairer's a),
/// both share the weights b.
template <int S>
struct partitioned_tableau {
  static constexpr int stages = S;
  matrix<S, S> aq;  ///< Q_i = q0 + h Σ_j aq_ij ∂H/∂p(P_j, Q_j)
  matrix<S, S> ap;  ///< P_i = p0 − h Σ_j ap_ij (∂H/∂q + Gᵀ Λ)(P_j, Q_j)
  vector<S> b;
  int order = 0;

  /// Stage times of the position stages, c_i = Σ_j aq_ij.
  vector<S> c() const { return aq.rowwise().sum(); }
};

}  // namespace geomint
