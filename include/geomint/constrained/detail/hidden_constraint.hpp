// The final momentum of a constrained PRK step: p1 = p̂ − G(q1)ᵀμ with μ chosen so that the
// hidden constraint G(q1) ∂H/∂p(q1, p1) = 0 holds (Hairer 2003, (2.8) with the free Λ_s, and
// Example 2.3 when b_s = 0). Linear for separable H (one solve with S = G M⁻¹ Gᵀ), a small
// Newton iteration in μ otherwise (matrix −G ∂²H/∂p² Gᵀ). Also used by project_to_manifold.
// Driven constraints g(q, t) = 0 have the hidden constraint G ∂H/∂p + ∂g/∂t = 0 at t1: the
// extended phase space's, with t a position whose velocity is 1 (docs/constrained.md).
#pragma once

#include <cmath>
#include <limits>

#include "geomint/constrained/detail/constraint_gram.hpp"
#include "geomint/solvers/newton.hpp"
#include "geomint/system/second_derivatives.hpp"

namespace geomint {
namespace detail {

template <class System>
class hidden_constraint_solver {
  using traits = system_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  using jacobian_type = typename traits::jacobian_type;

 public:
  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    v_.resize(n);
    p_.resize(n);
    mu_.resize(m);
    mu0_.resize(m);
    r_.resize(m);
    rate_.resize(m);
    if constexpr (!traits::separable) {
      hpp_.resize(n, n);
      w_.resize(m, n);
      lu_.resize(m);
      second_.resize(n);
    }
  }

  /// Separable H: p ← p − Gᵀ S⁻¹ (G M⁻¹ p + ∂g/∂t), with S = G M⁻¹ Gᵀ already factorized in
  /// `gram` (∂g/∂t at q and the time of `sys`, for driven constraints).
  template <class Q>
  void project_separable(const system_at<System>& sys, const Q& q, const jacobian_type& g, constraint_gram<System>& gram,
                         vector<N>& p) {
    if (m_ == 0) return;
    if constexpr (traits::sparse_jacobian) {
      sys.mass().apply_inverse(p, v_);
      mu_.noalias() = g * v_;
    } else {
      mu_.noalias() = gram.weighted_jacobian() * p;  // G M⁻¹ p
    }
    if constexpr (traits::rheonomic) {
      sys.constraint_time_derivative(q, rate_);
      mu_ += rate_;
    }
    gram.solve_in_place(mu_);
    p.noalias() -= g.transpose() * mu_;
  }

  /// General H: Newton on μ for G ∂H/∂p(q, p̂ − Gᵀμ) (+ ∂g/∂t) = 0, H at the time of `sys`.
  template <class Q>
  void project_general(const system_at<System>& sys, const Q& q, const jacobian_type& g, vector<N>& p,
                       const newton_options& opt, newton_statistics& stats, const newton_context& ctx) {
    if (m_ == 0) return;
    if constexpr (traits::rheonomic) sys.constraint_time_derivative(q, rate_);
    newton_context c = ctx;
    c.what = "hidden constraint G(q1) ∂H/∂p(q1, p1) = 0";
    problem<Q> pr{*this, sys, q, g, p, c};
    mu_.setZero();
    lu_valid_ = false;
    newton_solve(pr, mu_, mu0_, r_, opt, stats, c);
    p.noalias() -= g.transpose() * mu_;
  }

  /// The last projection's μ (p1 = p̂ − G(q1)ᵀμ).
  const vector<M>& multiplier() const { return mu_; }
  /// ∂g/∂t at the last projection's q and time (driven constraints only).
  const vector<M>& constraint_rate() const { return rate_; }

 private:
  template <class Q>
  struct problem {
    hidden_constraint_solver& s;
    const system_at<System>& sys;
    const Q& q;
    const jacobian_type& g;
    const vector<N>& p_hat;
    const newton_context& ctx;

    void residual(const vector<M>& mu, vector<M>& r) {
      s.p_ = p_hat;
      s.p_.noalias() -= g.transpose() * mu;
      sys.dh_dp(q, s.p_, s.v_);
      r.noalias() = g * s.v_;
      if constexpr (traits::rheonomic) r += s.rate_;
    }
    bool has_jacobian() const { return s.lu_valid_; }
    void update_jacobian(const vector<M>& mu) {  // ∂r/∂μ = −G ∂²H/∂p² Gᵀ
      s.p_ = p_hat;
      s.p_.noalias() -= g.transpose() * mu;
      s.second_.h_pp(sys, q, s.p_, s.hpp_);
      s.w_.noalias() = g * s.hpp_;
      s.lu_.system_matrix().noalias() = -s.w_ * g.transpose();
      if (!s.lu_.factorize())
        throw step_error(failure_reason::singular_constraint_jacobian, ctx.t, ctx.dt, 0, 0,
                         "G(q) ∂²H/∂p² G(q)ᵀ is singular (Hairer 2003, (2.4))");
      s.lu_valid_ = true;
    }
    void solve_in_place(vector<M>& d) { s.lu_.solve_in_place(d); }
    double increment_norm(const vector<M>&, const vector<M>& d) {
      s.v_.noalias() = g.transpose() * d;
      const double scale = std::fmax(p_hat.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
      return s.v_.cwiseAbs().maxCoeff() / scale;
    }
  };

  int n_ = 0, m_ = 0;
  bool lu_valid_ = false;
  vector<N> v_, p_;
  vector<M> mu_, mu0_, r_, rate_;
  matrix<N, N> hpp_;
  matrix<M, N> w_;
  dense_lu<M> lu_;
  second_derivatives<System> second_;
};

}  // namespace detail
}  // namespace geomint
