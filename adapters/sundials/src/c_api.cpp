// The C API's constrained lifecycle (geomint_sundials.h): memory block, settings, initial
// conditions and time stepping. Outputs: c_api_outputs.cpp; IDA reference: c_api_ida.cpp.
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "c_memory.hpp"
#include "geomint/catalogue.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_c_model(const c_problem& problem) {
  if (problem.force) return make_forced_model(problem);
  if (!problem.separable()) return make_general_model(problem);
  return problem.sparse() ? make_separable_sparse_model(problem) : make_separable_dense_model(problem);
}

const method_info* find_method(int id) {
  // Each C id names a catalogue row (geomint/catalogue.hpp): name, stages and family from there.
  static const std::vector<method_info> methods = [] {
    const std::pair<int, const char*> ids[] = {
        {GEOMINT_CONSTRAINED_RATTLE_2_2, "constrained_rattle_2_2"},
        {GEOMINT_CONSTRAINED_LOBATTO_2_2, "constrained_lobatto_2_2"},
        {GEOMINT_CONSTRAINED_LOBATTO_4_3, "constrained_lobatto_4_3"},
        {GEOMINT_CONSTRAINED_LOBATTO_6_4, "constrained_lobatto_6_4"},
        {GEOMINT_CONSTRAINED_LOBATTO_8_5, "constrained_lobatto_8_5"},
        {GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2, "constrained_symplectic_euler_1_2"},
        {GEOMINT_CONSTRAINED_REICH_SYMMETRIC_2_2, "constrained_reich_symmetric_2_2"},
        {GEOMINT_VARIATIONAL_MIDPOINT_2_1, "variational_midpoint_2_1"},
        {GEOMINT_VARIATIONAL_SHAKE_2_1, "variational_shake_2_1"},
        {GEOMINT_LIE_RKMK_RK4_EXP_4_4, "lie_rkmk_rk4_exp_4_4"},
        {GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4, "lie_rkmk_rk4_cayley_4_4"},
        {GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, "lie_rkmk_midpoint_exp_2_1"},
        {GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1, "lie_rkmk_midpoint_cayley_2_1"},
        {GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_EXP_2_1, "lie_discrete_gradient_gonzalez_exp_2_1"},
        {GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_CAYLEY_2_1, "lie_discrete_gradient_gonzalez_cayley_2_1"},
    };
    std::vector<method_info> out;
    for (const auto& [id, name] : ids) {
      const method_entry* e = find_method_entry(name);
      if (!e) throw std::logic_error(std::string("geomint: the C method ") + name + " is not in the catalogue");
      out.push_back({id, e->id.data(), e->properties.order(), e->stages, e->family == "lie"});
    }
    return out;
  }();
  for (const method_info& m : methods)
    if (m.id == id) return &m;
  return nullptr;
}

bool constrained_method(int id) {
  const method_info* info = find_method(id);
  return info && !info->lie;
}

std::string refused_method(int id) {
  return find_method(id) ? "geomint: method " + std::to_string(id) + " is a Lie-Poisson method (GeomintLieCreate)"
                         : "geomint: unknown method id " + std::to_string(id);
}

constrained_statistics memory::totals() const {
  constrained_statistics s = retired;
  if (stepper) {
    const constrained_statistics c = stepper->statistics();
    s.steps += c.steps;
    s.general_solver_steps += c.general_solver_steps;
    s.newton.solves += c.newton.solves;
    s.newton.iterations += c.newton.iterations;
    s.newton.jacobian_updates += c.newton.jacobian_updates;
    s.newton.full_newton_fallbacks += c.newton.full_newton_fallbacks;
  }
  return s;
}

void memory::retire_stepper() {
  retired = totals();
  stepper.reset();
  interpolant.reset();  // it depends on the method's order and the model's system
  forget_steps();
}

c_model& memory::ensure_model() {
  if (!model) {
    if (!problem.separable() && !problem.callbacks.dh_dp)
      throw std::invalid_argument("geomint: callbacks.dh_dp is required unless H is separable (GeomintSetMass)");
    model = make_c_model(problem);
  }
  return *model;
}

c_stepper& memory::ensure_stepper() {
  if (!stepper) stepper = ensure_model().make_stepper(method);
  return *stepper;
}

long memory::stage_system_size() {
  c_stepper& s = ensure_stepper();
  if (!s.uses_linear_solver())
    throw std::invalid_argument(std::string("geomint: ") + find_method(method)->name +
                                " solves its own small systems and takes no SUNLinearSolver");
  return geomint::stage_system_size(s.stages(), problem.n, problem.m, problem.fast_path());
}

namespace {

int ill_input(memory& m, const std::string& why) { return m.ill_input(why); }

/// Takes (t0, q0, p0) as the state and the IDA reference's start.
void set_state(memory& m, double t0, N_Vector q0, N_Vector p0) {
  data(m.q) = data(q0);
  data(m.p) = data(p0);
  m.q0 = data(q0);
  m.p0 = data(p0);
  m.t = m.t0 = t0;
  m.clock.restart(t0);
  m.forget_steps();
}

/// The reason for refusing an initial state, or "" if it is acceptable.
std::string state_problem(double t0, N_Vector q0, N_Vector p0, long n) {
  if (!serial(q0, n) || N_VGetLength(q0) < 1 || !serial(p0, N_VGetLength(q0)))
    return n < 0 ? "q0 and p0 must be serial N_Vectors of the same length n > 0"
                 : "q0 and p0 must be serial N_Vectors of length n = " + std::to_string(n);
  if (!std::isfinite(t0)) return "t0 must be finite";
  if (!data(q0).allFinite() || !data(p0).allFinite()) return "q0 and p0 must be finite";
  return "";
}

/// Counts a step that threw (the state is untouched) and, if Newton did not converge, that too.
void count_failure(memory& m, const std::exception_ptr& e) {
  ++m.failed_steps;
  if (newton_failure(e)) ++m.newton_failures;
}

}  // namespace
}  // namespace geomint::sundials::detail

using namespace geomint::sundials::detail;

extern "C" {

void* GeomintCreate(SUNContext sunctx, int method) {
  if (!sunctx) return nullptr;
  auto* m = new (std::nothrow) memory;
  if (!m) return nullptr;
  m->ctx = sunctx;
  m->method = method;
  m->function = __func__;
  if (!constrained_method(method)) m->fail(GEOMINT_BAD_METHOD, refused_method(method));
  return static_cast<memory_kind*>(m);
}

void GeomintFree(void** mem) {
  if (!mem || !*mem || static_cast<memory_kind*>(*mem)->kind != memory_kind::constrained) return;
  delete static_cast<memory*>(static_cast<memory_kind*>(*mem));
  *mem = nullptr;
}

int GeomintInit(void* mem, const GeomintCallbacks* callbacks, sunrealtype t0, N_Vector q0, N_Vector p0) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!constrained_method(m.method)) return m.fail(GEOMINT_BAD_METHOD, refused_method(m.method));
    if (!callbacks || !callbacks->dh_dq) return ill_input(m, "callbacks with at least dh_dq are required");
    if (const std::string why = state_problem(t0, q0, p0, -1); !why.empty()) return ill_input(m, why);
    m.retire_model();
    m.retired = {};
    m.failed_steps = m.newton_failures = 0;
    m.linear_solver.reset_counts();
    m.h_last = 0;
    void* user_data = m.problem.user_data;
    m.problem = c_problem{};
    m.problem.ctx = m.ctx;
    m.problem.user_data = user_data;
    m.problem.n = static_cast<int>(N_VGetLength(q0));
    m.problem.callbacks = *callbacks;
    m.q.reset(N_VClone(q0));
    m.p.reset(N_VClone(p0));
    if (!m.q || !m.p) return m.fail(GEOMINT_MEM_FAIL, "geomint: out of memory");
    set_state(m, t0, q0, p0);
    m.initialized = true;
    return m.succeed();
  }, false);
}

int GeomintReInit(void* mem, sunrealtype t0, N_Vector q0, N_Vector p0) {
  return guarded(mem, __func__, [&](memory& m) {
    if (const std::string why = state_problem(t0, q0, p0, m.problem.n); !why.empty()) return ill_input(m, why);
    set_state(m, t0, q0, p0);
    if (m.stepper) m.stepper->reset();
    return m.succeed();  // a state off the manifold is reported by GeomintEvolve (or projected by GeomintCalcIC)
  });
}

int GeomintCalcIC(void* mem, int which) {
  return guarded(mem, __func__, [&](memory& m) {
    if (which != GEOMINT_CALCIC_Q_P && which != GEOMINT_CALCIC_P)
      return ill_input(m, "which must be GEOMINT_CALCIC_Q_P or GEOMINT_CALCIC_P");
    if (m.problem.m == 0) return m.succeed();  // unconstrained: every state is consistent
    c_model& model = m.ensure_model();
    double* q = N_VGetArrayPointer(m.q.get());
    double* p = N_VGetArrayPointer(m.p.get());
    if (which == GEOMINT_CALCIC_P) {
      const double position = model.residuals(m.t, q, p).position;
      if (!(position <= m.options.consistency_tolerance)) {
        char why[200];
        std::snprintf(why, sizeof why,
                      "geomint: q is off g(q) = 0 (scaled residual %.3e, tolerance %.1e): GEOMINT_CALCIC_P "
                      "keeps q; project it with GEOMINT_CALCIC_Q_P",
                      position, m.options.consistency_tolerance);
        return m.fail(GEOMINT_INCONSISTENT_STATE, why);
      }
    }
    try {
      model.project(m.t, q, p, which == GEOMINT_CALCIC_P, m.options.newton.max_iterations);
    } catch (const geomint::step_error& e) {
      // project_to_manifold's message, rephrased for C: what failed and why.
      const std::string what = e.what();
      const std::size_t at = what.find("project_to_manifold: ");
      const std::string detail = at == std::string::npos ? what : what.substr(at + 21);
      return m.fail(flag_of(e.reason()), std::string("geomint: GeomintCalcIC could not project the state (") +
                                             geomint::to_string(e.reason()) + "): " + detail);
    }
    m.q0 = data(m.q);
    m.p0 = data(m.p);
    m.t0 = m.t;
    m.forget_steps();
    if (m.stepper) m.stepper->reset();
    return m.succeed();
  });
}

int GeomintSetMethod(void* mem, int method) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!constrained_method(method)) return m.fail(GEOMINT_BAD_METHOD, refused_method(method));
    if (method != m.method) {
      m.retire_stepper();
      m.method = method;
    }
    return m.succeed();
  }, false);
}

int GeomintSetUserData(void* mem, void* user_data) {
  return guarded(mem, __func__, [&](memory& m) {
    // Other data may be another problem (another gravity, mass, length): the stepper's caches
    // (∇V and G at the last end point, SHAKE's previous force) were computed with the old one.
    if (m.stepper && user_data != m.problem.user_data) m.stepper->reset();
    m.problem.user_data = user_data;
    return m.succeed();
  }, false);
}

int GeomintSetErrHandlerFn(void* mem, GeomintErrHandlerFn ehfun, void* eh_data) {
  return guarded(mem, __func__, [&](memory& m) {
    m.handler = ehfun;
    m.handler_data = eh_data;
    return m.succeed();
  }, false);
}

int GeomintSetMass(void* mem, N_Vector mass) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!serial(mass, m.problem.n)) return ill_input(m, "mass must be a serial N_Vector of length n");
    const Eigen::Map<Eigen::VectorXd> masses = data(mass);
    if (!(masses.array() > 0).all() || !masses.allFinite()) return ill_input(m, "masses must be positive and finite");
    m.retire_model();
    m.problem.mass = masses;
    return m.succeed();  // a state off the manifold is reported by GeomintEvolve (or projected by GeomintCalcIC)
  });
}

int GeomintSetConstraints(void* mem, GeomintConstraintFn g, GeomintConstraintJacFn jac, SUNMatrix G) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!g && !jac && !G) {  // remove the constraints
      m.retire_model();
      m.problem.m = 0;
      m.problem.constraint = nullptr;
      m.problem.constraint_jacobian = nullptr;
      m.problem.jacobian_matrix.reset();
      return m.succeed();
    }
    if (!g || !jac || !G) return ill_input(m, "the constraint, its Jacobian callback and the matrix G are all required");
    sunindextype rows = 0, cols = 0;
    if (SUNMatGetID(G) == SUNMATRIX_DENSE) {
      rows = SM_ROWS_D(G);
      cols = SM_COLUMNS_D(G);
    } else if (SUNMatGetID(G) == SUNMATRIX_SPARSE && SM_SPARSETYPE_S(G) == CSR_MAT) {
      rows = SM_ROWS_S(G);
      cols = SM_COLUMNS_S(G);
    } else {
      return ill_input(m, "G must be a dense or a CSR sparse SUNMatrix");
    }
    if (rows < 1 || cols != m.problem.n) return ill_input(m, "G must be m x n with m >= 1 and n = " + std::to_string(m.problem.n));
    matrix_handle copy(SUNMatClone(G));
    if (!copy || SUNMatCopy(G, copy.get()) != 0) return m.fail(GEOMINT_MEM_FAIL, "geomint: cannot copy G");
    m.retire_model();
    m.problem.m = static_cast<int>(rows);
    m.problem.constraint = g;
    m.problem.constraint_jacobian = jac;
    m.problem.jacobian_matrix = std::move(copy);
    return m.succeed();  // a state off the manifold is reported by GeomintEvolve (or projected by GeomintCalcIC)
  });
}

int GeomintSetForce(void* mem, GeomintForceFn force, int dependence) {
  return guarded(mem, __func__, [&](memory& m) {
    if (force && dependence != GEOMINT_FORCE_POSITION && dependence != GEOMINT_FORCE_GENERAL)
      return ill_input(m, "dependence must be GEOMINT_FORCE_POSITION or GEOMINT_FORCE_GENERAL");
    if (force && dependence == GEOMINT_FORCE_GENERAL && m.problem.sparse())
      return ill_input(m, "a velocity-dependent force (GEOMINT_FORCE_GENERAL) needs a dense G; a sparse G takes "
                          "a position force (GEOMINT_FORCE_POSITION)");
    m.retire_model();
    m.problem.force = force;
    m.problem.force_dependence = force ? dependence : 0;
    return m.succeed();
  });
}

int GeomintSetHessianFns(void* mem, GeomintHessianFn h_qq, GeomintHessianFn h_qp, GeomintHessianFn h_pp) {
  return guarded(mem, __func__, [&](memory& m) {
    m.retire_model();
    m.problem.h_qq = h_qq;
    m.problem.h_qp = h_qp;
    m.problem.h_pp = h_pp;
    return m.succeed();
  });
}

int GeomintSetConstraintHessianFn(void* mem, GeomintConstraintHessianFn fn) {
  return guarded(mem, __func__, [&](memory& m) {
    m.retire_model();
    m.problem.constraint_hessian = fn;
    return m.succeed();
  });
}

int GeomintSetFixedStep(void* mem, sunrealtype h) {
  return guarded(mem, __func__, [&](memory& m) {
    if (h == 0 || !std::isfinite(h)) return ill_input(m, "the fixed step must be nonzero and finite");
    if (h != m.h) m.clock.restart(m.t);  // a new grid from the current time
    m.h = h;
    return m.succeed();
  }, false);
}

int GeomintSetMaxNumSteps(void* mem, long int mxsteps) {
  return guarded(mem, __func__, [&](memory& m) {
    set_max_steps(m.clock, mxsteps);
    return m.succeed();
  }, false);
}

int GeomintSetStopTime(void* mem, sunrealtype tstop) {
  return guarded(mem, __func__, [&](memory& m) {
    if (const char* why = set_stop_time(m, tstop)) return ill_input(m, why);
    return m.succeed();
  }, false);
}

int GeomintClearStopTime(void* mem) {
  return guarded(mem, __func__, [&](memory& m) {
    m.clock.tstop_set = false;
    return m.succeed();
  }, false);
}

int GeomintSetStageTolerance(void* mem, sunrealtype tol) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!(tol > 0 && std::isfinite(tol))) return ill_input(m, "the stage tolerance must be positive and finite");
    m.options.newton.tolerance = tol;
    return m.succeed();
  }, false);
}

int GeomintSetMaxStageIters(void* mem, int maxiters) {
  return guarded(mem, __func__, [&](memory& m) {
    if (maxiters < 1) return ill_input(m, "the iteration limit must be at least 1");
    m.options.newton.max_iterations = maxiters;
    return m.succeed();
  }, false);
}

int GeomintSetConsistencyTolerance(void* mem, sunrealtype tol) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!(tol > 0 && std::isfinite(tol))) return ill_input(m, "the consistency tolerance must be positive and finite");
    m.options.consistency_tolerance = tol;
    return m.succeed();
  }, false);
}

int GeomintSetLinearSolver(void* mem, SUNLinearSolver LS, SUNMatrix A) {
  return guarded(mem, __func__, [&](memory& m) {
    std::unique_ptr<geomint::sundials::sunlinsol_factorization> f;
    if (LS) {
      f = std::make_unique<geomint::sundials::sunlinsol_factorization>(LS, A, m.ctx);
      const long order = m.stage_system_size();  // refuses methods that take no solver
      if (f->size() != order)
        return ill_input(m, "the linear solver's matrix has order " + std::to_string(f->size()) +
                                ", the stage Newton systems of " + find_method(m.method)->name + " have order " +
                                std::to_string(order) + " (GeomintGetLinearSystemSize)");
    }
    m.retire_stepper();  // its cached factorization belongs to the previous solver
    m.factorization = std::move(f);
    return m.succeed();
  });
}

int GeomintEvolve(void* mem, sunrealtype tout, N_Vector q, N_Vector p, sunrealtype* tret, int itask) {
  return guarded(mem, __func__, [&](memory& m) {
    const long n = m.problem.n;
    if (!serial(q, n) || !serial(p, n)) return ill_input(m, "q and p must be serial N_Vectors of length n = " + std::to_string(n));
    if (!tret) return ill_input(m, "tret must not be NULL");
    if (itask != GEOMINT_NORMAL && itask != GEOMINT_ONE_STEP) return ill_input(m, "itask must be GEOMINT_NORMAL or GEOMINT_ONE_STEP");
    if (!std::isfinite(tout)) return ill_input(m, "tout must be finite");
    if (m.h == 0) return ill_input(m, "set the step size with GeomintSetFixedStep");
    if (tout_too_far_back(m, tout)) {
      char why[200];
      std::snprintf(why, sizeof why,
                    "tout = %.17g is behind the last step (t = %.17g) in the direction of integration (h = %g)",
                    tout, m.t, m.h);
      return ill_input(m, why);
    }
    c_stepper& stepper = m.ensure_stepper();
    if (m.factorization && !stepper.uses_linear_solver())
      return ill_input(m, std::string("GeomintSetLinearSolver applies to the constrained PRK methods (RATTLE, Lobatto, "
                                      "symplectic Euler), not to ") + find_method(m.method)->name);
    if (m.factorization && m.factorization->size() != m.stage_system_size())
      return ill_input(m, "the linear solver's matrix has order " + std::to_string(m.factorization->size()) +
                              ", the stage Newton systems have order " + std::to_string(m.stage_system_size()) +
                              " (GeomintGetLinearSystemSize)");
    geomint::constrained_options options = m.options;
    m.linear_solver.configure(m.problem.fast_path(), m.factorization.get());
    options.linear_solver = stepper.uses_linear_solver() ? &m.linear_solver : nullptr;
    stepper.configure(options);

    // The step's start and the previous step's are swapped after each step: both pairs are
    // sized here (on the first call), so that no step allocates.
    for (Eigen::VectorXd* v : {&m.q_prev, &m.p_prev, &m.q_start, &m.p_start}) v->resize(n);
    double* qd = N_VGetArrayPointer(m.q.get());
    double* pd = N_VGetArrayPointer(m.p.get());
    struct {
      memory& m;
      c_stepper& stepper;
      N_Vector q, p;
      sunrealtype* tret;
      double *qd, *pd;
      void step(double t, double dt) {
        m.q_start = data(m.q);  // the step's start, for the continuous extension
        m.p_start = data(m.p);
        stepper.step(t, dt, qd, pd);
      }
      void failed(const std::exception_ptr& e) { count_failure(m, e); }
      void committed() {
        m.q_prev.swap(m.q_start);
        m.p_prev.swap(m.p_start);
      }
      void report_grid() { report_grid(m.t); }
      void report_grid(double t) {
        data(q) = data(m.q);
        data(p) = data(m.p);
        *tret = t;
      }
      void report_at(double t) {
        m.extension().evaluate(t, 0, N_VGetArrayPointer(q), N_VGetArrayPointer(p));
        *tret = t;
      }
      void start_roots() { geomint::sundials::detail::start_roots(m); }
      int locate(double t_end) { return locate_roots(m, q, p, tret, t_end); }
    } ops{m, stepper, q, p, tret, qd, pd};
    return evolve_on_grid(m, tout, itask, ops);
  });
}

}  // extern "C"
