// se(3) = so(3) ⋉ ℝ³ with the heavy-top / Kirchhoff structure of Engø–Faltinsen §2:
// elements (a, b), dual elements y = (u, v) (u angular momentum, v the gravity direction seen
// from the body), hat(a, b) = [[â, b], [0, 0]] ∈ sl(4), and
//   J(u, v) = [[û, v̂], [v̂, 0]],   u̇ = u × ∇_u H + v × ∇_v H,   v̇ = v × ∇_u H   (2.6)–(2.7).
// geomint's bracket (algebra.hpp) is bracket((a, b), (c, d)) = (c × a, d × a + c × b).
// Group: SE(3) as 4 × 4 matrices, exp(a, b) = (exp(â), dexp_â(b)); Cayley applies because
// cay([[â, b], [0, 0]]) = [[cay(â), (1 − â/2)⁻¹ b], [0, 1]] ∈ SE(3) (Engø–Faltinsen §6.2).
#pragma once

#include <cmath>

#include "geomint/lie/so3.hpp"

namespace geomint {

class se3 {
 public:
  static constexpr int dimension = 6;
  static constexpr bool has_cayley = true;
  static constexpr int casimir_count = 2;
  using vector_type = vector<6>;
  using operator_type = matrix<6, 6>;
  using matrix_type = matrix<4, 4>;
  using group_type = matrix<4, 4>;

  static const char* name() { return "se3"; }
  int dim() const { return 6; }

  template <class V>
  matrix_type hat(const Eigen::MatrixBase<V>& v) const {
    matrix_type m = matrix_type::Zero();
    m.topLeftCorner<3, 3>() = rot_.hat(v.template head<3>());
    m.topRightCorner<3, 1>() = v.template tail<3>();
    return m;
  }
  template <class X>
  vector_type vee(const Eigen::MatrixBase<X>& x) const {
    vector_type v;
    v << rot_.vee(x.template topLeftCorner<3, 3>()), x.template topRightCorner<3, 1>();
    return v;
  }

  template <class U, class V>
  vector_type bracket(const Eigen::MatrixBase<U>& s, const Eigen::MatrixBase<V>& t) const {
    const vector<3> a = s.template head<3>(), b = s.template tail<3>();
    const vector<3> c = t.template head<3>(), d = t.template tail<3>();
    vector_type r;
    r << c.cross(a), d.cross(a) + c.cross(b);
    return r;
  }
  template <class U>
  operator_type ad(const Eigen::MatrixBase<U>& s) const {
    operator_type m = operator_type::Zero();
    const matrix<3, 3> a = rot_.hat(s.template head<3>()), b = rot_.hat(s.template tail<3>());
    m.topLeftCorner<3, 3>() = -a;
    m.bottomLeftCorner<3, 3>() = -b;
    m.bottomRightCorner<3, 3>() = -a;
    return m;
  }
  /// ad*_(a,b) (u, v) = (a × u + b × v, a × v).
  template <class U, class Y>
  vector_type ad_star(const Eigen::MatrixBase<U>& s, const Eigen::MatrixBase<Y>& y) const {
    const vector<3> a = s.template head<3>(), b = s.template tail<3>();
    const vector<3> u = y.template head<3>(), v = y.template tail<3>();
    vector_type r;
    r << a.cross(u) + b.cross(v), a.cross(v);
    return r;
  }
  template <class U>
  operator_type ad_star(const Eigen::MatrixBase<U>& s) const { return ad(s).transpose(); }
  /// J(u, v) = [[û, v̂], [v̂, 0]].
  template <class Y>
  operator_type poisson_tensor(const Eigen::MatrixBase<Y>& y) const {
    operator_type m = operator_type::Zero();
    const matrix<3, 3> u = rot_.hat(y.template head<3>()), v = rot_.hat(y.template tail<3>());
    m.topLeftCorner<3, 3>() = u;
    m.topRightCorner<3, 3>() = v;
    m.bottomLeftCorner<3, 3>() = v;
    return m;
  }

  /// exp(a, b) = [[exp(â), V b], [0, 1]], V = I + ((1 − cos θ)/θ²) â + ((θ − sin θ)/θ³) â².
  template <class S>
  group_type exp(const Eigen::MatrixBase<S>& s) const {
    const vector<3> a = s.template head<3>();
    const double theta = a.norm();
    double c1, c2;  // (1 − cos θ)/θ², (θ − sin θ)/θ³
    if (theta < 1e-4) {
      c1 = 0.5 - theta * theta / 24;
      c2 = 1.0 / 6 - theta * theta / 120;
    } else {
      const double h = std::sin(theta / 2) / (theta / 2);
      c1 = 0.5 * h * h;
      c2 = (theta - std::sin(theta)) / (theta * theta * theta);
    }
    const matrix<3, 3> ah = rot_.hat(a);
    group_type g = group_type::Identity();
    g.topLeftCorner<3, 3>() = rot_.exp(a);
    g.topRightCorner<3, 1>() = (matrix<3, 3>::Identity() + c1 * ah + c2 * ah * ah) * s.template tail<3>();
    return g;
  }
  /// cay(hat(a, b)) = [[cay(â), (I − â/2)⁻¹ b], [0, 1]], (I − â/2)⁻¹ = I + (â/2 + â²/4)/(1 + θ²/4).
  template <class S>
  group_type cayley(const Eigen::MatrixBase<S>& s) const {
    const vector<3> a = s.template head<3>();
    const matrix<3, 3> ah = rot_.hat(a);
    const matrix<3, 3> inv = matrix<3, 3>::Identity() + (ah / 2 + ah * ah / 4) / (1 + a.squaredNorm() / 4);
    group_type g = group_type::Identity();
    g.topLeftCorner<3, 3>() = rot_.cayley(a);
    g.topRightCorner<3, 1>() = inv * s.template tail<3>();
    return g;
  }
  /// Ad_g for g = (R, p): [[Rᵀ, 0], [−Rᵀ p̂, Rᵀ]] (conjugation by g⁻¹ in hat form).
  operator_type adjoint(const group_type& g) const {
    const matrix<3, 3> rt = g.topLeftCorner<3, 3>().transpose();
    operator_type m = operator_type::Zero();
    m.topLeftCorner<3, 3>() = rt;
    m.bottomRightCorner<3, 3>() = rt;
    m.bottomLeftCorner<3, 3>() = -rt * rot_.hat(g.topRightCorner<3, 1>());
    return m;
  }
  /// Ad*_{g⁻¹}(u, v) = (Rᵀ(u + v × p), Rᵀ v): Engø–Faltinsen's Ad*_{(A,a)⁻¹}(u, v) =
  /// (Au + a × Av, Av) with (A, a) = g⁻¹.
  template <class Y>
  vector_type coadjoint(const group_type& g, const Eigen::MatrixBase<Y>& y) const {
    const matrix<3, 3> r = g.topLeftCorner<3, 3>();
    const vector<3> p = g.topRightCorner<3, 1>();
    const vector<3> u = y.template head<3>(), v = y.template tail<3>();
    vector_type out;
    out << r.transpose() * (u + v.cross(p)), r.transpose() * v;
    return out;
  }
  /// coadjoint(exp(σ), y) = (u + [(Rᵀ − 1)u + Rᵀ(v × p)], v + (Rᵀ − 1)v), the increments in
  /// extended precision by so3's increment form and rounded once (algebra.hpp): |v| and u·v
  /// keep to round-off over long runs. (p only enters through v × p ⊥ v.)
  template <class S, class Y>
  vector_type exp_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return act(s, vector<3>(exp(s).template topRightCorner<3, 1>()), y,
               [this](const vector<3>& a, const vector_of<3, extended>& x) { return rot_.exp_increment(a, x); });
  }
  template <class S, class Y>
  vector_type cayley_coadjoint(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<Y>& y) const {
    return act(s, vector<3>(cayley(s).template topRightCorner<3, 1>()), y,
               [this](const vector<3>& a, const vector_of<3, extended>& x) { return rot_.cayley_increment(a, x); });
  }
  /// dcay⁻¹_σ v = v − ½[σ, v] − ¼ vee(hat σ hat v hat σ): for σ = (a, b), v = (c, d),
  /// (c − ½ c × a + ¼ (a·c) a,  d − ½ (d × a + c × b) − ¼ a × (c × b)), truncated after degree q.
  template <class S, class V>
  vector_type dcay_inv(const Eigen::MatrixBase<S>& s, const Eigen::MatrixBase<V>& v, int q) const {
    vector_type z = v;
    if (q == 0) return z;
    z -= bracket(s, v) / 2;
    if (q == 1) return z;
    const vector<3> a = s.template head<3>(), b = s.template tail<3>(), c = v.template head<3>();
    z.template head<3>() += a.dot(c) / 4 * a;
    z.template tail<3>() -= a.cross(c.cross(b)) / 4;
    return z;
  }

  /// The Casimirs |v| and u·v (Engø–Faltinsen §3.1).
  template <class Y>
  vector<2> casimirs(const Eigen::MatrixBase<Y>& y) const {
    return vector<2>(y.template tail<3>().norm(), y.template head<3>().dot(y.template tail<3>()));
  }
  /// |v| and |u||v| (Cauchy–Schwarz): u·v can be much smaller than its terms.
  template <class Y>
  vector<2> casimir_scales(const Eigen::MatrixBase<Y>& y) const {
    return vector<2>(y.template tail<3>().norm(), y.template head<3>().norm() * y.template tail<3>().norm());
  }

 private:
  template <class S, class Y, class Increment>
  vector_type act(const Eigen::MatrixBase<S>& s, const vector<3>& p, const Eigen::MatrixBase<Y>& y,
                  Increment&& rotate) const {
    using T = extended;
    const vector<3> a = s.template head<3>();
    const vector_of<3, T> u = y.template head<3>().template cast<T>(), v = y.template tail<3>().template cast<T>();
    const vector_of<3, T> vp = v.cross(vector_of<3, T>(p.cast<T>()));
    vector_type out;
    out << (u + (rotate(a, u) + vp + rotate(a, vp))).template cast<double>(), (v + rotate(a, v)).template cast<double>();
    return out;
  }

  so3 rot_;
};

}  // namespace geomint
