// The memory block of the constrained lifecycle (Geomint*, geomint_sundials.h) and what the
// translation units of that lifecycle share: validation helpers and the guarded call.
#pragma once

#include <nvector/nvector_serial.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "c_evolve.hpp"
#include "c_flags.hpp"
#include "c_linear_solver.hpp"
#include "c_model.hpp"
#include "c_root_search.hpp"
#include "geomint/sundials/geomint_sundials.h"
#include "geomint/sundials/sunlinsol_factorization.hpp"

namespace geomint::sundials::detail {

struct memory : memory_kind {
  memory() : memory_kind(memory_kind::constrained) {}
  SUNContext ctx = nullptr;
  int method = 0;
  bool initialized = false;
  c_problem problem;
  double t = 0, t0 = 0, h = 0, h_last = 0;
  vector_handle q, p;      // the state
  Eigen::VectorXd q0, p0;  // where GeomintInit / GeomintReInit / GeomintCalcIC started (the IDA reference's start)
  constrained_options options;
  std::unique_ptr<sunlinsol_factorization> factorization;  // the user's SUNLinearSolver, if any
  counted_factorization linear_solver;                     // what the PRK steppers factorize with
  std::unique_ptr<c_model> model;
  std::unique_ptr<c_stepper> stepper;
  constrained_statistics retired;  // counters of steppers replaced so far
  long failed_steps = 0, newton_failures = 0;

  // Dense output (GeomintGetDky) and roots (GeomintRootInit): the last step's start, and the
  // extension of [t_prev, t] built on first use after each step.
  Eigen::VectorXd q_prev, p_prev, q_start, p_start;
  double t_prev = 0;
  bool have_step = false, extension_current = false;
  std::unique_ptr<c_interpolant> interpolant;
  GeomintRootFn root_fn = nullptr;
  root_search roots;
  evolve_clock clock;                      ///< the time grid, step limit, stop time (c_evolve.hpp)
  Eigen::VectorXd q_root, p_root;          ///< interpolated states for the root functions
  vector_handle q_root_view, p_root_view;  ///< N_Vector views of them

  /// Forgets the last step (new state, method or problem): no dense output, roots start afresh.
  void forget_steps() {
    have_step = extension_current = false;
    roots.restart();
  }
  /// The last step's continuous extension, told about the step.
  c_interpolant& extension();

  /// Steps, Newton counters of every stepper since GeomintInit.
  constrained_statistics totals() const;
  void retire_stepper();
  void retire_model() {
    retire_stepper();
    model.reset();
  }
  c_model& ensure_model();
  c_stepper& ensure_stepper();
  /// Order of the stage Newton systems; std::invalid_argument for a method that takes no solver.
  long stage_system_size();
};

/// After a step: the earliest root left in it up to t_end (GEOMINT_ROOT_RETURN, q, p and *tret
/// set to it) or GEOMINT_SUCCESS. c_api_roots.cpp.
int locate_roots(memory& m, N_Vector q, N_Vector p, sunrealtype* tret, double t_end);
/// The root functions' values at the current time, where the search starts.
void start_roots(memory& m);

/// Runs f(memory&) → flag for the API function `function`; maps every exception to its flag
/// and message. Nothing escapes to C.
template <class F>
int guarded(void* mem, const char* function, F&& f, bool needs_init = true) {
  return guarded_call<memory>(mem, memory_kind::constrained, function, needs_init, "GeomintInit", std::forward<F>(f));
}

inline bool serial(N_Vector v, long n) {
  return v && N_VGetVectorID(v) == SUNDIALS_NVEC_SERIAL && (n < 0 || N_VGetLength(v) == n);
}
inline Eigen::Map<Eigen::VectorXd> data(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }
inline Eigen::Map<Eigen::VectorXd> data(const vector_handle& v) { return data(v.get()); }

/// Whether the constrained lifecycle accepts this method id (100-199, 300-399).
bool constrained_method(int id);
/// Why GeomintCreate / GeomintInit / GeomintSetMethod refuse a method id.
std::string refused_method(int id);

}  // namespace geomint::sundials::detail
