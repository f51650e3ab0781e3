/* An ensemble from C, as docs/ensembles.md describes it: one SUNContext and one geomint memory
 * block per thread, each block reused for that thread's trajectories (GeomintInit with the
 * trajectory's own data), trajectories taken dynamically from an atomic counter, results
 * written to per-trajectory slots. Nothing mutable is shared but the counter.
 *
 * Spherical pendulums of different rod lengths and initial data, RATTLE, h = 0.01 to T = 2.
 * The ensemble runs on 1 thread and on THREADS threads; the program fails (exit 1) unless every
 * final state, energy and residual agrees bit for bit, and every trajectory succeeded. Built
 * with -fsanitize=thread as well (tests/ensemble/CMakeLists.txt), where ThreadSanitizer fails
 * it on any data race. */
#include <geomint/sundials/geomint_sundials.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sunmatrix/sunmatrix_dense.h>

#define TRAJECTORIES 24
#define THREADS 4

typedef struct {
  double mass, length, gravity;
} Pendulum;

typedef struct {
  double q[3], p[3];
  double energy, position_residual, velocity_residual;
  int flag;
} Result;

typedef struct {
  atomic_int next; /* the next trajectory to take: the only shared mutable datum */
  const Pendulum* pendulums;
  Result* results;
} Ensemble;

/* H = |p|^2 / 2m + m g q3: separable, so only grad V is needed. */
static int potential_gradient(sunrealtype t, N_Vector q, N_Vector p, N_Vector out, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  sunrealtype* f = N_VGetArrayPointer(out);
  (void)t, (void)q, (void)p;
  f[0] = f[1] = 0;
  f[2] = s->mass * s->gravity;
  return 0;
}

static int hamiltonian(sunrealtype t, N_Vector qv, N_Vector pv, sunrealtype* h, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  const sunrealtype* q = N_VGetArrayPointer(qv);
  const sunrealtype* p = N_VGetArrayPointer(pv);
  (void)t;
  *h = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / (2 * s->mass) + s->mass * s->gravity * q[2];
  return 0;
}

static int constraint(sunrealtype t, N_Vector qv, N_Vector gv, void* user_data) {
  const Pendulum* s = (const Pendulum*)user_data;
  const sunrealtype* q = N_VGetArrayPointer(qv);
  (void)t;
  N_VGetArrayPointer(gv)[0] = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - s->length * s->length;
  return 0;
}

static int constraint_jacobian(sunrealtype t, N_Vector qv, SUNMatrix G, void* user_data) {
  const sunrealtype* q = N_VGetArrayPointer(qv);
  int j;
  (void)t, (void)user_data;
  for (j = 0; j < 3; ++j) SM_ELEMENT_D(G, 0, j) = 2 * q[j];
  return 0;
}

/* Trajectory i's data, from i alone. */
static Pendulum pendulum_of(int i) {
  Pendulum s;
  s.mass = 1.0 + 0.1 * (i % 5);
  s.length = 0.5 + 0.05 * i;
  s.gravity = 9.81;
  return s;
}

static void initial_state(int i, const Pendulum* s, N_Vector qv, N_Vector pv) {
  const double theta = 0.2 + 0.1 * i, omega = 1.0 + 0.25 * (i % 7);
  sunrealtype* q = N_VGetArrayPointer(qv);
  sunrealtype* p = N_VGetArrayPointer(pv);
  q[0] = s->length * sin(theta), q[1] = 0, q[2] = -s->length * cos(theta);
  p[0] = 0, p[1] = s->mass * omega * s->length * sin(theta), p[2] = 0;
}

/* One thread: its own context, vectors, matrix and memory block; trajectories from the counter. */
static void* worker(void* arg) {
  Ensemble* e = (Ensemble*)arg;
  const GeomintCallbacks callbacks = {potential_gradient, NULL, hamiltonian};
  SUNContext ctx;
  N_Vector q, p, mass;
  SUNMatrix G;
  void* mem;
  int i, k;
  if (SUNContext_Create(NULL, &ctx)) return NULL;
  q = N_VNew_Serial(3, ctx);
  p = N_VNew_Serial(3, ctx);
  mass = N_VNew_Serial(3, ctx);
  G = SUNDenseMatrix(1, 3, ctx);
  mem = GeomintCreate(ctx, GEOMINT_CONSTRAINED_RATTLE_2_2);
  for (i = atomic_fetch_add(&e->next, 1); i < TRAJECTORIES; i = atomic_fetch_add(&e->next, 1)) {
    const Pendulum* s = &e->pendulums[i];
    Result* r = &e->results[i];
    sunrealtype t = 0;
    initial_state(i, s, q, p);
    for (k = 0; k < 3; ++k) NV_Ith_S(mass, k) = s->mass;
    /* GeomintInit discards the block's previous problem: the trajectory's own callbacks' data,
     * masses and initial state, in the thread's one memory block. */
    r->flag = mem ? GEOMINT_SUCCESS : GEOMINT_MEM_NULL;
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintInit(mem, &callbacks, 0.0, q, p);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintSetUserData(mem, (void*)s);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintSetMass(mem, mass);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintSetConstraints(mem, constraint, constraint_jacobian, G);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintSetFixedStep(mem, 0.01);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintEvolve(mem, 2.0, q, p, &t, GEOMINT_NORMAL);
    if (r->flag == GEOMINT_SUCCESS) r->flag = GeomintGetEnergy(mem, &r->energy);
    if (r->flag == GEOMINT_SUCCESS)
      r->flag = GeomintGetConstraintResidual(mem, &r->position_residual, &r->velocity_residual);
    for (k = 0; k < 3; ++k) r->q[k] = NV_Ith_S(q, k), r->p[k] = NV_Ith_S(p, k);
  }
  GeomintFree(&mem);
  SUNMatDestroy(G);
  N_VDestroy(q);
  N_VDestroy(p);
  N_VDestroy(mass);
  SUNContext_Free(&ctx);
  return NULL;
}

static void run(int threads, const Pendulum* pendulums, Result* results) {
  Ensemble e;
  pthread_t ids[THREADS];
  int k;
  atomic_init(&e.next, 0);
  e.pendulums = pendulums;
  e.results = results;
  memset(results, 0, sizeof(Result) * TRAJECTORIES);
  for (k = 0; k < threads; ++k) pthread_create(&ids[k], NULL, worker, &e);
  for (k = 0; k < threads; ++k) pthread_join(ids[k], NULL);
}

int main(void) {
  Pendulum pendulums[TRAJECTORIES];
  static Result serial[TRAJECTORIES], parallel[TRAJECTORIES];
  int i, failed = 0;
  for (i = 0; i < TRAJECTORIES; ++i) pendulums[i] = pendulum_of(i);
  run(1, pendulums, serial);
  run(THREADS, pendulums, parallel);
  for (i = 0; i < TRAJECTORIES; ++i) {
    if (serial[i].flag != GEOMINT_SUCCESS || parallel[i].flag != GEOMINT_SUCCESS) {
      fprintf(stderr, "trajectory %d: flags %s / %s\n", i, GeomintGetReturnFlagName(serial[i].flag),
              GeomintGetReturnFlagName(parallel[i].flag));
      failed = 1;
    } else if (memcmp(&serial[i], &parallel[i], sizeof(Result)) != 0) {
      fprintf(stderr, "trajectory %d differs between 1 and %d threads\n", i, THREADS);
      failed = 1;
    } else if (!(serial[i].position_residual < 1e-12 && serial[i].velocity_residual < 1e-12)) {
      fprintf(stderr, "trajectory %d: residuals %g %g\n", i, serial[i].position_residual, serial[i].velocity_residual);
      failed = 1;
    }
  }
  printf("%d trajectories on 1 and %d threads, one memory block per thread: %s\n", TRAJECTORIES, THREADS,
         failed ? "MISMATCH" : "identical bit for bit");
  return failed;
}
