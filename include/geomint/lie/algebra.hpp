// Lie algebras for Lie–Poisson systems: the algebra concept, the sign convention, and the
// operations every algebra shares (dexp, dexp⁻¹, structure constants, free functions).
//
// SIGN CONVENTION (Engø–Faltinsen 1999, eq. (2.3) and Lemma 2)
//   A Lie–Poisson system on g* reads  ẏ = J(y)∇H(y),  J(y)_ij = Σ_k C_ij^k y_k,
//   where bracket(f_i, f_j) = Σ_k C_ij^k f_k are the structure constants of the algebra's
//   coordinates. Then J(y)σ = −ad*_σ y (Lemma 2), so ẏ = −ad*_{∇H(y)} y, and the flow is
//   y(t) = Ad*_{exp(−σ(t))} y0 with σ' = dexp⁻¹_σ(∇H(y)) (Theorem 1).
//   geomint's brackets carry Engø–Faltinsen's sign (their so(3) basis f_k = −ê_k, C₁₂³ = −1):
//       hat(bracket(u, v)) = [hat(v), hat(u)],
//   where `hat` is the usual matrix realization (so3: hat(v)w = v × w). With it J(y) is the
//   paper's matrix (so3: J(y) = hat(y); se3: [[û, v̂], [v̂, 0]]) and a left-invariant
//   Hamiltonian gives the body-frame equations: the free rigid body reads ẏ = y × I⁻¹y.
//   In hat form the adjoint action is conjugation by g⁻¹: hat(Ad_g ξ) = g⁻¹ hat(ξ) g, so that
//   Ad_{exp(σ)} = exp(ad_σ) with exp(σ) = e^{hat(σ)}.
//   The coadjoint action is the one that keeps the pairing:
//       ⟨coadjoint(g, y), Ad_g ξ⟩ = ⟨y, ξ⟩ for every ξ,  i.e.  coadjoint(g, y) = (Ad_g)⁻ᵀ y.
//   Worked example, sl(2, ℝ) with the matrix basis h = diag(1, −1), e = [[0, 1], [0, 0]],
//   f = [[0, 0], [1, 0]] (so bracket(h, e) = −2e, bracket(h, f) = 2f, bracket(e, f) = −h) and
//   g = exp(t h) = diag(eᵗ, e⁻ᵗ): Ad_g h = h, Ad_g e = e^{−2t} e, Ad_g f = e^{2t} f, hence
//       coadjoint(g, (a, b, c)) = (a, e^{2t} b, e^{−2t} c)
//   in the dual basis (tests/lie/test_algebras.cpp checks it). The other side of the inverse
//   would give (a, e^{−2t} b, e^{2t} c); in a compact algebra both read as rotations, which is
//   why the non-compact example is the one to check a new algebra against.
//
// THE ALGEBRA CONCEPT (so3, se3, so_n<N>, su_n<N>, structure_constants<D>)
//   static constexpr int dimension;            // d (compile time; geomint::dynamic allowed)
//   using vector_type   = vector<d>;           // elements of g and of g* (dual basis)
//   using operator_type = matrix<d, d>;        // linear maps of g or g*
//   using matrix_type, group_type;             // the realization hat(g) and the group elements
//   static constexpr bool has_cayley;          // the group is quadratic: cay(g) ⊂ G
//   static constexpr int casimir_count;
//   static const char* name();                 // for messages ("so3", "su_n", ...)
//   int dim() const;
//   vector_type   bracket(u, v) const;         // [u, v]
//   operator_type ad(u) const;                 // v ↦ [u, v]
//   vector_type   ad_star(u, y) const;         // ad*_u y,  ⟨ad*_u y, v⟩ = ⟨y, [u, v]⟩
//   operator_type ad_star(u) const;            // = ad(u)ᵀ
//   operator_type poisson_tensor(y) const;     // J(y)
//   matrix_type   hat(v) const;   vector_type vee(X) const;
//   group_type    exp(σ) const;                // e^{hat σ}, closed forms where they exist
//   group_type    cayley(σ) const;             // (1 − hat σ/2)⁻¹(1 + hat σ/2), if has_cayley
//   operator_type adjoint(g) const;            // Ad_g
//   vector_type   coadjoint(g, y) const;       // (Ad_g)⁻ᵀ y = Ad*_{g⁻¹} y: the coadjoint action (above)
//   vector_type   exp_coadjoint(σ, y) const;   // coadjoint(exp(σ), y) = exp(−ad*_σ) y  (4.22)
//   vector_type   cayley_coadjoint(σ, y) const;// coadjoint(cayley(σ), y)               (4.23)
//   vector_type   dcay_inv(σ, v, q) const;     // dcay⁻¹_σ v truncated to degree q in σ (§4.2)
//   vector<casimir_count> casimirs(y) const;   // functions constant on coadjoint orbits
//   vector<casimir_count> casimir_scales(y) const; // the magnitude of each Casimir's terms
//                                              //   (Cauchy–Schwarz / Hölder bound): the scale of
//                                              //   its round-off when y is rounded to doubles
// All functions are const and allocation-free for fixed sizes.
// Checked: at compile time every Lie–Poisson stepper requires these members (algebra_concept.hpp:
// one static_assert naming each missing one); at run time diagnostics::check_algebra (in
// diagnostics/check_algebra.hpp) verifies them against each other and this sign convention.
//
// OPTIONAL: FORMS THAT WRITE INTO THE CALLER'S OBJECTS (su_n, so_n)
// An algebra whose elements are dynamic-size vectors (dimension above max_fixed_element_size)
// returns every vector from the heap. Declaring a type `scratch` (its work buffers, sized on
// first use) promises these overloads, which the steppers then call instead, so that their steps
// allocate nothing after the first:
//   void bracket(u, v, out, scratch&) const;             void ad_star(u, y, out, scratch&) const;
//   void exp_coadjoint(σ, y, out, scratch&) const;       void cayley_coadjoint(σ, y, out, scratch&) const;
//   void dcay_inv(σ, v, q, out, scratch&) const;         (and the _double actions where offered)
// out may be a vector or a block of one; it may alias no argument except y of the actions.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include <Eigen/Geometry>  // cross products and rotations, which 3-D algebras (so3, se3, a user's) use

#include "geomint/core/types.hpp"

namespace geomint {

/// Truncation index meaning "the whole series, summed to round-off".
inline constexpr int full_series = -1;

/// An algebra of dimension d ≤ max_fixed_element_size keeps its elements (vector_type) in
/// fixed-size vectors (≤ 2 KB; su(15): 224 entries), so that the operations returning them by
/// value do not allocate; its d × d operators are fixed-size only up to max_fixed_size (32).
inline constexpr int max_fixed_element_size = 256;
namespace size {
/// d if an algebra's elements of dimension d are fixed-size vectors, else dynamic.
constexpr int fixed_element_size(int d) { return is_fixed(d) && d <= max_fixed_element_size ? d : dynamic; }
}  // namespace size

/// The precision in which coadjoint actions form their increment y₁ − y₀ before the one
/// rounding y₁ = y₀ + (y₁ − y₀) to double. Rounding errors of the increment that repeat from
/// step to step (near relative equilibria, where consecutive steps are alike) would otherwise
/// add up to a linear Casimir drift of ~1e-13 over 1e5 steps; in extended precision
/// (x87 80-bit on x86-64) only the final rounding remains, an unbiased random walk.
using extended = long double;

template <int N, class T>
using vector_of = Eigen::Matrix<T, N, 1>;
template <int R, int C, class T>
using matrix_of = Eigen::Matrix<T, R, C>;

namespace detail {

/// c_k = B_k / k! (Bernoulli numbers with B₁ = −½), from Σ_{j=0}^{k} c_j/(k+1−j)! = 0, k ≥ 1.
/// dexp⁻¹_u = Σ_k c_k ad_u^k (Engø–Faltinsen (4.19)). Computed once in long double.
inline constexpr int bernoulli_terms = 64;
inline const std::array<double, bernoulli_terms>& bernoulli_over_factorial() {
  static const std::array<double, bernoulli_terms> c = [] {
    std::array<long double, bernoulli_terms> ld{};
    std::array<long double, bernoulli_terms + 2> inv_fact{};
    inv_fact[0] = 1;
    for (int k = 1; k < bernoulli_terms + 2; ++k) inv_fact[k] = inv_fact[k - 1] / k;
    ld[0] = 1;
    for (int k = 1; k < bernoulli_terms; ++k) {
      long double s = 0;
      for (int j = 0; j < k; ++j) s += ld[j] * inv_fact[k + 1 - j];
      ld[k] = -s / inv_fact[1];
    }
    std::array<double, bernoulli_terms> out{};
    for (int k = 0; k < bernoulli_terms; ++k) out[k] = static_cast<double>(ld[k]);
    out[1] = -0.5;
    for (int k = 3; k < bernoulli_terms; k += 2) out[k] = 0;  // B_odd = 0 beyond B₁
    return out;
  }();
  return c;
}

/// result = Σ_{k=0}^{q} c_k L^k v for a linear map L given as apply(x, out): out = L x, with c_k =
/// B_k/k!; power and next are the caller's buffers of v's size (so that nothing is allocated).
/// q = full_series sums until the terms fall below round-off (the series converges for
/// ‖L‖ < 2π); returns whether it did (always true for a truncation).
template <class V0, class V, class Apply>
bool bernoulli_series_into(const V0& v, int q, Apply&& apply, V& result, V& power, V& next) {
  const auto& c = bernoulli_over_factorial();
  result = v;
  power = v;
  // The table ends at B₆₃/63!: a higher truncation order (an RKMK tableau of order ≥ 66) sums
  // what is there; the terms left out are below (‖L‖/2π)⁶⁴ relative, nothing in double.
  const int last = q == full_series ? bernoulli_terms - 1 : std::min(q, bernoulli_terms - 1);
  for (int k = 1; k <= last; ++k) {
    apply(power, next);
    power.swap(next);
    if (c[k] == 0) continue;
    result.noalias() += c[k] * power;
    if (q == full_series && k >= 2 &&
        std::fabs(c[k]) * power.cwiseAbs().maxCoeff() <=
            0.25 * std::numeric_limits<double>::epsilon() * result.cwiseAbs().maxCoeff())
      return true;
  }
  return q != full_series;
}

/// Σ_{k=0}^{q} c_k L^k v for a linear map L given as apply(x) → L x (bernoulli_series_into with
/// its own buffers); `converged` reports whether a full series converged.
template <class V, class Apply>
V bernoulli_series(const V& v, int q, Apply&& apply, bool* converged = nullptr) {
  V result, power, next;
  const bool done = bernoulli_series_into(v, q, [&](const V& x, V& out) { out = apply(x); }, result, power, next);
  if (converged) *converged = done;
  return result;
}

/// e^S − 1 into e for a square matrix S (real or complex, any precision), accurate relative to ‖S‖:
/// Taylor series of the scaled matrix summed until the terms no longer change it (a truncated
/// even power of a skew S would leave an orthogonality defect of fixed sign), then
/// (1 + E)² − 1 = 2E + E² per squaring. Updates written as y + (increment) with this E keep
/// orbits and Casimirs to round-off over long runs, where forming e^S itself (entries near 1)
/// leaves an orthogonality defect of one ulp of 1. a, term and next are work matrices; once they
/// have S's size nothing is allocated.
template <class M>
void expm1_into(const M& s, M& e, M& a, M& term, M& next) {
  using real = typename Eigen::NumTraits<typename M::Scalar>::Real;
  const real tiny = Eigen::NumTraits<real>::epsilon() / 16;
  real norm = s.cwiseAbs().rowwise().sum().maxCoeff();
  // A non-finite S (a gradient that overflowed) gives NaN, which the stepper reports as a
  // non-finite value; halving an infinite norm would never end.
  if (!(norm <= std::numeric_limits<real>::max())) {
    e.setConstant(s.rows(), s.cols(), typename M::Scalar(std::numeric_limits<real>::quiet_NaN()));
    return;
  }
  int squarings = 0;
  while (norm > real(0.5)) {
    norm /= 2;
    ++squarings;
  }
  a = s * real(std::ldexp(1.0, -squarings));
  e = a;
  term = a;
  for (int k = 2; k < 60; ++k) {
    next.noalias() = term * a;
    term = next / real(k);
    e += term;
    if (term.cwiseAbs2().maxCoeff() <= tiny * tiny * e.cwiseAbs2().maxCoeff()) break;
  }
  for (int i = 0; i < squarings; ++i) {
    next.noalias() = e * e;
    e = real(2) * e + next;
  }
}
/// e^S − 1 by value (expm1_into with its own buffers).
template <class M>
M expm1(const M& s) {
  M e, a, term, next;
  expm1_into(s, e, a, term, next);
  return e;
}

/// Whether an algebra offers the double-precision coadjoint actions exp_coadjoint_double /
/// cayley_coadjoint_double (for stage points, see exp_coordinates::stage_act).
template <class A, class = void>
struct has_double_actions : std::false_type {};
template <class A>
struct has_double_actions<A, std::void_t<decltype(std::declval<const A&>().exp_coadjoint_double(
                                 std::declval<const typename A::vector_type&>(),
                                 std::declval<const typename A::vector_type&>()))>> : std::true_type {};

/// Whether an algebra writes its operations into the caller's objects (the forms of the
/// concept's optional part, declared by a type Algebra::scratch) and its elements are dynamic,
/// where a returned vector would come from the heap. Steppers then call those forms (through
/// the *_into functions below); for every other algebra the *_into functions assign the value
/// forms, so that fixed-size code is what it was.
template <class A, class = void>
struct has_scratch : std::false_type {};
template <class A>
struct has_scratch<A, std::void_t<typename A::scratch>> : std::true_type {};
template <class A>
inline constexpr bool writes_into = has_scratch<A>::value && A::vector_type::SizeAtCompileTime == Eigen::Dynamic;

/// A stepper's buffers for the *_into functions: the algebra's scratch and vectors for what is
/// built from its operations (dexp⁻¹'s series, operators assembled column by column). Empty
/// unless writes_into<A>; sized on first use.
template <class A, bool = writes_into<A>>
struct op_buffers {};
template <class A>
struct op_buffers<A, true> {
  typename A::scratch algebra;
  typename A::vector_type u, v, w;
};

/// out = [u, v].
template <class A, class U, class V, class Out>
GEOMINT_ALWAYS_INLINE void bracket_into(const A& a, const U& u, const V& v, Out&& out, op_buffers<A>& b) {
  if constexpr (writes_into<A>) a.bracket(u, v, out, b.algebra);
  else out = a.bracket(u, v);
}
/// out = ad*_u y.
template <class A, class U, class Y, class Out>
GEOMINT_ALWAYS_INLINE void ad_star_into(const A& a, const U& u, const Y& y, Out&& out, op_buffers<A>& b) {
  if constexpr (writes_into<A>) a.ad_star(u, y, out, b.algebra);
  else out = a.ad_star(u, y);
}

/// The coadjoint actions of one step's stage points on its y₀, for algebras that keep nothing
/// across them: Coordinates::stage_act / act with y₀, into y (see cayley_coordinates::prepared_action).
template <class Algebra, class Coordinates>
class plain_action {
 public:
  using vec = typename Algebra::vector_type;
  void prepare(const Algebra&, const vec& y0) { y0_ = &y0; }
  template <class S, class Y>
  void stage(const Algebra& a, const Eigen::MatrixBase<S>& sigma, Y& y) { Coordinates::stage_act_into(a, sigma, *y0_, y, ops_); }
  template <class S, class Y>
  void act(const Algebra& a, const Eigen::MatrixBase<S>& sigma, Y& y) { Coordinates::act_into(a, sigma, *y0_, y, ops_); }

 private:
  const vec* y0_ = nullptr;
  op_buffers<Algebra> ops_;
};

}  // namespace detail

/// The Bernoulli series of dexp_inv (out of line, so that the short truncations inline).
template <class Algebra>
GEOMINT_NOINLINE typename Algebra::vector_type dexp_inv_series(const Algebra& a, const typename Algebra::vector_type& s,
                                                                const typename Algebra::vector_type& v, int q) {
  using vec = typename Algebra::vector_type;
  return detail::bernoulli_series(v, q, [&](const vec& x) -> vec { return a.bracket(s, x); });
}

namespace detail {
/// Whether an algebra has its own (closed-form) dexp_inv(σ, v, q) member.
template <class A, class = void>
struct has_own_dexp_inv : std::false_type {};
template <class A>
struct has_own_dexp_inv<A, std::void_t<decltype(std::declval<const A&>().dexp_inv(
                               std::declval<const typename A::vector_type&>(),
                               std::declval<const typename A::vector_type&>(), 0))>> : std::true_type {};
}  // namespace detail

/// dexp⁻¹_σ v = Σ_{k=0}^{q} (B_k/k!) ad_σ^k v (Engø–Faltinsen (4.19)), truncated after degree q
/// in σ, or summed to round-off for q = full_series. An algebra's own closed form (so3) is used
/// where it has one. (always_inline: on the critical path of every RKMK stage; GCC's inline
/// limits in a large step function left it as a call, its arguments and result through memory.)
template <class Algebra, class S, class V>
GEOMINT_ALWAYS_INLINE typename Algebra::vector_type dexp_inv(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                       const Eigen::MatrixBase<V>& v, int q) {
  using vec = typename Algebra::vector_type;
  if constexpr (detail::has_own_dexp_inv<Algebra>::value) {
    return a.dexp_inv(sigma, v, q);
  } else {
    const vec s = sigma;
    if (q == 0) return v;
    if (q == 1 || q == 2) {  // the truncations RKMK of order ≤ 4 uses: v − ½[σ, v] + (1/12)[σ, [σ, v]]
      const vec b = a.bracket(s, v);
      return q == 1 ? vec(v - b / 2) : vec(v - b / 2 + a.bracket(s, b) * (1.0 / 12));  // no division
    }
    return dexp_inv_series(a, s, vec(v), q);
  }
}

namespace detail {
/// dexp_inv into out: the algebra's into-forms with the vectors of b (writes_into), else the value.
template <class Algebra, class S, class V, class Out>
GEOMINT_ALWAYS_INLINE void dexp_inv_into(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                                 const Eigen::MatrixBase<V>& v, int q, Out&& out, op_buffers<Algebra>& b) {
  if constexpr (!writes_into<Algebra>) {
    out = dexp_inv(a, sigma, v, q);
  } else if (q == 0) {
    out = v;
  } else if (q == 1 || q == 2) {  // as dexp_inv
    b.u.resize(v.size());
    b.v.resize(v.size());
    a.bracket(sigma, v, b.u, b.algebra);
    if (q == 1) {
      out = v - b.u / 2;
    } else {
      a.bracket(sigma, b.u, b.v, b.algebra);
      out = v - b.u / 2 + b.v * (1.0 / 12);
    }
  } else {
    using vec = typename Algebra::vector_type;
    auto next_power = [&](const vec& x, vec& next) { a.bracket(sigma, x, next, b.algebra); };
    b.v.resize(v.size());
    bernoulli_series_into(v, q, next_power, b.w, b.u, b.v);
    out = b.w;
  }
}
}  // namespace detail

/// dexp_σ v = Σ_{k=0}^{q} ad_σ^k v / (k+1)!  (Engø–Faltinsen §4.1); q = full_series sums to
/// round-off.
template <class Algebra, class S, class V>
typename Algebra::vector_type dexp(const Algebra& a, const Eigen::MatrixBase<S>& sigma,
                                   const Eigen::MatrixBase<V>& v, int q) {
  using vec = typename Algebra::vector_type;
  const vec s = sigma;
  vec result = v, power = v;
  double coefficient = 1;
  const int last = q == full_series ? 60 : q;
  for (int k = 1; k <= last; ++k) {
    power = a.bracket(s, power);
    coefficient /= (k + 1);
    result.noalias() += coefficient * power;
    if (q == full_series && coefficient * power.cwiseAbs().maxCoeff() <=
                                0.25 * std::numeric_limits<double>::epsilon() * result.cwiseAbs().maxCoeff())
      break;
  }
  return result;
}

/// Structure constants of an algebra's coordinates: C[k](i, j) = C_ij^k = bracket(e_i, e_j)_k.
template <class Algebra>
std::array<typename Algebra::operator_type, Algebra::dimension == dynamic ? 1 : Algebra::dimension>
structure_constants_of(const Algebra& a) {
  static_assert(Algebra::dimension != dynamic, "structure_constants_of needs a fixed dimension");
  constexpr int d = Algebra::dimension;
  std::array<typename Algebra::operator_type, d> c;
  for (int k = 0; k < d; ++k) c[k].setZero(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      const typename Algebra::vector_type b =
          a.bracket(Algebra::vector_type::Unit(d, i), Algebra::vector_type::Unit(d, j));
      for (int k = 0; k < d; ++k) c[k](i, j) = b(k);
    }
  return c;
}

/// Operators assembled column by column from an algebra's bracket (for algebras whose bracket
/// is computed in a realization, not from a stored table).
namespace detail {
/// Column j of an operator given by column(e_j, out), into the caller's d × d out: for
/// writes_into algebras with the unit vector and the column in b's vectors (nothing allocated).
template <class Algebra, class Out, class Column>
void assemble_by_columns(const Algebra& a, Out& out, op_buffers<Algebra>& b, Column&& column) {
  const int d = a.dim();
  out.resize(d, d);
  if constexpr (writes_into<Algebra>) {
    b.u.setZero(d);
    b.v.resize(d);
    for (int j = 0; j < d; ++j) {
      b.u(j) = 1;
      column(b.u, b.v);
      out.col(j) = b.v;
      b.u(j) = 0;
    }
  } else {
    typename Algebra::vector_type col(d);
    for (int j = 0; j < d; ++j) {
      column(Algebra::vector_type::Unit(d, j), col);
      out.col(j) = col;
    }
  }
}

/// ad_u column by column (column j = [u, e_j]).
template <class Algebra, class U, class Out>
void ad_by_columns(const Algebra& a, const U& u, Out& out, op_buffers<Algebra>& b) {
  assemble_by_columns(a, out, b, [&](const auto& e, auto& col) { bracket_into(a, u, e, col, b); });
}
template <class Algebra, class U>
typename Algebra::operator_type ad_by_columns(const Algebra& a, const U& u) {
  typename Algebra::operator_type m;
  op_buffers<Algebra> b;
  ad_by_columns(a, u, m, b);
  return m;
}
/// J(y) column by column (column j = −ad*_{e_j} y).
template <class Algebra, class Y, class Out>
void poisson_tensor_by_columns(const Algebra& a, const Y& y, Out& out, op_buffers<Algebra>& b) {
  assemble_by_columns(a, out, b, [&](const auto& e, auto& col) {
    ad_star_into(a, e, y, col, b);
    col = -col;
  });
}
template <class Algebra, class Y>
typename Algebra::operator_type poisson_tensor_by_columns(const Algebra& a, const Y& y) {
  typename Algebra::operator_type m;
  op_buffers<Algebra> b;
  poisson_tensor_by_columns(a, y, m, b);
  return m;
}

/// Whether an algebra's d × d operators live on the heap (dynamic size) while its vectors do not,
/// or are written into buffers (writes_into): its operator-valued functions then return a fresh
/// heap matrix, and steppers assemble the operators they need column by column into their own
/// (ad_into, poisson_tensor_into).
template <class Algebra>
inline constexpr bool heap_operators =
    Algebra::operator_type::RowsAtCompileTime == dynamic &&
    (Algebra::vector_type::SizeAtCompileTime != dynamic || writes_into<Algebra>);

/// ad_u into out (d × d, sized by the caller once), without a temporary operator.
template <class Algebra, class U, class Out>
void ad_into(const Algebra& a, const U& u, Out& out, op_buffers<Algebra>& b) {
  if constexpr (heap_operators<Algebra>) ad_by_columns(a, u, out, b);
  else out = a.ad(u);
}
/// J(y) into out (d × d, sized by the caller once), without a temporary operator.
template <class Algebra, class Y, class Out>
void poisson_tensor_into(const Algebra& a, const Y& y, Out& out, op_buffers<Algebra>& b) {
  if constexpr (heap_operators<Algebra>) poisson_tensor_by_columns(a, y, out, b);
  else out = a.poisson_tensor(y);
}
}  // namespace detail

/// Sophus/manif-style free functions. They live in geomint::lie so that `exp` does not hide
/// std::exp inside namespace geomint.
namespace lie {
template <class A, class V> auto hat(const A& a, const V& v) { return a.hat(v); }
template <class A, class X> auto vee(const A& a, const X& x) { return a.vee(x); }
template <class A, class U, class V> auto bracket(const A& a, const U& u, const V& v) { return a.bracket(u, v); }
template <class A, class U> auto ad(const A& a, const U& u) { return a.ad(u); }
template <class A, class U> auto ad_star(const A& a, const U& u) { return a.ad_star(u); }
template <class A, class U, class Y> auto ad_star(const A& a, const U& u, const Y& y) { return a.ad_star(u, y); }
template <class A, class Y> auto poisson_tensor(const A& a, const Y& y) { return a.poisson_tensor(y); }
template <class A, class V> auto exp(const A& a, const V& v) { return a.exp(v); }
template <class A, class V> auto cayley(const A& a, const V& v) { return a.cayley(v); }
template <class A, class G> auto adjoint(const A& a, const G& g) { return a.adjoint(g); }
template <class A, class G, class Y> auto coadjoint(const A& a, const G& g, const Y& y) { return a.coadjoint(g, y); }
template <class A, class Y> auto casimirs(const A& a, const Y& y) { return a.casimirs(y); }
}  // namespace lie

}  // namespace geomint
