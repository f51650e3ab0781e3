// The forced, damped planar pendulum as a C module user writes it: unit mass on the unit circle
// g(q) = (|q|² − 1)/2 under gravity V = γ q₂, driven by a torque a cos(ωt) and damped, the force
// f(t, q, p) = a cos(ωt)(−q₂, q₁) − c p (GEOMINT_FORCE_GENERAL: it depends on p), with no second
// derivatives given (the module differentiates ∇V and f by differences). Every callback counts
// its calls. The test of the general force path's cost (test_c_api_forces.cpp) and its bench
// beside IDA (bench/sundials/bench_forced_pendulum.cpp) use it.
#pragma once

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>

#include "geomint/sundials/geomint_sundials.h"

namespace forced_pendulum {

struct parameters {
  double gravity = 9.81, amplitude = 1.0, frequency = 1.0, damping = 0.5;
  double theta0 = 1.0, omega0 = 0.0;  ///< initial angle from the downward vertical, its rate
};

/// What the callbacks saw.
struct calls {
  long gradient = 0, force = 0, constraint = 0, jacobian = 0;
};

struct data {
  parameters par;
  calls count;
};
inline data& of(void* u) { return *static_cast<data*>(u); }

inline int gradient(sunrealtype, N_Vector, N_Vector, N_Vector out, void* u) {  // ∇V = (0, γ)
  ++of(u).count.gradient;
  NV_Ith_S(out, 0) = 0;
  NV_Ith_S(out, 1) = of(u).par.gravity;
  return 0;
}
inline int force(sunrealtype t, N_Vector q, N_Vector p, N_Vector f, void* u) {
  data& d = of(u);
  ++d.count.force;
  const double torque = d.par.amplitude * std::cos(d.par.frequency * t);
  NV_Ith_S(f, 0) = -torque * NV_Ith_S(q, 1) - d.par.damping * NV_Ith_S(p, 0);
  NV_Ith_S(f, 1) = torque * NV_Ith_S(q, 0) - d.par.damping * NV_Ith_S(p, 1);
  return 0;
}
inline int constraint(sunrealtype, N_Vector q, N_Vector g, void* u) {
  ++of(u).count.constraint;
  NV_Ith_S(g, 0) = 0.5 * (NV_Ith_S(q, 0) * NV_Ith_S(q, 0) + NV_Ith_S(q, 1) * NV_Ith_S(q, 1) - 1);
  return 0;
}
inline int jacobian(sunrealtype, N_Vector q, SUNMatrix G, void* u) {
  ++of(u).count.jacobian;
  SM_ELEMENT_D(G, 0, 0) = NV_Ith_S(q, 0);
  SM_ELEMENT_D(G, 0, 1) = NV_Ith_S(q, 1);
  return 0;
}

/// The initial state (q, p) on the circle and its tangent.
inline void initial_state(const parameters& par, N_Vector q, N_Vector p) {
  NV_Ith_S(q, 0) = std::sin(par.theta0);
  NV_Ith_S(q, 1) = -std::cos(par.theta0);
  NV_Ith_S(p, 0) = par.omega0 * std::cos(par.theta0);
  NV_Ith_S(p, 1) = par.omega0 * std::sin(par.theta0);
}

/// A memory block for `method` at the fixed step h, its callbacks counting into d (q, p: the
/// initial state, sized 2; g_template: a 1 × 2 dense matrix the caller destroys after the block).
inline void* make(SUNContext ctx, data& d, int method, double h, N_Vector q, N_Vector p, N_Vector mass,
                  SUNMatrix g_template) {
  initial_state(d.par, q, p);
  void* mem = GeomintCreate(ctx, method);
  GeomintCallbacks cb{gradient, nullptr, nullptr};
  int flag = GeomintSetUserData(mem, &d);
  if (flag == GEOMINT_SUCCESS) flag = GeomintInit(mem, &cb, 0.0, q, p);
  if (flag == GEOMINT_SUCCESS) flag = GeomintSetMass(mem, mass);
  if (flag == GEOMINT_SUCCESS) flag = GeomintSetConstraints(mem, constraint, jacobian, g_template);
  if (flag == GEOMINT_SUCCESS) flag = GeomintSetForce(mem, force, GEOMINT_FORCE_GENERAL);
  if (flag == GEOMINT_SUCCESS) flag = GeomintSetFixedStep(mem, h);
  if (flag == GEOMINT_SUCCESS) flag = GeomintSetMaxNumSteps(mem, -1);
  if (flag != GEOMINT_SUCCESS) GeomintFree(&mem);
  return mem;
}

}  // namespace forced_pendulum
