// The order conditions of Runge–Kutta and partitioned Runge–Kutta tableaux, checked against the
// order a tableau claims.
//
// A Runge–Kutta method has order p exactly when Φ(t) = 1/γ(t) for every rooted tree t with at
// most p vertices (Butcher 1963; Hairer–Nørsett–Wanner I, Theorem II.2.13): Φ(t) is the
// elementary weight, Φ(t) = Σ_i b_i Π_{children u} (A g_u)_i with g_u the same product for the
// subtree u (a leaf: g = 1), and γ(t) the density, γ(t) = |t| Π γ(children). A partitioned method
// has order p exactly when the same holds for every bicoloured tree (Hairer–Wanner–Lubich,
// Geometric Numerical Integration, Theorem III.2.4): a vertex of the position colour is a
// derivative of ∂H/∂p and enters its parent's stage through the position tableau â, a vertex of
// the momentum colour through a; both colours' roots take the weights b.
//
// Counted: 1, 1, 2, 4, 9, 20, 48, 115, 286, 719, 1842, 4766 rooted trees of orders 1 … 12 (7813
// in all), 2, 4, 14, 52, 214, 916, 4116, 18996 bicoloured trees of orders 1 … 8 (24314). The
// trees are generated once per process; a check costs one pass over them, O(s²) per tree.
// Beyond those orders, a Butcher tableau's claim is verified by the simplifying assumptions
// B(p), C(η), D(ζ) with p ≤ min(η + ζ + 1, 2η + 2) (Butcher 1964; HNW I, Theorem II.7.4), which the
// collocation methods satisfy; a partitioned tableau's by the bicoloured trees to order 8 and, for
// each part as a Runge–Kutta method, by its own trees.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/tableau/butcher_tableau.hpp"

namespace geomint {

/// The highest order checked by trees: rooted trees (Butcher tableaux), bicoloured trees
/// (partitioned tableaux).
inline constexpr int max_tree_order = 12;
inline constexpr int max_bicoloured_tree_order = 8;

/// What a tableau's coefficients reach: `order`, the largest p ≤ the checked order such that every
/// condition of order ≤ p holds; and, if a condition of order ≤ `checked` fails, the first one:
/// its tree (Butcher's bracket notation, τ a vertex; in partitioned trees q and p mark the colours),
/// its elementary weight, the value 1/γ it should have, and the tolerance it was judged by.
struct tableau_order_report {
  int order = 0;
  int checked = 0;
  std::string failed_tree;
  int failed_order = 0;
  double weight = 0, expected = 0, tolerance = 0;
  bool holds(int p) const { return order >= p; }
};

namespace detail {

/// Rooted trees with vertices of `colours` colours, up to `max_order` vertices, in order of size;
/// each one a root colour and the multiset of its subtrees (indices of smaller trees, non-increasing).
struct tree_list {
  std::vector<int> order, colour, first_child, child_count;
  std::vector<double> density;  ///< γ(t)
  std::vector<int> children;
  std::vector<int> end_of_order;  ///< end_of_order[n]: one past the last tree of order ≤ n

  tree_list(int colours, int max_order) : end_of_order(max_order + 1, 0) {
    std::vector<int> stack;
    for (int n = 1; n <= max_order; ++n) {
      const int smaller = static_cast<int>(order.size());
      for (int c = 0; c < colours; ++c) add_forests(n, c, n - 1, smaller - 1, stack);
      end_of_order[n] = static_cast<int>(order.size());
    }
  }

  /// The tree in bracket notation: τ for a one-colour vertex, q / p for the two colours.
  std::string name(int t, int colours) const {
    const char* vertex = colours == 1 ? "τ" : (colour[t] == 0 ? "q" : "p");
    if (child_count[t] == 0) return vertex;
    std::string s = colours == 1 ? "[" : std::string(vertex) + "[";
    for (int k = 0; k < child_count[t]; ++k) s += (k ? "," : "") + name(children[first_child[t] + k], colours);
    return s + "]";
  }

 private:
  void add_forests(int n, int c, int remaining, int max_index, std::vector<int>& stack) {
    if (remaining == 0) {
      order.push_back(n);
      colour.push_back(c);
      first_child.push_back(static_cast<int>(children.size()));
      child_count.push_back(static_cast<int>(stack.size()));
      double g = n;
      for (int u : stack) g *= density[u];
      density.push_back(g);
      children.insert(children.end(), stack.begin(), stack.end());
      return;
    }
    // Subtrees of order ≤ remaining only: indices below end_of_order[remaining].
    for (int i = std::min(max_index, end_of_order[remaining] - 1); i >= 0; --i) {
      stack.push_back(i);
      add_forests(n, c, remaining - order[i], i, stack);
      stack.pop_back();
    }
  }
};

inline const tree_list& rooted_trees() {
  static const tree_list trees(1, max_tree_order);
  return trees;
}
inline const tree_list& bicoloured_trees() {
  static const tree_list trees(2, max_bicoloured_tree_order);
  return trees;
}

/// The order conditions of the trees in `trees` up to `up_to`, for the stage matrices of each
/// colour (`a[colour]`) and the weights b; magnitudes (|a|, |b|) give each weight's scale. A
/// condition holds to 16 ε |t| Φ_abs(t): rounding the coefficients to double (relative ε) moves a
/// product of |t| of them by at most |t| ε of the sum of the magnitudes of its terms, Φ_abs(t),
/// and the arithmetic by a few ε more.
inline tableau_order_report check_trees(const tree_list& trees, int colours, int up_to, const Eigen::MatrixXd* a,
                                        const Eigen::VectorXd& b) {
  const Eigen::Index s = b.size();
  const int count = trees.end_of_order[up_to];
  Eigen::MatrixXd enter(s, count), enter_abs(s, count);  // column t: A_{colour t} g_t, for t as a child
  Eigen::VectorXd g(s), g_abs(s);
  Eigen::MatrixXd a_abs[2];
  for (int c = 0; c < colours; ++c) a_abs[c] = a[c].cwiseAbs();
  const Eigen::VectorXd b_abs = b.cwiseAbs();
  tableau_order_report r;
  r.checked = up_to;
  r.order = up_to;
  for (int t = 0; t < count; ++t) {
    g.setOnes();
    g_abs.setOnes();
    for (int k = 0; k < trees.child_count[t]; ++k) {
      const int u = trees.children[trees.first_child[t] + k];
      g.array() *= enter.col(u).array();
      g_abs.array() *= enter_abs.col(u).array();
    }
    enter.col(t).noalias() = a[trees.colour[t]] * g;
    enter_abs.col(t).noalias() = a_abs[trees.colour[t]] * g_abs;
    const int n = trees.order[t];
    if (n > r.order) break;  // a lower order failed: the rest cannot raise it
    const double phi = b.dot(g), expected = 1 / trees.density[t];
    const double tol = 16 * std::numeric_limits<double>::epsilon() * n * std::fmax(b_abs.dot(g_abs), expected);
    if (!(std::fabs(phi - expected) <= tol)) {
      r.order = n - 1;
      r.failed_tree = trees.name(t, colours);
      r.failed_order = n;
      r.weight = phi;
      r.expected = expected;
      r.tolerance = tol;
    }
  }
  return r;
}

/// The largest k ≤ s for which a simplifying assumption holds, each condition to 64 ε relative to
/// the magnitudes involved.
struct simplifying_assumptions {
  int b = 0, c = 0, d = 0;  ///< B(b), C(c), D(d)
};
template <int S>
simplifying_assumptions simplifying_orders(const butcher_tableau<S>& t, int max_b) {
  const double tol = 64 * std::numeric_limits<double>::epsilon();
  simplifying_assumptions r;
  for (int k = 1; k <= max_b; ++k) {  // B(k): Σ b_i c_i^{k−1} = 1/k
    double sum = 0, mag = 0;
    for (int i = 0; i < S; ++i) {
      const double term = t.b(i) * std::pow(t.c(i), k - 1);
      sum += term;
      mag += std::fabs(term);
    }
    if (!(std::fabs(sum - 1.0 / k) <= tol * k * std::fmax(mag, 1.0))) break;
    r.b = k;
  }
  for (int l = 1; l <= S; ++l) {  // C(l): Σ_j a_ij c_j^{l−1} = c_i^l / l for every i
    bool ok = true;
    for (int i = 0; i < S && ok; ++i) {
      double sum = 0, mag = 0;
      for (int j = 0; j < S; ++j) {
        const double term = t.a(i, j) * std::pow(t.c(j), l - 1);
        sum += term;
        mag += std::fabs(term);
      }
      ok = std::fabs(sum - std::pow(t.c(i), l) / l) <= tol * l * std::fmax(mag, 1.0);
    }
    if (!ok) break;
    r.c = l;
  }
  for (int l = 1; l <= S; ++l) {  // D(l): Σ_i b_i c_i^{l−1} a_ij = b_j (1 − c_j^l) / l for every j
    bool ok = true;
    for (int j = 0; j < S && ok; ++j) {
      double sum = 0, mag = 0;
      for (int i = 0; i < S; ++i) {
        const double term = t.b(i) * std::pow(t.c(i), l - 1) * t.a(i, j);
        sum += term;
        mag += std::fabs(term);
      }
      ok = std::fabs(sum - t.b(j) * (1 - std::pow(t.c(j), l)) / l) <= tol * l * std::fmax(mag, 1.0);
    }
    if (!ok) break;
    r.d = l;
  }
  return r;
}

[[noreturn]] inline void throw_failed_condition(const char* kind, int declared, const tableau_order_report& r) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "geomint: the %s declares order %d but fails the order-%d condition of the tree %s: its elementary "
                "weight is %.17g, not 1/γ = %.17g (residual %.3e, tolerance %.1e)",
                kind, declared, r.failed_order, r.failed_tree.c_str(), r.weight, r.expected,
                std::fabs(r.weight - r.expected), r.tolerance);
  throw std::invalid_argument(buf);
}

}  // namespace detail

/// The order conditions of a Butcher tableau up to order `up_to` (≤ 12).
template <int S>
tableau_order_report butcher_order_conditions(const butcher_tableau<S>& t, int up_to) {
  if (up_to < 1 || up_to > max_tree_order)
    throw std::invalid_argument("geomint: butcher_order_conditions checks orders 1 … 12");
  const Eigen::MatrixXd a[1] = {t.a};
  return detail::check_trees(detail::rooted_trees(), 1, up_to, a, Eigen::VectorXd(t.b));
}

/// The order conditions of a partitioned tableau (positions â = aq, momenta a = ap, shared b) up
/// to order `up_to` (≤ 8), over the bicoloured trees.
template <int S>
tableau_order_report partitioned_order_conditions(const partitioned_tableau<S>& t, int up_to) {
  if (up_to < 1 || up_to > max_bicoloured_tree_order)
    throw std::invalid_argument("geomint: partitioned_order_conditions checks orders 1 … 8");
  const Eigen::MatrixXd a[2] = {t.aq, t.ap};
  return detail::check_trees(detail::bicoloured_trees(), 2, up_to, a, Eigen::VectorXd(t.b));
}

/// Throws std::invalid_argument unless the Butcher tableau reaches the order it declares, naming
/// the failed tree and its residual: trees up to order 12, and above it B(p), C(η), D(ζ) with
/// p ≤ min(η + ζ + 1, 2η + 2).
template <int S>
void require_declared_order(const butcher_tableau<S>& t) {
  const tableau_order_report r = butcher_order_conditions(t, std::min(t.order, max_tree_order));
  if (!r.holds(r.checked)) detail::throw_failed_condition("Butcher tableau", t.order, r);
  if (t.order <= max_tree_order) return;
  const detail::simplifying_assumptions s = detail::simplifying_orders(t, t.order);
  if (s.b >= t.order && t.order <= s.c + s.d + 1 && t.order <= 2 * s.c + 2) return;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "geomint: the Butcher tableau declares order %d; its trees hold to order 12, but it satisfies only "
                "B(%d), C(%d), D(%d), which do not give order %d (p ≤ B, p ≤ C + D + 1, p ≤ 2C + 2)",
                t.order, s.b, s.c, s.d, t.order);
  throw std::invalid_argument(buf);
}

/// Throws std::invalid_argument unless the partitioned tableau declares an order ≥ 1, its
/// weights sum to 1, and it reaches its declared order: the bicoloured trees up to order 8, and
/// above it each part's own trees (to order 12) and B(p) of each part's nodes.
template <int S>
void require_declared_order(const partitioned_tableau<S>& t) {
  char buf[320];
  if (t.order < 1)
    throw std::invalid_argument("geomint: the partitioned tableau declares no order (set partitioned_tableau::order ≥ 1)");
  const double tol = 64 * std::numeric_limits<double>::epsilon() * std::fmax(1.0, t.b.cwiseAbs().sum());
  if (!(std::fabs(t.b.sum() - 1) <= tol)) {
    std::snprintf(buf, sizeof buf, "geomint: the partitioned tableau's weights sum to %.17g, not 1", t.b.sum());
    throw std::invalid_argument(buf);
  }
  const tableau_order_report r = partitioned_order_conditions(t, std::min(t.order, max_bicoloured_tree_order));
  if (!r.holds(r.checked)) detail::throw_failed_condition("partitioned tableau", t.order, r);
  if (t.order <= max_bicoloured_tree_order) return;
  for (const matrix<S, S>* part : {&t.aq, &t.ap}) {
    butcher_tableau<S> rk;
    rk.a = *part;
    rk.b = t.b;
    rk.c = part->rowwise().sum();
    rk.order = t.order;
    const tableau_order_report own = butcher_order_conditions(rk, std::min(t.order, max_tree_order));
    if (!own.holds(own.checked))
      detail::throw_failed_condition(part == &t.aq ? "partitioned tableau's position part" : "partitioned tableau's momentum part",
                                     t.order, own);
    if (detail::simplifying_orders(rk, t.order).b < t.order) {
      std::snprintf(buf, sizeof buf, "geomint: the partitioned tableau declares order %d, but its %s part's quadrature "
                    "condition B(%d) fails", t.order, part == &t.aq ? "position" : "momentum", t.order);
      throw std::invalid_argument(buf);
    }
  }
}

/// Throws std::invalid_argument naming the first violated condition: a declared order ≥ 1 (the
/// steppers use it, e.g. RKMK truncates dψ⁻¹ by it), consistency Σ b_i = 1, row sums
/// Σ_j a_ij = c_i, and the declared order (require_declared_order).
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
  require_declared_order(t);
}

}  // namespace geomint
