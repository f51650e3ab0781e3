// The reference problems as C API callbacks, computed by the same C++ problem code the steppers
// use (so that the C API and the C++ steppers can be compared bit for bit), and C++ systems with
// dynamic sizes matching the C API's systems.
#pragma once

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/pendulum_chain.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"
#include "geomint/sundials/geomint_sundials.h"

namespace sundials_test {

using Eigen::VectorXd;
using vmap = Eigen::Map<VectorXd>;
/// A serial N_Vector's data, by the serial accessors (as SUNDIALS' own examples read them).
inline vmap map(N_Vector v) { return vmap(NV_DATA_S(v), NV_LENGTH_S(v)); }

/// Equal bit for bit (a C API result against the C++ stepper's, or two C API runs).
inline bool bitwise_equal(const VectorXd& a, N_Vector b) { return (a.array() == map(b).array()).all(); }
inline bool bitwise_equal(N_Vector a, const VectorXd& b) { return bitwise_equal(b, a); }

// A dense SUNLinearSolver whose setup and solve calls are counted: point its ops here.
inline long setup_calls = 0, solve_calls = 0;
inline int counting_setup(SUNLinearSolver s, SUNMatrix a) {
  ++setup_calls;
  return SUNLinSolSetup_Dense(s, a);
}
inline int counting_solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, sunrealtype tol) {
  ++solve_calls;
  return SUNLinSolSolve_Dense(s, a, x, b, tol);
}
inline bool bitwise_equal(N_Vector a, N_Vector b) { return (map(a).array() == map(b).array()).all(); }

/// The free rigid body on so(3)* for GeomintLieInit: ∇H of H = ½ Σ y_i²/I_i, I = (2, 1, 2/3).
inline int rigid_body_gradient(sunrealtype, N_Vector y, N_Vector out, void*) {
  const double inertia[3] = {2.0, 1.0, 2.0 / 3.0};
  for (int i = 0; i < 3; ++i) NV_Ith_S(out, i) = NV_Ith_S(y, i) / inertia[i];
  return 0;
}

/// The last error message of a Geomint* memory block ("" if none).
inline std::string last_error(void* mem) {
  const char* m = nullptr;
  GeomintGetLastErrorMessage(mem, &m);
  return m ? m : "";
}

/// Owns a SUNContext and serial N_Vectors.
class sun {
 public:
  sun() {
    if (SUNContext_Create(nullptr, &ctx_)) throw std::runtime_error("SUNContext_Create failed");
  }
  ~sun() {
    for (N_Vector v : vectors_) N_VDestroy(v);
    SUNContext_Free(&ctx_);
  }
  sun(const sun&) = delete;
  sun& operator=(const sun&) = delete;
  SUNContext ctx() const { return ctx_; }
  N_Vector vector(const VectorXd& x) {
    N_Vector v = N_VNew_Serial(x.size(), ctx_);
    map(v) = x;
    vectors_.push_back(v);
    return v;
  }

 private:
  SUNContext ctx_ = nullptr;
  std::vector<N_Vector> vectors_;
};

/// Failure injection shared by all callbacks: from call number `fail_at` of `which` on, the
/// callback returns `code` (or writes NaN when nan is set).
// The free rigid body on so(3)* (rigid_body_gradient above) in a Lie–Poisson memory block.
inline VectorXd rb_initial() { return geomint::vector<3>(std::cos(1.1), 0.0, std::sin(1.1)); }
inline void* make_rigid_body(sun& s, int method, double h) {
  void* mem = GeomintLieCreate(s.ctx(), method, GEOMINT_ALGEBRA_SO3);
  if (!mem || GeomintLieInit(mem, rigid_body_gradient, nullptr, 0.0, s.vector(rb_initial())) || GeomintLieSetFixedStep(mem, h))
    throw std::runtime_error("make_rigid_body failed");
  return mem;
}

struct fault {
  const char* which = "";
  long calls = 0, fail_at = -1;
  int code = 0;
  bool nan = false;
  /// 0, or the code to return; counts calls of `name`.
  int hit(const char* name, double* out = nullptr, long n = 0) {
    if (fail_at < 0 || std::strcmp(name, which) != 0) return 0;
    if (++calls < fail_at) return 0;
    if (nan && out) {
      for (long i = 0; i < n; ++i) out[i] = std::numeric_limits<double>::quiet_NaN();
      return 0;
    }
    return code;
  }
};

// ---- double spherical pendulum (separable, dense G) ------------------------------------------
struct dsp_constraints : geomint::problems::double_pendulum_constraints {
  static constexpr int size = geomint::dynamic;
};
/// The double spherical pendulum with dynamic sizes: the types of the C API's separable system.
using dynamic_dsp = geomint::separable_system<geomint::dynamic, geomint::problems::two_mass_gravity, dsp_constraints>;

struct dsp_data {
  geomint::problems::double_spherical_pendulum problem;
  geomint::problems::two_mass_gravity gravity{problem.parameters().m1 * problem.parameters().gravity,
                                              problem.parameters().m2 * problem.parameters().gravity};
  dsp_constraints constraints;
  fault f;
  dsp_data() {
    constraints.l1 = problem.parameters().l1;
    constraints.l2 = problem.parameters().l2;
  }
  VectorXd masses() const {
    VectorXd m(6);
    m << 2.0, 2.0, 2.0, 3.5, 3.5, 3.5;
    return m;
  }
  dynamic_dsp system() const { return dynamic_dsp(geomint::diagonal_mass<geomint::dynamic>(masses()), gravity, constraints); }
};

inline int dsp_gradient(sunrealtype, N_Vector q, N_Vector, N_Vector out, void* ud) {
  auto& d = *static_cast<dsp_data*>(ud);
  vmap o = map(out);
  d.gravity.gradient(map(q), o);
  return d.f.hit("dh_dq", o.data(), o.size());
}
inline int dsp_energy(sunrealtype, N_Vector q, N_Vector p, sunrealtype* h, void* ud) {
  *h = static_cast<dsp_data*>(ud)->problem.hamiltonian(map(q), map(p));
  return 0;
}
inline int dsp_constraint(sunrealtype, N_Vector q, N_Vector g, void* ud) {
  auto& d = *static_cast<dsp_data*>(ud);
  vmap o = map(g);
  d.constraints.value(map(q), o);
  return d.f.hit("constraint", o.data(), o.size());
}
inline int dsp_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void* ud) {
  auto& d = *static_cast<dsp_data*>(ud);
  Eigen::Map<Eigen::MatrixXd> g(SM_DATA_D(G), 2, 6);
  d.constraints.jacobian(map(q), g);
  return d.f.hit("jacobian");
}
inline int dsp_h_qq(sunrealtype, N_Vector q, N_Vector, SUNMatrix H, void* ud) {
  Eigen::Map<Eigen::MatrixXd> h(SM_DATA_D(H), 6, 6);
  static_cast<dsp_data*>(ud)->gravity.hessian(map(q), h);
  return 0;
}
inline int dsp_constraint_hessian(sunrealtype, N_Vector q, N_Vector lambda, SUNMatrix H, void* ud) {
  Eigen::Map<Eigen::MatrixXd> h(SM_DATA_D(H), 6, 6);
  static_cast<dsp_data*>(ud)->constraints.hessian(map(q), map(lambda), h);
  return 0;
}

/// Creates a Geomint memory block for the double spherical pendulum (separable, dense G, the
/// second derivatives the C++ system has), at its Marsden–Wendlandt initial state.
inline void* make_dsp(sun& s, dsp_data& d, int method, double h, SUNMatrix& g_template) {
  void* mem = GeomintCreate(s.ctx(), method);
  const auto x0 = d.problem.initial_state();
  GeomintCallbacks cb{dsp_gradient, nullptr, dsp_energy};
  g_template = SUNDenseMatrix(2, 6, s.ctx());
  if (GeomintInit(mem, &cb, 0.0, s.vector(x0.first), s.vector(x0.second)) || GeomintSetUserData(mem, &d) ||
      GeomintSetMass(mem, s.vector(d.masses())) ||
      GeomintSetConstraints(mem, dsp_constraint, dsp_jacobian, g_template) ||
      GeomintSetHessianFns(mem, dsp_h_qq, nullptr, nullptr) || GeomintSetConstraintHessianFn(mem, dsp_constraint_hessian) ||
      GeomintSetFixedStep(mem, h))
    throw std::runtime_error("make_dsp failed");
  return mem;
}

// ---- N-link chain (separable, sparse CSR G) ---------------------------------------------------
struct chain_data {
  geomint::problems::pendulum_chain problem;
  geomint::problems::chain_constraints::jacobian_type g;  // scratch
  fault f;
  explicit chain_data(int links) : problem(params(links)) {}
  static geomint::problems::pendulum_chain_parameters params(int links) {
    geomint::problems::pendulum_chain_parameters p;
    p.links = links;
    return p;
  }
  int n() const { return problem.position_count(); }
  int m() const { return problem.constraint_count(); }
};

inline int chain_gradient(sunrealtype, N_Vector q, N_Vector, N_Vector out, void* ud) {
  auto& d = *static_cast<chain_data*>(ud);
  vmap o = map(out);
  d.problem.potential().gradient(map(q), o);
  return d.f.hit("dh_dq", o.data(), o.size());
}
inline int chain_constraint(sunrealtype, N_Vector q, N_Vector g, void* ud) {
  auto& d = *static_cast<chain_data*>(ud);
  vmap o = map(g);
  d.problem.constraints().value(map(q), o);
  return d.f.hit("constraint", o.data(), o.size());
}
/// G in CSR: the C++ problem's RowMajor pattern and values.
inline int chain_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void* ud) {
  auto& d = *static_cast<chain_data*>(ud);
  d.problem.constraints().jacobian(map(q), d.g);
  for (Eigen::Index k = 0; k <= d.g.rows(); ++k) SM_INDEXPTRS_S(G)[k] = d.g.outerIndexPtr()[k];
  for (Eigen::Index e = 0; e < d.g.nonZeros(); ++e) {
    SM_INDEXVALS_S(G)[e] = d.g.innerIndexPtr()[e];
    SM_DATA_S(G)[e] = d.g.valuePtr()[e];
  }
  return d.f.hit("jacobian");
}

inline void* make_chain(sun& s, chain_data& d, int method, double h, SUNMatrix& g_template) {
  void* mem = GeomintCreate(s.ctx(), method);
  const auto x0 = d.problem.initial_state();
  GeomintCallbacks cb{chain_gradient, nullptr, nullptr};
  g_template = SUNSparseMatrix(d.m(), d.n(), 6 * d.m() - 3, CSR_MAT, s.ctx());
  if (GeomintInit(mem, &cb, 0.0, s.vector(x0.first), s.vector(x0.second)) || GeomintSetUserData(mem, &d) ||
      GeomintSetMass(mem, s.vector(VectorXd::Constant(d.n(), d.problem.parameters().mass))) ||
      GeomintSetConstraints(mem, chain_constraint, chain_jacobian, g_template) || GeomintSetFixedStep(mem, h))
    throw std::runtime_error("make_chain failed");
  return mem;
}

// ---- variable-mass sphere (general H, dense G) -------------------------------------------------
/// variable_mass_sphere with dynamic sizes and, optionally, without its second derivatives.
template <bool Hessians>
class dynamic_vms {
 public:
  static constexpr int position_size = geomint::dynamic, constraint_size = geomint::dynamic;
  explicit dynamic_vms(const geomint::problems::variable_mass_sphere& s) : s_(s) {}
  int position_count() const { return 3; }
  int constraint_count() const { return 1; }
  template <class Q, class P> double hamiltonian(const Q& q, const P& p) const { return s_.hamiltonian(q, p); }
  template <class Q, class P, class O> void dh_dq(const Q& q, const P& p, O& o) const { s_.dh_dq(q, p, o); }
  template <class Q, class P, class O> void dh_dp(const Q& q, const P& p, O& o) const { s_.dh_dp(q, p, o); }
  template <class Q, class O> void constraint(const Q& q, O& o) const { s_.constraint(q, o); }
  template <class Q, class G> void constraint_jacobian(const Q& q, G& g) const { s_.constraint_jacobian(q, g); }
  template <class Q, class P, class O, bool H = Hessians, class = std::enable_if_t<H>>
  void h_qq(const Q& q, const P& p, O& o) const { s_.h_qq(q, p, o); }
  template <class Q, class P, class O, bool H = Hessians, class = std::enable_if_t<H>>
  void h_qp(const Q& q, const P& p, O& o) const { s_.h_qp(q, p, o); }
  template <class Q, class P, class O, bool H = Hessians, class = std::enable_if_t<H>>
  void h_pp(const Q& q, const P& p, O& o) const { s_.h_pp(q, p, o); }
  template <class Q, class L, class O, bool H = Hessians, class = std::enable_if_t<H>>
  void constraint_hessian(const Q& q, const L& l, O& o) const { s_.constraint_hessian(q, l, o); }

 private:
  geomint::problems::variable_mass_sphere s_;
};

struct vms_data {
  geomint::problems::variable_mass_sphere problem;
  fault f;
};
inline int vms_dh_dq(sunrealtype, N_Vector q, N_Vector p, N_Vector out, void* ud) {
  auto& d = *static_cast<vms_data*>(ud);
  vmap o = map(out);
  d.problem.dh_dq(map(q), map(p), o);
  return d.f.hit("dh_dq", o.data(), o.size());
}
inline int vms_dh_dp(sunrealtype, N_Vector q, N_Vector p, N_Vector out, void* ud) {
  vmap o = map(out);
  static_cast<vms_data*>(ud)->problem.dh_dp(map(q), map(p), o);
  return 0;
}
inline int vms_energy(sunrealtype, N_Vector q, N_Vector p, sunrealtype* h, void* ud) {
  *h = static_cast<vms_data*>(ud)->problem.hamiltonian(map(q), map(p));
  return 0;
}
inline int vms_constraint(sunrealtype, N_Vector q, N_Vector g, void* ud) {
  vmap o = map(g);
  static_cast<vms_data*>(ud)->problem.constraint(map(q), o);
  return 0;
}
inline int vms_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void* ud) {
  Eigen::Map<Eigen::MatrixXd> g(SM_DATA_D(G), 1, 3);
  static_cast<vms_data*>(ud)->problem.constraint_jacobian(map(q), g);
  return 0;
}
#define GEOMINT_TEST_VMS_HESSIAN(name, call)                                     \
  inline int name(sunrealtype, N_Vector q, N_Vector p, SUNMatrix H, void* ud) { \
    Eigen::Map<Eigen::MatrixXd> h(SM_DATA_D(H), 3, 3);                           \
    static_cast<vms_data*>(ud)->problem.call(map(q), map(p), h);                 \
    return 0;                                                                    \
  }
GEOMINT_TEST_VMS_HESSIAN(vms_h_qq, h_qq)
GEOMINT_TEST_VMS_HESSIAN(vms_h_qp, h_qp)
GEOMINT_TEST_VMS_HESSIAN(vms_h_pp, h_pp)
#undef GEOMINT_TEST_VMS_HESSIAN
inline int vms_constraint_hessian(sunrealtype, N_Vector q, N_Vector lambda, SUNMatrix H, void* ud) {
  Eigen::Map<Eigen::MatrixXd> h(SM_DATA_D(H), 3, 3);
  static_cast<vms_data*>(ud)->problem.constraint_hessian(map(q), map(lambda), h);
  return 0;
}

inline void* make_vms(sun& s, vms_data& d, int method, double h, bool hessians, SUNMatrix& g_template) {
  void* mem = GeomintCreate(s.ctx(), method);
  const auto x0 = d.problem.initial_state();
  GeomintCallbacks cb{vms_dh_dq, vms_dh_dp, vms_energy};
  g_template = SUNDenseMatrix(1, 3, s.ctx());
  if (GeomintInit(mem, &cb, 0.0, s.vector(x0.first), s.vector(x0.second)) || GeomintSetUserData(mem, &d) ||
      GeomintSetConstraints(mem, vms_constraint, vms_jacobian, g_template) || GeomintSetFixedStep(mem, h))
    throw std::runtime_error("make_vms failed");
  if (hessians && (GeomintSetHessianFns(mem, vms_h_qq, vms_h_qp, vms_h_pp) ||
                   GeomintSetConstraintHessianFn(mem, vms_constraint_hessian)))
    throw std::runtime_error("make_vms failed");
  return mem;
}

// ---- spherical pendulum with every callback, each counting its calls ------------------------
/// H = |p|²/(2m) + m γ q_z, g = |q|² − l² (m = 2, l = 1.5: nothing is 1 by accident). Given
/// separable (GeomintSetMass) or general (dh_dp and the Hessians as callbacks).
struct sp_data {
  double mass = 2.0, length = 1.5, gravity = 9.81;
  struct {
    long dh_dq = 0, dh_dp = 0, hamiltonian = 0, constraint = 0, jacobian = 0, h_qq = 0, h_qp = 0, h_pp = 0,
         constraint_hessian = 0;
  } calls;
  fault f;
  /// Polar angle θ from the downward vertical, azimuthal speed ω: on the manifold.
  std::pair<VectorXd, VectorXd> initial_state(double theta = 1.0, double omega = 2.0) const {
    VectorXd q(3), p(3);
    q << length * std::sin(theta), 0, -length * std::cos(theta);
    p << 0, mass * omega * length * std::sin(theta), 0;
    return {q, p};
  }
  /// The multiplier of the constraint force −Gᵀλ = −2qλ: d²/dt² |q|² = 0 with m q̈ = −∇V − 2qλ
  /// gives λ = (m|v|² − q·∇V) / (2|q|²).
  double lambda(const VectorXd& q, const VectorXd& p) const {
    const VectorXd v = p / mass;
    return (mass * v.squaredNorm() - q(2) * mass * gravity) / (2 * q.squaredNorm());
  }
};
inline sp_data& sp(void* ud) { return *static_cast<sp_data*>(ud); }
inline int sp_dh_dq(sunrealtype, N_Vector, N_Vector, N_Vector out, void* ud) {
  ++sp(ud).calls.dh_dq;
  map(out) << 0, 0, sp(ud).mass * sp(ud).gravity;
  return sp(ud).f.hit("dh_dq", N_VGetArrayPointer(out), 3);
}
inline int sp_dh_dp(sunrealtype, N_Vector, N_Vector p, N_Vector out, void* ud) {
  ++sp(ud).calls.dh_dp;
  map(out) = map(p) / sp(ud).mass;
  return 0;
}
inline int sp_energy(sunrealtype, N_Vector q, N_Vector p, sunrealtype* h, void* ud) {
  ++sp(ud).calls.hamiltonian;
  *h = map(p).squaredNorm() / (2 * sp(ud).mass) + sp(ud).mass * sp(ud).gravity * NV_Ith_S(q, 2);
  return 0;
}
inline int sp_constraint(sunrealtype, N_Vector q, N_Vector g, void* ud) {
  ++sp(ud).calls.constraint;
  NV_Ith_S(g, 0) = map(q).squaredNorm() - sp(ud).length * sp(ud).length;
  return sp(ud).f.hit("constraint", N_VGetArrayPointer(g), 1);
}
inline int sp_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void* ud) {
  ++sp(ud).calls.jacobian;
  for (int j = 0; j < 3; ++j) SM_ELEMENT_D(G, 0, j) = 2 * NV_Ith_S(q, j);
  return 0;
}
inline int sp_h_qq(sunrealtype, N_Vector, N_Vector, SUNMatrix H, void* ud) {
  ++sp(ud).calls.h_qq;
  Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(H), 3, 3).setZero();
  return 0;
}
inline int sp_h_qp(sunrealtype, N_Vector, N_Vector, SUNMatrix H, void* ud) {
  ++sp(ud).calls.h_qp;
  Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(H), 3, 3).setZero();
  return 0;
}
inline int sp_h_pp(sunrealtype, N_Vector, N_Vector, SUNMatrix H, void* ud) {
  ++sp(ud).calls.h_pp;
  Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(H), 3, 3) = Eigen::MatrixXd::Identity(3, 3) / sp(ud).mass;
  return 0;
}
inline int sp_constraint_hessian(sunrealtype, N_Vector, N_Vector lambda, SUNMatrix H, void* ud) {
  ++sp(ud).calls.constraint_hessian;
  Eigen::Map<Eigen::MatrixXd>(SM_DATA_D(H), 3, 3) = 2 * NV_Ith_S(lambda, 0) * Eigen::MatrixXd::Identity(3, 3);
  return 0;
}

/// A spherical pendulum memory block at sp_data::initial_state(): separable (GeomintSetMass) or
/// general H with every Hessian callback.
inline void* make_sp(sun& s, sp_data& d, int method, double h, bool separable, SUNMatrix& g_template) {
  void* mem = GeomintCreate(s.ctx(), method);
  const auto x0 = d.initial_state();
  GeomintCallbacks cb{sp_dh_dq, separable ? nullptr : sp_dh_dp, sp_energy};
  g_template = SUNDenseMatrix(1, 3, s.ctx());
  if (GeomintInit(mem, &cb, 0.0, s.vector(x0.first), s.vector(x0.second)) || GeomintSetUserData(mem, &d) ||
      (separable && GeomintSetMass(mem, s.vector(VectorXd::Constant(3, d.mass)))) ||
      GeomintSetConstraints(mem, sp_constraint, sp_jacobian, g_template) || GeomintSetFixedStep(mem, h))
    throw std::runtime_error("make_sp failed");
  if (!separable && (GeomintSetHessianFns(mem, sp_h_qq, sp_h_qp, sp_h_pp) ||
                     GeomintSetConstraintHessianFn(mem, sp_constraint_hessian)))
    throw std::runtime_error("make_sp failed");
  return mem;
}

/// The spherical pendulum (separable H) in a memory block of `method` at step h, with state
/// vectors q, p holding the initial state; everything freed with it.
struct sp_run {
  sun s;
  sp_data d;
  SUNMatrix g = nullptr;
  void* mem = nullptr;
  N_Vector q = nullptr, p = nullptr;
  sp_run(int method, double h) : mem(make_sp(s, d, method, h, true, g)) {
    const auto x0 = d.initial_state();
    q = s.vector(x0.first);
    p = s.vector(x0.second);
  }
  ~sp_run() {
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  sp_run(const sp_run&) = delete;
  sp_run& operator=(const sp_run&) = delete;
};

}  // namespace sundials_test
