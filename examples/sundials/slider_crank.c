/* SUNDIALS' IDA example idaSlCrank_dns, the slider crank (slider_crank_model.h), as a geomint C
 * program: the same model, initial state and output times (41 outputs over [0, 10]), integrated
 * by geomint's Lobatto IIIA-IIIB pair (3 stages, order 4) with a fixed step, the stage systems
 * factorized by a SUNDIALS dense linear solver. slider_crank_ida.c is the IDA-only version; the
 * test suite compares the two (tests/sundials/test_slider_crank.cpp).
 *
 * H = p^T M^-1 p / 2 + V(q) holds the spring and the applied force (conservative,
 * slider_crank_model.h); the damper's force -c (grad l . v) grad l depends on the velocity and
 * is given by GeomintSetForce (GEOMINT_FORCE_GENERAL), so the stages are solved by full Newton.
 *
 * Usage: sundials_slider_crank [h [c]]   (defaults h = 1e-3, c = 1: the SUNDIALS example; c = 0
 * turns the damper off and the separable fast path on)
 * Prints one row per output time: t, q = (theta, x, phi), v = dq/dt, max |g(q)|, max |G(q) v|,
 * then the CPU time of the integration and geomint's statistics. Exits with a failure status if
 * a call fails, the constraints are violated by more than 1e-12, or the energy misbehaves:
 * without the damper it is conserved (drift at most 1e-8 relative); with it, it may only fall,
 * dH/dt = -c (grad l . v)^2 <= 0 (a rise between outputs above 1e-10 relative fails). */
#include <geomint/sundials/geomint_sundials.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "slider_crank_model.h"

/* Separable H: dh_dq is grad V, called with p = 0. */
static int potential_gradient(sunrealtype t, N_Vector q, N_Vector p, N_Vector out, void* user_data) {
  (void)t, (void)p;
  slider_crank_potential_gradient((const SliderCrank*)user_data, N_VGetArrayPointer(q), N_VGetArrayPointer(out));
  return 0;
}

/* The damper's force at v = M^-1 p (a velocity-dependent force: GEOMINT_FORCE_GENERAL). */
static int damper(sunrealtype t, N_Vector qv, N_Vector pv, N_Vector out, void* user_data) {
  const SliderCrank* s = (const SliderCrank*)user_data;
  const sunrealtype* p = N_VGetArrayPointer(pv);
  double m[3], v[3];
  int i;
  (void)t;
  slider_crank_masses(s, m);
  for (i = 0; i < 3; ++i) v[i] = p[i] / m[i];
  slider_crank_damper_force(s, N_VGetArrayPointer(qv), v, N_VGetArrayPointer(out));
  return 0;
}

static int hamiltonian(sunrealtype t, N_Vector qv, N_Vector pv, sunrealtype* h, void* user_data) {
  const SliderCrank* s = (const SliderCrank*)user_data;
  const sunrealtype* p = N_VGetArrayPointer(pv);
  double m[3];
  (void)t;
  slider_crank_masses(s, m);
  *h = p[0] * p[0] / (2 * m[0]) + p[1] * p[1] / (2 * m[1]) + p[2] * p[2] / (2 * m[2]) +
       slider_crank_potential(s, N_VGetArrayPointer(qv));
  return 0;
}

static int constraint(sunrealtype t, N_Vector q, N_Vector g, void* user_data) {
  (void)t;
  slider_crank_constraints((const SliderCrank*)user_data, N_VGetArrayPointer(q), N_VGetArrayPointer(g));
  return 0;
}

static int constraint_jacobian(sunrealtype t, N_Vector q, SUNMatrix G, void* user_data) {
  double jac[2][3];
  int i, j;
  (void)t;
  slider_crank_jacobian((const SliderCrank*)user_data, N_VGetArrayPointer(q), jac);
  for (i = 0; i < 2; ++i)
    for (j = 0; j < 3; ++j) SM_ELEMENT_D(G, i, j) = jac[i][j];
  return 0;
}

static int check(int flag, const char* call, void* mem) {
  const char* message = "";
  if (flag == GEOMINT_SUCCESS) return 0;
  GeomintGetLastErrorMessage(mem, &message);
  fprintf(stderr, "%s failed: %s\n  %s\n", call, GeomintGetReturnFlagName(flag), message);
  return 1;
}

int main(int argc, char** argv) {
  const int nout = 41;
  const sunrealtype t_end = 10.0, h = argc > 1 ? atof(argv[1]) : 1e-3;
  SliderCrank s = slider_crank_parameters();
  GeomintCallbacks callbacks = {potential_gradient, NULL, hamiltonian};
  SUNContext ctx;
  N_Vector q, p, mass, tmpl;
  SUNMatrix G, A;
  SUNLinearSolver LS;
  void* mem;
  double m[3], worst_g = 0, worst_gv = 0, h0 = 0, h1 = 0, previous = 0, worst_rise = 0;
  sunrealtype t = 0;
  sunindextype order = 0;
  clock_t start;
  int failed = 0, i, k;

  if (argc > 2) s.c = atof(argv[2]);
  if (!(h > 0) || !(s.c >= 0) || SUNContext_Create(NULL, &ctx)) return EXIT_FAILURE;
  q = N_VNew_Serial(3, ctx);
  p = N_VNew_Serial(3, ctx);
  mass = N_VNew_Serial(3, ctx);
  G = SUNDenseMatrix(2, 3, ctx);
  slider_crank_initial_positions(&s, N_VGetArrayPointer(q));
  N_VConst(0.0, p);
  slider_crank_masses(&s, m);
  for (i = 0; i < 3; ++i) NV_Ith_S(mass, i) = m[i];

  mem = GeomintCreate(ctx, GEOMINT_CONSTRAINED_LOBATTO_4_3);
  if (!mem) return EXIT_FAILURE;
  failed |= check(GeomintSetUserData(mem, &s), "GeomintSetUserData", mem);
  failed |= check(GeomintInit(mem, &callbacks, 0.0, q, p), "GeomintInit", mem);
  failed |= check(GeomintSetMass(mem, mass), "GeomintSetMass", mem);
  failed |= check(GeomintSetConstraints(mem, constraint, constraint_jacobian, G), "GeomintSetConstraints", mem);
  if (s.c > 0) failed |= check(GeomintSetForce(mem, damper, GEOMINT_FORCE_GENERAL), "GeomintSetForce", mem);
  failed |= check(GeomintSetFixedStep(mem, h), "GeomintSetFixedStep", mem);
  /* Outputs every 0.25: 250 steps of the default h per call, more for a smaller h; no limit. */
  failed |= check(GeomintSetMaxNumSteps(mem, -1), "GeomintSetMaxNumSteps", mem);
  /* The stage Newton systems' order: G M^-1 G^T (2 x 2) on the separable fast path (no damper),
   * the stage Jacobian (3 n + 2 (n + m) = 19) on the general path the damper selects. */
  failed |= check(GeomintGetLinearSystemSize(mem, &order), "GeomintGetLinearSystemSize", mem);
  if (failed) return EXIT_FAILURE;
  tmpl = N_VNew_Serial(order, ctx);
  A = SUNDenseMatrix(order, order, ctx);
  LS = SUNLinSol_Dense(tmpl, A, ctx);
  failed |= check(GeomintSetLinearSolver(mem, LS, A), "GeomintSetLinearSolver", mem);
  failed |= check(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P), "GeomintCalcIC", mem); /* as IDACalcIC */
  failed |= check(GeomintGetEnergy(mem, &h0), "GeomintGetEnergy", mem);
  if (failed) return EXIT_FAILURE;
  previous = h0;

  printf("# idaSlCrank_dns with geomint: %s, h = %g, damper c = %g\n",
         GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_4_3), h, s.c);
  printf("# t theta x phi theta_dot x_dot phi_dot max|g| max|Gv|\n");
  start = clock();
  for (k = 1; k < nout && !failed; ++k) {
    double v[3], g_res, gv_res;
    failed |= check(GeomintEvolve(mem, k * t_end / (nout - 1), q, p, &t, GEOMINT_NORMAL), "GeomintEvolve", mem);
    for (i = 0; i < 3; ++i) v[i] = NV_Ith_S(p, i) / m[i];
    slider_crank_residuals(&s, N_VGetArrayPointer(q), v, &g_res, &gv_res);
    worst_g = fmax(worst_g, g_res);
    worst_gv = fmax(worst_gv, gv_res);
    failed |= check(GeomintGetEnergy(mem, &h1), "GeomintGetEnergy", mem);
    worst_rise = fmax(worst_rise, h1 - previous);
    previous = h1;
    printf("%.4f %.12e %.12e %.12e %.12e %.12e %.12e %.3e %.3e\n", t, NV_Ith_S(q, 0), NV_Ith_S(q, 1), NV_Ith_S(q, 2),
           v[0], v[1], v[2], g_res, gv_res);
  }
  printf("cpu %.6f\n", (double)(clock() - start) / CLOCKS_PER_SEC);
  failed |= check(GeomintPrintAllStats(mem, stdout, SUN_OUTPUTFORMAT_TABLE), "GeomintPrintAllStats", mem);
  printf("# energy change %.3e (largest rise between outputs %.3e), max |g| %.3e, max |G v| %.3e\n", h1 - h0,
         worst_rise, worst_g, worst_gv);
  if (s.c == 0 && fabs(h1 - h0) > 1e-8 * fmax(1.0, fabs(h0))) failed = 1;
  if (s.c > 0 && worst_rise > 1e-10 * fmax(1.0, fabs(h0))) failed = 1;
  if (worst_g > 1e-12 || worst_gv > 1e-12) failed = 1;

  GeomintFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  SUNMatDestroy(G);
  N_VDestroy(q);
  N_VDestroy(p);
  N_VDestroy(mass);
  N_VDestroy(tmpl);
  SUNContext_Free(&ctx);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
