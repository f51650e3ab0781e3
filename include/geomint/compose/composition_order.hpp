// The order a composition scheme reaches, computed from its coefficients alone, at compile time.
//
// A symmetric one-step method of order 2 has the formal logarithm
//     log Φ_h = h F₁ + h³ F₃ + h⁵ F₅ + h⁷ F₇ + O(h⁹)
// (only odd powers: Hairer–Lubich–Wanner, Geometric Numerical Integration, §II.3 and §III.3.2),
// with F₁ the vector field and F₃, F₅, F₇ free, non-commuting elements. The composition
// Ψ_h = Φ_{γ_s h} ∘ … ∘ Φ_{γ_1 h} is then the product of the exponentials exp(Σ_k (γ_i h)^k F_k),
// and it has order p for every such base exactly when that product agrees with exp(h F₁) in every
// word of weight ≤ p of the free associative algebra on F₁, F₃, F₅, F₇ (F_k of weight k). Those
// are the composition order conditions (McLachlan 1995; HLW §III.3 and §V.3): the weight-1 word
// is Σγ_i = 1, the weight-3 words contain Σγ_i³ = 0, and so on. Up to weight 8 there are 54
// words, so the whole check is a few thousand multiply–adds: cheap enough for a constant
// expression, which lets composition<Base, Scheme> refuse a scheme that misses its declared order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace geomint {

/// The highest order whose conditions composition_order checks.
inline constexpr int max_checked_composition_order = 8;

/// What a scheme's coefficients reach: `order` (0 if Σγ ≠ 1), whether they are a palindrome (the
/// composition of a symmetric base is then symmetric), and for each weight k = 1..8 the largest
/// deviation |Ψ − exp(hF₁)| over the words of weight k, with the tolerance it was judged by.
struct composition_order_report {
  int order = 0;
  bool palindrome = false;
  std::array<double, max_checked_composition_order + 1> residual{};   ///< index k: weight k (index 0 unused)
  std::array<double, max_checked_composition_order + 1> tolerance{};  ///< index k: weight k
};

namespace detail {

/// The words of weight ≤ 8 over F₁, F₃, F₅, F₇ (index 0 is the empty word), and for each word and
/// generator the index of the word extended by it on the right (−1 when its weight exceeds 8).
struct composition_words {
  static constexpr int generators = 4;  // F₁, F₃, F₅, F₇
  static constexpr int max_words = 55;  // 1 + Σ_{k≤8} (compositions of k into odd parts) = 1 + 54
  int count = 0;
  std::array<int, max_words> weight{};
  std::array<std::array<int, generators>, max_words> extend{};
  std::array<int, max_words> f1_power{};  ///< k if the word is F₁ᵏ, else −1
};

constexpr int generator_weight(int j) { return 2 * j + 1; }

constexpr composition_words make_composition_words() {
  composition_words w{};
  w.count = 1;
  w.weight[0] = 0;
  w.f1_power[0] = 0;
  for (int i = 0; i < w.count; ++i)  // breadth first: every word is extended once
    for (int j = 0; j < composition_words::generators; ++j) {
      const int wt = w.weight[i] + generator_weight(j);
      if (wt > max_checked_composition_order) {
        w.extend[i][j] = -1;
        continue;
      }
      w.weight[w.count] = wt;
      w.f1_power[w.count] = (j == 0 && w.f1_power[i] >= 0) ? w.f1_power[i] + 1 : -1;
      w.extend[i][j] = w.count++;
    }
  return w;
}

inline constexpr composition_words words = make_composition_words();
using word_series = std::array<double, composition_words::max_words>;

constexpr double power(double x, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i) r *= x;
  return r;
}
constexpr double magnitude(double x) { return x < 0 ? -x : x; }

/// p · exp(X) for X = Σ_j γ^{2j+1} F_{2j+1}: Σ_m p Xᵐ/m!, the terms formed one right factor at a time.
constexpr word_series times_stage_exponential(const word_series& p, double gamma) {
  std::array<double, composition_words::generators> x{};
  for (int j = 0; j < composition_words::generators; ++j) x[j] = power(gamma, generator_weight(j));
  word_series sum = p, term = p;
  for (int m = 1; m <= max_checked_composition_order; ++m) {
    word_series next{};
    for (int i = 0; i < words.count; ++i) {
      if (term[i] == 0) continue;
      for (int j = 0; j < composition_words::generators; ++j)
        if (words.extend[i][j] >= 0) next[words.extend[i][j]] += term[i] * x[j] / m;
    }
    term = next;
    for (int i = 0; i < words.count; ++i) sum[i] += term[i];
  }
  return sum;
}

}  // namespace detail

/// The composition order conditions of `gamma` (γ_1 … γ_s) up to order 8, as a constant
/// expression. A weight-k condition holds when its words deviate by at most 16 ε (1 + k) A_k,
/// where A_k is the largest sum of the magnitudes of the terms of a weight-k word (the same
/// product formed with |γ_i|): rounding each γ_i to double (|δγ_i| ≤ ε|γ_i|) moves a word of
/// degree k in the γ's by at most k ε times that sum, and the arithmetic here by a few ε more. The
/// shipped schemes deviate by ≤ 2e-15, within tolerances of 4e-15 … 4e-12; a violated condition is
/// far above (yoshida4 read as order 6: 5.3 at weight 5; a 1e-12 error in the outer coefficients of
/// kahan_li8: 2.1e-12 at weight 3, tolerance 3.6e-13).
template <std::size_t S>
constexpr composition_order_report composition_order(const std::array<double, S>& gamma) {
  composition_order_report r{};
  detail::word_series psi{}, magnitudes{};
  psi[0] = magnitudes[0] = 1;
  for (std::size_t i = 0; i < S; ++i) {
    psi = detail::times_stage_exponential(psi, gamma[i]);
    magnitudes = detail::times_stage_exponential(magnitudes, detail::magnitude(gamma[i]));
  }
  r.palindrome = true;
  for (std::size_t i = 0; i < S; ++i)
    if (gamma[i] != gamma[S - 1 - i]) r.palindrome = false;
  // exp(h F₁): the word F₁ᵏ has coefficient 1/k!, every other word 0.
  std::array<double, max_checked_composition_order + 1> inverse_factorial{};
  inverse_factorial[0] = 1;
  for (int k = 1; k <= max_checked_composition_order; ++k) inverse_factorial[k] = inverse_factorial[k - 1] / k;
  std::array<double, max_checked_composition_order + 1> largest_sum{};
  for (int i = 1; i < detail::words.count; ++i) {
    const int k = detail::words.weight[i];
    const double target = detail::words.f1_power[i] >= 0 ? inverse_factorial[detail::words.f1_power[i]] : 0.0;
    const double deviation = detail::magnitude(psi[i] - target);
    if (deviation > r.residual[k]) r.residual[k] = deviation;
    if (magnitudes[i] > largest_sum[k]) largest_sum[k] = magnitudes[i];
  }
  r.order = 0;
  for (int k = 1; k <= max_checked_composition_order; ++k) {
    r.tolerance[k] = 16 * std::numeric_limits<double>::epsilon() * (1 + k) * largest_sum[k];
    if (r.order == k - 1 && r.residual[k] <= r.tolerance[k]) r.order = k;
  }
  return r;
}

/// Throws std::invalid_argument unless `gamma` composes to at least `declared_order` (≤ 8),
/// naming the first violated condition and its residual: the check composition<Base, Scheme> makes
/// at compile time, for coefficients known only at run time.
template <std::size_t S>
void require_composition_order(const std::array<double, S>& gamma, int declared_order) {
  char buf[320];
  if (declared_order < 1 || declared_order > max_checked_composition_order) {
    std::snprintf(buf, sizeof buf, "geomint: a composition scheme's declared order must be 1 … %d (it is %d)",
                  max_checked_composition_order, declared_order);
    throw std::invalid_argument(buf);
  }
  const composition_order_report r = composition_order(gamma);
  if (r.order >= declared_order) return;
  const int k = r.order + 1;
  if (k == 1) {
    double sum = 0;
    for (double g : gamma) sum += g;
    std::snprintf(buf, sizeof buf, "geomint: a composition scheme's coefficients must sum to 1 (consistency); they sum to %.17g",
                  sum);
  } else {
    std::snprintf(buf, sizeof buf,
                  "geomint: the composition scheme declares order %d but fails the order-%d conditions (its h^%d "
                  "terms; for a palindrome of order 4, Σγᵢ³ = 0): residual %.3e, tolerance %.1e",
                  declared_order, k, k, r.residual[k], r.tolerance[k]);
  }
  throw std::invalid_argument(buf);
}

}  // namespace geomint
