// GeomintEvolve and GeomintLieEvolve: the fixed-step loop both lifecycles share, with IDA's
// semantics where an IDA user relies on them (geomint_sundials.h, docs/sundials.md):
//   - steps on one grid t_grid + k h from GeomintInit / ReInit / SetFixedStep, in both modes
//     (times computed, never accumulated);
//   - GEOMINT_NORMAL steps past an output time off the grid and returns the state there from
//     the step's continuous extension (the integrator's own state stays on the grid), unless a
//     stop time (GeomintSetStopTime) lies in the step: that step is shortened to land on it and
//     the call returns GEOMINT_TSTOP_RETURN (the stop time is then cleared, as IDA does);
//   - GEOMINT_ONE_STEP takes one grid step (tout gives the direction only); after a root inside
//     a step, the next call returns that step's end before taking another;
//   - at most max_steps steps per call (GEOMINT_TOO_MUCH_WORK, IDA's mxstep, default 500);
//   - roots are searched up to min(t, tout) in NORMAL mode, as IDA's, so a root past tout is
//     reported by the next call.
#pragma once

#include <cmath>
#include <cstdio>
#include <exception>

#include "c_flags.hpp"

namespace geomint::sundials::detail {

/// IDA's default step limit per solve call (IDASetMaxNumSteps: 0 restores it).
inline constexpr long default_max_steps = 500;

/// The time grid and the per-call settings of the Evolve loop.
struct evolve_clock {
  double t_grid = 0;  ///< the grid's origin
  long k = 0;         ///< the grid index of the last grid point reached
  bool on_grid = true;  ///< the current time is t_grid + k h (false after landing on a stop time)
  long max_steps = default_max_steps;  ///< per call; negative: no limit
  bool tstop_set = false;
  double tstop = 0;
  bool step_end_due = false;  ///< ONE_STEP: a root inside the last step was returned, its end not yet
  long root_evaluations = 0;  ///< calls of the root function (IDAGetNumGEvals)

  /// A new grid from t (GeomintInit, ReInit, SetFixedStep).
  void restart(double t) {
    t_grid = t;
    k = 0;
    on_grid = true;
    step_end_due = false;
  }
};

/// GeomintSetMaxNumSteps, GeomintLieSetMaxNumSteps: 0 restores the default, negative is no limit.
inline void set_max_steps(evolve_clock& c, long mxsteps) { c.max_steps = mxsteps == 0 ? default_max_steps : mxsteps; }

/// GeomintSetStopTime, GeomintLieSetStopTime: the reason to refuse tstop, or null (then it is set).
template <class Memory>
const char* set_stop_time(Memory& m, double tstop) {
  if (!std::isfinite(tstop)) return "the stop time must be finite";
  if (m.initialized && (m.h > 0 ? tstop < m.t : m.h < 0 && tstop > m.t))
    return "the stop time is behind the current time in the direction of integration";
  m.clock.tstop = tstop;
  m.clock.tstop_set = true;
  return nullptr;
}

/// Fuzz of a time comparison at t with steps of h: IDA's 100 uround (|t| + |h|).
inline double time_fuzz(double t, double h) { return 100 * 2.220446049250313e-16 * (std::fabs(t) + std::fabs(h)); }

/// Whether tout lies behind the last step (GEOMINT_NORMAL may ask for a time inside it), or
/// behind the current time before any step: GEOMINT_ILL_INPUT, as IDASolve's "tout too far back".
template <class Memory>
bool tout_too_far_back(const Memory& m, double tout) {
  const double from = m.have_step ? m.t_prev : m.t;
  return m.h > 0 ? tout < from - time_fuzz(from, m.h) : tout > from + time_fuzz(from, m.h);
}

/// The loop. Memory has t, h, h_last, t_prev, have_step, extension_current, root_fn, roots,
/// clock and fail(); Ops provides
///   step(t, dt)         one step from t (throws on failure, the state untouched)
///   failed(eptr)        counts a failed step
///   committed()         the step's start becomes the previous step's (for the extension)
///   report_grid(t)      outputs ← the current state, *tret ← t (default: the current time)
///   report_at(t)        outputs ← the extension at t (inside the last step), *tret ← t
///   start_roots()       the root search starts at the current time
///   locate(t_end)       the earliest root left in (t_low, t_end] of the last step:
///                       GEOMINT_ROOT_RETURN with the outputs and *tret set, or GEOMINT_SUCCESS
template <class Memory, class Ops>
int evolve_on_grid(Memory& m, double tout, int itask, Ops& ops) {
  evolve_clock& c = m.clock;
  const bool forward = m.h > 0;
  const double fuzz = time_fuzz(tout, m.h);
  auto before = [&](double a, double b) { return forward ? a < b - fuzz : a > b + fuzz; };  // a strictly earlier
  const bool normal = itask == GEOMINT_NORMAL;
  auto search_end = [&] { return normal && before(tout, m.t) ? tout : m.t; };
  // On a failure (a step, or the root search after one) the outputs get the state reached.
  auto guarded_roots = [&](double end) {
    try {
      return ops.locate(end);
    } catch (...) {
      ops.report_grid();
      throw;
    }
  };
  // *tret = tout, as IDA's: the grid state if the grid point is tout up to the fuzz (0.1 k against
  // 0.01 (10 k): the same time but for round-off), else the extension's value at tout.
  auto finish_normal = [&] {
    if (!before(m.t, tout) && !before(tout, m.t)) ops.report_grid(tout);
    else ops.report_at(tout);
    return GEOMINT_SUCCESS;
  };

  if (m.root_fn && !m.roots.started()) {
    ops.start_roots();
  } else if (m.root_fn && m.have_step) {  // roots left in the last step come first
    if (const int found = guarded_roots(search_end())) {
      if (m.roots.position() == m.t) c.step_end_due = false;  // the root is the step's end: returned
      return found;
    }
  }
  if (!normal && c.step_end_due) {  // the end of the step that held the last root
    c.step_end_due = false;
    ops.report_grid();
    return GEOMINT_SUCCESS;
  }
  c.step_end_due = false;
  if (normal && !before(m.t, tout)) return finish_normal();  // tout within the last step, or the current time

  const long limit = c.max_steps;
  for (long taken = 0;; ++taken) {
    if (limit >= 0 && taken >= limit) {
      ops.report_grid();
      char why[200];
      std::snprintf(why, sizeof why,
                    "geomint: %ld steps taken before reaching tout = %.17g (t = %.17g, h = %g); raise the limit "
                    "with GeomintSetMaxNumSteps (negative: none)",
                    limit, tout, m.t, m.h);
      return m.fail(GEOMINT_TOO_MUCH_WORK, why);
    }
    const double t_next = c.t_grid + static_cast<double>(c.k + 1) * m.h;
    const bool stop_in_step = c.tstop_set && !before(t_next, c.tstop) && before(m.t, c.tstop);
    const bool lands_on_stop = stop_in_step && before(c.tstop, t_next);
    const double t_new = lands_on_stop ? c.tstop : t_next;
    const double dt = c.on_grid && !lands_on_stop ? m.h : t_new - m.t;
    try {
      ops.step(m.t, dt);
    } catch (...) {
      ops.failed(std::current_exception());
      ops.report_grid();  // the failing step changed nothing
      throw;
    }
    ops.committed();
    m.t_prev = m.t;
    m.t = t_new;
    m.h_last = dt;
    m.have_step = true;
    m.extension_current = false;
    c.on_grid = !lands_on_stop;
    if (c.on_grid) ++c.k;
    if (m.root_fn) {
      if (const int found = guarded_roots(search_end())) {
        if (!normal) c.step_end_due = m.roots.position() != m.t;  // a root inside the step: its end is due
        return found;
      }
    }
    if (stop_in_step) {  // on the stop time (landed there, or it is this grid point)
      c.tstop_set = false;
      ops.report_grid();
      return GEOMINT_TSTOP_RETURN;
    }
    if (!normal) {
      ops.report_grid();
      return GEOMINT_SUCCESS;
    }
    if (!before(m.t, tout)) return finish_normal();
  }
}

}  // namespace geomint::sundials::detail
