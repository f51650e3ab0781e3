// The C API's constrained lifecycle: outputs (state, multipliers, diagnostics, statistics,
// errors, names), geomint_sundials.h.
#include <string>

#include "c_memory.hpp"
#include "c_stats_printer.hpp"

using namespace geomint::sundials::detail;

namespace {

int ill_input(memory& m, const std::string& why) { return m.ill_input(why); }

/// Stores each counter of `values` through its pointer; GEOMINT_ILL_INPUT if any pointer is NULL.
template <std::size_t N>
int get_counts(memory& m, long int* const (&out)[N], const long (&values)[N], const char* names) {
  for (long int* o : out)
    if (!o) return ill_input(m, std::string(names) + " must not be NULL");
  for (std::size_t i = 0; i < N; ++i) *out[i] = values[i];
  return m.succeed();
}

}  // namespace

extern "C" {

int GeomintGetCurrentTime(void* mem, sunrealtype* t) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!t) return ill_input(m, "t must not be NULL");
    *t = m.t;
    return m.succeed();
  });
}

int GeomintGetCurrentState(void* mem, N_Vector q, N_Vector p) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!serial(q, m.problem.n) || !serial(p, m.problem.n))
      return ill_input(m, "q and p must be serial N_Vectors of length n = " + std::to_string(m.problem.n));
    data(q) = data(m.q);
    data(p) = data(m.p);
    return m.succeed();
  });
}

int GeomintGetCurrentMultipliers(void* mem, N_Vector lambda, N_Vector mu) {
  return guarded(mem, __func__, [&](memory& m) {
    if (m.problem.m == 0) return ill_input(m, "the problem has no constraints (GeomintSetConstraints)");
    if (!serial(lambda, m.problem.m) || !serial(mu, m.problem.m))
      return ill_input(m, "lambda and mu must be serial N_Vectors of length m = " + std::to_string(m.problem.m));
    m.ensure_model().multipliers(m.t, N_VGetArrayPointer(m.q.get()), N_VGetArrayPointer(m.p.get()),
                                 N_VGetArrayPointer(lambda), N_VGetArrayPointer(mu));
    return m.succeed();
  });
}

int GeomintGetLastStep(void* mem, sunrealtype* hlast) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!hlast) return ill_input(m, "hlast must not be NULL");
    *hlast = m.h_last;
    return m.succeed();
  });
}

int GeomintGetConstraintResidual(void* mem, sunrealtype* position, sunrealtype* velocity) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!position || !velocity) return ill_input(m, "position and velocity must not be NULL");
    const geomint::constraint_residuals r =
        m.ensure_model().residuals(m.t, N_VGetArrayPointer(m.q.get()), N_VGetArrayPointer(m.p.get()));
    *position = r.position;
    *velocity = r.velocity;
    return m.succeed();
  });
}

int GeomintGetEnergy(void* mem, sunrealtype* energy) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!energy) return ill_input(m, "energy must not be NULL");
    *energy = m.ensure_model().energy(m.t, N_VGetArrayPointer(m.q.get()), N_VGetArrayPointer(m.p.get()));
    return m.succeed();
  });
}

int GeomintGetLinearSystemSize(void* mem, sunindextype* size) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!size) return ill_input(m, "size must not be NULL");
    *size = m.stage_system_size();
    return m.succeed();
  });
}

// ---- statistics (allowed before GeomintInit: all 0) ----

int GeomintGetNumSteps(void* mem, long int* nsteps) {
  return guarded(mem, __func__, [&](memory& m) { return get_counts(m, {nsteps}, {m.totals().steps}, "nsteps"); }, false);
}

int GeomintGetNumFailedSteps(void* mem, long int* nfails) {
  return guarded(mem, __func__, [&](memory& m) { return get_counts(m, {nfails}, {m.failed_steps}, "nfails"); }, false);
}

int GeomintGetNumNewtonIters(void* mem, long int* niters) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {niters}, {m.totals().newton.iterations}, "niters");
  }, false);
}

int GeomintGetNumNewtonConvFails(void* mem, long int* nfails) {
  return guarded(mem, __func__, [&](memory& m) { return get_counts(m, {nfails}, {m.newton_failures}, "nfails"); }, false);
}

int GeomintGetNumJacEvals(void* mem, long int* njevals) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {njevals}, {m.totals().newton.jacobian_updates}, "njevals");
  }, false);
}

int GeomintGetNumLinSolvSetups(void* mem, long int* nsetups) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {nsetups}, {m.linear_solver.setups()}, "nsetups");
  }, false);
}

int GeomintGetNumLinSolves(void* mem, long int* nsolves) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {nsolves}, {m.linear_solver.solves()}, "nsolves");
  }, false);
}

int GeomintGetNumGradientEvals(void* mem, long int* n_dh_dq, long int* n_dh_dp) {
  return guarded(mem, __func__, [&](memory& m) {
    const callback_counts& c = m.problem.counts;
    return get_counts(m, {n_dh_dq, n_dh_dp}, {c.dh_dq, c.dh_dp}, "n_dh_dq and n_dh_dp");
  }, false);
}

int GeomintGetNumEnergyEvals(void* mem, long int* nevals) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {nevals}, {m.problem.counts.hamiltonian}, "nevals");
  }, false);
}

int GeomintGetNumConstraintEvals(void* mem, long int* n_g, long int* n_jac) {
  return guarded(mem, __func__, [&](memory& m) {
    const callback_counts& c = m.problem.counts;
    return get_counts(m, {n_g, n_jac}, {c.constraint, c.constraint_jacobian}, "n_g and n_jac");
  }, false);
}

int GeomintGetNumHessianEvals(void* mem, long int* n_qq, long int* n_qp, long int* n_pp, long int* n_constraint) {
  return guarded(mem, __func__, [&](memory& m) {
    const callback_counts& c = m.problem.counts;
    return get_counts(m, {n_qq, n_qp, n_pp, n_constraint}, {c.h_qq, c.h_qp, c.h_pp, c.constraint_hessian},
                      "n_qq, n_qp, n_pp and n_constraint");
  }, false);
}

int GeomintGetNumForceEvals(void* mem, long int* nevals) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {nevals}, {m.problem.counts.force}, "nevals");
  }, false);
}

int GeomintGetNumGEvals(void* mem, long int* ngevals) {
  return guarded(mem, __func__, [&](memory& m) {
    return get_counts(m, {ngevals}, {m.clock.root_evaluations}, "ngevals");
  }, false);
}

int GeomintPrintAllStats(void* mem, FILE* outfile, int fmt) {
  return guarded(mem, __func__, [&](memory& m) {
    if (!outfile) return ill_input(m, "outfile must not be NULL");
    if (!valid_output_format(fmt)) return ill_input(m, "fmt must be SUN_OUTPUTFORMAT_TABLE or SUN_OUTPUTFORMAT_CSV");
    const geomint::constrained_statistics s = m.totals();
    const callback_counts& c = m.problem.counts;
    stats_printer out(outfile, fmt);
    out.entry("Current time", "Time", m.t);
    out.entry("Steps", s.steps);
    out.entry("Failed steps", m.failed_steps);
    out.entry("Fixed step size", m.h);
    out.entry("Last step size", m.h_last);
    out.entry("Newton iters", s.newton.iterations);
    out.entry("Newton conv fails", m.newton_failures);
    out.entry("Jac evals", s.newton.jacobian_updates);
    // The constrained PRK methods (RATTLE, Lobatto, symplectic Euler) factorize through a linear solver.
    if (m.method >= GEOMINT_CONSTRAINED_RATTLE_2_2 && m.method <= GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2) {
      out.entry("LS setups", m.linear_solver.setups());
      out.entry("LS solves", m.linear_solver.solves());
    }
    out.entry("dH/dq evals", c.dh_dq);
    out.entry("dH/dp evals", c.dh_dp);
    out.entry("H evals", c.hamiltonian);
    out.entry("g evals", c.constraint);
    out.entry("G evals", c.constraint_jacobian);
    out.entry("H_qq evals", c.h_qq);
    out.entry("H_qp evals", c.h_qp);
    out.entry("H_pp evals", c.h_pp);
    out.entry("Constraint Hessian evals", c.constraint_hessian);
    out.entry("Force evals", c.force);
    out.entry("Root fn evals", m.clock.root_evaluations);
    return m.succeed();
  }, false);
}

int GeomintGetLastFlag(void* mem, int* flag) { return last_flag(mem, memory_kind::constrained, flag); }

int GeomintGetLastErrorMessage(void* mem, const char** message) {
  return last_error_message(mem, memory_kind::constrained, message);
}

const char* GeomintGetMethodName(int method) {
  const method_info* info = find_method(method);
  return info ? info->name : nullptr;
}

int GeomintIsRecoverableFlag(int flag) {
  return flag == GEOMINT_NEWTON_FAIL || flag == GEOMINT_NONFINITE || flag == GEOMINT_CALLBACK_RECOVERABLE;
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
    case GEOMINT_BAD_T: return "GEOMINT_BAD_T";
    case GEOMINT_BAD_K: return "GEOMINT_BAD_K";
    case GEOMINT_ROOT_RETURN: return "GEOMINT_ROOT_RETURN";
    case GEOMINT_TSTOP_RETURN: return "GEOMINT_TSTOP_RETURN";
    case GEOMINT_TOO_MUCH_WORK: return "GEOMINT_TOO_MUCH_WORK";
    case GEOMINT_UNRECOGNIZED_ERROR: return "GEOMINT_UNRECOGNIZED_ERROR";
    default: return "GEOMINT_UNKNOWN_FLAG";
  }
}

}  // extern "C"
