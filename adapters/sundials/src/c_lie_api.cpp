// The C API's Lie–Poisson lifecycle (geomint_sundials.h, GeomintLie*): memory block, validation,
// time stepping, outputs; flags and error records as for the constrained lifecycle (c_flags.hpp).
#include <nvector/nvector_serial.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <string>

#include "c_evolve.hpp"
#include "c_flags.hpp"
#include "c_lie_model.hpp"
#include "c_root_search.hpp"
#include "c_model.hpp"  // find_method
#include "c_stats_printer.hpp"
#include "geomint/sundials/geomint_sundials.h"

namespace geomint::sundials::detail {

int lie_algebra_dimension(int algebra) {
  switch (algebra) {
    case GEOMINT_ALGEBRA_SO3: return 3;
    case GEOMINT_ALGEBRA_SE3: return 6;
    default: return 0;
  }
}

namespace {

struct lie_memory : memory_kind {
  lie_memory() : memory_kind(memory_kind::lie) {}
  int method = 0, algebra = 0;
  bool initialized = false;
  c_lie_problem problem;
  c_lie_settings settings;
  double t = 0, h = 0, h_last = 0;
  Eigen::VectorXd y;
  std::unique_ptr<c_lie_stepper> stepper;
  long failed_steps = 0, newton_failures = 0;
  // Dense output and roots (GeomintLieGetDky, GeomintLieRootInit), as in c_memory.hpp.
  Eigen::VectorXd y_prev, y_start, y_root;
  double t_prev = 0;
  bool have_step = false, extension_current = false;
  GeomintLieRootFn root_fn = nullptr;
  root_search roots;
  evolve_clock clock;  ///< the time grid, step limit, stop time (c_evolve.hpp)
  vector_handle y_root_view;

  void forget_steps() {
    have_step = extension_current = false;
    roots.restart();
  }
  c_lie_stepper& extension() {
    if (!extension_current) {
      stepper->begin_interpolation(t_prev, y_prev.data(), t, y.data());
      extension_current = true;
    }
    return *stepper;
  }
  /// g(t, y(t)) into out, y on the last step's extension (the grid state at t); y in y_root.
  void evaluate_roots(double at, std::vector<double>& out) {
    if (at == t) y_root = y;
    else extension().interpolate(at, 0, y_root.data());
    ++clock.root_evaluations;
    const int code = root_fn(at, y_root_view.get(), out.data(), problem.user_data);
    if (code != 0) throw callback_error(code, "root");
  }
  void start_roots() {
    if (y_root.size() != y.size()) {
      y_root.resize(y.size());
      y_root_view.reset(N_VMake_Serial(y.size(), y_root.data(), ctx()));
      if (!y_root_view) throw std::bad_alloc();
    }
    roots.begin(t, [&](double at, std::vector<double>& out) { evaluate_roots(at, out); });
  }
  /// GEOMINT_ROOT_RETURN with y and *tret at the earliest root left in the last step, or 0.
  int locate_roots(N_Vector out, sunrealtype* tret, double t_end) {
    if (!roots.started()) start_roots();
    const double root = roots.next(t_prev, t_end, [&](double at, std::vector<double>& g) { evaluate_roots(at, g); });
    if (std::isnan(root)) return GEOMINT_SUCCESS;
    Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(out), y.size()) = y_root;
    *tret = root;
    return GEOMINT_ROOT_RETURN;
  }
  SUNContext ctx() const { return problem.ctx; }
};

template <class F>
int guarded(void* mem, const char* function, F&& f, bool needs_init = true) {
  return guarded_call<lie_memory>(mem, memory_kind::lie, function, needs_init, "GeomintLieInit", std::forward<F>(f));
}

int ill_input(lie_memory& m, const std::string& why) { return m.ill_input(why); }

bool lie_method(int id) {
  const method_info* info = find_method(id);
  return info && info->lie;
}
std::string refused_lie_method(int id) {
  return find_method(id) ? "geomint: method " + std::to_string(id) + " is not a Lie-Poisson method (GeomintCreate)"
                         : "geomint: unknown method id " + std::to_string(id);
}
bool discrete_gradient(int id) {
  return id == GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2 || id == GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2;
}
bool serial(N_Vector v, int n) { return v && N_VGetVectorID(v) == SUNDIALS_NVEC_SERIAL && N_VGetLength(v) == n; }
Eigen::Map<Eigen::VectorXd> data(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }

int set_state(lie_memory& m, double t0, N_Vector y0) {
  const int d = m.problem.dimension;
  if (!serial(y0, d)) return ill_input(m, "y0 must be a serial N_Vector of length " + std::to_string(d) + " (the algebra's dimension)");
  if (!std::isfinite(t0)) return ill_input(m, "t0 must be finite");
  if (!data(y0).allFinite()) return ill_input(m, "y0 must be finite");
  m.y = data(y0);
  m.t = t0;
  m.clock.restart(t0);
  m.forget_steps();
  return GEOMINT_SUCCESS;
}

/// Counts a step that threw (the state is untouched) and, if Newton did not converge, that too.
void count_failure(lie_memory& m, const std::exception_ptr& e) {
  ++m.failed_steps;
  if (newton_failure(e)) ++m.newton_failures;
}

/// Stores a counter; GEOMINT_ILL_INPUT if the pointer is NULL.
int get_count(lie_memory& m, long int* out, long value, const char* name) {
  if (!out) return ill_input(m, std::string(name) + " must not be NULL");
  *out = value;
  return m.succeed();
}

}  // namespace
}  // namespace geomint::sundials::detail

using namespace geomint::sundials::detail;

extern "C" {

void* GeomintLieCreate(SUNContext sunctx, int method, int algebra) {
  if (!sunctx) return nullptr;
  auto* m = new (std::nothrow) lie_memory;
  if (!m) return nullptr;
  m->method = method;
  m->algebra = algebra;
  m->problem.ctx = sunctx;
  m->problem.dimension = lie_algebra_dimension(algebra);
  m->function = __func__;
  if (!lie_method(method)) m->fail(GEOMINT_BAD_METHOD, refused_lie_method(method));
  else if (m->problem.dimension == 0) m->ill_input("unknown algebra id " + std::to_string(algebra));
  return static_cast<memory_kind*>(m);
}

void GeomintLieFree(void** mem) {
  if (!mem || !*mem || static_cast<memory_kind*>(*mem)->kind != memory_kind::lie) return;
  delete static_cast<lie_memory*>(static_cast<memory_kind*>(*mem));
  *mem = nullptr;
}

int GeomintLieInit(void* mem, GeomintLieGradientFn grad_h, GeomintLieEnergyFn hamiltonian, sunrealtype t0, N_Vector y0) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!lie_method(m.method)) return m.fail(GEOMINT_BAD_METHOD, refused_lie_method(m.method));
    if (m.problem.dimension == 0) return ill_input(m, "unknown algebra id " + std::to_string(m.algebra));
    if (!grad_h) return ill_input(m, "the gradient callback grad_h is required");
    if (!hamiltonian && discrete_gradient(m.method))
      return ill_input(m, std::string(GeomintGetMethodName(m.method)) + " evaluates H: the hamiltonian callback is required");
    if (const int flag = set_state(m, t0, y0)) return flag;
    m.stepper.reset();
    m.problem.gradient = grad_h;
    m.problem.hamiltonian = hamiltonian;
    m.problem.gradient_evals = m.problem.energy_evals = 0;
    m.failed_steps = m.newton_failures = 0;
    m.h_last = 0;
    m.stepper = m.algebra == GEOMINT_ALGEBRA_SO3 ? make_so3_stepper(m.problem, m.method)
                                                  : make_se3_stepper(m.problem, m.method);
    m.initialized = true;
    return m.succeed();
  }, false);
}

int GeomintLieReInit(void* mem, sunrealtype t0, N_Vector y0) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (const int flag = set_state(m, t0, y0)) return flag;
    m.stepper->reset();
    return m.succeed();
  });
}

int GeomintLieSetUserData(void* mem, void* user_data) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (m.stepper && user_data != m.problem.user_data) m.stepper->reset();  // caches of the old problem
    m.problem.user_data = user_data;
    return m.succeed();
  }, false);
}

int GeomintLieSetErrHandlerFn(void* mem, GeomintErrHandlerFn ehfun, void* eh_data) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    m.handler = ehfun;
    m.handler_data = eh_data;
    return m.succeed();
  }, false);
}

int GeomintLieSetFixedStep(void* mem, sunrealtype h) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (h == 0 || !std::isfinite(h)) return ill_input(m, "the fixed step must be nonzero and finite");
    if (h != m.h) m.clock.restart(m.t);  // a new grid from the current time
    m.h = h;
    return m.succeed();
  }, false);
}

int GeomintLieSetMaxNumSteps(void* mem, long int mxsteps) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    set_max_steps(m.clock, mxsteps);
    return m.succeed();
  }, false);
}

int GeomintLieSetStopTime(void* mem, sunrealtype tstop) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (const char* why = set_stop_time(m, tstop)) return ill_input(m, why);
    return m.succeed();
  }, false);
}

int GeomintLieClearStopTime(void* mem) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    m.clock.tstop_set = false;
    return m.succeed();
  }, false);
}

int GeomintLieSetStageTolerance(void* mem, sunrealtype tol) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!(tol > 0 && std::isfinite(tol))) return ill_input(m, "the stage tolerance must be positive and finite");
    m.settings.tolerance = tol;
    return m.succeed();
  }, false);
}

int GeomintLieSetMaxStageIters(void* mem, int maxiters) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (maxiters < 1) return ill_input(m, "the iteration limit must be at least 1");
    m.settings.max_iterations = maxiters;
    return m.succeed();
  }, false);
}

int GeomintLieEvolve(void* mem, sunrealtype tout, N_Vector y, sunrealtype* tret, int itask) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    const int d = m.problem.dimension;
    if (!serial(y, d)) return ill_input(m, "y must be a serial N_Vector of length " + std::to_string(d));
    if (!tret) return ill_input(m, "tret must not be NULL");
    if (itask != GEOMINT_NORMAL && itask != GEOMINT_ONE_STEP) return ill_input(m, "itask must be GEOMINT_NORMAL or GEOMINT_ONE_STEP");
    if (!std::isfinite(tout)) return ill_input(m, "tout must be finite");
    if (m.h == 0) return ill_input(m, "set the step size with GeomintLieSetFixedStep");
    if (tout_too_far_back(m, tout)) {
      char why[200];
      std::snprintf(why, sizeof why,
                    "tout = %.17g is behind the last step (t = %.17g) in the direction of integration (h = %g)",
                    tout, m.t, m.h);
      return ill_input(m, why);
    }
    m.stepper->configure(m.settings);
    // y_start and y_prev are swapped after each step: both are sized here, so that no step allocates.
    m.y_start.resize(m.y.size());
    m.y_prev.resize(m.y.size());
    struct {
      lie_memory& m;
      N_Vector y;
      sunrealtype* tret;
      void step(double t, double dt) {
        m.y_start = m.y;
        m.stepper->step(t, dt, m.y.data());
      }
      void failed(const std::exception_ptr& e) { count_failure(m, e); }
      void committed() { m.y_prev.swap(m.y_start); }
      void report_grid() { report_grid(m.t); }
      void report_grid(double t) {
        data(y) = m.y;
        *tret = t;
      }
      void report_at(double t) {
        m.extension().interpolate(t, 0, N_VGetArrayPointer(y));
        *tret = t;
      }
      void start_roots() { m.start_roots(); }
      int locate(double t_end) { return m.locate_roots(y, tret, t_end); }
    } ops{m, y, tret};
    return evolve_on_grid(m, tout, itask, ops);
  });
}

int GeomintLieGetDky(void* mem, sunrealtype t, int k, N_Vector dky) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    const int d = m.problem.dimension;
    if (!serial(dky, d)) return ill_input(m, "dky must be a serial N_Vector of length " + std::to_string(d));
    if (const int flag = m.check_dky(t, k, m.have_step, m.t_prev, m.t)) return flag;
    m.extension().interpolate(t, k, N_VGetArrayPointer(dky));
    return m.succeed();
  });
}

int GeomintLieRootInit(void* mem, int nrtfn, GeomintLieRootFn g) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (nrtfn < 0) return ill_input(m, "nrtfn must be >= 0");
    if (nrtfn > 0 && !g) return ill_input(m, "the root function must not be NULL when nrtfn > 0");
    m.root_fn = nrtfn > 0 ? g : nullptr;
    m.roots.configure(nrtfn);
    return m.succeed();
  });
}

int GeomintLieSetRootDirection(void* mem, const int* rootdir) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!m.root_fn) return ill_input(m, "call GeomintLieRootInit with nrtfn > 0 first");
    if (!rootdir) return ill_input(m, "rootdir must not be NULL");
    if (!m.roots.set_direction(rootdir)) return ill_input(m, "rootdir[i] must be -1, 0 or 1");
    return m.succeed();
  });
}

int GeomintLieGetRootInfo(void* mem, int* rootsfound) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!m.root_fn) return ill_input(m, "call GeomintLieRootInit with nrtfn > 0 first");
    if (!rootsfound) return ill_input(m, "rootsfound must not be NULL");
    std::copy(m.roots.found().begin(), m.roots.found().end(), rootsfound);
    return m.succeed();
  });
}

int GeomintLieGetCurrentTime(void* mem, sunrealtype* t) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!t) return ill_input(m, "t must not be NULL");
    *t = m.t;
    return m.succeed();
  });
}

int GeomintLieGetCurrentState(void* mem, N_Vector y) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!serial(y, m.problem.dimension))
      return ill_input(m, "y must be a serial N_Vector of length " + std::to_string(m.problem.dimension));
    data(y) = m.y;
    return m.succeed();
  });
}

int GeomintLieGetLastStep(void* mem, sunrealtype* hlast) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!hlast) return ill_input(m, "hlast must not be NULL");
    *hlast = m.h_last;
    return m.succeed();
  });
}

int GeomintLieGetNumSteps(void* mem, long int* nsteps) {
  return guarded(mem, __func__, [&](lie_memory& m) { return get_count(m, nsteps, m.stepper->statistics().steps, "nsteps"); });
}

int GeomintLieGetNumFailedSteps(void* mem, long int* nfails) {
  return guarded(mem, __func__, [&](lie_memory& m) { return get_count(m, nfails, m.failed_steps, "nfails"); });
}

int GeomintLieGetNumNewtonIters(void* mem, long int* niters) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    // Newton iterations and, for the fixed-point methods (Moser–Veselov, leapfrog), theirs.
    const geomint::lie_statistics& s = m.stepper->statistics();
    return get_count(m, niters, s.newton.iterations + s.fixed_point.iterations, "niters");
  });
}

int GeomintLieGetNumNewtonConvFails(void* mem, long int* nfails) {
  return guarded(mem, __func__, [&](lie_memory& m) { return get_count(m, nfails, m.newton_failures, "nfails"); });
}

int GeomintLieGetNumGEvals(void* mem, long int* ngevals) {
  return guarded(mem, __func__, [&](lie_memory& m) { return get_count(m, ngevals, m.clock.root_evaluations, "ngevals"); },
                 false);
}

int GeomintLieGetNumEvals(void* mem, long int* n_grad, long int* n_energy) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!n_grad || !n_energy) return ill_input(m, "n_grad and n_energy must not be NULL");
    *n_grad = m.problem.gradient_evals;
    *n_energy = m.problem.energy_evals;
    return m.succeed();
  });
}

int GeomintLiePrintAllStats(void* mem, FILE* outfile, int fmt) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!outfile) return ill_input(m, "outfile must not be NULL");
    if (!valid_output_format(fmt)) return ill_input(m, "fmt must be SUN_OUTPUTFORMAT_TABLE or SUN_OUTPUTFORMAT_CSV");
    const geomint::lie_statistics& s = m.stepper->statistics();
    stats_printer out(outfile, fmt);
    out.entry("Current time", "Time", m.t);
    out.entry("Steps", s.steps);
    out.entry("Failed steps", m.failed_steps);
    out.entry("Fixed step size", m.h);
    out.entry("Last step size", m.h_last);
    out.entry("Newton iters", s.newton.iterations);
    out.entry("Fixed-point iters", s.fixed_point.iterations);
    out.entry("Newton conv fails", m.newton_failures);
    out.entry("Jac evals", s.newton.jacobian_updates);
    out.entry("grad H evals", m.problem.gradient_evals);
    out.entry("H evals", m.problem.energy_evals);
    out.entry("Root fn evals", m.clock.root_evaluations);
    return m.succeed();
  });
}

int GeomintLieGetNumCasimirs(void* mem, int* count) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!count) return ill_input(m, "count must not be NULL");
    *count = m.stepper->casimir_count();
    return m.succeed();
  });
}

int GeomintLieGetCasimirs(void* mem, sunrealtype* casimirs) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!casimirs) return ill_input(m, "casimirs must not be NULL");
    m.stepper->casimirs(m.y.data(), casimirs);
    return m.succeed();
  });
}

int GeomintLieGetEnergy(void* mem, sunrealtype* energy) {
  return guarded(mem, __func__, [&](lie_memory& m) {
    if (!energy) return ill_input(m, "energy must not be NULL");
    *energy = m.stepper->energy(m.y.data());
    return m.succeed();
  });
}

int GeomintLieGetLastFlag(void* mem, int* flag) { return last_flag(mem, memory_kind::lie, flag); }

int GeomintLieGetLastErrorMessage(void* mem, const char** message) {
  return last_error_message(mem, memory_kind::lie, message);
}

}  // extern "C"
