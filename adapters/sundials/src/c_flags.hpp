// What the C API's lifecycles share: the memory blocks' kind tag and the mapping of exceptions
// to return flags (geomint_sundials.h). Nothing thrown by geomint or a callback reaches C.
#pragma once

#include <cmath>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "c_message.hpp"
#include "c_system.hpp"
#include "geomint/core/step_error.hpp"
#include "geomint/sundials/geomint_sundials.h"
#include "geomint/sundials/sunlinsol_factorization.hpp"

namespace geomint::sundials::detail {

/// First base of every memory block: its kind, so that a block handed to the other lifecycle's
/// functions (GeomintLie* given a Geomint* block, or the converse) is recognized and rejected,
/// the most recent failure on it (kept until another call fails), and the error handler.
struct memory_kind {
  enum kind_type : unsigned { constrained = 0x47434f4e, lie = 0x474c4945 };
  explicit memory_kind(kind_type k) : kind(k) {}
  const kind_type kind;
  int last_flag = 0;
  std::string message;
  GeomintErrHandlerFn handler = nullptr;
  void* handler_data = nullptr;
  const char* function = "";  ///< the API function being run (for the error handler)

  /// Records a failure (its message in ASCII) and reports it to the error handler.
  int fail(int flag, const std::string& why) {
    last_flag = flag;
    message = ascii_message(why);
    if (handler) handler(flag, kind == lie ? "GEOMINT_LIE" : "GEOMINT", function, message.data(), handler_data);
    return flag;
  }
  /// A successful call leaves the record of the last failure as it is.
  static int succeed() { return GEOMINT_SUCCESS; }
  int ill_input(const std::string& why) { return fail(GEOMINT_ILL_INPUT, "geomint: " + why); }
  /// Geomint(Lie)GetDky's checks of (t, k) against the last step [t_prev, t_now]:
  /// GEOMINT_BAD_K, GEOMINT_ILL_INPUT before the first step, GEOMINT_BAD_T outside it.
  int check_dky(double t, int k, bool have_step, double t_prev, double t_now) {
    const std::string fn = function;
    if (k != 0 && k != 1) return fail(GEOMINT_BAD_K, "geomint: " + fn + ": k = " + std::to_string(k) + " (0 or 1)");
    if (!have_step) return ill_input(fn + " needs a step taken first");
    // IDA's fuzz: 100 uround (|t_n| + |h_last|), so that an output time that rounds to the step's
    // end (1000 after 10⁴ steps of 0.1, nextafter(t_n)) is inside it.
    const double slack = 100 * 2.220446049250313e-16 * (std::fabs(t_now) + std::fabs(t_now - t_prev));
    if (t >= std::fmin(t_prev, t_now) - slack && t <= std::fmax(t_prev, t_now) + slack) return GEOMINT_SUCCESS;
    char why[200];
    std::snprintf(why, sizeof why, "geomint: %s: t = %.17g is outside the last step [%.17g, %.17g]", function, t, t_prev,
                  t_now);
    return fail(GEOMINT_BAD_T, why);
  }
};

/// The block `mem` if it is of kind k, else null.
inline memory_kind* memory_of_kind(void* mem, memory_kind::kind_type k) {
  auto* m = static_cast<memory_kind*>(mem);
  return m && m->kind == k ? m : nullptr;
}

/// Geomint(Lie)GetLastFlag and Geomint(Lie)GetLastErrorMessage for blocks of kind k.
inline int last_flag(void* mem, memory_kind::kind_type k, int* flag) {
  if (!mem) return GEOMINT_MEM_NULL;
  const memory_kind* m = memory_of_kind(mem, k);
  if (!flag || !m) return GEOMINT_ILL_INPUT;
  *flag = m->last_flag;
  return GEOMINT_SUCCESS;
}
inline int last_error_message(void* mem, memory_kind::kind_type k, const char** message) {
  if (!mem) return GEOMINT_MEM_NULL;
  const memory_kind* m = memory_of_kind(mem, k);
  if (!message || !m) return GEOMINT_ILL_INPUT;
  *message = m->message.c_str();
  return GEOMINT_SUCCESS;
}

inline int flag_of(failure_reason r) {
  switch (r) {
    case failure_reason::newton_diverged:
    case failure_reason::max_iterations:
    case failure_reason::singular_iteration_matrix: return GEOMINT_NEWTON_FAIL;
    case failure_reason::non_finite_value: return GEOMINT_NONFINITE;
    case failure_reason::singular_constraint_jacobian: return GEOMINT_SINGULAR_JACOBIAN;
    case failure_reason::inconsistent_initial_state: return GEOMINT_INCONSISTENT_STATE;
  }
  return GEOMINT_UNRECOGNIZED_ERROR;
}

/// Whether a step failed because a Newton iteration did not converge (GEOMINT_NEWTON_FAIL).
inline bool newton_failure(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const step_error& s) {
    return flag_of(s.reason()) == GEOMINT_NEWTON_FAIL;
  } catch (...) {
    return false;
  }
}

/// Runs f(Memory&) → flag for the API function `function` with the memory block checked (NULL,
/// kind, initialized); maps every exception to its flag and message through fail(). Memory has
/// `initialized`.
template <class Memory, class F>
int guarded_call(void* mem, memory_kind::kind_type kind, const char* function, bool needs_init, const char* init_name,
                 F&& f) {
  if (!mem) return GEOMINT_MEM_NULL;
  memory_kind* block = memory_of_kind(mem, kind);
  if (!block) return GEOMINT_ILL_INPUT;  // the other lifecycle's block
  auto* m = static_cast<Memory*>(block);
  m->function = function;
  if (needs_init && !m->initialized) return m->fail(GEOMINT_NO_MALLOC, std::string("geomint: call ") + init_name + " first");
  try {
    return f(*m);
  } catch (const callback_error& e) {
    return m->fail(e.code() > 0 ? GEOMINT_CALLBACK_RECOVERABLE : GEOMINT_CALLBACK_FAIL, e.what());
  } catch (const step_error& e) {
    return m->fail(flag_of(e.reason()), e.what());
  } catch (const linear_solver_error& e) {
    return m->fail(e.where() == linear_solver_error::stage::solve ? GEOMINT_LSOLVE_FAIL : GEOMINT_LSETUP_FAIL, e.what());
  } catch (const std::invalid_argument& e) {
    return m->fail(GEOMINT_ILL_INPUT, e.what());
  } catch (const std::bad_alloc&) {
    return m->fail(GEOMINT_MEM_FAIL, "geomint: out of memory");
  } catch (const std::exception& e) {
    return m->fail(GEOMINT_UNRECOGNIZED_ERROR, e.what());
  }
}

}  // namespace geomint::sundials::detail
