// The momentum at a point q ∈ Q: given any p̃ ∈ T*_qV, find v ∈ T_qQ = ker G(q) and μ with
//
//   ∂L/∂q̇(q, v) + G(q)ᵀμ = p̃,     G(q) v = 0,
//
// so that p = p̃ − G(q)ᵀμ = ∂L/∂q̇(q, v) is the representative of p̃'s class in T*Q on the phase
// space of lagrangian_system.hpp (for the Legendre-transformed H: the hidden constraint
// G ∂H/∂p = 0, Hairer 2003 (2.2)). Newton's matrix is the KKT matrix [[∂²L/∂q̇², Gᵀ], [G, 0]];
// for L quadratic in q̇ one iteration is exact. Used at the end of every variational step (the
// discrete Legendre transform D₂L_d followed by this projection) and by the helpers in legendre.hpp.
#pragma once

#include <cmath>
#include <limits>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/system/lagrangian_system.hpp"

namespace geomint {
namespace detail {

template <class System>
class legendre_projection {
  using traits = lagrangian_traits<System>;
  static constexpr int N = traits::n, M = traits::m;
  static constexpr int K = size::fixed_if_small(size::sum(N, M));
  using jacobian_type = typename traits::jacobian_type;

 public:
  using unknowns = vector<K>;

  void resize(int n, int m) {
    n_ = n;
    m_ = m;
    v_.resize(n);
    lq_.resize(n);
    lv_.resize(n);
    effect_.resize(n);
    qq_.resize(n, n);
    qv_.resize(n, n);
    vv_.resize(n, n);
    lu_.resize(n + m);
  }
  int unknown_count() const { return n_ + m_; }

  /// Binds q, G(q) and the momentum p̃ to project. The factorization is refreshed on the first
  /// iteration (q changed).
  void begin(const System& sys, const vector<N>& q, const jacobian_type& g, const vector<N>& p_target,
             double t, double h) {
    sys_ = &sys;
    q_ = &q;
    g_ = &g;
    p_ = &p_target;
    t_ = t;
    h_ = h;
    have_jacobian_ = false;
    p_scale_ = std::fmax(p_target.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  }

  // --- Newton problem interface (solvers/newton.hpp) ------------------------------------------
  void residual(const unknowns& y, unknowns& r) {
    v_ = y.head(n_);
    sys_->lagrangian_gradient(*q_, v_, lq_, lv_);
    r.head(n_) = lv_ - *p_;
    if (m_ > 0) {
      r.head(n_).noalias() += g_->transpose() * y.tail(m_);
      r.tail(m_).noalias() = *g_ * v_;
    }
  }
  bool has_jacobian() const { return have_jacobian_; }
  void update_jacobian(const unknowns& y) {
    v_ = y.head(n_);
    if constexpr (traits::has_velocity_hessian) {
      sys_->lagrangian_velocity_hessian(*q_, v_, vv_);
    } else {
      sys_->lagrangian_hessian(*q_, v_, qq_, qv_, vv_);
    }
    auto& jm = lu_.system_matrix();
    jm.topLeftCorner(n_, n_) = vv_;
    if (m_ > 0) {
      jm.topRightCorner(n_, m_) = g_->transpose();
      jm.bottomLeftCorner(m_, n_) = *g_;
      jm.bottomRightCorner(m_, m_).setZero();
    }
    if (!jm.allFinite())
      throw step_error(failure_reason::non_finite_value, t_, h_, 0, 0, "∂²L/∂q̇² is not finite");
    if (!lu_.factorize())
      throw step_error(failure_reason::singular_constraint_jacobian, t_, h_, 0, 0,
                       "the Legendre matrix [[∂²L/∂q̇², Gᵀ], [G, 0]] is singular: dependent "
                       "constraints, or ∂²L/∂q̇² degenerate on the constraint tangent space");
    have_jacobian_ = true;
  }
  void solve_in_place(unknowns& d) { lu_.solve_in_place(d); }
  /// Velocity increments relative to the velocity; multiplier increments by their effect on p.
  double increment_norm(const unknowns& y, const unknowns& d) {
    const double v_scale = std::fmax(y.head(n_).cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
    double e = d.head(n_).cwiseAbs().maxCoeff() / v_scale;
    if (m_ > 0) {
      effect_.noalias() = g_->transpose() * d.tail(m_);
      e = std::fmax(e, effect_.cwiseAbs().maxCoeff() / p_scale_);
    }
    return e;
  }
  // -----------------------------------------------------------------------------------------

 private:
  int n_ = 0, m_ = 0;
  bool have_jacobian_ = false;
  const System* sys_ = nullptr;
  const vector<N>* q_ = nullptr;
  const vector<N>* p_ = nullptr;
  const jacobian_type* g_ = nullptr;
  double t_ = 0, h_ = 0, p_scale_ = 1;
  vector<N> v_, lq_, lv_, effect_;
  matrix<N, N> qq_, qv_, vv_;
  dense_lu<K> lu_;
};

}  // namespace detail
}  // namespace geomint
