// Butcher and partitioned Runge–Kutta tableaux.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

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

/// Throws std::invalid_argument naming the first violated condition: a declared order ≥ 1 (the
/// steppers use it, e.g. RKMK truncates dψ⁻¹ by it), consistency Σ b_i = 1, and row sums
/// Σ_j a_ij = c_i.
template <int S>
void require_consistent_tableau(const butcher_tableau<S>& t) {
  const double tol = 64 * std::numeric_limits<double>::epsilon();
  char buf[256];
  if (t.order < 1) throw std::invalid_argument("geomint: the Butcher tableau declares no order (set butcher_tableau::order ≥ 1)");
  if (!(std::fabs(t.b.sum() - 1) <= tol)) {
    std::snprintf(buf, sizeof buf, "geomint: the Butcher tableau's weights sum to %.17g, not 1", t.b.sum());
    throw std::invalid_argument(buf);
  }
  for (int i = 0; i < S; ++i)
    if (!(std::fabs(t.a.row(i).sum() - t.c(i)) <= tol)) {
      std::snprintf(buf, sizeof buf, "geomint: row %d of the Butcher tableau sums to %.17g, but c_%d = %.17g", i + 1,
                    t.a.row(i).sum(), i + 1, t.c(i));
      throw std::invalid_argument(buf);
    }
}

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
