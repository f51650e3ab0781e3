// Constrained systems (geomint/system/constrained_system.hpp) whose functions are the C API's
// callbacks on N_Vectors. Eigen data is handed to the callbacks through N_Vector views (their
// data pointer is re-aimed per call), so no vector is copied and nothing is allocated per call.
//
//   c_general_system              general H(q, p), dense G
//   c_separable_system<Jacobian>  H = ½ pᵀM⁻¹p + V(q), M = diag(mass); dense or sparse (CSR) G
//   c_forced<System>              either, with the force callback f(t, q, p) (GeomintSetForce)
//   c_position_forced<System>     either, with a force f(t, q): the separable fast path stays
//
// They take the time (system/evaluation.hpp: `takes_time`): the steppers pass the time of the
// stage they evaluate with every call, and the callbacks receive it. c_at_time views one at a
// fixed time as a system that does not take it (the variational steppers, which pass the step's
// start time).
//
// Missing second derivatives are forward differences computed exactly as geomint's
// second_derivatives computes them for a C++ system without them, so the C API reproduces the
// C++ steppers bit for bit.
#pragma once

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <stdexcept>
#include <string>

#include "geomint/sundials/geomint_sundials.h"
#include "geomint/system/mass.hpp"
#include "geomint/system/second_derivatives.hpp"
#include "sundials_handles.hpp"

namespace geomint::sundials::detail {

using sparse_jacobian = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
using const_vector_ref = Eigen::Ref<const Eigen::VectorXd>;
using vector_ref = Eigen::Ref<Eigen::VectorXd>;
using matrix_ref = Eigen::Ref<Eigen::MatrixXd>;

/// A user callback returned a nonzero flag.
class callback_error : public std::runtime_error {
 public:
  callback_error(int code, const char* name)
      : std::runtime_error(std::string("geomint: the ") + name + " callback returned " + std::to_string(code)),
        code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// Evaluations of each callback (GeomintGetNum*Evals).
struct callback_counts {
  long dh_dq = 0, dh_dp = 0, hamiltonian = 0, constraint = 0, constraint_jacobian = 0;
  long h_qq = 0, h_qp = 0, h_pp = 0, constraint_hessian = 0, force = 0;
};

/// The problem attached to a Geomint memory block.
struct c_problem {
  SUNContext ctx = nullptr;
  int n = 0, m = 0;
  GeomintCallbacks callbacks{};
  void* user_data = nullptr;
  GeomintConstraintFn constraint = nullptr;
  GeomintConstraintJacFn constraint_jacobian = nullptr;
  matrix_handle jacobian_matrix;  // clone of the user's template
  GeomintHessianFn h_qq = nullptr, h_qp = nullptr, h_pp = nullptr;
  GeomintConstraintHessianFn constraint_hessian = nullptr;
  Eigen::VectorXd mass;  // empty: general H
  GeomintForceFn force = nullptr;
  int force_dependence = 0;  // GEOMINT_FORCE_POSITION or GEOMINT_FORCE_GENERAL
  mutable callback_counts counts;

  bool separable() const { return mass.size() > 0; }
  bool position_force() const { return force && force_dependence == GEOMINT_FORCE_POSITION; }
  bool general_force() const { return force && force_dependence == GEOMINT_FORCE_GENERAL; }
  /// The stages take the separable fast path (a SUNLinearSolver factorizes G M^-1 G^T); a
  /// velocity-dependent force sends a separable H through the general stage solver.
  bool fast_path() const { return separable() && !general_force(); }
  bool sparse() const { return m > 0 && SUNMatGetID(jacobian_matrix.get()) == SUNMATRIX_SPARSE; }
};

/// Calls the callbacks of a c_problem on Eigen data.
class callback_bridge {
 public:
  explicit callback_bridge(const c_problem& pr) : pr_(&pr) {
    for (auto* v : {&q_, &p_, &out_}) v->reset(N_VMake_Serial(pr.n, nullptr, pr.ctx));
    for (auto* v : {&g_, &lambda_}) v->reset(N_VMake_Serial(pr.m, nullptr, pr.ctx));
    zero_ = Eigen::VectorXd::Zero(pr.n);
    if (pr.h_qq || pr.h_qp || pr.h_pp || pr.constraint_hessian) hessian_.reset(SUNDenseMatrix(pr.n, pr.n, pr.ctx));
    if (!q_ || !p_ || !out_ || !g_ || !lambda_ || ((pr.h_qq || pr.h_qp || pr.h_pp || pr.constraint_hessian) && !hessian_))
      throw std::bad_alloc();
  }

  const Eigen::VectorXd& zero() const { return zero_; }

  /// dh_dq (gradient = false) or dh_dp (true).
  void gradient(double t, bool momentum, const_vector_ref q, const_vector_ref p, vector_ref out) {
    ++(momentum ? pr_->counts.dh_dp : pr_->counts.dh_dq);
    const GeomintGradientFn fn = momentum ? pr_->callbacks.dh_dp : pr_->callbacks.dh_dq;
    check(fn(t, aim(q_, q), aim(p_, p), aim(out_, out), pr_->user_data), momentum ? "dh_dp" : "dh_dq");
  }
  /// The force at time t; a position force gets p = 0.
  void force(double t, const_vector_ref q, const_vector_ref p, vector_ref out) {
    ++pr_->counts.force;
    const_vector_ref momentum = pr_->position_force() ? const_vector_ref(zero_) : p;
    check(pr_->force(t, aim(q_, q), aim(p_, momentum), aim(out_, out), pr_->user_data), "force");
  }
  double energy(double t, const_vector_ref q, const_vector_ref p) {
    if (!pr_->callbacks.hamiltonian) throw std::invalid_argument("geomint: no hamiltonian callback was given");
    sunrealtype h = 0;
    ++pr_->counts.hamiltonian;
    check(pr_->callbacks.hamiltonian(t, aim(q_, q), aim(p_, p), &h, pr_->user_data), "hamiltonian");
    return h;
  }
  void constraint(double t, const_vector_ref q, vector_ref out) {
    ++pr_->counts.constraint;
    check(pr_->constraint(t, aim(q_, q), aim(g_, out), pr_->user_data), "constraint");
  }
  /// Dense G from a dense SUNMatrix, or scattered from a CSR one (general H with a sparse G).
  void jacobian(double t, const_vector_ref q, Eigen::MatrixXd& g) {
    SUNMatrix a = call_jacobian(t, q);
    if (SUNMatGetID(a) == SUNMATRIX_DENSE) {
      g = Eigen::Map<const Eigen::MatrixXd>(SM_DATA_D(a), pr_->m, pr_->n);
      return;
    }
    g.setZero(pr_->m, pr_->n);
    const sunindextype* ptrs = SM_INDEXPTRS_S(a);
    for (int k = 0; k < pr_->m; ++k)
      for (sunindextype e = ptrs[k]; e < ptrs[k + 1]; ++e) g(k, SM_INDEXVALS_S(a)[e]) = SM_DATA_S(a)[e];
  }
  /// Copies the CSR pattern only when it differs from g's (the first call, normally).
  void jacobian(double t, const_vector_ref q, sparse_jacobian& g) {
    SUNMatrix a = call_jacobian(t, q);
    const sunindextype* ptrs = SM_INDEXPTRS_S(a);
    const sunindextype* cols = SM_INDEXVALS_S(a);
    const sunindextype nnz = ptrs[pr_->m];
    bool same = g.rows() == pr_->m && g.cols() == pr_->n && g.isCompressed() && g.nonZeros() == nnz;
    for (int k = 0; same && k <= pr_->m; ++k) same = g.outerIndexPtr()[k] == ptrs[k];
    for (sunindextype e = 0; same && e < nnz; ++e) same = g.innerIndexPtr()[e] == cols[e];
    if (!same) {
      g.resize(pr_->m, pr_->n);
      g.makeCompressed();
      g.resizeNonZeros(static_cast<Eigen::Index>(nnz));
      for (int k = 0; k <= pr_->m; ++k) g.outerIndexPtr()[k] = static_cast<int>(ptrs[k]);
      for (sunindextype e = 0; e < nnz; ++e) g.innerIndexPtr()[e] = static_cast<int>(cols[e]);
    }
    Eigen::Map<Eigen::VectorXd>(g.valuePtr(), nnz) = Eigen::Map<const Eigen::VectorXd>(SM_DATA_S(a), nnz);
  }
  void hessian(double t, GeomintHessianFn fn, long& count, const char* name, const_vector_ref q, const_vector_ref p,
               matrix_ref out) {
    ++count;
    check(fn(t, aim(q_, q), aim(p_, p), hessian_.get(), pr_->user_data), name);
    out = Eigen::Map<const Eigen::MatrixXd>(SM_DATA_D(hessian_.get()), pr_->n, pr_->n);
  }
  void constraint_hessian(double t, const_vector_ref q, const_vector_ref lambda, matrix_ref out) {
    ++pr_->counts.constraint_hessian;
    check(pr_->constraint_hessian(t, aim(q_, q), aim(lambda_, lambda), hessian_.get(), pr_->user_data),
          "constraint Hessian");
    out = Eigen::Map<const Eigen::MatrixXd>(SM_DATA_D(hessian_.get()), pr_->n, pr_->n);
  }

 private:
  /// The views are serial vectors this bridge made: their data pointer is set in place
  /// (NV_DATA_S), not through the generic N_VSetArrayPointer's operation table.
  template <class V>
  static N_Vector aim(const vector_handle& view, const V& data) {
    NV_DATA_S(view.get()) = const_cast<double*>(data.data());
    return view.get();
  }
  SUNMatrix call_jacobian(double t, const_vector_ref q) {
    SUNMatrix a = pr_->jacobian_matrix.get();
    ++pr_->counts.constraint_jacobian;
    check(pr_->constraint_jacobian(t, aim(q_, q), a, pr_->user_data), "constraint Jacobian");
    return a;
  }
  static void check(int code, const char* name) {
    if (code != 0) throw callback_error(code, name);
  }

  const c_problem* pr_;
  vector_handle q_, p_, out_, g_, lambda_;
  matrix_handle hessian_;
  Eigen::VectorXd zero_;
};

/// What both system kinds share: sizes, H, g, G and Σλ∇²g.
template <class Jacobian>
class c_system_common {
 public:
  static constexpr int position_size = dynamic;
  static constexpr int constraint_size = dynamic;
  static constexpr bool takes_time = true;
  using constraint_jacobian_type = Jacobian;

  explicit c_system_common(const c_problem& pr) : pr_(&pr), bridge_(pr) {}
  c_system_common(const c_system_common&) = delete;
  c_system_common& operator=(const c_system_common&) = delete;

  int position_count() const { return pr_->n; }
  int constraint_count() const { return pr_->m; }
  /// Continuation key (core/step_record.hpp): the callbacks' scratch views change the object's
  /// bytes, and every setting that changes the problem resets the stepper, so the system is
  /// keyed on its address alone.
  long parameter_version() const { return 0; }

  double hamiltonian(double t, const_vector_ref q, const_vector_ref p) const { return bridge_.energy(t, q, p); }
  // Without constraints (m = 0) the steppers still ask for g and G, of size 0.
  void constraint(double t, const_vector_ref q, vector_ref out) const {
    if (pr_->m > 0) bridge_.constraint(t, q, out);
  }
  void constraint_jacobian(double t, const_vector_ref q, Jacobian& g) const {
    if (pr_->m > 0) bridge_.jacobian(t, q, g);
    else g.resize(0, pr_->n);
  }
  /// Σ λ_k ∇²g_k(q): the callback, or forward differences of Gᵀλ (as second_derivatives does).
  void constraint_hessian(double t, const_vector_ref q, const_vector_ref lambda, matrix_ref out) const {
    if (pr_->m == 0) {
      out.setZero();
      return;
    }
    if (pr_->constraint_hessian) return bridge_.constraint_hessian(t, q, lambda, out);
    difference_jacobian_.resize(pr_->m, pr_->n);
    geomint::detail::forward_difference_jacobian(
        [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) {
          constraint_jacobian(t, x, difference_jacobian_);
          f.noalias() = difference_jacobian_.transpose() * lambda;
        },
        q, out, differences());
  }

 protected:
  geomint::detail::difference_workspace<dynamic>& differences() const {
    if (differences_.x.size() != pr_->n) differences_.resize(pr_->n);
    return differences_;
  }

  const c_problem* pr_;
  mutable callback_bridge bridge_;
  mutable geomint::detail::difference_workspace<dynamic> differences_;
  mutable Jacobian difference_jacobian_;
};

/// General H(q, p) with a dense constraint Jacobian.
class c_general_system : public c_system_common<Eigen::MatrixXd> {
 public:
  using c_system_common::c_system_common;

  void dh_dq(double t, const_vector_ref q, const_vector_ref p, vector_ref out) const {
    bridge_.gradient(t, false, q, p, out);
  }
  void dh_dp(double t, const_vector_ref q, const_vector_ref p, vector_ref out) const {
    bridge_.gradient(t, true, q, p, out);
  }
  void h_qq(double t, const_vector_ref q, const_vector_ref p, matrix_ref out) const {
    if (pr_->h_qq) return bridge_.hessian(t, pr_->h_qq, pr_->counts.h_qq, "h_qq", q, p, out);
    geomint::detail::forward_difference_jacobian(
        [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { dh_dq(t, x, p, f); }, q, out, differences());
  }
  void h_qp(double t, const_vector_ref q, const_vector_ref p, matrix_ref out) const {
    if (pr_->h_qp) return bridge_.hessian(t, pr_->h_qp, pr_->counts.h_qp, "h_qp", q, p, out);
    geomint::detail::forward_difference_jacobian(
        [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { dh_dq(t, q, x, f); }, p, out, differences());
  }
  void h_pp(double t, const_vector_ref q, const_vector_ref p, matrix_ref out) const {
    if (pr_->h_pp) return bridge_.hessian(t, pr_->h_pp, pr_->counts.h_pp, "h_pp", q, p, out);
    geomint::detail::forward_difference_jacobian(
        [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { dh_dp(t, q, x, f); }, p, out, differences());
  }
};

/// H = ½ pᵀM⁻¹p + V(q) with M = diag(mass); the callback dh_dq is ∇V (called with p = 0).
template <class Jacobian>
class c_separable_system : public c_system_common<Jacobian> {
  using base = c_system_common<Jacobian>;

 public:
  explicit c_separable_system(const c_problem& pr) : base(pr), mass_(pr.mass) {}

  const diagonal_mass<dynamic>& mass() const { return mass_; }
  void potential_gradient(double t, const_vector_ref q, vector_ref out) const {
    this->bridge_.gradient(t, false, q, this->bridge_.zero(), out);
  }
  void dh_dq(double t, const_vector_ref q, const_vector_ref, vector_ref out) const { potential_gradient(t, q, out); }
  void dh_dp(double, const_vector_ref, const_vector_ref p, vector_ref out) const { mass_.apply_inverse(p, out); }
  void h_qq(double t, const_vector_ref q, const_vector_ref p, matrix_ref out) const {
    if (this->pr_->h_qq)
      return this->bridge_.hessian(t, this->pr_->h_qq, this->pr_->counts.h_qq, "h_qq", q, this->bridge_.zero(), out);
    geomint::detail::forward_difference_jacobian(
        [&](const Eigen::VectorXd& x, Eigen::VectorXd& f) { dh_dq(t, x, p, f); }, q, out, this->differences());
  }
  void h_qp(double, const_vector_ref, const_vector_ref, matrix_ref out) const { out.setZero(); }
  void h_pp(double, const_vector_ref, const_vector_ref, matrix_ref out) const { mass_.inverse_matrix(out); }

 private:
  diagonal_mass<dynamic> mass_;
};

/// A C system with a force f(t, q, p) (any dependence): the general stage solver.
template <class System>
class c_forced : public System {
 public:
  explicit c_forced(const c_problem& pr) : System(pr) {}
  void force(double t, const_vector_ref q, const_vector_ref p, vector_ref out) const {
    this->bridge_.force(t, q, p, out);
  }
};

/// A C system with a force f(t, q) (GEOMINT_FORCE_POSITION): a separable H keeps its fast path.
template <class System>
class c_position_forced : public c_forced<System> {
 public:
  explicit c_position_forced(const c_problem& pr) : c_forced<System>(pr) {}
  void position_force(double t, const_vector_ref q, vector_ref out) const {
    this->bridge_.force(t, q, this->bridge_.zero(), out);
  }
};

/// A C system at a fixed time, as a system whose functions do not take it: for the steppers that
/// pass the step's start time to every callback (the variational family on separable systems).
/// The C module sets the time before each step (at()); it is this view's own state, not the
/// system's.
template <class System>
class c_at_time {
 public:
  static constexpr int position_size = dynamic;
  static constexpr int constraint_size = dynamic;
  using constraint_jacobian_type = typename System::constraint_jacobian_type;

  explicit c_at_time(const System& system) : s_(&system) {}
  /// Sets the time of the calls that follow.
  void at(double t) { t_ = t; }
  /// Continuation key: the time changes between steps, the system does not.
  long parameter_version() const { return 0; }

  int position_count() const { return s_->position_count(); }
  int constraint_count() const { return s_->constraint_count(); }
  const diagonal_mass<dynamic>& mass() const { return s_->mass(); }
  double hamiltonian(const_vector_ref q, const_vector_ref p) const { return s_->hamiltonian(t_, q, p); }
  void potential_gradient(const_vector_ref q, vector_ref out) const { s_->potential_gradient(t_, q, out); }
  void dh_dq(const_vector_ref q, const_vector_ref p, vector_ref out) const { s_->dh_dq(t_, q, p, out); }
  void dh_dp(const_vector_ref q, const_vector_ref p, vector_ref out) const { s_->dh_dp(t_, q, p, out); }
  void h_qq(const_vector_ref q, const_vector_ref p, matrix_ref out) const { s_->h_qq(t_, q, p, out); }
  void h_qp(const_vector_ref q, const_vector_ref p, matrix_ref out) const { s_->h_qp(t_, q, p, out); }
  void h_pp(const_vector_ref q, const_vector_ref p, matrix_ref out) const { s_->h_pp(t_, q, p, out); }
  void constraint(const_vector_ref q, vector_ref out) const { s_->constraint(t_, q, out); }
  void constraint_jacobian(const_vector_ref q, constraint_jacobian_type& g) const { s_->constraint_jacobian(t_, q, g); }
  void constraint_hessian(const_vector_ref q, const_vector_ref lambda, matrix_ref out) const {
    s_->constraint_hessian(t_, q, lambda, out);
  }

 private:
  const System* s_;
  double t_ = 0;
};

}  // namespace geomint::sundials::detail
