// The memory block of the constrained lifecycle (Geomint*, geomint_sundials.h) and what the
// translation units of that lifecycle share: validation helpers and the guarded call.
#pragma once

#include <nvector/nvector_serial.h>

#include <cmath>
#include <memory>
#include <string>

#include "c_flags.hpp"
#include "c_linear_solver.hpp"
#include "c_model.hpp"
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
  /// GEOMINT_INCONSISTENT_STATE (recorded) if the current state is off the manifold by more than
  /// the consistency tolerance, else GEOMINT_SUCCESS. Nothing to check without constraints, or
  /// before H is complete (a general H without dh_dp).
  int check_consistency();
};

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
