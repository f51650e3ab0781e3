// Every flag path of the C module returns its documented flag and leaves the state as it was
// before the failing step (geomint_sundials.h).
#include <boost/test/unit_test.hpp>

#include <ida/ida.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "c_problems.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

/// A double pendulum memory block, a twin without failures, and output vectors.
struct fixture {
  sun s;
  dsp_data d, twin_data;
  SUNMatrix g = nullptr, twin_g = nullptr;
  void* mem = nullptr;
  void* twin = nullptr;
  N_Vector q, p, q_twin, p_twin;
  explicit fixture(int method = GEOMINT_CONSTRAINED_LOBATTO_4_3) {
    mem = make_dsp(s, d, method, 0.01, g);
    twin = make_dsp(s, twin_data, method, 0.01, twin_g);
    q = s.vector(VectorXd::Zero(6));
    p = s.vector(VectorXd::Zero(6));
    q_twin = s.vector(VectorXd::Zero(6));
    p_twin = s.vector(VectorXd::Zero(6));
  }
  ~fixture() {
    GeomintFree(&mem);
    GeomintFree(&twin);
    SUNMatDestroy(g);
    SUNMatDestroy(twin_g);
  }
  std::string message() {
    const char* m = nullptr;
    GeomintGetLastErrorMessage(mem, &m);
    return m ? m : "";
  }
  /// Evolves to 1 with a fault injected; expects `flag`, then checks that the state reported
  /// (and held) is the twin's state at the reported time, bit for bit, and that the run can go
  /// on. Returns the failure's message.
  std::string expect_failure(const fault& f, int flag) {
    d.f = f;
    sunrealtype t = -1;
    BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == flag, GeomintGetReturnFlagName(flag) << " expected: " << message());
    int last = 0;
    GeomintGetLastFlag(mem, &last);
    BOOST_TEST(last == flag);
    const std::string why = message();
    BOOST_TEST(!why.empty());
    BOOST_TEST(t >= 0.0);
    BOOST_TEST(t < 1.0);
    sunrealtype now = -1, t_twin = -1;
    GeomintGetCurrentTime(mem, &now);
    BOOST_TEST(now == t);
    if (t > 0) BOOST_TEST_REQUIRE(GeomintEvolve(twin, t, q_twin, p_twin, &t_twin, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    else {
      map(q_twin) = d.problem.initial_state().first;
      map(p_twin) = d.problem.initial_state().second;
    }
    BOOST_TEST((map(q).array() == map(q_twin).array()).all());
    BOOST_TEST((map(p).array() == map(p_twin).array()).all());
    // Nothing was lost: without the fault the integration continues.
    d.f = fault{};
    BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    BOOST_TEST(t == 1.0);
    return why;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_flags)

BOOST_AUTO_TEST_CASE(bad_method_id) {
  sun s;
  BOOST_TEST(GeomintCreate(nullptr, GEOMINT_CONSTRAINED_RATTLE_2_2) == nullptr);  // the only NULL but OOM
  // A refused id is recorded (flag and reason at once), Init refuses it, SetMethod repairs it.
  for (int id : {99, 399, int(GEOMINT_LIE_RKMK_RK4_EXP_4_4)}) {
    BOOST_TEST_CONTEXT("id " << id) {
      void* mem = GeomintCreate(s.ctx(), id);
      BOOST_TEST_REQUIRE(mem != nullptr);
      int last = 0;
      const char* why = nullptr;
      BOOST_TEST(GeomintGetLastFlag(mem, &last) == GEOMINT_SUCCESS);
      BOOST_TEST(last == GEOMINT_BAD_METHOD);
      BOOST_TEST(GeomintGetLastErrorMessage(mem, &why) == GEOMINT_SUCCESS);
      BOOST_TEST(std::string(why).find(std::to_string(id)) != std::string::npos, why);
      if (id == GEOMINT_LIE_RKMK_RK4_EXP_4_4) BOOST_TEST(std::string(why).find("GeomintLieCreate") != std::string::npos, why);
      dsp_data d;
      GeomintCallbacks cb{dsp_gradient, nullptr, dsp_energy};
      N_Vector q0 = s.vector(d.problem.initial_state().first), p0 = s.vector(d.problem.initial_state().second);
      BOOST_TEST(GeomintInit(mem, &cb, 0.0, q0, p0) == GEOMINT_BAD_METHOD);
      sunrealtype t = 0;
      BOOST_TEST(GeomintEvolve(mem, 1.0, q0, p0, &t, GEOMINT_NORMAL) == GEOMINT_NO_MALLOC);
      BOOST_TEST(GeomintSetMethod(mem, GEOMINT_CONSTRAINED_RATTLE_2_2) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintInit(mem, &cb, 0.0, q0, p0) == GEOMINT_SUCCESS);
      GeomintFree(&mem);
    }
  }
  // SetMethod rejects an unknown id and keeps the method: the run matches an untouched twin.
  fixture f;
  BOOST_TEST(GeomintSetMethod(f.mem, 12345) == GEOMINT_BAD_METHOD);
  BOOST_TEST(f.message().find("12345") != std::string::npos);
  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(f.mem, 0.2, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(f.twin, 0.2, f.q_twin, f.p_twin, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST((map(f.q).array() == map(f.q_twin).array()).all());
}

BOOST_AUTO_TEST_CASE(null_memory) {
  sun s;
  N_Vector v = s.vector(VectorXd::Zero(6));
  sunrealtype r = 0, r2 = 0;
  long l = 0;
  int i = 0;
  sunindextype size = 0;
  const char* text = nullptr;
  GeomintCallbacks cb{dsp_gradient, nullptr, nullptr};
  GeomintIDAOptions o;
  GeomintIDADefaultOptions(&o);
  GeomintIDAStats st;
  const int flags[] = {
      GeomintInit(nullptr, &cb, 0, v, v), GeomintReInit(nullptr, 0, v, v), GeomintSetMethod(nullptr, 100),
      GeomintSetUserData(nullptr, nullptr), GeomintSetMass(nullptr, v),
      GeomintSetConstraints(nullptr, nullptr, nullptr, nullptr), GeomintSetHessianFns(nullptr, nullptr, nullptr, nullptr),
      GeomintSetConstraintHessianFn(nullptr, nullptr), GeomintSetFixedStep(nullptr, 0.1),
      GeomintSetStageTolerance(nullptr, 1e-14), GeomintSetMaxStageIters(nullptr, 5),
      GeomintSetConsistencyTolerance(nullptr, 1e-10), GeomintSetLinearSolver(nullptr, nullptr, nullptr),
      GeomintEvolve(nullptr, 1, v, v, &r, GEOMINT_NORMAL), GeomintGetNumSteps(nullptr, &l), GeomintGetNumNewtonIters(nullptr, &l),
      GeomintGetNumJacEvals(nullptr, &l), GeomintGetCurrentTime(nullptr, &r),
      GeomintGetConstraintResidual(nullptr, &r, &r2), GeomintGetEnergy(nullptr, &r),
      GeomintGetLinearSystemSize(nullptr, &size), GeomintGetLastFlag(nullptr, &i),
      GeomintGetLastErrorMessage(nullptr, &text), GeomintSolveIDA(nullptr, &o, 1, &r, &v, &v, &st),
      // added with the IDA-like modes, statistics, errors and initial conditions
      GeomintCalcIC(nullptr, GEOMINT_CALCIC_Q_P), GeomintSetErrHandlerFn(nullptr, nullptr, nullptr),
      GeomintGetCurrentState(nullptr, v, v), GeomintGetCurrentMultipliers(nullptr, v, v),
      GeomintGetLastStep(nullptr, &r), GeomintGetNumFailedSteps(nullptr, &l), GeomintGetNumNewtonConvFails(nullptr, &l),
      GeomintGetNumLinSolvSetups(nullptr, &l), GeomintGetNumLinSolves(nullptr, &l),
      GeomintGetNumGradientEvals(nullptr, &l, &l), GeomintGetNumEnergyEvals(nullptr, &l),
      GeomintGetNumConstraintEvals(nullptr, &l, &l), GeomintGetNumHessianEvals(nullptr, &l, &l, &l, &l),
      GeomintPrintAllStats(nullptr, stdout, SUN_OUTPUTFORMAT_TABLE),
      GeomintLieInit(nullptr, nullptr, nullptr, 0, v), GeomintLieReInit(nullptr, 0, v),
      GeomintLieSetUserData(nullptr, nullptr), GeomintLieSetErrHandlerFn(nullptr, nullptr, nullptr),
      GeomintLieSetFixedStep(nullptr, 0.1), GeomintLieSetStageTolerance(nullptr, 1e-14),
      GeomintLieSetMaxStageIters(nullptr, 5), GeomintLieEvolve(nullptr, 1, v, &r, GEOMINT_NORMAL),
      GeomintLieGetCurrentTime(nullptr, &r), GeomintLieGetCurrentState(nullptr, v), GeomintLieGetLastStep(nullptr, &r),
      GeomintLieGetNumSteps(nullptr, &l), GeomintLieGetNumFailedSteps(nullptr, &l),
      GeomintLieGetNumNewtonIters(nullptr, &l), GeomintLieGetNumNewtonConvFails(nullptr, &l),
      GeomintLieGetNumEvals(nullptr, &l, &l), GeomintLiePrintAllStats(nullptr, stdout, SUN_OUTPUTFORMAT_TABLE),
      GeomintLieGetNumCasimirs(nullptr, &i), GeomintLieGetCasimirs(nullptr, &r), GeomintLieGetEnergy(nullptr, &r),
      GeomintLieGetLastFlag(nullptr, &i), GeomintLieGetLastErrorMessage(nullptr, &text)};
  for (int flag : flags) BOOST_TEST(flag == GEOMINT_MEM_NULL);
  GeomintFree(nullptr);  // harmless
  void* mem = nullptr;
  GeomintFree(&mem);
}

// Before GeomintInit: calls on the problem or the state are GEOMINT_NO_MALLOC; settings that
// may precede Init and the statistics (all 0) succeed.
BOOST_AUTO_TEST_CASE(init_required) {
  sun s;
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  N_Vector v = s.vector(VectorXd::Zero(6)), v1 = s.vector(VectorXd::Zero(1));
  sunrealtype t = 0;
  sunindextype size = 0;
  SUNMatrix a = SUNDenseMatrix(2, 2, s.ctx());
  SUNLinearSolver ls = SUNLinSol_Dense(s.vector(VectorXd::Zero(2)), a, s.ctx());
  const int refused[] = {GeomintEvolve(mem, 1.0, v, v, &t, GEOMINT_NORMAL), GeomintSetMass(mem, v),
                         GeomintReInit(mem, 0.0, v, v), GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P),
                         GeomintSetLinearSolver(mem, ls, a), GeomintGetCurrentState(mem, v, v),
                         GeomintGetCurrentMultipliers(mem, v1, v1), GeomintGetCurrentTime(mem, &t),
                         GeomintGetLastStep(mem, &t), GeomintGetLinearSystemSize(mem, &size)};
  for (int flag : refused) BOOST_TEST(flag == GEOMINT_NO_MALLOC);
  BOOST_TEST(GeomintSetFixedStep(mem, 0.1) == GEOMINT_SUCCESS);  // settings may precede Init
  BOOST_TEST(GeomintSetErrHandlerFn(mem, nullptr, nullptr) == GEOMINT_SUCCESS);
  long counts[17] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  BOOST_TEST(GeomintGetNumSteps(mem, &counts[0]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumFailedSteps(mem, &counts[1]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumNewtonConvFails(mem, &counts[2]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumLinSolvSetups(mem, &counts[3]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumLinSolves(mem, &counts[4]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumGradientEvals(mem, &counts[5], &counts[6]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumConstraintEvals(mem, &counts[7], &counts[8]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumEnergyEvals(mem, &counts[9]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumHessianEvals(mem, &counts[10], &counts[11], &counts[12], &counts[13]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumForceEvals(mem, &counts[14]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumNewtonIters(mem, &counts[15]) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumJacEvals(mem, &counts[16]) == GEOMINT_SUCCESS);
  for (long c : counts) BOOST_TEST(c == 0);
  std::FILE* out = std::tmpfile();
  BOOST_TEST(GeomintPrintAllStats(mem, out, SUN_OUTPUTFORMAT_TABLE) == GEOMINT_SUCCESS);
  std::fclose(out);
  GeomintFree(&mem);
  SUNLinSolFree(ls);
  SUNMatDestroy(a);

  void* lie = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(VectorXd::Zero(3));
  long l = 0;
  const int lie_refused[] = {GeomintLieEvolve(lie, 1.0, y, &t, GEOMINT_ONE_STEP), GeomintLieReInit(lie, 0.0, y),
                             GeomintLieGetCurrentState(lie, y), GeomintLieGetLastStep(lie, &t),
                             GeomintLieGetNumSteps(lie, &l), GeomintLieGetNumFailedSteps(lie, &l),
                             GeomintLieGetNumNewtonConvFails(lie, &l), GeomintLieGetNumEvals(lie, &l, &l),
                             GeomintLiePrintAllStats(lie, stdout, SUN_OUTPUTFORMAT_CSV)};
  for (int flag : lie_refused) BOOST_TEST(flag == GEOMINT_NO_MALLOC);
  BOOST_TEST(GeomintLieSetErrHandlerFn(lie, nullptr, nullptr) == GEOMINT_SUCCESS);
  GeomintLieFree(&lie);
}

// A state off the manifold is taken by GeomintReInit as it is (GEOMINT_SUCCESS, as IDAReInit:
// GeomintCalcIC could project it), then refused by the first step, the message naming
// GeomintCalcIC; the state is returned unchanged.
BOOST_AUTO_TEST_CASE(inconsistent_initial_state) {
  fixture f;
  VectorXd q0 = f.d.problem.initial_state().first, p0 = f.d.problem.initial_state().second;
  q0(0) += 1e-4;
  BOOST_TEST(GeomintReInit(f.mem, 0.0, f.s.vector(q0), f.s.vector(p0)) == GEOMINT_SUCCESS);
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(f.mem, 1.0, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_INCONSISTENT_STATE);
  BOOST_TEST(f.message().find("GeomintCalcIC") != std::string::npos, f.message());
  BOOST_TEST(t == 0.0);
  BOOST_TEST((map(f.q).array() == q0.array()).all());
  BOOST_TEST((map(f.p).array() == p0.array()).all());
  BOOST_TEST(f.message().find("off the constraint manifold") != std::string::npos);
  long steps = -1;
  GeomintGetNumSteps(f.mem, &steps);
  BOOST_TEST(steps == 0);
  // The IDA reference refuses it too.
  GeomintIDAOptions o;
  GeomintIDADefaultOptions(&o);
  GeomintIDAStats st;
  const sunrealtype tout = 1;
  BOOST_TEST(GeomintSolveIDA(f.mem, &o, 1, &tout, &f.q, &f.p, &st) == GEOMINT_INCONSISTENT_STATE);
}

// Callbacks returning > 0 (recoverable) and < 0 (fatal), in the middle of a run (call 500 is
// around step 60), and NaN values; each leaves the state of the last successful step.
BOOST_AUTO_TEST_CASE(callback_failures) {
  for (const char* which : {"dh_dq", "constraint", "jacobian"}) {
    BOOST_TEST_CONTEXT(which) {
      fixture a;
      a.expect_failure(fault{which, 0, 500, 2}, GEOMINT_CALLBACK_RECOVERABLE);
      fixture b;
      const std::string why = b.expect_failure(fault{which, 0, 500, -3}, GEOMINT_CALLBACK_FAIL);
      BOOST_TEST(why.find("returned -3") != std::string::npos, why);
    }
  }
  fixture c;
  c.expect_failure(fault{"dh_dq", 0, 1, -1}, GEOMINT_CALLBACK_FAIL);  // at the very first call
  fixture nan;
  fault f{"dh_dq", 0, 500, 0};
  f.nan = true;
  nan.expect_failure(f, GEOMINT_NONFINITE);
}

// The stage iteration cannot reach its tolerance in one iteration: a recoverable Newton failure
// at the first step; with the default limit the same step succeeds.
BOOST_AUTO_TEST_CASE(newton_failure) {
  fixture f;
  BOOST_TEST(GeomintSetMaxStageIters(f.mem, 1) == GEOMINT_SUCCESS);
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(f.mem, 1.0, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
  BOOST_TEST(GEOMINT_NEWTON_FAIL < 0);  // a failure, as every failure in ida.h
  BOOST_TEST(GeomintIsRecoverableFlag(GEOMINT_NEWTON_FAIL) == 1);  // a smaller step may succeed
  BOOST_TEST(t == 0.0);
  BOOST_TEST((map(f.q).array() == f.d.problem.initial_state().first.array()).all());
  BOOST_TEST((map(f.p).array() == f.d.problem.initial_state().second.array()).all());
  BOOST_TEST(GeomintSetMaxStageIters(f.mem, 50) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(f.mem, 0.1, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
}

namespace {
/// A spherical pendulum whose constraint is given twice: G M⁻¹ Gᵀ is singular.
int twice_constraint(sunrealtype, N_Vector q, N_Vector g, void*) {
  NV_Ith_S(g, 0) = NV_Ith_S(g, 1) = map(q).squaredNorm() - 1.0;
  return 0;
}
int twice_jacobian(sunrealtype, N_Vector q, SUNMatrix G, void*) {
  for (int j = 0; j < 3; ++j) SM_ELEMENT_D(G, 0, j) = SM_ELEMENT_D(G, 1, j) = 2 * NV_Ith_S(q, j);
  return 0;
}
int gravity(sunrealtype, N_Vector, N_Vector, N_Vector out, void*) {
  map(out) << 0, 0, 9.81;
  return 0;
}
}  // namespace

BOOST_AUTO_TEST_CASE(dependent_constraints) {
  sun s;
  const auto x0 = geomint::problems::spherical_pendulum().initial_state();
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  GeomintCallbacks cb{gravity, nullptr, nullptr};
  SUNMatrix g = SUNDenseMatrix(2, 3, s.ctx());
  N_Vector q = s.vector(x0.first), p = s.vector(x0.second);
  BOOST_TEST(GeomintInit(mem, &cb, 0.0, q, p) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetMass(mem, s.vector(VectorXd::Ones(3))) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetConstraints(mem, twice_constraint, twice_jacobian, g) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetFixedStep(mem, 0.01) == GEOMINT_SUCCESS);
  sunrealtype t = -1;
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SINGULAR_JACOBIAN);
  BOOST_TEST(t == 0.0);
  BOOST_TEST((map(q).array() == x0.first.array()).all());
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

BOOST_AUTO_TEST_CASE(ill_input) {
  fixture f;
  sunrealtype t = 0;
  N_Vector short_vector = f.s.vector(VectorXd::Zero(5));
  BOOST_TEST(GeomintEvolve(f.mem, 1.0, short_vector, f.p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintEvolve(f.mem, 1.0, f.q, f.p, nullptr, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintEvolve(f.mem, NAN, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetFixedStep(f.mem, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetFixedStep(f.mem, INFINITY) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetStageTolerance(f.mem, 0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetMaxStageIters(f.mem, 0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetConsistencyTolerance(f.mem, -1) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetMass(f.mem, f.s.vector(-VectorXd::Ones(6))) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetMass(f.mem, short_vector) == GEOMINT_ILL_INPUT);
  SUNMatrix wrong = SUNDenseMatrix(2, 5, f.s.ctx());
  SUNMatrix csc = SUNSparseMatrix(2, 6, 12, CSC_MAT, f.s.ctx());
  BOOST_TEST(GeomintSetConstraints(f.mem, dsp_constraint, dsp_jacobian, wrong) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetConstraints(f.mem, dsp_constraint, dsp_jacobian, csc) == GEOMINT_ILL_INPUT);
  BOOST_TEST(f.message().find("CSR") != std::string::npos);
  BOOST_TEST(GeomintSetConstraints(f.mem, dsp_constraint, nullptr, f.g) == GEOMINT_ILL_INPUT);
  GeomintCallbacks none{nullptr, nullptr, nullptr};
  BOOST_TEST(GeomintInit(f.mem, &none, 0, f.q, f.p) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintInit(f.mem, nullptr, 0, f.q, f.p) == GEOMINT_ILL_INPUT);
  // None of that changed the problem: it still runs.
  BOOST_TEST(GeomintEvolve(f.mem, 0.1, f.q, f.p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  SUNMatDestroy(wrong);
  SUNMatDestroy(csc);

  // A general H needs dh_dp; no step size; no hamiltonian callback for the energy.
  sun s;
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  GeomintCallbacks cb{gravity, nullptr, nullptr};
  N_Vector q = s.vector(geomint::problems::spherical_pendulum().initial_state().first);
  N_Vector p = s.vector(geomint::problems::spherical_pendulum().initial_state().second);
  BOOST_TEST(GeomintInit(mem, &cb, 0.0, q, p) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // no fixed step
  BOOST_TEST(GeomintSetFixedStep(mem, 0.01) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // no dh_dp
  const char* m = nullptr;
  GeomintGetLastErrorMessage(mem, &m);
  BOOST_TEST(std::string(m).find("dh_dp") != std::string::npos);
  BOOST_TEST(GeomintSetMass(mem, s.vector(VectorXd::Ones(3))) == GEOMINT_SUCCESS);
  sunrealtype energy = 0;
  BOOST_TEST(GeomintGetEnergy(mem, &energy) == GEOMINT_ILL_INPUT);  // no hamiltonian callback
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);  // unconstrained: a free fall
  GeomintFree(&mem);
}

// The IDA reference's failures come back as GEOMINT_IDA_FAIL with IDA's flag and its name.
BOOST_AUTO_TEST_CASE(ida_failure) {
  fixture f;
  GeomintIDAOptions o;
  GeomintIDADefaultOptions(&o);
  o.max_steps = 5;
  GeomintIDAStats st;
  const sunrealtype tout = 1;
  BOOST_TEST(GeomintSolveIDA(f.mem, &o, 1, &tout, &f.q, &f.p, &st) == GEOMINT_IDA_FAIL);
  BOOST_TEST(st.ida_flag == IDA_TOO_MUCH_WORK);
  BOOST_TEST(st.samples == 0);
  BOOST_TEST(f.message().rfind("IDA_TOO_MUCH_WORK", 0) == 0, f.message());
  o.formulation = 7;
  BOOST_TEST(GeomintSolveIDA(f.mem, &o, 1, &tout, &f.q, &f.p, &st) == GEOMINT_ILL_INPUT);
}

BOOST_AUTO_TEST_CASE(flag_names) {
  const std::pair<int, const char*> names[] = {
      {GEOMINT_SUCCESS, "GEOMINT_SUCCESS"}, {GEOMINT_NEWTON_FAIL, "GEOMINT_NEWTON_FAIL"},
      {GEOMINT_NONFINITE, "GEOMINT_NONFINITE"}, {GEOMINT_CALLBACK_RECOVERABLE, "GEOMINT_CALLBACK_RECOVERABLE"},
      {GEOMINT_MEM_NULL, "GEOMINT_MEM_NULL"}, {GEOMINT_ILL_INPUT, "GEOMINT_ILL_INPUT"},
      {GEOMINT_BAD_METHOD, "GEOMINT_BAD_METHOD"}, {GEOMINT_NO_MALLOC, "GEOMINT_NO_MALLOC"},
      {GEOMINT_MEM_FAIL, "GEOMINT_MEM_FAIL"}, {GEOMINT_INCONSISTENT_STATE, "GEOMINT_INCONSISTENT_STATE"},
      {GEOMINT_CALLBACK_FAIL, "GEOMINT_CALLBACK_FAIL"}, {GEOMINT_SINGULAR_JACOBIAN, "GEOMINT_SINGULAR_JACOBIAN"},
      {GEOMINT_LSETUP_FAIL, "GEOMINT_LSETUP_FAIL"}, {GEOMINT_LSOLVE_FAIL, "GEOMINT_LSOLVE_FAIL"},
      {GEOMINT_IDA_FAIL, "GEOMINT_IDA_FAIL"}, {GEOMINT_BAD_T, "GEOMINT_BAD_T"}, {GEOMINT_BAD_K, "GEOMINT_BAD_K"},
      {GEOMINT_ROOT_RETURN, "GEOMINT_ROOT_RETURN"}, {GEOMINT_TSTOP_RETURN, "GEOMINT_TSTOP_RETURN"},
      {GEOMINT_TOO_MUCH_WORK, "GEOMINT_TOO_MUCH_WORK"}, {GEOMINT_UNRECOGNIZED_ERROR, "GEOMINT_UNRECOGNIZED_ERROR"}};
  std::set<int> values;
  for (const auto& [flag, name] : names) {
    BOOST_TEST(std::string(GeomintGetReturnFlagName(flag)) == name);
    values.insert(flag);
  }
  BOOST_TEST(values.size() == std::size(names));  // no two flags share a value
  BOOST_TEST(std::string(GeomintGetReturnFlagName(12345)) == "GEOMINT_UNKNOWN_FLAG");
  // ida.h's convention: every failure is negative, the normal returns that are not plain success
  // positive with IDA's values (IDA_TSTOP_RETURN 1, IDA_ROOT_RETURN 2); the recoverable failures
  // are told apart by GeomintIsRecoverableFlag.
  for (const auto& [flag, name] : names)
    if (flag != GEOMINT_SUCCESS && flag != GEOMINT_ROOT_RETURN && flag != GEOMINT_TSTOP_RETURN) BOOST_TEST(flag < 0, name);
  BOOST_TEST(GEOMINT_TSTOP_RETURN == IDA_TSTOP_RETURN);
  BOOST_TEST(GEOMINT_ROOT_RETURN == IDA_ROOT_RETURN);
  for (int flag : {GEOMINT_NEWTON_FAIL, GEOMINT_NONFINITE, GEOMINT_CALLBACK_RECOVERABLE})
    BOOST_TEST(GeomintIsRecoverableFlag(flag) == 1);
  for (int flag : {GEOMINT_SUCCESS, GEOMINT_ROOT_RETURN, GEOMINT_CALLBACK_FAIL, GEOMINT_TOO_MUCH_WORK, GEOMINT_ILL_INPUT})
    BOOST_TEST(GeomintIsRecoverableFlag(flag) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
