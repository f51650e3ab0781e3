// The Riemannian leapfrog of Leimkuhler & Patrick 1996 (§4.2, eqs. (29)–(33)), as a Boost.Odeint
// stepper: symplectic, time-reversible, second order, for a mechanical system L = ½g(v, v) − V on
// a symmetric space Q (riemannian_system.hpp) — spheres and their products (sphere_product.hpp)
// and SO(3) with its bi-invariant metric (so3_group.hpp). The space's known metric g̃, its
// geodesics exp and parallel transport P move the state; h = g − g̃ enters through A:
//
//   w  = t v₁ − (t²/2) grad_g V(q₁) + ½ A(q₁, w),   q₂ = exp_{q₁} w                     (32)
//   v₂ = (1/t) P w − (t/2) grad_g V(q₂) + (1/2t) A(q₂, −P w)                              (33)
//   g♭(q₁) A(q₁, w)·v = ½ (∇_v h)(w, w) + h(q₁)(w, (2 − (f₁/f₂)(R_w)) v)
//                       − h(q₂)(P w, P (1/f₂)(R_w) v)                        (30), (36)–(38)
//
// with (1/f₂)(R_w) = Id + g1 R_w, (f₁/f₂)(R_w) = Id + g2 R_w on constant-curvature spaces (§5.1).
// Equation (32) is solved by simplified Newton (Jacobian by forward differences; it only shapes
// the iteration). The positions move along exact geodesics of g̃, so they stay on Q without
// projection (the computed geodesic endpoint is only cleaned of its own rounding drift). Symmetries of the system that are isometries of g̃ (rotations of a sphere,
// left multiplication on SO(3)) are respected, and their momenta conserved. When g = c g̃, A = 0
// and a step is exactly the kinetic/potential splitting F_{t/2} G_t F_{t/2}.
//
// State (q, p), p = K(q) v (riemannian_system.hpp). The first step, and any step not continuing
// the previous one, checks that q lies on Q and K⁻¹p is tangent (options().consistency_tolerance).
// A failed step throws step_error and leaves the state untouched; no allocation after the first
// step.
#pragma once

#include <Eigen/Cholesky>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <utility>

#include "geomint/core/stepper_base.hpp"
#include "geomint/solvers/flow_difference_extension.hpp"
#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/riemannian/detail/jacobi_functions.hpp"
#include "geomint/riemannian/riemannian_system.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {

/// consistency_tolerance: a step not continuing the previous one rejects states with |q| off Q
/// or K⁻¹p off T_qQ by more than this (relative).
using riemannian_options = solver_options;
using riemannian_statistics = solver_statistics;

namespace detail {

template <class System>
class leapfrog_cache {
  using space_type = typename System::space_type;
  static constexpr int P = space_type::point_size, N = space_type::tangent_size, K = space_type::normal_count;
  using context = step_context<riemannian_options, riemannian_statistics>;

 public:
  using unknowns = vector<N>;
  static constexpr reuse kept = reuse::state;  // the Newton matrix of (32)
  using end_state = std::pair<vector<P>, vector<N>>;

  // The factorizations start from the identity: every member initialized, so copies are defined.
  leapfrog_cache() {
    llt_.llt.compute(matrix<N, N>::Identity());
    if constexpr (K > 0) nkn_ldlt_.compute(matrix<K, K>::Identity());
  }

  /// q on Q, K⁻¹p tangent; the Newton matrix is formed afresh.
  template <class Q0, class P0>
  void start(const System& sys, const Q0& q, const P0& p, const context& c) {
    sys_ = &sys;
    ctx_ = newton_context{c.t, c.h, "Riemannian leapfrog, eq. (32)"};
    have_jacobian_ = false;
    q1_ = q;
    sys.kinetic_metric(q1_, k_);
    factor_metric();
    llt_.solve_in_place_copy(p, v1_);
    check(sys.space(), c.t, c.h, c.options);
  }

  template <class Q0, class P0, class Q1, class P1>
  void advance(const System& sys, const Q0& q, const P0& p, Q1& q2, P1& p2, const context& c) {
    sys_ = &sys;
    const space_type& space = sys.space();
    const double t = c.t, dt = c.h;
    ctx_ = newton_context{t, dt, "Riemannian leapfrog, eq. (32)"};
    q1_ = q;
    sys.kinetic_metric(q1_, k_);
    factor_metric();
    llt_.solve_in_place_copy(p, v1_);
    const riemannian_options& opt = c.options;
    auto& stats = c.stats;

    {
      // b = t v₁ − (t²/2) grad_g V(q₁)
      sys.potential_gradient(q1_, alpha_);
      sharp(q1_, alpha_, grad_);
      b_ = dt * v1_ - (0.5 * dt * dt) * grad_;
      h_ = dt;
      space.normals(q1_, normals_);
      w_ = b_;
      newton_solve(*this, w_, w0_, r_, opt.newton, stats.newton, ctx_);
      // q₂ = exp_{q₁} w,  v₂ = (1/t) P w − (t/2) grad_g V(q₂) + (1/2t) A(q₂, −P w)
      space.exp(q1_, w_, q2);
      space.transport(q1_, w_, w_, pw_);
      neg_pw_ = -pw_;
      a_function(q2, neg_pw_, a_);
      sys.kinetic_metric(q2, k_);
      factor_metric();
      sys.potential_gradient(q2, alpha_);
      sharp(q2, alpha_, grad_);
      v2_ = pw_ / dt - (0.5 * dt) * grad_ + a_ / (2 * dt);
      p2.noalias() = k_ * v2_;
    }
  }

  // --- Newton problem for (32): F(w) = w − b − ½ A(q₁, w) + N Nᵀw -----------------------
  // (N Nᵀw is w's normal part: F = 0 ⟺ w tangent and w = b + ½A, since A is tangent.)
  void residual(const unknowns& w, unknowns& r) {
    a_function(q1_, w, a_);
    r = w - b_ - 0.5 * a_;
    if constexpr (K > 0) {
      nw_.noalias() = normals_.transpose() * w;
      r.noalias() += normals_ * nw_;
    }
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& w) {
    residual(w, f0_);
    auto& j = lu_.system_matrix();
    for (int c = 0; c < N; ++c) {
      const double d = difference_step(w, c);
      wd_ = w;
      wd_(c) += d;
      residual(wd_, f1_);
      j.col(c) = (f1_ - f0_) / d;
    }
    if (!lu_.factorize())
      throw step_error(failure_reason::singular_iteration_matrix, ctx_.t, ctx_.dt, 0, 0,
                       "the Jacobian of eq. (32) is singular: the step is too large for the geometry "
                       "(w must stay well inside the injectivity radius)");
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  double increment_norm(const unknowns& w, const unknowns& d) {
    const double scale = std::fmax(std::fmax(w.cwiseAbs().maxCoeff(), b_.cwiseAbs().maxCoeff()),
                                   std::numeric_limits<double>::min());
    return d.cwiseAbs().maxCoeff() / scale;
  }
  // -----------------------------------------------------------------------------------------

 private:
  /// Cholesky factor of K (the metric at the current point), with a solve into another vector.
  struct metric_factor {
    Eigen::LLT<matrix<N, N>> llt;
    template <class B, class X>
    void solve_in_place_copy(const B& b, X& x) const {
      x = b;
      llt.matrixL().solveInPlace(x);
      llt.matrixU().solveInPlace(x);
    }
  };

  void factor_metric() {
    llt_.llt.compute(k_);
    if (llt_.llt.info() != Eigen::Success)
      throw step_error(failure_reason::non_finite_value, ctx_.t, ctx_.dt, 0, 0,
                       "the kinetic metric K(q) is not positive definite");
  }

  template <class Space>
  void check(const Space& space, double t, double dt, const riemannian_options& opt) {
    const double rq = space.point_residual(q1_), rv = space.tangent_residual(q1_, v1_);
    if (!(rq <= opt.consistency_tolerance && rv <= opt.consistency_tolerance)) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "the initial state is off the configuration space or its tangent bundle: point "
                    "residual %.3e, velocity (K⁻¹p) off the tangent space by %.3e (tolerance %.1e)",
                    rq, rv, opt.consistency_tolerance);
      throw step_error(failure_reason::inconsistent_initial_state, t, dt, 0, std::fmax(rq, rv), buf);
    }
  }

  /// z = g♯(x) α: the tangent vector with K z − α normal to Q (Leimkuhler–Patrick §5.1):
  /// z = K⁻¹(α − N γ), (Nᵀ K⁻¹ N) γ = Nᵀ K⁻¹ α. Uses the factorization of K(x) in llt_.
  template <class X, class A, class Z>
  void sharp(const X& x, const A& alpha, Z& z) {
    llt_.solve_in_place_copy(alpha, z);
    if constexpr (K > 0) {
      sys_->space().normals(x, sharp_normals_);
      kinv_n_ = sharp_normals_;
      llt_.llt.matrixL().solveInPlace(kinv_n_);
      llt_.llt.matrixU().solveInPlace(kinv_n_);
      nkn_.noalias() = sharp_normals_.transpose() * kinv_n_;
      gamma_.noalias() = sharp_normals_.transpose() * z;
      nkn_ldlt_.compute(nkn_);
      nkn_ldlt_.solveInPlace(gamma_);
      z.noalias() -= kinv_n_ * gamma_;
    }
  }

  /// out = A(x, w), eq. (30) with (36)–(38) and §5.1/§5.2. Leaves the factorization of K(x) in llt_.
  template <class X, class W, class Out>
  void a_function(const X& x, const W& w, Out& out) {
    const System& sys = *sys_;
    const space_type& space = sys.space();
    // h(y)(P w, P (1/f₂)(R_w) v) at y = exp_x(w): covector (Id + g1 R_w) Pᵀ h(y) P w
    space.exp(x, w, y_);
    space.transport(x, w, w, tw_);
    sys.kinetic_metric(y_, ka_);
    hv_.noalias() = ka_ * tw_;
    hv_ -= tw_;  // h(y) P w, h = K − I
    space.transport_transpose(x, w, hv_, tmp_);
    space.curvature_series(w, tmp_, jacobi_g1, alpha_a_);
    // h(x)(w, (2 − (f₁/f₂)(R_w)) v) = h(x)(w, (Id − g2 R_w) v): covector (Id − g2 R_w) h(x) w
    sys.kinetic_metric(x, ka_);
    hv_.noalias() = ka_ * w;
    hv_ -= w;  // h(x) w
    space.curvature_series(w, hv_, [](double z) { return -jacobi_g2(z); }, tmp_);
    alpha_a_ = tmp_ - alpha_a_;
    // ½ (∇_v h)(w, w): connection part, and the metric's own variation if K depends on q
    space.add_connection_term(x, w, hv_, alpha_a_);
    if constexpr (!System::constant_metric) {
      sys.metric_derivative(x, w, tmp_);
      alpha_a_ += 0.5 * tmp_;
    }
    llt_.llt.compute(ka_);
    if (llt_.llt.info() != Eigen::Success)
      throw step_error(failure_reason::non_finite_value, ctx_.t, ctx_.dt, 0, 0,
                       "the kinetic metric K(q) is not positive definite");
    sharp(x, alpha_a_, out);
  }

  const System* sys_ = nullptr;
  newton_context ctx_;
  bool have_jacobian_ = false;
  double h_ = 0;
  vector<P> q1_, y_;
  vector<N> v1_, v2_, b_, w_, w0_, r_, wd_, f0_, f1_, a_, pw_, neg_pw_, grad_, alpha_, alpha_a_, tw_, hv_, tmp_;
  matrix<N, N> k_, ka_;
  metric_factor llt_;
  matrix<N, K> normals_, sharp_normals_, kinv_n_;
  matrix<K, K> nkn_;
  std::conditional_t<(K > 0), Eigen::LDLT<matrix<K, K>>, int> nkn_ldlt_{};
  vector<K> gamma_, nw_;
  dense_lu<N> lu_ = make_lu();

  static dense_lu<N> make_lu() {
    dense_lu<N> lu;
    lu.resize(N);
    return lu;
  }
};

}  // namespace detail

/// The Leimkuhler–Patrick Riemannian leapfrog. State = std::pair<Q, P> with Q of the space's
/// point_size and P of its tangent_size (e.g. vector<3>, vector<3> on a sphere; vector<9>,
/// vector<3> on SO(3)).
template <class State>
class riemannian_leapfrog
    : public stepper_base<riemannian_leapfrog<State>, State, riemannian_options, riemannian_statistics> {
 public:
  static constexpr method_properties properties =
      method_properties().order(2).symmetric(true).symplectic(true).conserves(conserves_configuration_space);
  template <class System>
  using cache = detail::leapfrog_cache<System>;
  template <class System>
  using continuous_extension = flow_difference_extension<riemannian_leapfrog, System>;

  using stepper_base<riemannian_leapfrog<State>, State, riemannian_options, riemannian_statistics>::stepper_base;

  template <class System, class X>
  static void check_state(const System&, const X& x) {
    using space_type = typename System::space_type;
    require_size(x.first, space_type::point_size, "the point q");
    require_size(x.second, space_type::tangent_size, "the momentum p");
  }
};

}  // namespace geomint
