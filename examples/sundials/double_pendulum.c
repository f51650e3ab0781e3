/* The double spherical pendulum of Marsden & Wendlandt (1997, §7), written as a SUNDIALS user
 * writes a problem: serial N_Vectors, callbacks, SUNMatrix Jacobians. It is integrated twice
 * from the same callbacks:
 *   - with geomint's Lobatto IIIA-IIIB pair (3 stages, order 4) through GeomintEvolve, the
 *     stage systems factorized by a SUNDIALS dense linear solver;
 *   - with the IDA reference (stabilized index-2 formulation, rtol = atol = 1e-10).
 * Both states at t = T are printed with their energy and constraint errors. The program exits
 * with a failure status if a call fails or the two disagree by more than 1e-6. */
#include <geomint/sundials/geomint_sundials.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

typedef struct {
  double m1, m2, l1, l2, gravity;
} Pendulum;

/* H = |p1|²/2m1 + |p2|²/2m2 + γ(m1 z1 + m2 z2): separable, so only ∇V is needed. */
static int potential_gradient(sunrealtype t, N_Vector q, N_Vector p, N_Vector out, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  sunrealtype* f = N_VGetArrayPointer(out);
  (void)t, (void)q, (void)p;
  f[0] = f[1] = f[3] = f[4] = 0;
  f[2] = s->m1 * s->gravity;
  f[5] = s->m2 * s->gravity;
  return 0;
}

static int hamiltonian(sunrealtype t, N_Vector qv, N_Vector pv, sunrealtype* h, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  const sunrealtype* q = N_VGetArrayPointer(qv);
  const sunrealtype* p = N_VGetArrayPointer(pv);
  (void)t;
  *h = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / (2 * s->m1) + (p[3] * p[3] + p[4] * p[4] + p[5] * p[5]) / (2 * s->m2) +
       s->gravity * (s->m1 * q[2] + s->m2 * q[5]);
  return 0;
}

/* g(q) = (|q1|² − l1², |q2 − q1|² − l2²) */
static int constraint(sunrealtype t, N_Vector qv, N_Vector gv, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  const sunrealtype* q = N_VGetArrayPointer(qv);
  sunrealtype* g = N_VGetArrayPointer(gv);
  const sunrealtype d[3] = {q[3] - q[0], q[4] - q[1], q[5] - q[2]};
  (void)t;
  g[0] = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - s->l1 * s->l1;
  g[1] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - s->l2 * s->l2;
  return 0;
}

static int constraint_jacobian(sunrealtype t, N_Vector qv, SUNMatrix G, void* user_data) {
  const sunrealtype* q = N_VGetArrayPointer(qv);
  int j;
  (void)t, (void)user_data;
  for (j = 0; j < 3; ++j) {
    const sunrealtype d = q[3 + j] - q[j];
    SM_ELEMENT_D(G, 0, j) = 2 * q[j];
    SM_ELEMENT_D(G, 0, 3 + j) = 0;
    SM_ELEMENT_D(G, 1, j) = -2 * d;
    SM_ELEMENT_D(G, 1, 3 + j) = 2 * d;
  }
  return 0;
}

/* Consistent initial data: horizontal positions and velocities of §7; z < 0 and ż from the
 * position and velocity constraints. */
static void initial_state(const Pendulum* s, N_Vector qv, N_Vector pv) {
  const double x1 = 2.820, y1 = 0.025, x2 = 5.085, y2 = 0.105;
  const double vx1 = 3.381, vy1 = 2.506, vx2 = 2.497, vy2 = 10.495;
  const double z1 = -sqrt(s->l1 * s->l1 - x1 * x1 - y1 * y1);
  const double dx = x2 - x1, dy = y2 - y1, dz = -sqrt(s->l2 * s->l2 - dx * dx - dy * dy);
  const double vz1 = -(x1 * vx1 + y1 * vy1) / z1;
  const double vz2 = vz1 - (dx * (vx2 - vx1) + dy * (vy2 - vy1)) / dz;
  sunrealtype* q = N_VGetArrayPointer(qv);
  sunrealtype* p = N_VGetArrayPointer(pv);
  q[0] = x1, q[1] = y1, q[2] = z1, q[3] = x2, q[4] = y2, q[5] = z1 + dz;
  p[0] = s->m1 * vx1, p[1] = s->m1 * vy1, p[2] = s->m1 * vz1;
  p[3] = s->m2 * vx2, p[4] = s->m2 * vy2, p[5] = s->m2 * vz2;
}

static int check(int flag, const char* call, void* mem) {
  const char* message = "";
  if (flag == GEOMINT_SUCCESS) return 0;
  if (mem) GeomintGetLastErrorMessage(mem, &message);
  fprintf(stderr, "%s failed: %s\n  %s\n", call, GeomintGetReturnFlagName(flag), message);
  return 1;
}

static void print_state(const char* name, N_Vector q, N_Vector p) {
  const sunrealtype* a = N_VGetArrayPointer(q);
  const sunrealtype* b = N_VGetArrayPointer(p);
  printf("%-8s q = (%.10f %.10f %.10f %.10f %.10f %.10f)\n", name, a[0], a[1], a[2], a[3], a[4], a[5]);
  printf("%-8s p = (%.10f %.10f %.10f %.10f %.10f %.10f)\n", "", b[0], b[1], b[2], b[3], b[4], b[5]);
}

int main(void) {
  Pendulum pendulum = {2.0, 3.5, 4.0, 3.0, 9.81};
  const sunrealtype T = 2.0, h = 1e-3;
  GeomintCallbacks callbacks = {potential_gradient, NULL, hamiltonian};
  GeomintIDAOptions ida_options;
  GeomintIDAStats ida_stats;
  SUNContext ctx;
  N_Vector q, p, mass, q_ida, p_ida, g_template;
  SUNMatrix G, A;
  SUNLinearSolver LS;
  void* mem;
  sunrealtype t = 0, h0 = 0, h1 = 0, h_ida = 0, position = 0, velocity = 0, diff = 0;
  sunindextype size = 0;
  long int steps = 0, iterations = 0;
  int failed = 0, i;

  if (SUNContext_Create(NULL, &ctx)) return EXIT_FAILURE;
  q = N_VNew_Serial(6, ctx);
  p = N_VNew_Serial(6, ctx);
  mass = N_VNew_Serial(6, ctx);
  q_ida = N_VNew_Serial(6, ctx);
  p_ida = N_VNew_Serial(6, ctx);
  G = SUNDenseMatrix(2, 6, ctx);
  initial_state(&pendulum, q, p);
  for (i = 0; i < 6; ++i) NV_Ith_S(mass, i) = i < 3 ? pendulum.m1 : pendulum.m2;

  /* geomint: Lobatto IIIA-IIIB, 3 stages */
  mem = GeomintCreate(ctx, GEOMINT_CONSTRAINED_LOBATTO_4_3);
  if (!mem) return EXIT_FAILURE;
  failed |= check(GeomintInit(mem, &callbacks, 0.0, q, p), "GeomintInit", mem);
  failed |= check(GeomintSetUserData(mem, &pendulum), "GeomintSetUserData", mem);
  failed |= check(GeomintSetMass(mem, mass), "GeomintSetMass", mem);
  failed |= check(GeomintSetConstraints(mem, constraint, constraint_jacobian, G), "GeomintSetConstraints", mem);
  failed |= check(GeomintSetFixedStep(mem, h), "GeomintSetFixedStep", mem);
  /* 2000 steps in one call: above IDA's default limit of 500 per call (IDASetMaxNumSteps). */
  failed |= check(GeomintSetMaxNumSteps(mem, 5000), "GeomintSetMaxNumSteps", mem);
  /* The stage Newton systems (G M⁻¹ Gᵀ for this separable H) by SUNDIALS' dense solver. */
  failed |= check(GeomintGetLinearSystemSize(mem, &size), "GeomintGetLinearSystemSize", mem);
  g_template = N_VNew_Serial(size, ctx);
  A = SUNDenseMatrix(size, size, ctx);
  LS = SUNLinSol_Dense(g_template, A, ctx);
  failed |= check(GeomintSetLinearSolver(mem, LS, A), "GeomintSetLinearSolver", mem);
  failed |= check(GeomintGetEnergy(mem, &h0), "GeomintGetEnergy", mem);
  failed |= check(GeomintEvolve(mem, T, q, p, &t, GEOMINT_NORMAL), "GeomintEvolve", mem);
  failed |= check(GeomintGetEnergy(mem, &h1), "GeomintGetEnergy", mem);
  failed |= check(GeomintGetConstraintResidual(mem, &position, &velocity), "GeomintGetConstraintResidual", mem);
  failed |= check(GeomintGetNumSteps(mem, &steps), "GeomintGetNumSteps", mem);
  failed |= check(GeomintGetNumNewtonIters(mem, &iterations), "GeomintGetNumNewtonIters", mem);
  if (failed) return EXIT_FAILURE;
  printf("%s, h = %g, t = %g: %ld steps, %ld Newton iterations\n", GeomintGetMethodName(GEOMINT_CONSTRAINED_LOBATTO_4_3),
         h, t, steps, iterations);
  print_state("geomint", q, p);
  printf("         energy error %.3e, constraint residuals %.3e (position) %.3e (velocity)\n", h1 - h0, position,
         velocity);

  /* IDA reference from the same callbacks and the same initial state */
  GeomintIDADefaultOptions(&ida_options);
  ida_options.rtol = ida_options.atol = 1e-10;
  failed |= check(GeomintSolveIDA(mem, &ida_options, 1, &T, &q_ida, &p_ida, &ida_stats), "GeomintSolveIDA", mem);
  if (failed) return EXIT_FAILURE;
  hamiltonian(T, q_ida, p_ida, &h_ida, &pendulum);
  printf("IDA (GGL, index 2), rtol = atol = 1e-10: %ld steps, %ld residuals, %ld Jacobians, %ld Newton iterations, "
         "%ld error-test and %ld convergence failures, %.3f s CPU\n",
         ida_stats.steps, ida_stats.residual_evals, ida_stats.jacobian_evals, ida_stats.nonlinear_iters,
         ida_stats.error_test_fails, ida_stats.convergence_fails, ida_stats.cpu_seconds);
  print_state("IDA", q_ida, p_ida);
  printf("         energy error %.3e\n", h_ida - h0);

  for (i = 0; i < 6; ++i) {
    diff = fmax(diff, fabs(NV_Ith_S(q, i) - NV_Ith_S(q_ida, i)));
    diff = fmax(diff, fabs(NV_Ith_S(p, i) - NV_Ith_S(p_ida, i)));
  }
  printf("max |geomint - IDA| = %.3e\n", diff);

  GeomintFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  SUNMatDestroy(G);
  N_VDestroy(g_template);
  N_VDestroy(q);
  N_VDestroy(p);
  N_VDestroy(mass);
  N_VDestroy(q_ida);
  N_VDestroy(p_ida);
  SUNContext_Free(&ctx);
  return diff <= 1e-6 ? EXIT_SUCCESS : EXIT_FAILURE;
}
