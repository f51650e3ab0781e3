/* The free rigid body (Engø & Faltinsen 1999, §6.1: I = diag(7/8, 5/8, 1/4),
 * y(0) = (7/8, 5/8, 1/4)) in body angular momentum y ∈ so(3)*, written as a SUNDIALS user writes
 * a problem: a serial N_Vector and callbacks for ∇H and H. It is integrated with geomint's
 * Lie–Poisson lifecycle (GeomintLie*) by two methods for 10⁴ steps of h = 0.1:
 *   - RKMK with the classical RK4 in exp coordinates (order 4; updates are coadjoint actions,
 *     so the Casimir |y| is kept to round-off, the energy only to O(h⁴));
 *   - the energy-conserving discrete-gradient method (Engø–Faltinsen Theorem 2), which keeps
 *     both |y| and H to round-off.
 * Each method's final state and its Casimir and energy errors are printed. The program exits
 * with a failure status if a call fails, a Casimir moves by more than 1e-12 relative, or the
 * discrete-gradient method's energy by more than 1e-12 relative. */
#include <geomint/sundials/geomint_sundials.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double inertia[3];
} RigidBody;

/* H(y) = Σ y_i² / 2 I_i */
static int hamiltonian(sunrealtype t, N_Vector yv, sunrealtype* h, void* user_data) {
  const RigidBody* b = (const RigidBody*)user_data;
  const sunrealtype* y = N_VGetArrayPointer(yv);
  (void)t;
  *h = 0;
  for (int i = 0; i < 3; ++i) *h += y[i] * y[i] / (2 * b->inertia[i]);
  return 0;
}

/* ∇H(y) = I⁻¹ y, the body angular velocity */
static int gradient(sunrealtype t, N_Vector yv, N_Vector gv, void* user_data) {
  const RigidBody* b = (const RigidBody*)user_data;
  const sunrealtype* y = N_VGetArrayPointer(yv);
  sunrealtype* g = N_VGetArrayPointer(gv);
  (void)t;
  for (int i = 0; i < 3; ++i) g[i] = y[i] / b->inertia[i];
  return 0;
}

static int check(int flag, const char* call, void* mem) {
  if (flag == GEOMINT_SUCCESS) return 0;
  const char* message = "";
  GeomintLieGetLastErrorMessage(mem, &message);
  fprintf(stderr, "%s failed: %s (%s)\n", call, GeomintGetReturnFlagName(flag), message);
  return 1;
}

/* Integrates with `method`; returns the number of failed checks. */
static int run(SUNContext ctx, int method, RigidBody* body, int energy_conserving) {
  const double h = 0.1, t_end = 1000;
  const double y0[3] = {7.0 / 8, 5.0 / 8, 1.0 / 4};
  N_Vector y = N_VNew_Serial(3, ctx);
  for (int i = 0; i < 3; ++i) NV_Ith_S(y, i) = y0[i];
  void* mem = GeomintLieCreate(ctx, method, GEOMINT_ALGEBRA_SO3);
  if (!mem) {
    fprintf(stderr, "GeomintLieCreate failed\n");
    N_VDestroy(y);
    return 1;
  }
  int failures = check(GeomintLieInit(mem, gradient, hamiltonian, 0.0, y), "GeomintLieInit", mem);
  failures += check(GeomintLieSetUserData(mem, body), "GeomintLieSetUserData", mem);
  failures += check(GeomintLieSetFixedStep(mem, h), "GeomintLieSetFixedStep", mem);
  /* 10^4 steps in one call: above IDA's default limit of 500 per call (IDASetMaxNumSteps). */
  failures += check(GeomintLieSetMaxNumSteps(mem, 20000), "GeomintLieSetMaxNumSteps", mem);
  sunrealtype casimir0 = 0, energy0 = 0, casimir = 0, energy = 0, tret = 0;
  failures += check(GeomintLieGetCasimirs(mem, &casimir0), "GeomintLieGetCasimirs", mem);
  failures += check(GeomintLieGetEnergy(mem, &energy0), "GeomintLieGetEnergy", mem);
  if (!failures) failures += check(GeomintLieEvolve(mem, t_end, y, &tret, GEOMINT_NORMAL), "GeomintLieEvolve", mem);
  failures += check(GeomintLieGetCasimirs(mem, &casimir), "GeomintLieGetCasimirs", mem);
  failures += check(GeomintLieGetEnergy(mem, &energy), "GeomintLieGetEnergy", mem);
  long steps = 0, iterations = 0;
  GeomintLieGetNumSteps(mem, &steps);
  GeomintLieGetNumNewtonIters(mem, &iterations);

  const double casimir_error = fabs(casimir - casimir0) / casimir0, energy_error = fabs(energy - energy0) / energy0;
  printf("%-38s t = %g (%ld steps, %ld Newton iterations)\n", GeomintGetMethodName(method), tret, steps, iterations);
  printf("  y = (% .15f, % .15f, % .15f)\n", NV_Ith_S(y, 0), NV_Ith_S(y, 1), NV_Ith_S(y, 2));
  printf("  relative Casimir |y| error %.2e, relative energy error %.2e\n", casimir_error, energy_error);
  if (casimir_error > 1e-12) {
    fprintf(stderr, "the Casimir moved by %.2e\n", casimir_error);
    ++failures;
  }
  if (energy_conserving && energy_error > 1e-12) {
    fprintf(stderr, "the energy moved by %.2e\n", energy_error);
    ++failures;
  }
  GeomintLieFree(&mem);
  N_VDestroy(y);
  return failures;
}

int main(void) {
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx) != 0) return EXIT_FAILURE;
  RigidBody body = {{7.0 / 8, 5.0 / 8, 1.0 / 4}};
  int failures = run(ctx, GEOMINT_LIE_RKMK_RK4_EXP_4_4, &body, 0);
  failures += run(ctx, GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_EXP_2_1, &body, 1);
  SUNContext_Free(&ctx);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
