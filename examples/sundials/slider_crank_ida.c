/* The slider crank (slider_crank_model.h) with IDA alone: a minimal version of SUNDIALS'
 * idaSlCrank_dns on the same model as slider_crank.c, for comparison with geomint.
 *
 * Stabilized index-2 (Gear-Gupta-Leimkuhler) form in the velocities, y = (q, v, lambda, mu):
 *   q' = v - G^T mu,   M v' = Q(q, v) - G^T lambda,   0 = g(q),   0 = G(q) v,
 * Q = -grad V + the damper's force. lambda and mu are algebraic (IDASetId), excluded from the
 * error test (IDASetSuppressAlg) and, by a loose absolute tolerance, from the Newton
 * convergence test: at index 2 their corrections carry round-off amplified by 1/h^2, and
 * weighted like q and v they make the first step fail at tight tolerances (at rtol 1e-10,
 * repeated convergence failures at t = 0). Their start is consistent: mu = 0 and, at rest,
 * lambda = (G M^-1 G^T)^-1 G M^-1 Q from d^2g/dt^2 = 0. q and v: rtol = atol.
 *
 * Usage: sundials_slider_crank_ida [c [rtol]]   (defaults c = 1, rtol = 1e-6: the SUNDIALS example). Prints the rows slider_crank.c prints, the CPU time and IDAPrintAllStats. */
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <time.h>

#include "slider_crank_model.h"

/* Q(q, v) = -grad V(q) + damper force(q, v). */
static void applied_force(const SliderCrank* s, const double* q, const double* v, double* force) {
  double damper[3];
  int i;
  slider_crank_potential_gradient(s, q, force);
  slider_crank_damper_force(s, q, v, damper);
  for (i = 0; i < 3; ++i) force[i] = damper[i] - force[i];
}

static int residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
  const SliderCrank* s = (const SliderCrank*)user_data;
  const sunrealtype* y = N_VGetArrayPointer(yy);
  const sunrealtype* dy = N_VGetArrayPointer(yp);
  sunrealtype* r = N_VGetArrayPointer(rr);
  const double *q = y, *v = y + 3, *lambda = y + 6, *mu = y + 8;
  double m[3], force[3], G[2][3];
  int i;
  (void)t;
  slider_crank_masses(s, m);
  applied_force(s, q, v, force);
  slider_crank_jacobian(s, q, G);
  for (i = 0; i < 3; ++i) {
    r[i] = dy[i] - v[i] + G[0][i] * mu[0] + G[1][i] * mu[1];
    r[3 + i] = m[i] * dy[3 + i] - force[i] + G[0][i] * lambda[0] + G[1][i] * lambda[1];
  }
  slider_crank_constraints(s, q, r + 6);
  for (i = 0; i < 2; ++i) r[8 + i] = G[i][0] * v[0] + G[i][1] * v[1] + G[i][2] * v[2];
  return 0;
}

/* y(0), y'(0): the model's start at rest, lambda(0) from the 2 x 2 system G M^-1 G^T lambda =
 * G M^-1 Q, v'(0) = M^-1 (Q - G^T lambda). */
static void initial_values(const SliderCrank* s, N_Vector yy, N_Vector yp) {
  sunrealtype* y = N_VGetArrayPointer(yy);
  sunrealtype* dy = N_VGetArrayPointer(yp);
  double m[3], force[3], G[2][3], S[2][2] = {{0, 0}, {0, 0}}, b[2] = {0, 0}, det;
  int i, j, k;
  N_VConst(0.0, yy);
  N_VConst(0.0, yp);
  slider_crank_initial_positions(s, y);
  slider_crank_masses(s, m);
  applied_force(s, y, y + 3, force);
  slider_crank_jacobian(s, y, G);
  for (i = 0; i < 2; ++i)
    for (k = 0; k < 3; ++k) {
      b[i] += G[i][k] * force[k] / m[k];
      for (j = 0; j < 2; ++j) S[i][j] += G[i][k] * G[j][k] / m[k];
    }
  det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
  y[6] = (S[1][1] * b[0] - S[0][1] * b[1]) / det;
  y[7] = (S[0][0] * b[1] - S[1][0] * b[0]) / det;
  for (k = 0; k < 3; ++k) dy[3 + k] = (force[k] - G[0][k] * y[6] - G[1][k] * y[7]) / m[k];
}

int main(int argc, char** argv) {
  const int nout = 41;
  const sunrealtype t_end = 10.0;
  const sunrealtype rtol = argc > 2 ? atof(argv[2]) : 1e-6;
  SliderCrank s = slider_crank_parameters();
  SUNContext ctx;
  N_Vector yy, yp, id, atol;
  SUNMatrix A;
  SUNLinearSolver LS;
  void* mem;
  sunrealtype t = 0;
  clock_t start;
  int flag = 0, k;

  if (argc > 1) s.c = atof(argv[1]);
  if (!(rtol > 0) || SUNContext_Create(NULL, &ctx)) return EXIT_FAILURE;
  yy = N_VNew_Serial(10, ctx);
  yp = N_VClone(yy);
  id = N_VClone(yy);
  atol = N_VClone(yy);
  initial_values(&s, yy, yp);
  N_VConst(1.0, id);
  N_VConst(rtol, atol);
  for (k = 6; k < 10; ++k) {
    NV_Ith_S(id, k) = 0.0;     /* lambda, mu: algebraic */
    NV_Ith_S(atol, k) = 1e3;   /* and out of the Newton test (see above) */
  }
  A = SUNDenseMatrix(10, 10, ctx);
  LS = SUNLinSol_Dense(yy, A, ctx);

  mem = IDACreate(ctx);
  if (!mem || IDAInit(mem, residual, 0.0, yy, yp) || IDASVtolerances(mem, rtol, atol) || IDASetUserData(mem, &s) ||
      IDASetId(mem, id) || IDASetSuppressAlg(mem, SUNTRUE) || IDASetMaxNumSteps(mem, 100000) ||
      IDASetLinearSolver(mem, LS, A))
    return EXIT_FAILURE;

  printf("# idaSlCrank_dns with IDA (GGL, dense, difference Jacobian), rtol = atol = %g, c = %g\n", rtol, s.c);
  printf("# t theta x phi theta_dot x_dot phi_dot max|g| max|Gv|\n");
  start = clock();
  for (k = 1; k < nout; ++k) {
    const sunrealtype* y = N_VGetArrayPointer(yy);
    double g_res, gv_res;
    flag = IDASolve(mem, k * t_end / (nout - 1), &t, yy, yp, IDA_NORMAL);
    if (flag < 0) break;
    slider_crank_residuals(&s, y, y + 3, &g_res, &gv_res);
    printf("%.4f %.12e %.12e %.12e %.12e %.12e %.12e %.3e %.3e\n", t, y[0], y[1], y[2], y[3], y[4], y[5], g_res,
           gv_res);
  }
  printf("cpu %.6f\n", (double)(clock() - start) / CLOCKS_PER_SEC);
  IDAPrintAllStats(mem, stdout, SUN_OUTPUTFORMAT_TABLE);

  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(yy);
  N_VDestroy(yp);
  N_VDestroy(id);
  N_VDestroy(atol);
  SUNContext_Free(&ctx);
  return flag < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
