/* geomint's geometric steppers as a SUNDIALS-style module over serial N_Vectors (C and C++).
 *
 * Lifecycle, as IDA's:
 *   mem = GeomintCreate(sunctx, GEOMINT_CONSTRAINED_LOBATTO_4_3);
 *   GeomintInit(mem, &callbacks, t0, q0, p0);
 *   GeomintSet*(mem, ...);              user data, constraints, mass, Hessians, fixed step, ...
 *   GeomintEvolve(mem, tout, q, p, &tret);
 *   GeomintGet*(mem, ...);              steps, Newton iterations, constraint residual, errors
 *   GeomintFree(&mem);
 *
 * The problem is a constrained Hamiltonian system (geomint's constrained_system.hpp):
 *   q̇ = ∂H/∂p,   ṗ = −∂H/∂q − G(q)ᵀλ,   0 = g(q),   G = ∂g/∂q,
 * given by callbacks on serial N_Vectors. geomint views their data with Eigen::Map and runs
 * its C++ steppers; results are bit for bit those of the C++ steppers on the same system.
 *
 * Callbacks return 0 on success, > 0 for a recoverable failure (the step fails with
 * GEOMINT_CALLBACK_RECOVERABLE; a smaller step may succeed) and < 0 for an unrecoverable one
 * (GEOMINT_CALLBACK_FAIL). Either way the state is left as it was before the failing step.
 * Callbacks must not modify their input vectors. Their time argument is the start of the step
 * being taken (the Hamiltonian and constraints themselves are autonomous).
 *
 * Every function returns a flag: GEOMINT_SUCCESS (0), > 0 recoverable, < 0 fatal; names by
 * GeomintGetReturnFlagName, details by GeomintGetLastErrorMessage. Nothing aborts.
 */
#ifndef GEOMINT_SUNDIALS_H
#define GEOMINT_SUNDIALS_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Return flags ------------------------------------------------------------------------ */
#define GEOMINT_SUCCESS 0
/* > 0, recoverable: the step was not taken, the state is unchanged; a smaller step may succeed */
#define GEOMINT_NEWTON_FAIL 1          /* stage iteration diverged or hit its iteration limit   */
#define GEOMINT_NONFINITE 2            /* a NaN or Inf arose during the step                    */
#define GEOMINT_CALLBACK_RECOVERABLE 3 /* a user callback returned > 0                          */
/* < 0, fatal */
#define GEOMINT_MEM_NULL -1            /* mem is NULL                                           */
#define GEOMINT_ILL_INPUT -2           /* an argument is invalid (see the last error message)   */
#define GEOMINT_BAD_METHOD -3          /* unknown method id                                     */
#define GEOMINT_NO_MALLOC -4           /* GeomintInit has not been called                       */
#define GEOMINT_MEM_FAIL -5            /* out of memory                                         */
#define GEOMINT_INCONSISTENT_STATE -6  /* the state is off the manifold g = 0, G ∂H/∂p = 0      */
#define GEOMINT_CALLBACK_FAIL -7       /* a user callback returned < 0                          */
#define GEOMINT_SINGULAR_JACOBIAN -8   /* G ∂²H/∂p² Gᵀ or the stage Jacobian is singular        */
#define GEOMINT_LSETUP_FAIL -9         /* the SUNLinearSolver setup failed unrecoverably        */
#define GEOMINT_LSOLVE_FAIL -10        /* the SUNLinearSolver solve failed                      */
#define GEOMINT_IDA_FAIL -11           /* the IDA reference failed (IDA's flag in the stats)    */
#define GEOMINT_UNRECOGNIZED_ERROR -99

/* ---- Method ids: family_name_order_stages (family_name_order where stages do not apply) ----
 * 100-199 constrained family, 300-399 variational family: the constrained lifecycle below.
 * 200-299 Lie-Poisson family: the GeomintLie* lifecycle (end of this header). */
typedef enum {
  GEOMINT_CONSTRAINED_RATTLE_2_2 = 100,           /* RATTLE                                  */
  GEOMINT_CONSTRAINED_LOBATTO_2_2 = 101,          /* Lobatto IIIA-IIIB, 2 stages (= RATTLE)  */
  GEOMINT_CONSTRAINED_LOBATTO_4_3 = 102,          /* Lobatto IIIA-IIIB, 3 stages             */
  GEOMINT_CONSTRAINED_LOBATTO_6_4 = 103,          /* Lobatto IIIA-IIIB, 4 stages             */
  GEOMINT_CONSTRAINED_LOBATTO_8_5 = 104,          /* Lobatto IIIA-IIIB, 5 stages             */
  GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2 = 105, /* constrained symplectic Euler            */
  GEOMINT_REICH_SYMMETRIC_2 = 106,                /* Reich / McLachlan-Scovel symmetric
                                                     constraint algorithm; any H, dense G     */
  GEOMINT_VARIATIONAL_MIDPOINT_2 = 300,           /* variational midpoint (Marsden-Wendlandt
                                                     §6); separable H (GeomintSetMass), dense G */
  GEOMINT_SHAKE_2 = 301,                          /* SHAKE, the two-step form of the same DEL
                                                     equations; separable H, dense G. Started
                                                     by one variational-midpoint step        */
  /* Lie-Poisson (GeomintLieCreate); Engø-Faltinsen 1999. Casimirs kept to round-off by all.  */
  GEOMINT_LIE_RKMK_RK4_EXP_4_4 = 200,             /* RKMK, classical RK4, exp coordinates    */
  GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4 = 201,          /* RKMK, classical RK4, Cayley coordinates */
  GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1 = 202,        /* RKMK, implicit midpoint, exp            */
  GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1 = 203,     /* RKMK, implicit midpoint, Cayley         */
  GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2 = 204,      /* energy-conserving (Theorem 2), Gonzalez
                                                     discrete gradient, exp; needs H          */
  GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2 = 205    /* the same in Cayley coordinates          */
} GeomintMethodID;

/* ---- Callbacks ---------------------------------------------------------------------------- */
/* out = ∂H/∂q or ∂H/∂p at (q, p); all vectors of length n. */
typedef int (*GeomintGradientFn)(sunrealtype t, N_Vector q, N_Vector p, N_Vector out, void* user_data);
/* *energy = H(q, p). */
typedef int (*GeomintEnergyFn)(sunrealtype t, N_Vector q, N_Vector p, sunrealtype* energy, void* user_data);
/* g = g(q), length m. */
typedef int (*GeomintConstraintFn)(sunrealtype t, N_Vector q, N_Vector g, void* user_data);
/* G = ∂g/∂q (m × n) into the matrix given to GeomintSetConstraints (dense or CSR sparse). */
typedef int (*GeomintConstraintJacFn)(sunrealtype t, N_Vector q, SUNMatrix G, void* user_data);
/* H = ∂²H/∂q², ∂²H/∂q∂p ((i, j) = ∂²H/∂q_i∂p_j) or ∂²H/∂p² into a dense n × n SUNMatrix. */
typedef int (*GeomintHessianFn)(sunrealtype t, N_Vector q, N_Vector p, SUNMatrix H, void* user_data);
/* H = Σ_k λ_k ∇²g_k(q) into a dense n × n SUNMatrix. */
typedef int (*GeomintConstraintHessianFn)(sunrealtype t, N_Vector q, N_Vector lambda, SUNMatrix H, void* user_data);

typedef struct GeomintCallbacks {
  GeomintGradientFn dh_dq;     /* required: ∂H/∂q. For a separable H (GeomintSetMass): ∇V(q),
                                  called with p = 0                                          */
  GeomintGradientFn dh_dp;     /* ∂H/∂p; required unless H is separable (then not called)     */
  GeomintEnergyFn hamiltonian; /* optional: H(q, p), for GeomintGetEnergy only                */
} GeomintCallbacks;

/* ---- Lifecycle ------------------------------------------------------------------------------ */
/* NULL if sunctx is NULL, the method id is unknown (GeomintGetMethodName(id) == NULL) or
 * memory is exhausted. */
void* GeomintCreate(SUNContext sunctx, int method);
/* q0, p0: serial N_Vectors of equal length n > 0 (copied). Discards any earlier problem. */
int GeomintInit(void* mem, const GeomintCallbacks* callbacks, sunrealtype t0, N_Vector q0, N_Vector p0);
/* Restarts from (t0, q0, p0) keeping the problem and settings. */
int GeomintReInit(void* mem, sunrealtype t0, N_Vector q0, N_Vector p0);
void GeomintFree(void** mem);

/* ---- Optional and problem settings (after GeomintInit) ------------------------------------- */
int GeomintSetMethod(void* mem, int method);  /* switch method; the state is kept */
int GeomintSetUserData(void* mem, void* user_data);
/* Declares H = ½ pᵀM⁻¹p + V(q) with constant M = diag(mass), mass > 0: the stepper's separable
 * fast path (stage Newton matrix G M⁻¹ Gᵀ, m × m). */
int GeomintSetMass(void* mem, N_Vector mass);
/* m = rows of G (an m × n dense SUNMatrix, or a CSR sparse one with G's pattern); G is cloned.
 * A sparse G needs a separable H. Without constraints the steppers are unconstrained. */
int GeomintSetConstraints(void* mem, GeomintConstraintFn g, GeomintConstraintJacFn jac, SUNMatrix G);
/* Optional second derivatives for Newton's matrices (NULL: forward differences). */
int GeomintSetHessianFns(void* mem, GeomintHessianFn h_qq, GeomintHessianFn h_qp, GeomintHessianFn h_pp);
int GeomintSetConstraintHessianFn(void* mem, GeomintConstraintHessianFn fn);
int GeomintSetFixedStep(void* mem, sunrealtype h);           /* required, h > 0              */
int GeomintSetStageTolerance(void* mem, sunrealtype tol);    /* default 10 ε (near round-off) */
int GeomintSetMaxStageIters(void* mem, int maxiters);        /* default 50                    */
int GeomintSetConsistencyTolerance(void* mem, sunrealtype tol); /* default 1e-10 (scaled)     */
/* A direct SUNLinearSolver (dense, band or KLU) with its SUNMatrix for the stage Newton
 * systems, of order GeomintGetLinearSystemSize: G M⁻¹ Gᵀ (m × m) for a separable H, the
 * stage Jacobian otherwise. Not owned; NULL restores geomint's Eigen factorizations. */
int GeomintSetLinearSolver(void* mem, SUNLinearSolver LS, SUNMatrix A);

/* ---- Integration ------------------------------------------------------------------------------ */
/* Fixed steps h from the current time to tout (the last one shortened to land on tout; tout
 * before the current time steps backwards). On success q, p (serial, length n) hold the state
 * at *tret = tout. On failure the flag says why, *tret is the time of the last successful step
 * and q, p hold the state there: the failing step changed nothing. */
int GeomintEvolve(void* mem, sunrealtype tout, N_Vector q, N_Vector p, sunrealtype* tret);

/* ---- Outputs ---------------------------------------------------------------------------------- */
int GeomintGetNumSteps(void* mem, long int* nsteps);
int GeomintGetNumNewtonIters(void* mem, long int* niters);
int GeomintGetNumJacEvals(void* mem, long int* njevals);    /* stage Jacobian factorizations  */
int GeomintGetCurrentTime(void* mem, sunrealtype* t);
/* Scaled residuals of g(q) = 0 and G(q) ∂H/∂p = 0 at the current state (consistency.hpp). */
int GeomintGetConstraintResidual(void* mem, sunrealtype* position, sunrealtype* velocity);
int GeomintGetEnergy(void* mem, sunrealtype* energy);       /* needs callbacks.hamiltonian    */
int GeomintGetLinearSystemSize(void* mem, sunindextype* size);
int GeomintGetLastFlag(void* mem, int* flag);
int GeomintGetLastErrorMessage(void* mem, const char** message); /* valid until the next call */
const char* GeomintGetMethodName(int method);  /* e.g. "constrained_lobatto_4_3"; NULL if unknown */
const char* GeomintGetReturnFlagName(int flag); /* e.g. "GEOMINT_NEWTON_FAIL"; static storage   */

/* ---- IDA reference from the same callbacks ------------------------------------------------- */
#define GEOMINT_IDA_GGL 0    /* stabilized index 2: g and G ∂H/∂p held at all times */
#define GEOMINT_IDA_INDEX1 1 /* acceleration-level constraint: drifts off g = 0      */
#define GEOMINT_IDA_DENSE 0
#define GEOMINT_IDA_BAND 1
#define GEOMINT_IDA_KLU 2

typedef struct GeomintIDAOptions {
  int formulation;      /* GEOMINT_IDA_GGL (default) or GEOMINT_IDA_INDEX1  */
  int linear_solver;    /* GEOMINT_IDA_DENSE (default), _BAND or _KLU        */
  sunrealtype rtol;     /* default 1e-8 */
  sunrealtype atol;     /* default 1e-8 */
  long int max_steps;   /* per output interval, default 1e6 */
} GeomintIDAOptions;

typedef struct GeomintIDAStats {
  long int steps, residual_evals, jacobian_evals, linear_setups, nonlinear_iters,
      error_test_fails, convergence_fails;
  double cpu_seconds;
  int samples;   /* output times reached */
  int ida_flag;  /* IDA's return flag; its name is in the last error message on failure */
} GeomintIDAStats;

void GeomintIDADefaultOptions(GeomintIDAOptions* options);
/* Integrates the problem attached to mem with IDA from the initial state of GeomintInit /
 * GeomintReInit through times[0] < ... < times[ntimes-1], writing the states to q_out[i],
 * p_out[i]. Does not touch the stepper's state. GEOMINT_IDA_FAIL if IDA failed. */
int GeomintSolveIDA(void* mem, const GeomintIDAOptions* options, int ntimes, const sunrealtype* times,
                    N_Vector* q_out, N_Vector* p_out, GeomintIDAStats* stats);

/* ---- Lie-Poisson systems: y in g*, dy/dt = J(y) grad H(y) = -ad*_{grad H(y)} y -----------------
 * A lifecycle of its own, in the same style and with the same flags:
 *   mem = GeomintLieCreate(sunctx, GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
 *   GeomintLieInit(mem, grad_h, hamiltonian, t0, y0);
 *   GeomintLieSet*(mem, ...);               user data, fixed step, stage tolerance, iteration limit
 *   GeomintLieEvolve(mem, tout, y, &tret);
 *   GeomintLieGet*(mem, ...);               steps, Newton iterations, Casimirs, energy, errors
 *   GeomintLieFree(&mem);
 * Coordinates of y (geomint/lie/so3.hpp, se3.hpp): so(3)*: the body angular momentum (3);
 * se(3)*: (u, v), u the angular and v the linear part (6; the heavy top: v the direction of
 * gravity in the body). GeomintLie* functions reject a Geomint* memory block (GEOMINT_ILL_INPUT)
 * and conversely; GeomintGetMethodName and GeomintGetReturnFlagName serve both. */
typedef enum {
  GEOMINT_ALGEBRA_SO3 = 1, /* so(3)*, dimension 3, Casimir |y|                     */
  GEOMINT_ALGEBRA_SE3 = 2  /* se(3)*, dimension 6, Casimirs |v| and u.v            */
} GeomintAlgebraID;

/* grad = grad H(y) in g (length d). Same 0 / > 0 / < 0 convention as above. */
typedef int (*GeomintLieGradientFn)(sunrealtype t, N_Vector y, N_Vector grad, void* user_data);
/* *energy = H(y). */
typedef int (*GeomintLieEnergyFn)(sunrealtype t, N_Vector y, sunrealtype* energy, void* user_data);

/* NULL if sunctx is NULL, the method is not a Lie-Poisson id, the algebra id is unknown, or
 * memory is exhausted. */
void* GeomintLieCreate(SUNContext sunctx, int method, int algebra);
/* grad_h is required; hamiltonian is required by the discrete-gradient methods (they evaluate
 * H), optional otherwise (GeomintLieGetEnergy). y0: serial, length = the algebra's dimension. */
int GeomintLieInit(void* mem, GeomintLieGradientFn grad_h, GeomintLieEnergyFn hamiltonian, sunrealtype t0, N_Vector y0);
int GeomintLieReInit(void* mem, sunrealtype t0, N_Vector y0);
void GeomintLieFree(void** mem);

int GeomintLieSetUserData(void* mem, void* user_data);
int GeomintLieSetFixedStep(void* mem, sunrealtype h);          /* required, h > 0                  */
/* Newton tolerance of the implicit methods (default: the method's own, 1 to 16 ulps). */
int GeomintLieSetStageTolerance(void* mem, sunrealtype tol);
int GeomintLieSetMaxStageIters(void* mem, int maxiters);       /* default 50                       */

/* As GeomintEvolve: fixed steps to tout; on failure *tret and y are where the last successful
 * step left them. */
int GeomintLieEvolve(void* mem, sunrealtype tout, N_Vector y, sunrealtype* tret);

int GeomintLieGetNumSteps(void* mem, long int* nsteps);
int GeomintLieGetNumNewtonIters(void* mem, long int* niters);
int GeomintLieGetCurrentTime(void* mem, sunrealtype* t);
int GeomintLieGetNumCasimirs(void* mem, int* count);
/* The algebra's Casimirs at the current state into casimirs[0 .. count-1]. */
int GeomintLieGetCasimirs(void* mem, sunrealtype* casimirs);
int GeomintLieGetEnergy(void* mem, sunrealtype* energy);    /* needs the hamiltonian callback */
int GeomintLieGetLastFlag(void* mem, int* flag);
int GeomintLieGetLastErrorMessage(void* mem, const char** message);

#ifdef __cplusplus
}
#endif

#endif /* GEOMINT_SUNDIALS_H */
