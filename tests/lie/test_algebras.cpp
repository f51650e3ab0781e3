// Lie algebras: property tests written once and instantiated for every algebra (Jacobi
// identity, Lemma 2, the sign convention, Ad against hat conjugation, Casimirs on coadjoint
// orbits, dexp⁻¹ ∘ dexp and dcay⁻¹ ∘ dcay, the differential of the coordinate maps), then the
// checks particular to each algebra.
#define BOOST_TEST_MODULE lie
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <Eigen/Eigenvalues>
#include <unsupported/Eigen/MatrixFunctions>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/exp_coordinates.hpp"
#include "geomint/lie/se3.hpp"
#include "geomint/lie/so3.hpp"
#include "geomint/lie/so_n.hpp"
#include "geomint/lie/structure_constants.hpp"
#include "geomint/lie/su_n.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/sine_euler.hpp"
#include "lie_test_support.hpp"

using namespace geomint;
using lie_test::random_vector;
using lie_test::relative_difference;

namespace {

/// se(3) given to the generic algebra by its structure constants (not semisimple).
struct se3_constants : structure_constants<6> {
  se3_constants() : structure_constants<6>(structure_constants_of(se3{})) {}
};

// Round-off budget for identities between O(1) quantities built from a few brackets and
// products of d × d or N × N matrices: a few hundred ulps.
constexpr double roundoff = 1e-13;

template <class A>
using vec = typename A::vector_type;

template <class A>
vec<A> element(const A& a, double scale, unsigned seed) {
  return random_vector<vec<A>>(a.dim(), scale, seed);
}

/// The differential of the realization's Cayley map, dcay_σ v (Engø–Faltinsen §4.2 with
/// Ω = −hat σ): (1 − Ω/2)⁻¹ A (1 + Ω/2)⁻¹, A = −hat v; for su(N) taken modulo the centre by vee.
template <class A>
vec<A> dcay(const A& a, const vec<A>& sigma, const vec<A>& v) {
  using M = typename A::matrix_type;
  const M om = -a.hat(sigma);
  const M id = M::Identity(om.rows(), om.cols());
  const M left = (id - om / 2.0).inverse(), right = (id + om / 2.0).inverse();
  return a.vee(M(-(left * M(-a.hat(v)) * right)));
}

/// |d/dε act(σ + ε dψ⁻¹_σ(ξ), y) − (−ad*_ξ act(σ, y))| relative: the defining property of dψ⁻¹
/// used by Theorem 1 (central differences, error ~1e-10).
template <class C, class A>
double differential_defect(const A& a, const vec<A>& sigma, const vec<A>& xi, const vec<A>& y, int q) {
  const vec<A> dir = C::inverse_differential(a, sigma, xi, q);
  const double eps = 1e-5;
  const vec<A> fd = (C::act(a, vec<A>(sigma + eps * dir), y) - C::act(a, vec<A>(sigma - eps * dir), y)) / (2 * eps);
  const vec<A> exact = -a.ad_star(xi, C::act(a, sigma, y));
  return relative_difference(fd, exact);
}

}  // namespace

using algebras = boost::mpl::list<so3, se3, so_n<3>, so_n<5>, su_n<3>, su_n<5>, structure_constants<3>, se3_constants>;

BOOST_AUTO_TEST_CASE_TEMPLATE(bracket_is_antisymmetric_and_satisfies_jacobi, A, algebras) {
  const A a;
  for (unsigned s = 0; s < 5; ++s) {
    const vec<A> u = element(a, 1, 10 + s), v = element(a, 1, 20 + s), w = element(a, 1, 30 + s);
    BOOST_TEST((a.bracket(u, v) + a.bracket(v, u)).cwiseAbs().maxCoeff() <= roundoff);
    const vec<A> jacobi = a.bracket(u, a.bracket(v, w)) + a.bracket(v, a.bracket(w, u)) + a.bracket(w, a.bracket(u, v));
    BOOST_TEST(jacobi.cwiseAbs().maxCoeff() <= roundoff);
    BOOST_TEST(relative_difference(vec<A>(a.ad(u) * v), a.bracket(u, v)) <= roundoff);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(lemma_2_ad_star_is_minus_j_sigma, A, algebras) {
  // ad*_σ y = −J(y)σ (Engø–Faltinsen, Lemma 2), ad*_σ = ad_σᵀ, and ⟨ad*_σ y, v⟩ = ⟨y, [σ, v]⟩.
  const A a;
  for (unsigned s = 0; s < 5; ++s) {
    const vec<A> sigma = element(a, 1, 40 + s), y = element(a, 1, 50 + s), v = element(a, 1, 60 + s);
    BOOST_TEST(relative_difference(a.ad_star(sigma, y), vec<A>(-a.poisson_tensor(y) * sigma)) <= roundoff);
    BOOST_TEST(relative_difference(typename A::operator_type(a.ad_star(sigma)),
                                   typename A::operator_type(a.ad(sigma).transpose())) <= roundoff);
    BOOST_TEST(std::fabs(a.ad_star(sigma, y).dot(v) - y.dot(a.bracket(sigma, v))) <= roundoff);
    // J(y) is skew.
    const typename A::operator_type j = a.poisson_tensor(y);
    BOOST_TEST((j + j.transpose()).cwiseAbs().maxCoeff() <= roundoff);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(poisson_tensor_is_sum_of_structure_constants_times_y, A, algebras) {
  // Sign convention (docs/lie.md): J(y)_ij = Σ_k C_ij^k y_k with bracket(e_i, e_j) = Σ_k C_ij^k e_k.
  const A a;
  const auto c = structure_constants_of(a);
  const vec<A> y = element(a, 1, 70);
  typename A::operator_type j = A::operator_type::Zero();
  for (int k = 0; k < a.dim(); ++k) j += c[k] * y(k);
  BOOST_TEST(relative_difference(j, typename A::operator_type(a.poisson_tensor(y))) <= roundoff);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(hat_realizes_the_bracket_with_geomints_sign, A, algebras) {
  // hat(bracket(u, v)) = [hat v, hat u] and vee ∘ hat = id.
  const A a;
  using M = typename A::matrix_type;
  const vec<A> u = element(a, 1, 80), v = element(a, 1, 81);
  const M hu = a.hat(u), hv = a.hat(v);
  BOOST_TEST(relative_difference(M(a.hat(a.bracket(u, v))), M(hv * hu - hu * hv)) <= roundoff);
  BOOST_TEST(relative_difference(a.vee(hu), u) <= roundoff);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(adjoint_action_against_hat_conjugation, A, algebras) {
  // Ad_{exp σ} = exp(ad_σ) (matrix exponential of the d × d operator), and in hat form
  // hat(Ad_g ξ) = g⁻¹ hat(ξ) g.
  const A a;
  using M = typename A::matrix_type;
  using Op = typename A::operator_type;
  for (unsigned s = 0; s < 3; ++s) {
    const vec<A> sigma = element(a, 0.8, 90 + s), xi = element(a, 1, 95 + s);
    const typename A::group_type g = a.exp(sigma);
    const Op ad = a.ad(sigma);
    const Op expected = ad.exp();
    BOOST_TEST(relative_difference(Op(a.adjoint(g)), expected) <= roundoff);
    const M conj = g.inverse() * a.hat(xi) * g;
    BOOST_TEST(relative_difference(vec<A>(a.adjoint(g) * xi), a.vee(conj)) <= roundoff);
    // The coadjoint action is Ad_gᵀ⁻¹ and the RKMK update exp(−ad*_σ) (4.22).
    const vec<A> y = element(a, 1, 99 + s);
    const vec<A> co = a.coadjoint(g, y);
    BOOST_TEST(relative_difference(co, vec<A>(a.adjoint(g).transpose().lu().solve(y))) <= roundoff);
    const Op minus_ad_star = -a.ad_star(sigma);
    BOOST_TEST(relative_difference(a.exp_coadjoint(sigma, y), vec<A>(minus_ad_star.exp() * y)) <= roundoff);
    BOOST_TEST(relative_difference(a.exp_coadjoint(sigma, y), co) <= roundoff);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(casimirs_are_constant_on_coadjoint_orbits, A, algebras) {
  const A a;
  if constexpr (std::is_same<A, se3_constants>::value) {
    // No quadratic Casimir from a degenerate Killing form: reported, not invented.
    BOOST_CHECK_THROW(a.casimirs(element(a, 1, 1)), std::domain_error);
  } else {
    for (unsigned s = 0; s < 4; ++s) {
      const vec<A> y = element(a, 1, 110 + s), sigma = element(a, 1.5, 120 + s), tau = element(a, 1.5, 130 + s);
      const auto c0 = a.casimirs(y);
      // Two successive group elements: the action of a product.
      const vec<A> y1 = a.coadjoint(a.exp(tau), a.coadjoint(a.exp(sigma), y));
      BOOST_TEST(relative_difference(a.casimirs(y1), c0) <= roundoff);
      if constexpr (A::has_cayley) {
        BOOST_TEST(relative_difference(a.casimirs(a.cayley_coadjoint(sigma, y)), c0) <= roundoff);
        BOOST_TEST(relative_difference(a.cayley_coadjoint(sigma, y), a.coadjoint(a.cayley(sigma), y)) <= roundoff);
      }
      // The Casimirs are Casimirs: ∇C(y)ᵀ J(y) = 0 (central differences, error ~1e-10).
      for (int k = 0; k < A::casimir_count; ++k) {
        vec<A> grad(a.dim());
        for (int j = 0; j < a.dim(); ++j) {
          const vec<A> e = vec<A>::Unit(a.dim(), j) * 1e-6;
          grad(j) = (a.casimirs(vec<A>(y + e))(k) - a.casimirs(vec<A>(y - e))(k)) / 2e-6;
        }
        BOOST_TEST((grad.transpose() * a.poisson_tensor(y)).cwiseAbs().maxCoeff() <= 1e-8 * grad.norm());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(dexp_inverse_inverts_dexp_to_the_truncation_order, A, algebras) {
  const A a;
  const vec<A> v = element(a, 1, 140), dir = element(a, 1, 141);
  // Summed to round-off the two series are inverse maps.
  const vec<A> sigma = dir.normalized() * 0.9;
  BOOST_TEST(relative_difference(dexp_inv(a, sigma, dexp(a, sigma, v, full_series), full_series), v) <= roundoff);
  // Truncated after degree q, dexp⁻¹_q ∘ dexp_q − id = O(|σ|^{q+1}): halving σ divides the
  // defect by 2^{q+1} (observed exponent within 0.3 of q + 1).
  for (int q = 1; q <= 4; ++q) {
    auto defect = [&](double s) {
      const vec<A> sg = dir.normalized() * s;
      return (dexp_inv(a, sg, dexp(a, sg, v, q), q) - v).norm();
    };
    const double rate = std::log2(defect(0.2) / defect(0.1));
    BOOST_TEST_CONTEXT("q = " << q) { BOOST_TEST(rate >= q + 1 - 0.3); }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(dexp_inverse_matrix_holds_beyond_the_series_radius, A, algebras) {
  // The Bernoulli series of dexp⁻¹ converges only while ad_σ's eigenvalues stay below 2π in
  // modulus; dexp itself is entire. With σ scaled to put ad_σ's spectral radius at 3π (between
  // the first two singular points 2π and 4π) the matrix must still invert dexp: the dexp
  // series sums terms up to ~3π⁸/9! ≈ 2e2 times larger than its result, so ~1e-13 relative.
  const A a;
  const vec<A> v = element(a, 1, 145), dir = element(a, 1, 146).normalized();
  const double radius = Eigen::EigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(a.ad(dir))).eigenvalues().cwiseAbs().maxCoeff();
  const vec<A> sigma = dir * (3 * M_PI / radius);
  const vec<A> inverted = exp_coordinates::inverse_differential_matrix(a, sigma) * dexp(a, sigma, v, full_series);
  BOOST_TEST(relative_difference(inverted, v) <= 1e-11);
  // Inside the radius the matrix is the series, as before.
  const vec<A> small = dir * (0.9 / radius);
  BOOST_TEST(relative_difference(vec<A>(exp_coordinates::inverse_differential_matrix(a, small) * v),
                                 dexp_inv(a, small, v, full_series)) <= roundoff);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exp_coordinates_satisfy_theorem_1, A, algebras) {
  // d/dε Ad*_{exp(−σ−ε dexp⁻¹_σ ξ)} y = −ad*_ξ Ad*_{exp(−σ)} y (Theorem 1): exactly for the full
  // series, to O(|σ|^{q+1}) for the truncated one.
  const A a;
  const vec<A> xi = element(a, 1, 150), y = element(a, 1, 151), dir = element(a, 1, 152).normalized();
  BOOST_TEST(differential_defect<exp_coordinates>(a, vec<A>(0.7 * dir), xi, y, full_series) <= 1e-8);
  for (int q = 0; q <= 2; ++q) {
    const double rate = std::log2(differential_defect<exp_coordinates>(a, vec<A>(0.2 * dir), xi, y, q) /
                                  differential_defect<exp_coordinates>(a, vec<A>(0.1 * dir), xi, y, q));
    BOOST_TEST_CONTEXT("q = " << q) { BOOST_TEST(rate >= q + 1 - 0.3); }
  }
}

using cayley_algebras = boost::mpl::list<so3, se3, so_n<3>, so_n<5>, su_n<3>, su_n<5>>;

BOOST_AUTO_TEST_CASE_TEMPLATE(cayley_coordinates_satisfy_theorem_1, A, cayley_algebras) {
  const A a;
  const vec<A> xi = element(a, 1, 160), y = element(a, 1, 161), dir = element(a, 1, 162).normalized();
  BOOST_TEST(differential_defect<cayley_coordinates>(a, vec<A>(0.7 * dir), xi, y, full_series) <= 1e-8);
  for (int q = 0; q <= 1; ++q) {
    const double rate = std::log2(differential_defect<cayley_coordinates>(a, vec<A>(0.2 * dir), xi, y, q) /
                                  differential_defect<cayley_coordinates>(a, vec<A>(0.1 * dir), xi, y, q));
    BOOST_TEST_CONTEXT("q = " << q) { BOOST_TEST(rate >= q + 1 - 0.3); }
  }
  // dcay⁻¹ ∘ dcay = id (dcay⁻¹ has degree 2: exact; truncated after degree 1 the defect is O(|σ|²)).
  const vec<A> v = element(a, 1, 163);
  BOOST_TEST(relative_difference(a.dcay_inv(vec<A>(0.7 * dir), dcay(a, vec<A>(0.7 * dir), v), 2), v) <= roundoff);
  const double rate = std::log2((a.dcay_inv(vec<A>(0.2 * dir), dcay(a, vec<A>(0.2 * dir), v), 1) - v).norm() /
                                (a.dcay_inv(vec<A>(0.1 * dir), dcay(a, vec<A>(0.1 * dir), v), 1) - v).norm());
  BOOST_TEST(rate >= 2 - 0.3);
}

// ---- the sign convention, and each algebra's particulars ----

BOOST_AUTO_TEST_CASE(free_rigid_body_reads_y_cross_inverse_inertia_y) {
  // Sign convention (docs/lie.md): with J(y)_ij = Σ_k C_ij^k y_k and a left-invariant H the free rigid body is
  // ẏ = y × I⁻¹y in geomint's so3 form.
  const problems::free_rigid_body body;
  const vector<3> y(0.3, -1.2, 0.7);
  vector<3> dydt, grad;
  lie_poisson_vector_field<problems::free_rigid_body>{body}(y, dydt, 0.0);
  BOOST_TEST((dydt - y.cross(y.cwiseQuotient(body.inertia()))).cwiseAbs().maxCoeff() <= 1e-15);
  body.gradient(y, grad);
  BOOST_TEST((so3().poisson_tensor(y) * grad - dydt).cwiseAbs().maxCoeff() <= 1e-15);
  // Engø–Faltinsen's structure constants: C₁₂³ = −1, C₁₃² = 1, C₂₃¹ = −1; J(y) = hat(y).
  const auto c = structure_constants_of(so3());
  BOOST_TEST(c[2](0, 1) == -1);
  BOOST_TEST(c[1](0, 2) == 1);
  BOOST_TEST(c[0](1, 2) == -1);
  BOOST_TEST((so3().poisson_tensor(y) - so3().hat(y)).cwiseAbs().maxCoeff() == 0);
}

BOOST_AUTO_TEST_CASE(heavy_top_reads_the_kirchhoff_equations) {
  // (2.6)–(2.7): u̇ = u × ∇_u H + v × ∇_v H, v̇ = v × ∇_u H; J = [[û, v̂], [v̂, 0]].
  const problems::heavy_top_se3 top;
  vector<6> y, dydt, g;
  y << 0.2, -0.4, 0.9, 0.1, 0.3, -0.8;
  lie_poisson_vector_field<problems::heavy_top_se3>{top}(y, dydt, 0.0);
  top.gradient(y, g);
  const vector<3> u = y.head<3>(), v = y.tail<3>(), gu = g.head<3>(), gv = g.tail<3>();
  BOOST_TEST((dydt.head<3>() - (u.cross(gu) + v.cross(gv))).cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST((dydt.tail<3>() - v.cross(gu)).cwiseAbs().maxCoeff() <= 1e-14);
  const so3 r;
  matrix<6, 6> j = matrix<6, 6>::Zero();
  j << r.hat(u), r.hat(v), r.hat(v), matrix<3, 3>::Zero();
  BOOST_TEST((se3().poisson_tensor(y) - j).cwiseAbs().maxCoeff() == 0);
  // The coadjoint action of SE(3) in Engø–Faltinsen's form Ad*_{(A,a)⁻¹}(u, v) = (Au + a × Av, Av),
  // with (A, a) = g⁻¹ = (Rᵀ, −Rᵀp).
  vector<6> s;
  s << 0.3, -0.2, 0.5, 1.0, 0.4, -0.7;
  const matrix<4, 4> gm = se3().exp(s);
  const matrix<3, 3> a_rot = gm.topLeftCorner<3, 3>().transpose();
  const vector<3> a_tr = -a_rot * gm.topRightCorner<3, 1>();
  vector<6> expected;
  expected << a_rot * u + a_tr.cross(a_rot * v), a_rot * v;
  BOOST_TEST((se3().coadjoint(gm, y) - expected).cwiseAbs().maxCoeff() <= 1e-14);
  // SE(3)'s exp agrees with the 4 × 4 matrix exponential, Cayley with (1 − X/2)⁻¹(1 + X/2).
  const matrix<4, 4> x = se3().hat(s);
  const matrix<4, 4> ex = x.exp();
  BOOST_TEST((gm - ex).cwiseAbs().maxCoeff() <= 1e-14);
  const matrix<4, 4> id = matrix<4, 4>::Identity();
  const matrix<4, 4> cay = (id - x / 2).inverse() * (id + x / 2);
  BOOST_TEST((se3().cayley(s) - cay).cwiseAbs().maxCoeff() <= 1e-14);
}

BOOST_AUTO_TEST_CASE(so3_closed_forms_match_matrix_functions) {
  const so3 a;
  const vector<3> s(0.4, -1.1, 0.8), y(1, 2, -0.5);
  const matrix<3, 3> x = a.hat(s);
  const matrix<3, 3> ex = x.exp();
  BOOST_TEST((a.exp(s) - ex).cwiseAbs().maxCoeff() <= 1e-15);
  const matrix<3, 3> id = matrix<3, 3>::Identity();
  const matrix<3, 3> cay = (id - x / 2).inverse() * (id + x / 2);
  BOOST_TEST((a.cayley(s) - cay).cwiseAbs().maxCoeff() <= 1e-15);
  // Small angles take the series branch without a jump.
  const vector<3> tiny(1e-5, 0, 0), y1 = a.exp_coadjoint(tiny, y);
  BOOST_TEST((y1 - (a.exp(tiny).transpose() * y)).cwiseAbs().maxCoeff() <= 1e-15);
}

BOOST_AUTO_TEST_CASE(so3_double_rotation_and_closed_form_dexp_inv_are_exact_to_round_off) {
  // The double-precision Rodrigues coefficients switch between Taylor polynomials of degree 5
  // (θ² ≤ 0.08) and 7 (θ² ≤ 0.6) and sin/cos: on each branch and at its edges the rotation
  // equals the matrix exponential to a few ulps of |y| (2e-16 · |y| ≈ 5e-16; bound 1e-15).
  const so3 a;
  const vector<3> dir = vector<3>(0.3, -0.8, 0.5).normalized(), y(1, 2, -0.5);
  for (double theta : {1e-8, 0.01, 0.2, std::sqrt(0.08), 0.3, 0.5, std::sqrt(0.6), 0.9, 1.2, 3.0}) {
    const vector<3> s = theta * dir;
    const matrix<3, 3> r = a.hat(s).exp();
    BOOST_TEST_CONTEXT("theta = " << theta) {
      BOOST_TEST((a.exp_coadjoint(s, y) - r.transpose() * y).cwiseAbs().maxCoeff() <= 1e-15 * y.norm());
      // so3's closed-form dexp⁻¹ (the dot-product form of [σ, [σ, v]]) is the Bernoulli series.
      for (int q = 0; q <= 3; ++q)
        BOOST_TEST((a.dexp_inv(s, y, q) - dexp_inv_series(a, s, y, q)).cwiseAbs().maxCoeff() <=
                   1e-15 * (1 + theta * theta) * y.norm());  // terms up to θ²|y|/12
    }
  }
}

BOOST_AUTO_TEST_CASE(so_n_for_n_3_is_so3_in_other_coordinates) {
  // (m₁₂, m₁₃, m₂₃) = (−y₃, y₂, −y₁): a Lie algebra isomorphism that carries J, the actions and
  // dcay⁻¹ across.
  matrix<3, 3> p;
  p << 0, 0, -1, 0, 1, 0, -1, 0, 0;
  const so3 a;
  const so_n<3> b;
  const vector<3> u(0.3, -0.9, 1.4), v(-0.2, 0.5, 0.8), y(1.1, 0.4, -0.6);
  BOOST_TEST((b.bracket(p * u, p * v) - p * a.bracket(u, v)).cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST((b.exp_coadjoint(p * u, p * y) - p * a.exp_coadjoint(u, y)).cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST((b.cayley_coadjoint(p * u, p * y) - p * a.cayley_coadjoint(u, y)).cwiseAbs().maxCoeff() <= 1e-14);
  BOOST_TEST((b.dcay_inv(p * u, p * v, 2) - p * a.dcay_inv(u, v, 2)).cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST((b.poisson_tensor(p * y) - p * a.poisson_tensor(y) * p.transpose()).cwiseAbs().maxCoeff() <= 1e-15);
  BOOST_TEST(std::fabs(b.casimirs(p * y)(0) - 2 * y.squaredNorm()) <= 1e-14);
}

BOOST_AUTO_TEST_CASE(structure_constants_of_so3_reproduce_so3) {
  const structure_constants<3> g;  // so(3) in geomint's sign
  const so3 a;
  const vector<3> u(0.3, -0.9, 1.4), v(-0.2, 0.5, 0.8), y(1.1, 0.4, -0.6);
  BOOST_TEST((g.bracket(u, v) - a.bracket(u, v)).cwiseAbs().maxCoeff() == 0);
  BOOST_TEST((g.poisson_tensor(y) - a.poisson_tensor(y)).cwiseAbs().maxCoeff() == 0);
  BOOST_TEST((g.exp_coadjoint(u, y) - a.exp_coadjoint(u, y)).cwiseAbs().maxCoeff() <= 1e-14);
  // Killing form of so(3) is −2·1: the quadratic Casimir is −|y|²/2.
  BOOST_TEST(std::fabs(g.casimirs(y)(0) + y.squaredNorm() / 2) <= 1e-14);
}

BOOST_AUTO_TEST_CASE(structure_constants_reject_invalid_tables) {
  auto table = structure_constants<3>::so3_table();
  table[0](1, 2) = 2;  // no longer antisymmetric
  BOOST_CHECK_THROW(structure_constants<3>{table}, std::invalid_argument);
  structure_constants<3>::table_type bad{};
  for (auto& c : bad) c.setZero();
  bad[0](0, 1) = 1;  // [f0, f1] = f0, [f1, f2] = f1: Jacobi fails
  bad[0](1, 0) = -1;
  bad[1](1, 2) = 1;
  bad[1](2, 1) = -1;
  bad[2](0, 2) = 1;
  bad[2](2, 0) = -1;
  try {
    structure_constants<3> g(bad);
    BOOST_ERROR("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("Jacobi") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(su_n_basis_satisfies_the_sine_commutation_relations) {
  // T_m† = T_{−m}, tr(T_m† T_n) = N δ_mn, [T_k, T_m] = 2i sin(2π k∗m/N) T_{k+m}; checked through
  // the vorticity matrices of single modes for N = 5.
  constexpr int N = 5;
  const su_n<N> a;
  using C = std::complex<double>;
  using M = su_n<N>::matrix_type;
  auto t_of = [&](int m1, int m2) {  // T_m = W(e) − i… : recover T_m from two real unit states
    for (int i = 0; i < su_n<N>::mode_count; ++i) {
      const auto md = a.modes()[i];
      const int sgn = (md.m1 == m1 && md.m2 == m2) ? 1 : (md.m1 == -m1 && md.m2 == -m2) ? -1 : 0;
      if (sgn == 0) continue;
      const M re = a.hermitian(su_n<N>::vector_type::Unit(2 * i));      // T + T†
      const M im = a.hermitian(su_n<N>::vector_type::Unit(2 * i + 1));  // i(T − T†)
      return M(sgn > 0 ? M((re - C(0, 1) * im) / 2.0) : M((re + C(0, 1) * im) / 2.0));
    }
    return M(M::Zero());
  };
  auto wrap = [&](int k) { return ((k + 2) % N + N) % N - 2; };
  const double two_pi = 6.283185307179586;
  double worst = 0;
  for (int k1 = -2; k1 <= 2; ++k1)
    for (int k2 = -2; k2 <= 2; ++k2)
      for (int m1 = -2; m1 <= 2; ++m1)
        for (int m2 = -2; m2 <= 2; ++m2) {
          if ((k1 == 0 && k2 == 0) || (m1 == 0 && m2 == 0)) continue;
          const int s1 = wrap(k1 + m1), s2 = wrap(k2 + m2);
          const M tk = t_of(k1, k2), tm = t_of(m1, m2);
          const M lhs = tk * tm - tm * tk;
          const M rhs = (s1 == 0 && s2 == 0) ? M(M::Zero())
                                             : M(C(0, 2 * std::sin(two_pi * (k1 * m2 - k2 * m1) / N)) * t_of(s1, s2));
          worst = std::fmax(worst, (lhs - rhs).cwiseAbs().maxCoeff());
          worst = std::fmax(worst, (tk.adjoint() - t_of(-k1, -k2)).cwiseAbs().maxCoeff());
          const C inner = (tk.adjoint() * tm).trace();
          worst = std::fmax(worst, std::abs(inner - C((k1 == m1 && k2 == m2) ? N : 0, 0)));
        }
  BOOST_TEST(worst <= 1e-13);
}

BOOST_AUTO_TEST_CASE(sine_euler_su3_vector_field_is_the_four_equations_of_6_3_1) {
  // ω̇₁ = (√3/4)(ω₂ω₃* − ω₃ω₄*), ω̇₂ = (√3/4)(ω₃*ω₄* − ω₄ω₁*), ω̇₃ = (√3/4)(ω₁ω₄ − ω₁*ω₂),
  // ω̇₄ = (√3/4)(ω₁ω₂ − ω₂*ω₃*), with (ω₁, ω₂, ω₃, ω₄) at (1,0), (1,1), (0,1), (−1,1).
  using C = std::complex<double>;
  const problems::sine_euler<3> p;
  const auto y = problems::sine_euler<3>::random_initial_state(7);
  vector<8> dydt;
  lie_poisson_vector_field<problems::sine_euler<3>>{p}(y, dydt, 0.0);
  const C w1(y(0), y(1)), w2(y(2), y(3)), w3(y(4), y(5)), w4(y(6), y(7));
  const double k = std::sqrt(3.0) / 4;
  const C expected[4] = {k * (w2 * std::conj(w3) - w3 * std::conj(w4)), k * (std::conj(w3) * std::conj(w4) - w4 * std::conj(w1)),
                         k * (w1 * w4 - std::conj(w1) * w2), k * (w1 * w2 - std::conj(w2) * std::conj(w3))};
  const auto& modes = p.algebra().modes();
  BOOST_TEST((modes[0].m1 == 1 && modes[0].m2 == 0 && modes[1].m1 == 1 && modes[1].m2 == 1 && modes[2].m1 == 0 &&
              modes[2].m2 == 1 && modes[3].m1 == -1 && modes[3].m2 == 1));
  for (int i = 0; i < 4; ++i) {
    BOOST_TEST(std::abs(C(dydt(2 * i), dydt(2 * i + 1)) - expected[i]) <= 1e-15);
  }
}

BOOST_AUTO_TEST_CASE(sine_euler_su5_matrix_form_equals_the_fourier_sum_6_32) {
  // ω̇_m = Σ_{k∈C} sin(2π m∗k/N)/|k|² ω_{m+k} ω_{−k}, evaluated directly (O(N⁴)), against the
  // O(N³) matrix form; and the Casimirs tr(W²)/N, tr(W³)/N against (6.33), (6.34).
  constexpr int N = 5;
  using C = std::complex<double>;
  const problems::sine_euler<N> p;
  const su_n<N>& a = p.algebra();
  const auto y = problems::sine_euler<N>::random_initial_state(11);
  su_n<N>::vector_type dydt(a.dim());
  lie_poisson_vector_field<problems::sine_euler<N>>{p}(y, dydt, 0.0);
  auto wrap = [](int k) { return ((k + 2) % N + N) % N - 2; };
  const double two_pi = 6.283185307179586;
  double worst = 0;
  C c1 = 0, c2 = 0;
  for (int i = 0; i < su_n<N>::mode_count; ++i) {
    const int m1 = a.modes()[i].m1, m2 = a.modes()[i].m2;
    C sum = 0;
    for (int k1 = -2; k1 <= 2; ++k1)
      for (int k2 = -2; k2 <= 2; ++k2) {
        if (k1 == 0 && k2 == 0) continue;
        const int s1 = wrap(m1 + k1), s2 = wrap(m2 + k2);
        if (s1 == 0 && s2 == 0) continue;
        sum += std::sin(two_pi * (m1 * k2 - m2 * k1) / N) / double(k1 * k1 + k2 * k2) * a.coefficient(y, s1, s2) *
               a.coefficient(y, -k1, -k2);
      }
    worst = std::fmax(worst, std::abs(C(dydt(2 * i), dydt(2 * i + 1)) - sum));
  }
  for (int k1 = -2; k1 <= 2; ++k1)
    for (int k2 = -2; k2 <= 2; ++k2) {
      if (k1 == 0 && k2 == 0) continue;
      c1 += a.coefficient(y, k1, k2) * a.coefficient(y, -k1, -k2);
      for (int m1 = -2; m1 <= 2; ++m1)
        for (int m2 = -2; m2 <= 2; ++m2) {
          if ((m1 == 0 && m2 == 0) || (wrap(k1 + m1) == 0 && wrap(k2 + m2) == 0)) continue;
          c2 += std::cos(two_pi * (k1 * m2 - k2 * m1) / N) * a.coefficient(y, k1, k2) * a.coefficient(y, m1, m2) *
                a.coefficient(y, wrap(-k1 - m1), wrap(-k2 - m2));
        }
    }
  BOOST_TEST(worst <= 1e-13);
  const auto cas = a.casimirs(y);
  BOOST_TEST(std::fabs(cas(0) - c1.real()) <= 1e-13 * std::fabs(c1.real()));
  BOOST_TEST(std::fabs(cas(1) - c2.real()) <= 1e-12 * std::fabs(c2.real()));
}

// The coadjoint action's side, on a non-compact algebra (algebra.hpp's worked example):
// sl(2, ℝ) with basis (h, e, f), bracket(h, e) = −2e, bracket(h, f) = 2f, bracket(e, f) = −h in
// geomint's sign, and g = exp(t h): coadjoint(g, (a, b, c)) = (a, e^{2t} b, e^{−2t} c); for any
// g, ⟨coadjoint(g, y), Ad_g ξ⟩ = ⟨y, ξ⟩.
BOOST_AUTO_TEST_CASE(coadjoint_action_on_sl2_keeps_the_pairing) {
  structure_constants<3>::table_type c;
  for (auto& m : c) m.setZero();
  c[1](0, 1) = -2, c[1](1, 0) = 2;  // bracket(h, e) = −2e
  c[2](0, 2) = 2, c[2](2, 0) = -2;  // bracket(h, f) = 2f
  c[0](1, 2) = -1, c[0](2, 1) = 1;  // bracket(e, f) = −h
  const structure_constants<3> sl2(c);
  const double t = 0.5;
  const vector<3> y(0.3, 0.7, -0.4), sigma(t, 0, 0);
  const vector<3> expected(y(0), std::exp(2 * t) * y(1), std::exp(-2 * t) * y(2));
  const auto g = sl2.exp(sigma);
  BOOST_TEST(relative_difference(sl2.coadjoint(g, y), expected) <= roundoff);
  BOOST_TEST(relative_difference(sl2.exp_coadjoint(sigma, y), expected) <= roundoff);
  // Ad_g e = e^{−2t} e: conjugation by g⁻¹ shrinks e.
  BOOST_TEST(relative_difference(sl2.adjoint(g) * vector<3>::Unit(1), vector<3>(std::exp(-2 * t) * vector<3>::Unit(1))) <= roundoff);
  // The pairing for a group element off the diagonal.
  const vector<3> s(0.4, -0.3, 0.6), xi(-0.2, 0.5, 0.9);
  const auto h = sl2.exp(s);
  const double lhs = sl2.coadjoint(h, y).dot(sl2.adjoint(h) * xi), rhs = y.dot(xi);
  BOOST_TEST(std::fabs(lhs - rhs) <= roundoff * (1 + std::fabs(rhs)));
}
