// N-link 3D pendulum chain: point masses x_1..x_N joined by rigid massless rods, x_1 attached
// to a fixed pivot at the origin (x_0 = 0). q = (x_1, …, x_N) ∈ ℝ³ᴺ,
//   g_k(q) = |x_k − x_{k−1}|² − l_k²,  k = 1..N,     V = γ Σ m_k z_k.
// The constraint Jacobian is sparse (six entries per row) and G M⁻¹ Gᵀ is tridiagonal, so a
// RATTLE step costs O(N). Rotation about the vertical is a symmetry.
#pragma once

#include <Eigen/Geometry>
#include <Eigen/SparseCore>
#include <cmath>
#include <utility>

#include "geomint/system/separable_system.hpp"

namespace geomint::problems {

struct pendulum_chain_parameters {
  int links = 10;
  double mass = 1.0;     // per particle
  double length = 1.0;   // per rod
  double gravity = 9.81;
};

struct chain_gravity {
  double mg = 9.81;
  template <class Q> double value(const Q& q) const {
    double v = 0;
    for (Eigen::Index k = 2; k < q.size(); k += 3) v += q(k);
    return mg * v;
  }
  template <class Q, class Out> void gradient(const Q& q, Out& out) const {
    for (Eigen::Index k = 0; k < q.size(); k += 3) out.template segment<3>(k) << 0, 0, mg;
  }
  template <class Q, class Out> void hessian(const Q&, Out& out) const { out.setZero(); }
};

struct chain_constraints {
  static constexpr int size = dynamic;
  using jacobian_type = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  int links = 0;
  double length = 1.0;

  int count() const { return links; }
  template <class Q, class Out>
  void value(const Q& q, Out& out) const {
    out(0) = q.template head<3>().squaredNorm() - length * length;
    for (int k = 1; k < links; ++k)
      out(k) = (q.template segment<3>(3 * k) - q.template segment<3>(3 * k - 3)).squaredNorm() - length * length;
  }
  /// Row k: ∂g_k/∂x_{k−1} = −2d_k, ∂g_k/∂x_k = 2d_k, d_k = x_k − x_{k−1}. The pattern is built on
  /// the first call and only values are written afterwards.
  template <class Q>
  void jacobian(const Q& q, jacobian_type& g) const {
    const Eigen::Index nnz = 6 * links - 3;
    if (g.rows() != links || g.cols() != 3 * links || g.nonZeros() != nnz || !g.isCompressed()) build_pattern(g);
    double* v = g.valuePtr();
    v[0] = 2 * q(0);
    v[1] = 2 * q(1);
    v[2] = 2 * q(2);
    for (int k = 1; k < links; ++k) {
      double* row = v + 3 + 6 * (k - 1);
      for (int c = 0; c < 3; ++c) {
        const double d = q(3 * k + c) - q(3 * k - 3 + c);
        row[c] = -2 * d;
        row[3 + c] = 2 * d;
      }
    }
  }
  template <class Q, class L, class Out>
  void hessian(const Q&, const L& lambda, Out& out) const {  // dense: for small chains only
    out.setZero();
    for (int k = 0; k < links; ++k) {
      out.template block<3, 3>(3 * k, 3 * k).diagonal().array() += 2 * lambda(k);
      if (k > 0) {
        out.template block<3, 3>(3 * k - 3, 3 * k - 3).diagonal().array() += 2 * lambda(k);
        out.template block<3, 3>(3 * k - 3, 3 * k).diagonal().array() -= 2 * lambda(k);
        out.template block<3, 3>(3 * k, 3 * k - 3).diagonal().array() -= 2 * lambda(k);
      }
    }
  }

 private:
  void build_pattern(jacobian_type& g) const {
    g.resize(links, 3 * links);
    g.reserve(Eigen::VectorXi::Constant(links, 6));
    for (int c = 0; c < 3; ++c) g.insert(0, c) = 1;
    for (int k = 1; k < links; ++k)
      for (int c = 0; c < 6; ++c) g.insert(k, 3 * k - 3 + c) = 1;
    g.makeCompressed();
  }
};

class pendulum_chain : public separable_system<dynamic, chain_gravity, chain_constraints> {
 public:
  using state_type = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
  using parameters_type = pendulum_chain_parameters;

  explicit pendulum_chain(const parameters_type& p = {})
      : separable_system(diagonal_mass<dynamic>(Eigen::VectorXd::Constant(3 * p.links, p.mass)),
                         chain_gravity{p.mass * p.gravity}, chain_constraints{p.links, p.length}),
        parameters_(p) {}

  /// A bent, twisting chain: link k points at polar angle θ_k = 0.6 + 0.4 sin(0.7k) from the
  /// downward vertical and azimuth 0.3k; velocities v_k = v_{k−1} + w_k × d_k keep every rod
  /// length fixed (d_k·(v_k − v_{k−1}) = 0), so the state is consistent.
  state_type initial_state() const {
    const int n = parameters_.links;
    const double l = parameters_.length;
    state_type s{Eigen::VectorXd(3 * n), Eigen::VectorXd(3 * n)};
    vector<3> x = vector<3>::Zero(), v = vector<3>::Zero();
    for (int k = 0; k < n; ++k) {
      const double theta = 0.6 + 0.4 * std::sin(0.7 * k), phi = 0.3 * k;
      const vector<3> d(l * std::sin(theta) * std::cos(phi), l * std::sin(theta) * std::sin(phi), -l * std::cos(theta));
      const vector<3> w(0.5 * std::cos(1.3 * k), 0.5 * std::sin(0.9 * k), 1.0);
      x += d;
      v += w.cross(d);
      s.first.segment<3>(3 * k) = x;
      s.second.segment<3>(3 * k) = parameters_.mass * v;
    }
    return s;
  }

  template <class Q, class P>
  static double vertical_angular_momentum(const Q& q, const P& p) {
    double l = 0;
    for (Eigen::Index k = 0; k < q.size(); k += 3) l += q(k) * p(k + 1) - q(k + 1) * p(k);
    return l;
  }
  const parameters_type& parameters() const { return parameters_; }

 private:
  parameters_type parameters_;
};

}  // namespace geomint::problems
