// Coefficients γ_1..γ_s of symmetric compositions Ψ_h = Φ_{γ_s h} ∘ … ∘ Φ_{γ_1 h} of a symmetric
// method Φ of order 2 (γ_{s+1−i} = γ_i, Σγ_i = 1). Each scheme raises the order to `order`; the
// order conditions are checked to round-off in tests/compose. Values to full double precision
// (more digits than a double holds); the middle coefficient is 1 − 2Σ(others), as published.
#pragma once

#include <array>
#include <cstddef>

namespace geomint {

namespace detail {
/// γ_1..γ_s from the first (s + 1)/2 coefficients of a palindrome.
template <std::size_t S, std::size_t H>
constexpr std::array<double, S> palindrome(const std::array<double, H>& half) {
  static_assert(S == 2 * H - 1, "a symmetric composition has an odd number of stages");
  std::array<double, S> g{};
  for (std::size_t i = 0; i < H; ++i) g[i] = g[S - 1 - i] = half[i];
  return g;
}
}  // namespace detail

/// Yoshida's triple jump (Yoshida 1990, Phys. Lett. A 150, eq. (4.2); also Suzuki 1990):
/// γ_1 = γ_3 = 1/(2 − 2^{1/3}), γ_2 = −2^{1/3}/(2 − 2^{1/3}). Order 4, 3 stages.
struct yoshida4 {
  static constexpr int order = 4;
  static constexpr std::size_t stages = 3;
  static constexpr std::array<double, 3> coefficients =
      detail::palindrome<3>(std::array<double, 2>{1.3512071919596576340476878089715,
                                                  -1.7024143839193152680953756179429});
};

/// Suzuki's fractal 5-stage scheme (Suzuki 1990, Phys. Lett. A 146): γ_1 = γ_2 = γ_4 = γ_5 =
/// 1/(4 − 4^{1/3}), γ_3 = −4^{1/3}/(4 − 4^{1/3}). Order 4, 5 stages; smaller error constant than
/// the triple jump.
struct suzuki4 {
  static constexpr int order = 4;
  static constexpr std::size_t stages = 5;
  static constexpr std::array<double, 5> coefficients = detail::palindrome<5>(std::array<double, 3>{
      0.41449077179437573714235406286076, 0.41449077179437573714235406286076, -0.65796308717750294856941625144305});
};

/// Yoshida 1990, Table 1, solution A: order 6, 7 stages. Published there to 15 digits; the
/// 20-digit values are those tabulated by Leimkuhler & Reich (Simulating Hamiltonian Dynamics,
/// 2004, §6.2.2), the middle coefficient 1 − 2(w_1 + w_2 + w_3).
struct yoshida6 {
  static constexpr int order = 6;
  static constexpr std::size_t stages = 7;
  static constexpr std::array<double, 7> coefficients = detail::palindrome<7>(std::array<double, 4>{
      0.78451361047755726382, 0.23557321335935813368, -1.17767998417887100695, 1.31518632068391121888});
};

/// Kahan & Li 1997 (Math. Comp. 66, 1089–1099), scheme s9odr6a: order 6, 9 stages. Values as
/// reproduced by Hairer, Lubich & Wanner (Geometric Numerical Integration, §V.3.2).
struct kahan_li6 {
  static constexpr int order = 6;
  static constexpr std::size_t stages = 9;
  static constexpr std::array<double, 9> coefficients = detail::palindrome<9>(std::array<double, 5>{
      0.39216144400731413927925056, 0.33259913678935943859974864, -0.70624617255763935980996482,
      0.08221359629355080023149045, 0.79854399093482996339895035});
};

/// Kahan & Li 1997, scheme s17odr8a: order 8, 17 stages. Values as reproduced by Hairer, Lubich
/// & Wanner (Geometric Numerical Integration, §V.3.2).
struct kahan_li8 {
  static constexpr int order = 8;
  static constexpr std::size_t stages = 17;
  static constexpr std::array<double, 17> coefficients = detail::palindrome<17>(std::array<double, 9>{
      0.13020248308889008087881763, 0.56116298177510838456196441, -0.38947496264484728640807860,
      0.15884190655515560089621075, -0.39590389413323757733623154, 0.18453964097831570709183254,
      0.25837438768632204729397911, 0.29501172360931029887096624, -0.60550853383003451169892108});
};

}  // namespace geomint
