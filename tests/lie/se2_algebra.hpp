// A user's algebra, written from docs/extending.md and the concept of lie/algebra.hpp alone:
// se(2), the algebra of planar rigid motions (not shipped with geomint). Elements ξ = (ω, a, b)
// with hat(ξ) = [[0, −ω, a], [ω, 0, b], [0, 0, 0]]; in geomint's sign (algebra.hpp)
// bracket(u, v) = vee([hat v, hat u]) = (0, ω_v Jt_u − ω_u Jt_v), J = [[0, −1], [1, 0]], t = (a, b).
// Group SE(2) as 3 × 3 matrices g = [[R, p], [0, 1]]; the Casimir of se(2)* is |p|² for
// y = (μ, p). tests/lie/test_check_algebra.cpp checks it with diagnostics::check_algebra, and
// tests/lie/compile_fail/incomplete_algebra.cpp forgets two of its members.
#pragma once

#include <Eigen/Dense>
#include <cmath>

namespace geomint_test {

class se2 {
 public:
  static constexpr int dimension = 3;
  static constexpr bool has_cayley = false;
  static constexpr int casimir_count = 1;
  using vector_type = Eigen::Vector3d;
  using operator_type = Eigen::Matrix3d;
  using matrix_type = Eigen::Matrix3d;
  using group_type = Eigen::Matrix3d;

  static const char* name() { return "se2"; }
  int dim() const { return 3; }

  matrix_type hat(const vector_type& v) const {
    matrix_type m;
    m << 0, -v(0), v(1), v(0), 0, v(2), 0, 0, 0;
    return m;
  }
  vector_type vee(const matrix_type& x) const { return vector_type((x(1, 0) - x(0, 1)) / 2, x(0, 2), x(1, 2)); }

  vector_type bracket(const vector_type& u, const vector_type& v) const { return ad(u) * v; }
  /// ad_u v = (0, ω_v Jt_u − ω_u Jt_v): Jt_u = (−b_u, a_u) multiplies ω_v, −ω_u J multiplies t_v.
  operator_type ad(const vector_type& u) const {
    operator_type m;
    m << 0, 0, 0, -u(2), 0, u(0), u(1), -u(0), 0;
    return m;
  }
  vector_type ad_star(const vector_type& u, const vector_type& y) const { return ad(u).transpose() * y; }
  operator_type ad_star(const vector_type& u) const { return ad(u).transpose(); }
  /// J(y)_ij = ⟨y, [e_i, e_j]⟩ (Engø–Faltinsen (2.3)).
  operator_type poisson_tensor(const vector_type& y) const {
    operator_type m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = y.dot(bracket(vector_type::Unit(i), vector_type::Unit(j)));
    return m;
  }

  /// e^{hat σ} = [[R(ω), V t], [0, 1]], V = (sin ω/ω) 1 + ((1 − cos ω)/ω) J.
  group_type exp(const vector_type& s) const {
    const double w = s(0);
    const double a = std::fabs(w) < 1e-5 ? 1 - w * w / 6 : std::sin(w) / w;
    const double b = std::fabs(w) < 1e-5 ? w / 2 - w * w * w / 24 : (1 - std::cos(w)) / w;
    group_type g = group_type::Identity();
    g(0, 0) = g(1, 1) = std::cos(w);
    g(1, 0) = std::sin(w);
    g(0, 1) = -g(1, 0);
    g(0, 2) = a * s(1) - b * s(2);
    g(1, 2) = b * s(1) + a * s(2);
    return g;
  }
  /// hat(Ad_g ξ) = g⁻¹ hat(ξ) g: Ad_g (ω, t) = (ω, Rᵀ(t + ω Jp)).
  operator_type adjoint(const group_type& g) const {
    const Eigen::Matrix2d rt = g.topLeftCorner<2, 2>().transpose();
    const Eigen::Vector2d jp(-g(1, 2), g(0, 2));
    operator_type m = operator_type::Zero();
    m(0, 0) = 1;
    m.bottomLeftCorner<2, 1>() = rt * jp;
    m.bottomRightCorner<2, 2>() = rt;
    return m;
  }
  vector_type coadjoint(const group_type& g, const vector_type& y) const {
    return adjoint(g).inverse().transpose() * y;
  }
  vector_type exp_coadjoint(const vector_type& s, const vector_type& y) const { return coadjoint(exp(s), y); }

  /// |p|², constant on the coadjoint orbits (circles |p| = const of se(2)*).
  Eigen::Matrix<double, 1, 1> casimirs(const vector_type& y) const {
    return Eigen::Matrix<double, 1, 1>(y.tail<2>().squaredNorm());
  }
  Eigen::Matrix<double, 1, 1> casimir_scales(const vector_type& y) const { return casimirs(y); }
};

}  // namespace geomint_test
