/* geomint's geometric steppers as a SUNDIALS-style module over serial N_Vectors (C and C++).
 * The full reference, with a table of IDA functions and their equivalents, is docs/sundials.md.
 *
 * Lifecycle, as IDA's:
 *   mem = GeomintCreate(sunctx, GEOMINT_CONSTRAINED_LOBATTO_4_3);
 *   GeomintInit(mem, &callbacks, t0, q0, p0);
 *   GeomintSet*(mem, ...);              user data, constraints, mass, Hessians, fixed step, ...
 *   GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P);     optional: project (q0, p0) onto the manifold
 *   GeomintEvolve(mem, tout, q, p, &tret, GEOMINT_NORMAL);
 *   GeomintGet*(mem, ...);              state, multipliers, statistics, errors
 *   GeomintFree(&mem);
 *
 * The problem is a constrained Hamiltonian system (geomint's constrained_system.hpp):
 *   q' = dH/dp,   p' = -dH/dq - G(q)^T lambda + f(t, q, p),   0 = g(q),   G = dg/dq,
 * given by callbacks on serial N_Vectors, the non-conservative force f optional
 * (GeomintSetForce). geomint views their data with Eigen::Map and runs
 * its C++ steppers; results are bit for bit those of the C++ steppers on the same system.
 *
 * Callbacks return 0 on success, > 0 for a recoverable failure (the step fails with
 * GEOMINT_CALLBACK_RECOVERABLE, negative as every failure; a smaller step may succeed) and < 0 for an unrecoverable one
 * (GEOMINT_CALLBACK_FAIL). Either way the state is left as it was before the failing step.
 * Callbacks must not modify their input vectors. Their time argument is the time of the stage
 * being evaluated, t_n + c_i h (c_i: the row sums of the method's position tableau; RATTLE:
 * t_n and t_n + h, Lobatto 3 stages: t_n, t_n + h/2, t_n + h), so that a time-dependent force
 * is integrated to the method's order. The Hamiltonian and the constraints must not depend on
 * t (only the force may). Methods 106, 300 and 301 pass the step's start time (they take no
 * force).
 *
 * Every function returns a flag: GEOMINT_SUCCESS (0), > 0 a normal return (a root, the stop
 * time), < 0 a failure (recoverable ones: GeomintIsRecoverableFlag); names by
 * GeomintGetReturnFlagName. A failing call records its flag and an ASCII message in the memory
 * block (GeomintGetLastFlag, GeomintGetLastErrorMessage), where they stay until another call on
 * the block fails, and passes them to the error handler if one is set. Nothing aborts.
 */
#ifndef GEOMINT_SUNDIALS_H
#define GEOMINT_SUNDIALS_H

#include <stdio.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>
#include <sundials/sundials_types.h>

/* The C API's symbols: exported from the shared library, whose other symbols are hidden. */
#if defined(_WIN32)
#define GEOMINT_SUNDIALS_EXPORT
#elif defined(__GNUC__)
#define GEOMINT_SUNDIALS_EXPORT __attribute__((visibility("default")))
#else
#define GEOMINT_SUNDIALS_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Return flags ------------------------------------------------------------------------ */
/* As in ida.h: 0 success, > 0 a normal return that is not plain success, < 0 the call failed. */
#define GEOMINT_SUCCESS 0
/* Not failures (IDA's values): GeomintEvolve stopped at the stop time (GeomintSetStopTime), or
 * at a root of the root functions (GeomintRootInit): *tret is the root, q, p the interpolated
 * state there, GeomintGetRootInfo says which. */
#define GEOMINT_TSTOP_RETURN 1
#define GEOMINT_ROOT_RETURN 2
/* < 0, recoverable (GeomintIsRecoverableFlag): the step was not taken, the state is unchanged;
 * a smaller step may succeed */
#define GEOMINT_NEWTON_FAIL -14          /* stage iteration diverged or hit its iteration limit */
#define GEOMINT_NONFINITE -15            /* a NaN or Inf arose during the step                  */
#define GEOMINT_CALLBACK_RECOVERABLE -16 /* a user callback returned > 0                        */
/* < 0, fatal */
#define GEOMINT_MEM_NULL -1            /* mem is NULL                                           */
#define GEOMINT_ILL_INPUT -2           /* an argument is invalid (see the last error message)   */
#define GEOMINT_BAD_METHOD -3          /* method id not accepted by this lifecycle              */
#define GEOMINT_NO_MALLOC -4           /* GeomintInit has not been called                       */
#define GEOMINT_MEM_FAIL -5            /* out of memory                                         */
#define GEOMINT_INCONSISTENT_STATE -6  /* the state is off the manifold g = 0, G dH/dp = 0      */
#define GEOMINT_CALLBACK_FAIL -7       /* a user callback returned < 0                          */
#define GEOMINT_SINGULAR_JACOBIAN -8   /* G d2H/dp2 G^T or the stage Jacobian is singular       */
#define GEOMINT_LSETUP_FAIL -9         /* the SUNLinearSolver setup failed unrecoverably        */
#define GEOMINT_LSOLVE_FAIL -10        /* the SUNLinearSolver solve failed                      */
#define GEOMINT_IDA_FAIL -11           /* the IDA reference failed (IDA's flag in the stats)    */
#define GEOMINT_BAD_T -12             /* GeomintGetDky: t is outside the last step             */
#define GEOMINT_BAD_K -13             /* GeomintGetDky: k is not 0 or 1                        */
#define GEOMINT_TOO_MUCH_WORK -17      /* the step limit of one call (GeomintSetMaxNumSteps) was
                                          reached before tout: q, p, *tret where it stopped     */
#define GEOMINT_UNRECOGNIZED_ERROR -99
/* 1 for the recoverable failures above (a smaller step may succeed), else 0. */
GEOMINT_SUNDIALS_EXPORT int GeomintIsRecoverableFlag(int flag);

/* ---- Solve modes: the itask argument of GeomintEvolve and GeomintLieEvolve (IDA's itask) ---- */
#define GEOMINT_NORMAL 1   /* grid steps up to or past tout; the state at tout interpolated    */
#define GEOMINT_ONE_STEP 2 /* one grid step (tout gives the direction only)                   */

/* ---- GeomintCalcIC: what to project -------------------------------------------------------- */
#define GEOMINT_CALCIC_Q_P 1 /* q onto g(q) = 0 (Gauss-Newton), then p onto G(q) dH/dp = 0       */
#define GEOMINT_CALCIC_P 2   /* p onto G(q) dH/dp = 0; q kept (it must satisfy g(q) = 0 already) */

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
  GEOMINT_CONSTRAINED_REICH_SYMMETRIC_2_2 = 106,  /* Reich / McLachlan-Scovel symmetric
                                                     constraint algorithm; any H, dense G     */
  GEOMINT_VARIATIONAL_MIDPOINT_2_1 = 300,         /* variational midpoint (Marsden-Wendlandt
                                                     §6); separable H (GeomintSetMass), dense G */
  GEOMINT_VARIATIONAL_SHAKE_2_1 = 301,            /* SHAKE, the two-step form of the same DEL
                                                     equations; separable H, dense G. Started
                                                     by one variational-midpoint step        */
  /* Lie-Poisson (GeomintLieCreate); Engø-Faltinsen 1999. Casimirs kept to round-off by all.  */
  GEOMINT_LIE_RKMK_RK4_EXP_4_4 = 200,             /* RKMK, classical RK4, exp coordinates    */
  GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4 = 201,          /* RKMK, classical RK4, Cayley coordinates */
  GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1 = 202,        /* RKMK, implicit midpoint, exp            */
  GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1 = 203,     /* RKMK, implicit midpoint, Cayley         */
  GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_EXP_2_1 = 204,  /* energy-conserving (Theorem 2), Gonzalez
                                                     discrete gradient, exp; needs H          */
  GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_CAYLEY_2_1 = 205  /* the same in Cayley coordinates          */
} GeomintMethodID;
/* Each id's name (GeomintGetMethodName) is its id in geomint's method catalogue, the name the
 * geomint command accepts. Earlier spellings of five ids, kept for existing programs: */
#define GEOMINT_REICH_SYMMETRIC_2 GEOMINT_CONSTRAINED_REICH_SYMMETRIC_2_2
#define GEOMINT_VARIATIONAL_MIDPOINT_2 GEOMINT_VARIATIONAL_MIDPOINT_2_1
#define GEOMINT_SHAKE_2 GEOMINT_VARIATIONAL_SHAKE_2_1
#define GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2 GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_EXP_2_1
#define GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2 GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_CAYLEY_2_1

/* ---- Callbacks ---------------------------------------------------------------------------- */
/* out = dH/dq or dH/dp at (q, p); all vectors of length n. */
typedef int (*GeomintGradientFn)(sunrealtype t, N_Vector q, N_Vector p, N_Vector out, void* user_data);
/* *energy = H(q, p). */
typedef int (*GeomintEnergyFn)(sunrealtype t, N_Vector q, N_Vector p, sunrealtype* energy, void* user_data);
/* g = g(q), length m. */
typedef int (*GeomintConstraintFn)(sunrealtype t, N_Vector q, N_Vector g, void* user_data);
/* G = dg/dq (m x n) into the matrix given to GeomintSetConstraints (dense or CSR sparse). */
typedef int (*GeomintConstraintJacFn)(sunrealtype t, N_Vector q, SUNMatrix G, void* user_data);
/* H = d2H/dq2, d2H/dqdp ((i, j) = d2H/dq_i dp_j) or d2H/dp2 into a dense n x n SUNMatrix. */
typedef int (*GeomintHessianFn)(sunrealtype t, N_Vector q, N_Vector p, SUNMatrix H, void* user_data);
/* H = sum_k lambda_k Hess g_k(q) into a dense n x n SUNMatrix. */
typedef int (*GeomintConstraintHessianFn)(sunrealtype t, N_Vector q, N_Vector lambda, SUNMatrix H, void* user_data);

typedef struct GeomintCallbacks {
  GeomintGradientFn dh_dq;     /* required: dH/dq. For a separable H (GeomintSetMass): grad V(q),
                                  called with p = 0                                          */
  GeomintGradientFn dh_dp;     /* dH/dp; required unless H is separable (then not called)     */
  GeomintEnergyFn hamiltonian; /* optional: H(q, p), for GeomintGetEnergy only                */
} GeomintCallbacks;

/* f = f(t, q, p), the non-conservative generalized force (length n), for GeomintSetForce. */
typedef int (*GeomintForceFn)(sunrealtype t, N_Vector q, N_Vector p, N_Vector f, void* user_data);

/* ---- GeomintSetForce: what the force depends on ------------------------------------------ */
#define GEOMINT_FORCE_POSITION 1 /* f(t, q) only: p is passed as zeros. A separable H keeps its
                                    fast stage solve (f folded into grad V: G M^-1 G^T, m x m) */
#define GEOMINT_FORCE_GENERAL 2  /* f(t, q, p) (damping): the stages are solved by full Newton
                                    (needs a dense G)                                           */

/* Called by every failing call on a memory block, after its flag and message are recorded:
 * error_code = the flag, module = "GEOMINT" or "GEOMINT_LIE", function = the failing function's
 * name, msg = the message (ASCII), eh_data as given. The signature of IDAErrHandlerFn. */
typedef void (*GeomintErrHandlerFn)(int error_code, const char* module, const char* function, char* msg,
                                    void* eh_data);

/* ---- Lifecycle ------------------------------------------------------------------------------ */
/* Returns NULL only if sunctx is NULL or memory is exhausted (as IDACreate). A method id this
 * lifecycle does not accept (unknown, or a Lie-Poisson id) is recorded in the block:
 * GeomintGetLastFlag reports GEOMINT_BAD_METHOD at once, GeomintInit refuses with the same flag
 * until GeomintSetMethod sets an accepted id. */
GEOMINT_SUNDIALS_EXPORT void* GeomintCreate(SUNContext sunctx, int method);
/* q0, p0: serial N_Vectors of equal length n > 0, finite (copied). Discards any earlier problem
 * and resets the statistics. As in IDA, the consistency of (q0, p0) with the constraints is not
 * a setter's business: GeomintInit, GeomintReInit, GeomintSetConstraints and GeomintSetMass take
 * the state as it is and return GEOMINT_SUCCESS; GeomintEvolve refuses a state off the manifold
 * with GEOMINT_INCONSISTENT_STATE and its residuals, GeomintCalcIC projects it, and
 * GeomintGetConstraintResidual measures it. */
GEOMINT_SUNDIALS_EXPORT int GeomintInit(void* mem, const GeomintCallbacks* callbacks, sunrealtype t0, N_Vector q0, N_Vector p0);
/* Restarts from (t0, q0, p0) keeping the problem, settings and statistics (a new time grid from
 * t0); the state's consistency is checked by GeomintEvolve, as after GeomintInit. */
GEOMINT_SUNDIALS_EXPORT int GeomintReInit(void* mem, sunrealtype t0, N_Vector q0, N_Vector p0);
/* Projects the current state onto the manifold (as IDACalcIC computes consistent initial
 * values): which = GEOMINT_CALCIC_Q_P or GEOMINT_CALCIC_P. The projected state becomes the
 * current state and the IDA reference's start. GEOMINT_INCONSISTENT_STATE if q is off g = 0
 * with GEOMINT_CALCIC_P; GEOMINT_SINGULAR_JACOBIAN or GEOMINT_NEWTON_FAIL if the projection
 * fails (the state is then unchanged). */
GEOMINT_SUNDIALS_EXPORT int GeomintCalcIC(void* mem, int which);
GEOMINT_SUNDIALS_EXPORT void GeomintFree(void** mem);

/* ---- Optional and problem settings (after GeomintInit unless said otherwise) ---------------- */
GEOMINT_SUNDIALS_EXPORT int GeomintSetMethod(void* mem, int method);  /* also before Init; switch method, state kept */
/* Also before Init; another pointer between GeomintEvolve calls starts the next step afresh
 * (nothing computed with the old data is reused). */
GEOMINT_SUNDIALS_EXPORT int GeomintSetUserData(void* mem, void* user_data);
GEOMINT_SUNDIALS_EXPORT int GeomintSetErrHandlerFn(void* mem, GeomintErrHandlerFn ehfun, void* eh_data); /* also before
                                                  Init; NULL: none (the default: nothing printed) */
/* Declares H = 1/2 p^T M^-1 p + V(q) with constant M = diag(mass), mass > 0: the stepper's
 * separable fast path (stage Newton matrix G M^-1 G^T, m x m). */
GEOMINT_SUNDIALS_EXPORT int GeomintSetMass(void* mem, N_Vector mass);
/* m = rows of G (an m x n dense SUNMatrix, or a CSR sparse one with G's pattern); G is cloned.
 * A sparse G needs a separable H. Without constraints the steppers are unconstrained.
 * GeomintSetConstraints(mem, NULL, NULL, NULL) removes them. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetConstraints(void* mem, GeomintConstraintFn g, GeomintConstraintJacFn jac, SUNMatrix G);
/* A non-conservative force f (GeomintForceFn): dependence = GEOMINT_FORCE_POSITION or
 * GEOMINT_FORCE_GENERAL. f(t, ...) is evaluated at each stage's time. Taken by the constrained
 * PRK methods (ids 100-105; the others refuse a forced problem with GEOMINT_ILL_INPUT at
 * GeomintEvolve) and by the IDA reference. A velocity-dependent force with a sparse G is
 * GEOMINT_ILL_INPUT. force = NULL removes it. Its Jacobians, for Newton's matrix of the
 * general path, are forward differences. With a force the energy is no longer conserved. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetForce(void* mem, GeomintForceFn force, int dependence);
/* Optional second derivatives for Newton's matrices (NULL: forward differences). */
GEOMINT_SUNDIALS_EXPORT int GeomintSetHessianFns(void* mem, GeomintHessianFn h_qq, GeomintHessianFn h_qp, GeomintHessianFn h_pp);
GEOMINT_SUNDIALS_EXPORT int GeomintSetConstraintHessianFn(void* mem, GeomintConstraintHessianFn fn);
/* Required, also before Init: h != 0, finite. Its sign is the direction of integration. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetFixedStep(void* mem, sunrealtype h);
GEOMINT_SUNDIALS_EXPORT int GeomintSetStageTolerance(void* mem, sunrealtype tol);    /* default 10 eps (near round-off) */
GEOMINT_SUNDIALS_EXPORT int GeomintSetMaxStageIters(void* mem, int maxiters);        /* default 50                      */
GEOMINT_SUNDIALS_EXPORT int GeomintSetConsistencyTolerance(void* mem, sunrealtype tol); /* default 1e-10 (scaled)       */
/* IDASetMaxNumSteps: steps per GeomintEvolve call before GEOMINT_TOO_MUCH_WORK; 0 restores the
 * default 500, a negative value removes the limit. Also before Init. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetMaxNumSteps(void* mem, long int mxsteps);
/* IDASetStopTime: GeomintEvolve does not step past tstop (the step that would is shortened to
 * land on it) and returns GEOMINT_TSTOP_RETURN there; the stop time is then cleared.
 * GeomintClearStopTime clears it before. Also before Init. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetStopTime(void* mem, sunrealtype tstop);
GEOMINT_SUNDIALS_EXPORT int GeomintClearStopTime(void* mem);
/* A direct SUNLinearSolver (dense, band or KLU) with its SUNMatrix for the stage Newton
 * systems of the constrained PRK methods (ids 100-105), of order GeomintGetLinearSystemSize:
 * G M^-1 G^T (m x m) for a separable H without a velocity-dependent force (GEOMINT_FORCE_GENERAL),
 * the stage Jacobian otherwise. Set method, mass, force and
 * constraints first: a solver of another order, or one given to a method that takes none, is
 * refused here (GEOMINT_ILL_INPUT; a later change of the problem that alters the order makes
 * GeomintEvolve refuse it). Not owned; NULL restores geomint's Eigen factorizations. */
GEOMINT_SUNDIALS_EXPORT int GeomintSetLinearSolver(void* mem, SUNLinearSolver LS, SUNMatrix A);

/* ---- Integration ------------------------------------------------------------------------------ */
/* Fixed steps h on the grid t_grid + k h, t_grid the time of GeomintInit / GeomintReInit or of
 * the last GeomintSetFixedStep that changed h (times computed, never accumulated), as IDASolve:
 * GEOMINT_NORMAL steps until a grid point reaches or passes tout and returns *tret = tout with
 * (q, p) there, from the last step's continuous extension when tout is off the grid (the
 * integrator's own state stays on its grid point, GeomintGetCurrentTime / State; a tout inside
 * the last step takes no step). GEOMINT_ONE_STEP takes one grid step (after a root return inside
 * a step, the call returns that step's end first). A stop time (GeomintSetStopTime) within a
 * step shortens that step to land on it: GEOMINT_TSTOP_RETURN there, and the stop time is
 * cleared; the next step returns to the grid. At most GeomintSetMaxNumSteps steps per call
 * (default 500): GEOMINT_TOO_MUCH_WORK at the point reached. tout behind the last step in the
 * direction of h is GEOMINT_ILL_INPUT (as IDASolve). An inconsistent state is refused here
 * (GEOMINT_INCONSISTENT_STATE) unless projected first with GeomintCalcIC. On failure the flag
 * says why, *tret is the time of the last successful step and q, p hold the state there: the
 * failing step changed nothing (a root function that fails after a step leaves that step taken,
 * and q, p, *tret at its end). */
GEOMINT_SUNDIALS_EXPORT int GeomintEvolve(void* mem, sunrealtype tout, N_Vector q, N_Vector p, sunrealtype* tret, int itask);

/* ---- Dense output and roots (IDAGetDky, IDARootInit) ------------------------------------------- */
/* The state (k = 0) or its time derivative (k = 1) at t inside the last step taken (serial,
 * length n), from the step's continuous extension: Hermite interpolation with the exact vector
 * field (dq/dt = dH/dp, dp/dt = -dH/dq - G^T lambda + f, lambda of the index-1 form) at both
 * ends, cubic for methods of order < 4, quintic above. The steps stay on their grid.
 * GEOMINT_BAD_T outside [t - h_last, t], GEOMINT_BAD_K for k other than 0, 1, GEOMINT_ILL_INPUT
 * before the first step. */
GEOMINT_SUNDIALS_EXPORT int GeomintGetDky(void* mem, sunrealtype t, int k, N_Vector dky_q, N_Vector dky_p);
/* Root functions g_i(t, q, p), i < nrtfn, written to gout; a nonzero return stops the
 * integration (< 0: GEOMINT_CALLBACK_FAIL, > 0: GEOMINT_CALLBACK_RECOVERABLE), and so does a
 * NaN in gout, at a grid point or on the extension inside a step (GEOMINT_ILL_INPUT). */
typedef int (*GeomintRootFn)(sunrealtype t, N_Vector q, N_Vector p, sunrealtype* gout, void* user_data);
/* After every step GeomintEvolve compares the signs of g at the step's ends; a sign change is
 * located on the continuous extension (Boost.Math's TOMS 748, to 1e-14 relative to the step)
 * and GeomintEvolve returns GEOMINT_ROOT_RETURN with *tret at the earliest root (the end of the
 * final bracket past the root, as IDA's) and (q, p) interpolated there; the next call goes on
 * from there on the original grid. Several functions
 * with a root at the same time are reported together; a root exactly at a grid point is
 * reported once; a function that is zero at the initial time is not reported there. nrtfn = 0
 * switches root finding off. user_data is the problem's (GeomintInit). */
GEOMINT_SUNDIALS_EXPORT int GeomintRootInit(void* mem, int nrtfn, GeomintRootFn g);
/* rootdir[i] = 1: report only roots where g_i increases, -1: decreases, 0: both (default). */
GEOMINT_SUNDIALS_EXPORT int GeomintSetRootDirection(void* mem, const int* rootdir);
/* After GEOMINT_ROOT_RETURN: rootsfound[i] = 1 (g_i rose through 0), -1 (fell), 0 (no root). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetRootInfo(void* mem, int* rootsfound);

/* ---- Outputs ---------------------------------------------------------------------------------- */
GEOMINT_SUNDIALS_EXPORT int GeomintGetCurrentTime(void* mem, sunrealtype* t);
/* Copies the current state into q, p (serial, length n). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetCurrentState(void* mem, N_Vector q, N_Vector p);
/* The multipliers of the index-2 (GGL) form, IDA's algebraic variables, consistent with the
 * current state (serial, length m): lambda from d/dt [G dH/dp] = 0, the constraint force being
 * -G^T lambda, and mu = (G G^T)^-1 G dH/dp, zero on the manifold up to round-off.
 * GEOMINT_INCONSISTENT_STATE off the manifold (scaled residual > 1e-10). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetCurrentMultipliers(void* mem, N_Vector lambda, N_Vector mu);
GEOMINT_SUNDIALS_EXPORT int GeomintGetLastStep(void* mem, sunrealtype* hlast);     /* 0 before the first step       */
/* Scaled residuals of g(q) = 0 and G(q) dH/dp = 0 at the current state (consistency.hpp). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetConstraintResidual(void* mem, sunrealtype* position, sunrealtype* velocity);
GEOMINT_SUNDIALS_EXPORT int GeomintGetEnergy(void* mem, sunrealtype* energy);       /* needs callbacks.hamiltonian    */
GEOMINT_SUNDIALS_EXPORT int GeomintGetLinearSystemSize(void* mem, sunindextype* size);

/* Statistics since GeomintInit (also before it: all 0). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumSteps(void* mem, long int* nsteps);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumFailedSteps(void* mem, long int* nfails);  /* steps that failed, any reason  */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumNewtonIters(void* mem, long int* niters);
/* Steps that failed because a Newton iteration did not converge (GEOMINT_NEWTON_FAIL). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumNewtonConvFails(void* mem, long int* nfails);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumJacEvals(void* mem, long int* njevals);    /* Newton Jacobian refreshes      */
/* Factorizations and solves of the stage Newton systems (and, for a separable H, of
 * G M^-1 G^T, which serves the momentum projection too) by the attached SUNLinearSolver or by
 * Eigen: the constrained PRK methods (100-105); 0 for 106, 300, 301, which solve their own
 * small systems (their Newton counters apply). */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumLinSolvSetups(void* mem, long int* nsetups);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumLinSolves(void* mem, long int* nsolves);
/* Evaluations of each callback: by steps, diagnostics and the IDA reference alike. */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumGradientEvals(void* mem, long int* n_dh_dq, long int* n_dh_dp);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumEnergyEvals(void* mem, long int* nevals);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumConstraintEvals(void* mem, long int* n_g, long int* n_jac);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumHessianEvals(void* mem, long int* n_qq, long int* n_qp, long int* n_pp,
                              long int* n_constraint);
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumForceEvals(void* mem, long int* nevals);  /* 0 without GeomintSetForce       */
GEOMINT_SUNDIALS_EXPORT int GeomintGetNumGEvals(void* mem, long int* ngevals);     /* root function calls (IDAGetNumGEvals) */
/* All of the above (and the time and step sizes) as IDAPrintAllStats prints IDA's: fmt =
 * SUN_OUTPUTFORMAT_TABLE (one "name = value" line each) or SUN_OUTPUTFORMAT_CSV (one line); an
 * int, so that any other value is a checked GEOMINT_ILL_INPUT (in C++ an out-of-range enum is
 * undefined behaviour). */
GEOMINT_SUNDIALS_EXPORT int GeomintPrintAllStats(void* mem, FILE* outfile, int fmt);

/* The most recent failure on this block (GEOMINT_SUCCESS and "" if no call has failed). The
 * message is valid until the next failing call. */
GEOMINT_SUNDIALS_EXPORT int GeomintGetLastFlag(void* mem, int* flag);
GEOMINT_SUNDIALS_EXPORT int GeomintGetLastErrorMessage(void* mem, const char** message);
GEOMINT_SUNDIALS_EXPORT const char* GeomintGetMethodName(int method);  /* e.g. "constrained_lobatto_4_3"; NULL if unknown */
GEOMINT_SUNDIALS_EXPORT const char* GeomintGetReturnFlagName(int flag); /* e.g. "GEOMINT_NEWTON_FAIL"; static storage   */

/* ---- IDA reference from the same callbacks ------------------------------------------------- */
#define GEOMINT_IDA_GGL 0    /* stabilized index 2: g and G dH/dp held at all times */
#define GEOMINT_IDA_INDEX1 1 /* acceleration-level constraint: drifts off g = 0     */
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

/* Every counter and size IDAPrintAllStats reports, read with IDA's getters at the end of the
 * run, in IDAPrintAllStats' order after the first seven. */
typedef struct GeomintIDAStats {
  long int steps, residual_evals, jacobian_evals, linear_setups, nonlinear_iters,
      error_test_fails, convergence_fails;
  double cpu_seconds;
  int samples;   /* output times reached */
  int ida_flag;  /* IDA's return flag; its name is in the last error message on failure */
  sunrealtype current_time;     /* IDAGetCurrentTime        */
  long int step_solve_fails;    /* IDAGetNumStepSolveFails  */
  sunrealtype initial_step;     /* IDAGetActualInitStep     */
  sunrealtype last_step;        /* IDAGetLastStep           */
  sunrealtype current_step;     /* IDAGetCurrentStep        */
  int last_order;               /* IDAGetLastOrder          */
  int current_order;            /* IDAGetCurrentOrder       */
  long int backtrack_ops;       /* IDAGetNumBacktrackOps    */
  long int ls_residual_evals;   /* IDAGetNumLinResEvals     */
  long int prec_evals;          /* IDAGetNumPrecEvals       */
  long int prec_solves;         /* IDAGetNumPrecSolves      */
  long int linear_iters;        /* IDAGetNumLinIters        */
  long int linear_conv_fails;   /* IDAGetNumLinConvFails    */
  long int jtimes_setups;       /* IDAGetNumJTSetupEvals    */
  long int jtimes_evals;        /* IDAGetNumJtimesEvals     */
  long int root_evals;          /* IDAGetNumGEvals          */
} GeomintIDAStats;

GEOMINT_SUNDIALS_EXPORT void GeomintIDADefaultOptions(GeomintIDAOptions* options);
/* Integrates the problem attached to mem with IDA from the initial state of GeomintInit /
 * GeomintReInit / GeomintCalcIC through times[0] < ... < times[ntimes-1], writing the states to
 * q_out[i], p_out[i]. Does not touch the stepper's state. GEOMINT_IDA_FAIL if IDA failed. */
GEOMINT_SUNDIALS_EXPORT int GeomintSolveIDA(void* mem, const GeomintIDAOptions* options, int ntimes, const sunrealtype* times,
                    N_Vector* q_out, N_Vector* p_out, GeomintIDAStats* stats);
/* Prints stats exactly as IDAPrintAllStats prints them for that IDA run (table or CSV). */
GEOMINT_SUNDIALS_EXPORT int GeomintPrintIDAStats(const GeomintIDAStats* stats, FILE* outfile, int fmt);

/* ---- Lie-Poisson systems: y in g*, dy/dt = J(y) grad H(y) = -ad*_{grad H(y)} y -----------------
 * A lifecycle of its own, in the same style and with the same flags and conventions:
 *   mem = GeomintLieCreate(sunctx, GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
 *   GeomintLieInit(mem, grad_h, hamiltonian, t0, y0);
 *   GeomintLieSet*(mem, ...);               user data, fixed step, stage tolerance, iteration limit
 *   GeomintLieEvolve(mem, tout, y, &tret, GEOMINT_NORMAL);
 *   GeomintLieGet*(mem, ...);               state, statistics, Casimirs, energy, errors
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

/* NULL only if sunctx is NULL or memory is exhausted. A method that is not a Lie-Poisson id
 * (GEOMINT_BAD_METHOD) or an unknown algebra id (GEOMINT_ILL_INPUT) is recorded in the block and
 * refused by GeomintLieInit. */
GEOMINT_SUNDIALS_EXPORT void* GeomintLieCreate(SUNContext sunctx, int method, int algebra);
/* grad_h is required; hamiltonian is required by the discrete-gradient methods (they evaluate
 * H), optional otherwise (GeomintLieGetEnergy). y0: serial, length = the algebra's dimension. */
GEOMINT_SUNDIALS_EXPORT int GeomintLieInit(void* mem, GeomintLieGradientFn grad_h, GeomintLieEnergyFn hamiltonian, sunrealtype t0, N_Vector y0);
GEOMINT_SUNDIALS_EXPORT int GeomintLieReInit(void* mem, sunrealtype t0, N_Vector y0);
GEOMINT_SUNDIALS_EXPORT void GeomintLieFree(void** mem);

GEOMINT_SUNDIALS_EXPORT int GeomintLieSetUserData(void* mem, void* user_data);
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetErrHandlerFn(void* mem, GeomintErrHandlerFn ehfun, void* eh_data);
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetFixedStep(void* mem, sunrealtype h);  /* required, h != 0; its sign: direction */
/* Newton tolerance of the implicit methods (default: the method's own, 1 to 16 ulps). */
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetStageTolerance(void* mem, sunrealtype tol);
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetMaxStageIters(void* mem, int maxiters);       /* default 50                       */
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetMaxNumSteps(void* mem, long int mxsteps);     /* as GeomintSetMaxNumSteps         */
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetStopTime(void* mem, sunrealtype tstop);       /* as GeomintSetStopTime            */
GEOMINT_SUNDIALS_EXPORT int GeomintLieClearStopTime(void* mem);

/* As GeomintEvolve: grid steps toward tout (itask GEOMINT_NORMAL or GEOMINT_ONE_STEP), the state
 * at an off-grid tout interpolated on the orbit, stop time and step limit alike; on failure *tret
 * and y are where the last successful step left them. */
GEOMINT_SUNDIALS_EXPORT int GeomintLieEvolve(void* mem, sunrealtype tout, N_Vector y, sunrealtype* tret, int itask);

/* Dense output and roots as for the constrained lifecycle (GeomintGetDky, GeomintRootInit). The
 * continuous extension stays on the coadjoint orbit: y(t) = Ad*_{exp(-sigma(t))} y0 with sigma a
 * cubic Hermite polynomial in the algebra, so the Casimirs hold between grid points too. */
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetDky(void* mem, sunrealtype t, int k, N_Vector dky);
typedef int (*GeomintLieRootFn)(sunrealtype t, N_Vector y, sunrealtype* gout, void* user_data);
GEOMINT_SUNDIALS_EXPORT int GeomintLieRootInit(void* mem, int nrtfn, GeomintLieRootFn g);
GEOMINT_SUNDIALS_EXPORT int GeomintLieSetRootDirection(void* mem, const int* rootdir);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetRootInfo(void* mem, int* rootsfound);

GEOMINT_SUNDIALS_EXPORT int GeomintLieGetCurrentTime(void* mem, sunrealtype* t);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetCurrentState(void* mem, N_Vector y);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetLastStep(void* mem, sunrealtype* hlast);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumSteps(void* mem, long int* nsteps);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumFailedSteps(void* mem, long int* nfails);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumNewtonIters(void* mem, long int* niters);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumNewtonConvFails(void* mem, long int* nfails);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumEvals(void* mem, long int* n_grad, long int* n_energy); /* callbacks */
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumGEvals(void* mem, long int* ngevals);  /* root function calls */
GEOMINT_SUNDIALS_EXPORT int GeomintLiePrintAllStats(void* mem, FILE* outfile, int fmt);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetNumCasimirs(void* mem, int* count);
/* The algebra's Casimirs at the current state into casimirs[0 .. count-1]. */
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetCasimirs(void* mem, sunrealtype* casimirs);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetEnergy(void* mem, sunrealtype* energy);    /* needs the hamiltonian callback */
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetLastFlag(void* mem, int* flag);
GEOMINT_SUNDIALS_EXPORT int GeomintLieGetLastErrorMessage(void* mem, const char** message);

#ifdef __cplusplus
}
#endif

#endif /* GEOMINT_SUNDIALS_H */
