// The general force path's cost against IDA: the forced, damped planar pendulum
// (tests/sundials/forced_pendulum.hpp: a velocity-dependent force, GEOMINT_FORCE_GENERAL, no
// second derivatives given) through the C module, and through IDA on the stabilized index-2
// (Gear–Gupta–Leimkuhler) form of the same equations built from the same callbacks. The figure is
// the number of calls of the user's ∇V and force per step, and in total beside IDA's residual
// evaluations (each one ∇V and one force call) at equal accuracy: the cheapest IDA tolerance
// whose error at T is at most geomint's. Counts, not times: they are what decides the comparison
// for a user whose force is expensive. Target: ≤ 10 of each per Lobatto 4_3 step at h = 0.01.
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "forced_pendulum.hpp"

namespace {

constexpr double t_end = 10.0;

struct result {
  double q[2], p[2];
  long steps = 0, newton_iterations = 0, jacobians = 0;  // geomint only
  forced_pendulum::calls count;
  long residuals = 0, jacobian_residuals = 0;  // IDA only
  bool ok = false;
};

result run_geomint(SUNContext ctx, int method, double h) {
  result r;
  forced_pendulum::data d;
  N_Vector q = N_VNew_Serial(2, ctx), p = N_VNew_Serial(2, ctx), mass = N_VNew_Serial(2, ctx);
  N_VConst(1.0, mass);
  SUNMatrix g = SUNDenseMatrix(1, 2, ctx);
  void* mem = forced_pendulum::make(ctx, d, method, h, q, p, mass, g);
  sunrealtype t = 0;
  r.ok = mem && GeomintSetStopTime(mem, t_end) == GEOMINT_SUCCESS &&
         GeomintEvolve(mem, t_end, q, p, &t, GEOMINT_NORMAL) >= 0;
  GeomintGetNumSteps(mem, &r.steps);
  GeomintGetNumNewtonIters(mem, &r.newton_iterations);
  GeomintGetNumJacEvals(mem, &r.jacobians);
  for (int i = 0; i < 2; ++i) r.q[i] = NV_Ith_S(q, i), r.p[i] = NV_Ith_S(p, i);
  r.count = d.count;
  GeomintFree(&mem);
  SUNMatDestroy(g);
  N_VDestroy(q);
  N_VDestroy(p);
  N_VDestroy(mass);
  return r;
}

/// GGL: q' = p + Gᵀμ, p' = −∇V − Gᵀλ + f, g(q) = 0, G p = 0; y = (q, p, λ, μ), M = 1.
struct ggl {
  forced_pendulum::data d;
  N_Vector q, p, v, f;
  explicit ggl(SUNContext ctx)
      : q(N_VNew_Serial(2, ctx)), p(N_VNew_Serial(2, ctx)), v(N_VNew_Serial(2, ctx)), f(N_VNew_Serial(2, ctx)) {}
  ~ggl() {
    for (N_Vector x : {q, p, v, f}) N_VDestroy(x);
  }
  static int residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* u) {
    ggl& s = *static_cast<ggl*>(u);
    const double* y = NV_DATA_S(yy);
    const double* dy = NV_DATA_S(yp);
    double* r = NV_DATA_S(rr);
    for (int i = 0; i < 2; ++i) NV_Ith_S(s.q, i) = y[i], NV_Ith_S(s.p, i) = y[2 + i];
    forced_pendulum::gradient(t, s.q, s.p, s.v, &s.d);
    forced_pendulum::force(t, s.q, s.p, s.f, &s.d);
    const double lambda = y[4], mu = y[5];
    for (int i = 0; i < 2; ++i) {
      r[i] = dy[i] - y[2 + i] - y[i] * mu;                                          // Gᵀ = q
      r[2 + i] = dy[2 + i] + NV_Ith_S(s.v, i) + y[i] * lambda - NV_Ith_S(s.f, i);
    }
    r[4] = 0.5 * (y[0] * y[0] + y[1] * y[1] - 1);
    r[5] = y[0] * y[2] + y[1] * y[3];
    return 0;
  }
};

result run_ida(SUNContext ctx, double tol) {
  result r;
  ggl s(ctx);
  N_Vector yy = N_VNew_Serial(6, ctx), yp = N_VNew_Serial(6, ctx), id = N_VNew_Serial(6, ctx);
  N_Vector q = N_VNew_Serial(2, ctx), p = N_VNew_Serial(2, ctx), v = N_VNew_Serial(2, ctx), f = N_VNew_Serial(2, ctx);
  forced_pendulum::initial_state(s.d.par, q, p);
  forced_pendulum::data scratch;  // the consistent initial values' calls are not the solver's
  forced_pendulum::gradient(0, q, p, v, &scratch);
  forced_pendulum::force(0, q, p, f, &scratch);
  // The hidden constraint d(G p)/dt = |p|² + q·p' = 0 with |q| = 1 gives λ = |p|² + q·(f − ∇V).
  double lambda = 0;
  for (int i = 0; i < 2; ++i)
    lambda += NV_Ith_S(p, i) * NV_Ith_S(p, i) + NV_Ith_S(q, i) * (NV_Ith_S(f, i) - NV_Ith_S(v, i));
  for (int i = 0; i < 2; ++i) {
    NV_Ith_S(yy, i) = NV_Ith_S(q, i);
    NV_Ith_S(yy, 2 + i) = NV_Ith_S(p, i);
    NV_Ith_S(yp, i) = NV_Ith_S(p, i);
    NV_Ith_S(yp, 2 + i) = -NV_Ith_S(v, i) - NV_Ith_S(q, i) * lambda + NV_Ith_S(f, i);
  }
  NV_Ith_S(yy, 4) = lambda;
  NV_Ith_S(yy, 5) = 0;
  NV_Ith_S(yp, 4) = NV_Ith_S(yp, 5) = 0;
  N_VConst(1.0, id);
  NV_Ith_S(id, 4) = NV_Ith_S(id, 5) = 0;
  void* mem = IDACreate(ctx);
  SUNMatrix a = SUNDenseMatrix(6, 6, ctx);
  SUNLinearSolver ls = SUNLinSol_Dense(yy, a, ctx);
  IDAInit(mem, ggl::residual, 0.0, yy, yp);
  IDASStolerances(mem, tol, tol);
  IDASetUserData(mem, &s);
  IDASetLinearSolver(mem, ls, a);
  IDASetId(mem, id);
  IDASetSuppressAlg(mem, SUNTRUE);  // λ, μ are out of the error test (index 2)
  IDASetMaxNumSteps(mem, 1000000);
  IDASetStopTime(mem, t_end);
  sunrealtype t = 0;
  r.ok = IDASolve(mem, t_end, &t, yy, yp, IDA_NORMAL) >= 0;
  IDAGetNumSteps(mem, &r.steps);
  IDAGetNumResEvals(mem, &r.residuals);
  IDAGetNumLinResEvals(mem, &r.jacobian_residuals);
  for (int i = 0; i < 2; ++i) r.q[i] = NV_Ith_S(yy, i), r.p[i] = NV_Ith_S(yy, 2 + i);
  r.count = s.d.count;
  IDAFree(&mem);
  SUNLinSolFree(ls);
  SUNMatDestroy(a);
  for (N_Vector x : {yy, yp, id, q, p, v, f}) N_VDestroy(x);
  return r;
}

double error(const result& a, const result& ref) {
  double e = 0;
  for (int i = 0; i < 2; ++i) e = std::fmax(e, std::fmax(std::fabs(a.q[i] - ref.q[i]), std::fabs(a.p[i] - ref.p[i])));
  return e;
}

}  // namespace

int main() {
  SUNContext ctx;
  SUNContext_Create(nullptr, &ctx);
  const double h = 0.01;
  // The reference: Lobatto 4_3 at h/32 (error ~32⁴ times smaller than at h).
  const result ref = run_geomint(ctx, GEOMINT_CONSTRAINED_LOBATTO_4_3, h / 32);
  std::printf("forced, damped pendulum (f = a cos(wt)(-q2, q1) - c p, no second derivatives given), T = %g\n", t_end);
  std::printf("%-28s %8s %10s %10s %10s %12s\n", "run", "steps", "gradV/step", "force/step", "error", "force total");
  bool ok = ref.ok;
  for (int method : {GEOMINT_CONSTRAINED_LOBATTO_4_3, GEOMINT_CONSTRAINED_RATTLE_2_2}) {
    const result g = run_geomint(ctx, method, h);
    ok = ok && g.ok;
    const double e = error(g, ref);
    std::printf("%-28s %8ld %10.2f %10.2f %10.2e %12ld\n", GeomintGetMethodName(method), g.steps,
                double(g.count.gradient) / g.steps, double(g.count.force) / g.steps, e, g.count.force);
    std::printf("  %.2f Newton iterations per step, %ld Jacobians\n", double(g.newton_iterations) / g.steps, g.jacobians);
    // IDA at equal accuracy: the cheapest tolerance 10^(-k/2) whose error is at most geomint's.
    result best;
    double best_tol = 0, best_error = 0;
    for (int k = 6; k <= 26 && best_tol == 0; ++k) {
      const double tol = std::pow(10.0, -0.5 * k);
      const result r = run_ida(ctx, tol);
      const double er = error(r, ref);
      if (r.ok && er <= e) best = r, best_tol = tol, best_error = er;
    }
    if (best_tol == 0) {
      std::printf("  IDA: no tolerance down to 1e-13 reached the error %.2e\n", e);
      continue;
    }
    const long ida_calls = best.residuals + best.jacobian_residuals;
    std::printf("  IDA (GGL, dense, DQ Jacobian) at rtol = atol = %.1e: %ld steps, %ld residuals + %ld for Jacobians, "
                "error %.2e\n",
                best_tol, best.steps, best.residuals, best.jacobian_residuals, best_error);
    std::printf("  force calls, geomint / IDA at equal accuracy: %.2f (gradV: %.2f)\n",
                double(g.count.force) / ida_calls, double(g.count.gradient) / ida_calls);
    if (method == GEOMINT_CONSTRAINED_LOBATTO_4_3) {
      const double per_step = std::fmax(double(g.count.gradient), double(g.count.force)) / g.steps;
      std::printf("constrained_lobatto_4_3 at h = %g: %.2f calls of gradV or force per step (target <= 10): %s\n", h,
                  per_step, per_step <= 10 ? "met" : "MISSED");
    }
  }
  SUNContext_Free(&ctx);
  return ok ? 0 : 1;
}
