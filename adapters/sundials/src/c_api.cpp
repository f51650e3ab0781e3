// The C API (geomint_sundials.h): memory block, validation, exception-to-flag mapping.
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <new>
#include <string>

#include "c_flags.hpp"
#include "c_model.hpp"
#include "geomint/sundials/geomint_sundials.h"
#include "geomint/sundials/sunlinsol_factorization.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_c_model(const c_problem& problem) {
  if (!problem.separable()) return make_general_model(problem);
  return problem.sparse() ? make_separable_sparse_model(problem) : make_separable_dense_model(problem);
}

const method_info* find_method(int id) {
  static const method_info methods[] = {
      {GEOMINT_CONSTRAINED_RATTLE_2_2, "constrained_rattle_2_2", 2},
      {GEOMINT_CONSTRAINED_LOBATTO_2_2, "constrained_lobatto_2_2", 2},
      {GEOMINT_CONSTRAINED_LOBATTO_4_3, "constrained_lobatto_4_3", 3},
      {GEOMINT_CONSTRAINED_LOBATTO_6_4, "constrained_lobatto_6_4", 4},
      {GEOMINT_CONSTRAINED_LOBATTO_8_5, "constrained_lobatto_8_5", 5},
      {GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2, "constrained_symplectic_euler_1_2", 2},
      {GEOMINT_REICH_SYMMETRIC_2, "constrained_reich_symmetric_2", 0},
      {GEOMINT_VARIATIONAL_MIDPOINT_2, "variational_midpoint_2", 0},
      {GEOMINT_SHAKE_2, "variational_shake_2", 0},
      {GEOMINT_LIE_RKMK_RK4_EXP_4_4, "lie_rkmk_rk4_exp_4_4", 4, true},
      {GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4, "lie_rkmk_rk4_cayley_4_4", 4, true},
      {GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, "lie_rkmk_midpoint_exp_2_1", 1, true},
      {GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1, "lie_rkmk_midpoint_cayley_2_1", 1, true},
      {GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2, "lie_discrete_gradient_exp_2", 0, true},
      {GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2, "lie_discrete_gradient_cayley_2", 0, true},
  };
  for (const method_info& m : methods)
    if (m.id == id) return &m;
  return nullptr;
}

namespace {

struct memory : memory_kind {
  memory() : memory_kind(memory_kind::constrained) {}
  SUNContext ctx = nullptr;
  int method = 0;
  bool initialized = false;
  c_problem problem;
  double t = 0, t0 = 0, h = 0;
  vector_handle q, p;      // the state
  Eigen::VectorXd q0, p0;  // where GeomintInit / GeomintReInit started (the IDA reference's start)
  constrained_options options;
  std::unique_ptr<sunlinsol_factorization> factorization;
  std::unique_ptr<c_model> model;
  std::unique_ptr<c_stepper> stepper;
  constrained_statistics retired;  // counters of steppers replaced so far
  void retire_stepper() {
    if (!stepper) return;
    const constrained_statistics s = stepper->statistics();
    retired.steps += s.steps;
    retired.general_solver_steps += s.general_solver_steps;
    retired.newton.solves += s.newton.solves;
    retired.newton.iterations += s.newton.iterations;
    retired.newton.jacobian_updates += s.newton.jacobian_updates;
    retired.newton.full_newton_fallbacks += s.newton.full_newton_fallbacks;
    stepper.reset();
  }
  void retire_model() {
    retire_stepper();
    model.reset();
  }
  c_model& ensure_model() {
    if (!model) {
      if (!problem.separable() && !problem.callbacks.dh_dp)
        throw std::invalid_argument("geomint: callbacks.dh_dp is required unless H is separable (GeomintSetMass)");
      model = make_c_model(problem);
    }
    return *model;
  }
  c_stepper& ensure_stepper() {
    if (!stepper) stepper = ensure_model().make_stepper(method);
    return *stepper;
  }
  long stage_system_size() {
    c_stepper& s = ensure_stepper();
    if (!s.uses_linear_solver())
      throw std::invalid_argument(std::string("geomint: ") + find_method(method)->name +
                                  " solves its own small systems and takes no SUNLinearSolver");
    return geomint::stage_system_size(s.stages(), problem.n, problem.m, problem.separable());
  }
};

bool serial(N_Vector v, int n) {
  return v && N_VGetVectorID(v) == SUNDIALS_NVEC_SERIAL && (n < 0 || N_VGetLength(v) == n);
}
Eigen::Map<Eigen::VectorXd> data(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }
Eigen::Map<Eigen::VectorXd> data(const vector_handle& v) { return data(v.get()); }

/// Runs f(memory&) → flag; maps every exception to its flag and message. Nothing escapes to C.
template <class F>
int guarded(void* mem, F&& f, bool needs_init = true) {
  return guarded_call<memory>(mem, memory_kind::constrained, needs_init, "GeomintInit", std::forward<F>(f));
}

bool constrained_method(int id) {
  const method_info* info = find_method(id);
  return info && !info->lie;
}

int ill_input(memory& m, const std::string& why) { return m.ill_input(why); }

bool positive(double x) { return x > 0 && std::isfinite(x); }

/// Takes (t0, q0, p0) as the state and the IDA reference's start.
void set_state(memory& m, double t0, N_Vector q0, N_Vector p0) {
  data(m.q) = data(q0);
  data(m.p) = data(p0);
  m.q0 = data(q0);
  m.p0 = data(p0);
  m.t = m.t0 = t0;
}

}  // namespace
}  // namespace geomint::sundials::detail

using geomint::sundials::detail::memory;
using namespace geomint::sundials::detail;

extern "C" {

void* GeomintCreate(SUNContext sunctx, int method) {
  if (!sunctx || !constrained_method(method)) return nullptr;
  auto* m = new (std::nothrow) memory;
  if (!m) return nullptr;
  m->ctx = sunctx;
  m->method = method;
  return static_cast<memory_kind*>(m);
}

void GeomintFree(void** mem) {
  if (!mem || !*mem || static_cast<memory_kind*>(*mem)->kind != memory_kind::constrained) return;
  delete static_cast<memory*>(static_cast<memory_kind*>(*mem));
  *mem = nullptr;
}

int GeomintInit(void* mem, const GeomintCallbacks* callbacks, sunrealtype t0, N_Vector q0, N_Vector p0) {
  return guarded(mem, [&](memory& m) {
    if (!callbacks || !callbacks->dh_dq) return ill_input(m, "callbacks with at least dh_dq are required");
    if (!serial(q0, -1) || N_VGetLength(q0) < 1 || !serial(p0, static_cast<int>(N_VGetLength(q0))))
      return ill_input(m, "q0 and p0 must be serial N_Vectors of the same length n > 0");
    if (!std::isfinite(t0)) return ill_input(m, "t0 must be finite");
    m.retire_model();
    m.retired = {};
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
  return guarded(mem, [&](memory& m) {
    if (!serial(q0, m.problem.n) || !serial(p0, m.problem.n))
      return ill_input(m, "q0 and p0 must be serial N_Vectors of length n = " + std::to_string(m.problem.n));
    if (!std::isfinite(t0)) return ill_input(m, "t0 must be finite");
    set_state(m, t0, q0, p0);
    if (m.stepper) m.stepper->reset();
    return m.succeed();
  });
}

int GeomintSetMethod(void* mem, int method) {
  return guarded(mem, [&](memory& m) {
    if (!constrained_method(method))
      return m.fail(GEOMINT_BAD_METHOD, find_method(method) ? "geomint: method " + std::to_string(method) +
                                                                  " is a Lie-Poisson method (GeomintLieCreate)"
                                                            : "geomint: unknown method id " + std::to_string(method));
    if (method != m.method) {
      m.retire_stepper();
      m.method = method;
    }
    return m.succeed();
  }, false);
}

int GeomintSetUserData(void* mem, void* user_data) {
  return guarded(mem, [&](memory& m) {
    m.problem.user_data = user_data;
    return m.succeed();
  }, false);
}

int GeomintSetMass(void* mem, N_Vector mass) {
  return guarded(mem, [&](memory& m) {
    if (!serial(mass, m.problem.n)) return ill_input(m, "mass must be a serial N_Vector of length n");
    const Eigen::Map<Eigen::VectorXd> masses = data(mass);
    if (!(masses.array() > 0).all() || !masses.allFinite()) return ill_input(m, "masses must be positive and finite");
    m.retire_model();
    m.problem.mass = masses;
    return m.succeed();
  });
}

int GeomintSetConstraints(void* mem, GeomintConstraintFn g, GeomintConstraintJacFn jac, SUNMatrix G) {
  return guarded(mem, [&](memory& m) {
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
    return m.succeed();
  });
}

int GeomintSetHessianFns(void* mem, GeomintHessianFn h_qq, GeomintHessianFn h_qp, GeomintHessianFn h_pp) {
  return guarded(mem, [&](memory& m) {
    m.retire_model();
    m.problem.h_qq = h_qq;
    m.problem.h_qp = h_qp;
    m.problem.h_pp = h_pp;
    return m.succeed();
  });
}

int GeomintSetConstraintHessianFn(void* mem, GeomintConstraintHessianFn fn) {
  return guarded(mem, [&](memory& m) {
    m.retire_model();
    m.problem.constraint_hessian = fn;
    return m.succeed();
  });
}

int GeomintSetFixedStep(void* mem, sunrealtype h) {
  return guarded(mem, [&](memory& m) {
    if (!positive(h)) return ill_input(m, "the fixed step must be positive and finite");
    m.h = h;
    return m.succeed();
  }, false);
}

int GeomintSetStageTolerance(void* mem, sunrealtype tol) {
  return guarded(mem, [&](memory& m) {
    if (!positive(tol)) return ill_input(m, "the stage tolerance must be positive and finite");
    m.options.newton.tolerance = tol;
    return m.succeed();
  }, false);
}

int GeomintSetMaxStageIters(void* mem, int maxiters) {
  return guarded(mem, [&](memory& m) {
    if (maxiters < 1) return ill_input(m, "the iteration limit must be at least 1");
    m.options.newton.max_iterations = maxiters;
    return m.succeed();
  }, false);
}

int GeomintSetConsistencyTolerance(void* mem, sunrealtype tol) {
  return guarded(mem, [&](memory& m) {
    if (!positive(tol)) return ill_input(m, "the consistency tolerance must be positive and finite");
    m.options.consistency_tolerance = tol;
    return m.succeed();
  }, false);
}

int GeomintSetLinearSolver(void* mem, SUNLinearSolver LS, SUNMatrix A) {
  return guarded(mem, [&](memory& m) {
    std::unique_ptr<geomint::sundials::sunlinsol_factorization> f;
    if (LS) f = std::make_unique<geomint::sundials::sunlinsol_factorization>(LS, A, m.ctx);
    m.retire_stepper();  // its cached factorization belongs to the previous solver
    m.factorization = std::move(f);
    return m.succeed();
  }, false);
}

int GeomintEvolve(void* mem, sunrealtype tout, N_Vector q, N_Vector p, sunrealtype* tret) {
  return guarded(mem, [&](memory& m) {
    const int n = m.problem.n;
    if (!serial(q, n) || !serial(p, n)) return ill_input(m, "q and p must be serial N_Vectors of length n = " + std::to_string(n));
    if (!tret) return ill_input(m, "tret must not be NULL");
    if (!std::isfinite(tout)) return ill_input(m, "tout must be finite");
    if (!(m.h > 0)) return ill_input(m, "set the step size with GeomintSetFixedStep");
    c_stepper& stepper = m.ensure_stepper();
    if (m.factorization && !stepper.uses_linear_solver())
      return ill_input(m, std::string("GeomintSetLinearSolver applies to the constrained PRK methods (RATTLE, Lobatto, "
                                      "symplectic Euler), not to ") + find_method(m.method)->name);
    if (m.factorization && m.factorization->size() != m.stage_system_size())
      return ill_input(m, "the linear solver's matrix has order " + std::to_string(m.factorization->size()) +
                              ", the stage Newton systems have order " + std::to_string(m.stage_system_size()) +
                              " (GeomintGetLinearSystemSize)");
    geomint::constrained_options options = m.options;
    options.linear_solver = m.factorization.get();
    stepper.configure(options);

    // Steps of h from t_start (times t_start + k h, so that round-off does not accumulate);
    // the last one ends exactly at tout, shortened unless it is h up to round-off.
    double* qd = N_VGetArrayPointer(m.q.get());
    double* pd = N_VGetArrayPointer(m.p.get());
    const double t_start = m.t, step = tout >= m.t ? m.h : -m.h;
    const double roundoff = 1e-10 * m.h;
    for (long k = 1; m.t != tout; ++k) {
      const double t_next = t_start + k * step;
      const bool last = std::fabs(t_next - t_start) >= std::fabs(tout - t_start) - roundoff;
      const double dt = last && std::fabs(t_next - tout) > roundoff ? tout - m.t : step;
      try {
        stepper.step(m.t, dt, qd, pd);
      } catch (...) {
        // The state is untouched: report it, then let guarded() map the exception.
        data(q) = data(m.q);
        data(p) = data(m.p);
        *tret = m.t;
        throw;
      }
      m.t = last ? tout : t_next;
    }
    data(q) = data(m.q);
    data(p) = data(m.p);
    *tret = m.t;
    return m.succeed();
  });
}

int GeomintGetNumSteps(void* mem, long int* nsteps) {
  return guarded(mem, [&](memory& m) {
    if (!nsteps) return ill_input(m, "nsteps must not be NULL");
    *nsteps = m.retired.steps + (m.stepper ? m.stepper->statistics().steps : 0);
    return m.succeed();
  }, false);
}

int GeomintGetNumNewtonIters(void* mem, long int* niters) {
  return guarded(mem, [&](memory& m) {
    if (!niters) return ill_input(m, "niters must not be NULL");
    *niters = m.retired.newton.iterations + (m.stepper ? m.stepper->statistics().newton.iterations : 0);
    return m.succeed();
  }, false);
}

int GeomintGetNumJacEvals(void* mem, long int* njevals) {
  return guarded(mem, [&](memory& m) {
    if (!njevals) return ill_input(m, "njevals must not be NULL");
    *njevals = m.retired.newton.jacobian_updates + (m.stepper ? m.stepper->statistics().newton.jacobian_updates : 0);
    return m.succeed();
  }, false);
}

int GeomintGetCurrentTime(void* mem, sunrealtype* t) {
  return guarded(mem, [&](memory& m) {
    if (!t) return ill_input(m, "t must not be NULL");
    *t = m.t;
    return m.succeed();
  });
}

int GeomintGetConstraintResidual(void* mem, sunrealtype* position, sunrealtype* velocity) {
  return guarded(mem, [&](memory& m) {
    if (!position || !velocity) return ill_input(m, "position and velocity must not be NULL");
    const geomint::constraint_residuals r =
        m.ensure_model().residuals(N_VGetArrayPointer(m.q.get()), N_VGetArrayPointer(m.p.get()));
    *position = r.position;
    *velocity = r.velocity;
    return m.succeed();
  });
}

int GeomintGetEnergy(void* mem, sunrealtype* energy) {
  return guarded(mem, [&](memory& m) {
    if (!energy) return ill_input(m, "energy must not be NULL");
    *energy = m.ensure_model().energy(N_VGetArrayPointer(m.q.get()), N_VGetArrayPointer(m.p.get()));
    return m.succeed();
  });
}

int GeomintGetLinearSystemSize(void* mem, sunindextype* size) {
  return guarded(mem, [&](memory& m) {
    if (!size) return ill_input(m, "size must not be NULL");
    *size = m.stage_system_size();
    return m.succeed();
  });
}

int GeomintGetLastFlag(void* mem, int* flag) { return last_flag(mem, memory_kind::constrained, flag); }

int GeomintGetLastErrorMessage(void* mem, const char** message) {
  return last_error_message(mem, memory_kind::constrained, message);
}


const char* GeomintGetMethodName(int method) {
  const method_info* info = find_method(method);
  return info ? info->name : nullptr;
}

const char* GeomintGetReturnFlagName(int flag) {
  switch (flag) {
    case GEOMINT_SUCCESS: return "GEOMINT_SUCCESS";
    case GEOMINT_NEWTON_FAIL: return "GEOMINT_NEWTON_FAIL";
    case GEOMINT_NONFINITE: return "GEOMINT_NONFINITE";
    case GEOMINT_CALLBACK_RECOVERABLE: return "GEOMINT_CALLBACK_RECOVERABLE";
    case GEOMINT_MEM_NULL: return "GEOMINT_MEM_NULL";
    case GEOMINT_ILL_INPUT: return "GEOMINT_ILL_INPUT";
    case GEOMINT_BAD_METHOD: return "GEOMINT_BAD_METHOD";
    case GEOMINT_NO_MALLOC: return "GEOMINT_NO_MALLOC";
    case GEOMINT_MEM_FAIL: return "GEOMINT_MEM_FAIL";
    case GEOMINT_INCONSISTENT_STATE: return "GEOMINT_INCONSISTENT_STATE";
    case GEOMINT_CALLBACK_FAIL: return "GEOMINT_CALLBACK_FAIL";
    case GEOMINT_SINGULAR_JACOBIAN: return "GEOMINT_SINGULAR_JACOBIAN";
    case GEOMINT_LSETUP_FAIL: return "GEOMINT_LSETUP_FAIL";
    case GEOMINT_LSOLVE_FAIL: return "GEOMINT_LSOLVE_FAIL";
    case GEOMINT_IDA_FAIL: return "GEOMINT_IDA_FAIL";
    case GEOMINT_UNRECOGNIZED_ERROR: return "GEOMINT_UNRECOGNIZED_ERROR";
    default: return "GEOMINT_UNKNOWN_FLAG";
  }
}

void GeomintIDADefaultOptions(GeomintIDAOptions* options) {
  if (!options) return;
  const geomint::sundials::ida_options defaults;
  options->formulation = GEOMINT_IDA_GGL;
  options->linear_solver = GEOMINT_IDA_DENSE;
  options->rtol = defaults.rtol;
  options->atol = defaults.atol;
  options->max_steps = defaults.max_steps;
}

int GeomintSolveIDA(void* mem, const GeomintIDAOptions* options, int ntimes, const sunrealtype* times,
                    N_Vector* q_out, N_Vector* p_out, GeomintIDAStats* stats) {
  return guarded(mem, [&](memory& m) {
    using namespace geomint::sundials;
    if (!options || !stats || !times || !q_out || !p_out || ntimes < 1)
      return ill_input(m, "options, stats, times and ntimes >= 1 output vectors are required");
    for (int i = 0; i < ntimes; ++i)
      if (!serial(q_out[i], m.problem.n) || !serial(p_out[i], m.problem.n))
        return ill_input(m, "the output vectors must be serial N_Vectors of length n");
    ida_options o;
    if (options->formulation == GEOMINT_IDA_GGL) o.formulation = dae_formulation::ggl;
    else if (options->formulation == GEOMINT_IDA_INDEX1) o.formulation = dae_formulation::index1;
    else return ill_input(m, "unknown IDA formulation");
    if (options->linear_solver == GEOMINT_IDA_DENSE) o.linear_solver = ida_linear_solver::dense;
    else if (options->linear_solver == GEOMINT_IDA_BAND) o.linear_solver = ida_linear_solver::band;
    else if (options->linear_solver == GEOMINT_IDA_KLU) o.linear_solver = ida_linear_solver::klu;
    else return ill_input(m, "unknown IDA linear solver");
    o.rtol = options->rtol;
    o.atol = options->atol;
    o.max_steps = options->max_steps;
    o.output_times.assign(times, times + ntimes);
    const ida_result r = m.ensure_model().solve_ida(m.t0, m.q0, m.p0, o);
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
      data(q_out[i]) = r.samples[i].q;
      data(p_out[i]) = r.samples[i].p;
    }
    *stats = GeomintIDAStats{};
    stats->steps = r.statistics.steps;
    stats->residual_evals = r.statistics.residual_evaluations;
    stats->jacobian_evals = r.statistics.jacobian_evaluations;
    stats->linear_setups = r.statistics.linear_setups;
    stats->nonlinear_iters = r.statistics.nonlinear_iterations;
    stats->error_test_fails = r.statistics.error_test_failures;
    stats->convergence_fails = r.statistics.convergence_failures;
    stats->cpu_seconds = r.cpu_seconds;
    stats->samples = static_cast<int>(r.samples.size());
    stats->ida_flag = r.flag;
    if (!r.ok()) return m.fail(GEOMINT_IDA_FAIL, r.flag_name + ": " + r.message);
    return m.succeed();
  });
}

}  // extern "C"
