// Runs IDA on a dae_model: vectors, tolerances, linear solver (dense / band / KLU), output
// loop, statistics and error capture (ida_reference.hpp).
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <stdexcept>

#include "geomint/sundials/ida_reference.hpp"
#include "sundials_handles.hpp"

namespace geomint::sundials {

std::string ida_flag_name(int flag) {
  char* name = IDAGetReturnFlagName(flag);  // malloc'ed by IDA
  std::string result = name ? name : "IDA_UNKNOWN_FLAG";
  std::free(name);
  return result;
}

namespace detail {
namespace {

struct callback_data {
  dae_model* model = nullptr;
  Eigen::SparseMatrix<double> jacobian;
  std::string message;  // last error reported through IDA's handler
};

int residual_fn(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void* user_data) {
  auto* data = static_cast<callback_data*>(user_data);
  return data->model->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r));
}

int jacobian_fn(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix a, void* user_data,
                N_Vector, N_Vector, N_Vector) {
  auto* data = static_cast<callback_data*>(user_data);
  const int flag = data->model->jacobian(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), data->jacobian);
  if (flag != 0) return flag;
  try {
    copy_to_sunmatrix(data->jacobian, a);
    return 0;
  } catch (const std::exception& e) {
    data->message = e.what();
    return -1;
  }
}

void error_handler(int, const char* module, const char* function, char* msg, void* user_data) {
  static_cast<callback_data*>(user_data)->message =
      std::string(module ? module : "IDA") + " (" + (function ? function : "") + "): " + (msg ? msg : "");
}

void validate(const ida_options& o, double t0) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("geomint: IDA reference: " + what); };
  if (!(o.rtol > 0 && std::isfinite(o.rtol)) || !(o.atol > 0 && std::isfinite(o.atol)))
    bad("rtol and atol must be positive and finite");
  if (o.output_times.empty()) bad("no output times");
  double previous = t0;
  for (double t : o.output_times) {
    if (!(t > previous) || !std::isfinite(t)) bad("output times must be finite and increase from t0");
    previous = t;
  }
  if (o.max_steps <= 0) bad("max_steps must be positive");
  if (!(o.initial_step >= 0) || !std::isfinite(o.initial_step)) bad("initial_step must be >= 0");
  if (!(o.multiplier_atol >= 0) || !std::isfinite(o.multiplier_atol)) bad("multiplier_atol must be >= 0");
}

/// Half-bandwidths of a sparse pattern.
std::pair<sunindextype, sunindextype> bandwidths(const Eigen::SparseMatrix<double>& a) {
  sunindextype upper = 0, lower = 0;
  for (int j = 0; j < a.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      upper = std::max<sunindextype>(upper, j - it.row());
      lower = std::max<sunindextype>(lower, it.row() - j);
    }
  return {upper, lower};
}

void read_statistics(void* m, ida_statistics& st) {
  IDAGetNumSteps(m, &st.steps);
  IDAGetNumResEvals(m, &st.residual_evaluations);
  IDAGetNumJacEvals(m, &st.jacobian_evaluations);
  IDAGetNumLinSolvSetups(m, &st.linear_setups);
  IDAGetNumNonlinSolvIters(m, &st.nonlinear_iterations);
  IDAGetNumErrTestFails(m, &st.error_test_failures);
  IDAGetNumNonlinSolvConvFails(m, &st.convergence_failures);
  IDAGetNumStepSolveFails(m, &st.step_solve_failures);
  IDAGetNumBacktrackOps(m, &st.backtrack_operations);
  IDAGetNumLinResEvals(m, &st.linear_residual_evaluations);
  IDAGetNumPrecEvals(m, &st.preconditioner_evaluations);
  IDAGetNumPrecSolves(m, &st.preconditioner_solves);
  IDAGetNumLinIters(m, &st.linear_iterations);
  IDAGetNumLinConvFails(m, &st.linear_convergence_failures);
  IDAGetNumJTSetupEvals(m, &st.jacobian_times_setups);
  IDAGetNumJtimesEvals(m, &st.jacobian_times_evaluations);
  IDAGetNumGEvals(m, &st.root_evaluations);
  IDAGetLastOrder(m, &st.last_order);
  IDAGetCurrentOrder(m, &st.current_order);
  IDAGetActualInitStep(m, &st.initial_step);
  IDAGetLastStep(m, &st.last_step);
  IDAGetCurrentStep(m, &st.current_step);
  IDAGetCurrentTime(m, &st.current_time);
}

/// IDAPrintAllStats' table, captured in memory.
std::string all_stats_table(void* m) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  if (!out) return "";
  IDAPrintAllStats(m, out, SUN_OUTPUTFORMAT_TABLE);
  std::fclose(out);
  std::string table(buffer, size);
  std::free(buffer);
  return table;
}

}  // namespace

ida_result run_ida(dae_model& model, double t0, const ida_options& options) {
  validate(options, t0);
  const std::clock_t start = std::clock();
  ida_result result;
  callback_data data;
  data.model = &model;
  auto finish = [&](int flag) {
    result.flag = flag;
    result.flag_name = ida_flag_name(flag);
    if (flag < 0) result.message = !model.error().empty() ? model.error() : data.message;
    result.cpu_seconds = double(std::clock() - start) / CLOCKS_PER_SEC;
    return result;
  };

  context ctx;
  if (!ctx) return finish(IDA_MEM_FAIL);
  const sunindextype size = model.size();
  vector_handle y(N_VNew_Serial(size, ctx.get())), yp(N_VNew_Serial(size, ctx.get())),
      id(N_VNew_Serial(size, ctx.get())), atol(N_VNew_Serial(size, ctx.get()));
  if (!y || !yp || !id || !atol) return finish(IDA_MEM_FAIL);
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(y.get()), size) = model.initial_y();
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(yp.get()), size) = model.initial_yp();
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(id.get()), size) = model.differential();
  // The multipliers are excluded from the error test (IDASetSuppressAlg) and, through an
  // absolute tolerance far above their size, from the Newton convergence test as well. With
  // index 2 their corrections carry round-off amplified by 1/h²: weighted like q and p they
  // dominate the test, and IDA's first step (h ≈ 1e-22 at rtol 1e-10 for the double spherical
  // pendulum) fails with repeated convergence failures. q and p still converge to the tolerance;
  // λ, μ follow them.
  const double multiplier_atol =
      options.multiplier_atol > 0 ? options.multiplier_atol : 1e3 * std::fmax(1.0, model.multiplier_scale());
  Eigen::Map<Eigen::VectorXd> atol_map(N_VGetArrayPointer(atol.get()), size);
  for (sunindextype i = 0; i < size; ++i)
    atol_map(i) = model.differential()(i) != 0 ? options.atol : multiplier_atol;

  ida_handle mem(IDACreate(ctx.get()));
  if (!mem) return finish(IDA_MEM_FAIL);
  void* m = mem.get();
  int flag = IDASetErrHandlerFn(m, error_handler, &data);
  if (flag == 0) flag = IDAInit(m, residual_fn, t0, y.get(), yp.get());
  if (flag == 0) flag = IDASetUserData(m, &data);
  if (flag == 0) flag = IDASVtolerances(m, options.rtol, atol.get());
  if (flag == 0) flag = IDASetId(m, id.get());
  if (flag == 0) flag = IDASetSuppressAlg(m, SUNTRUE);
  if (flag == 0) flag = IDASetMaxNumSteps(m, options.max_steps);
  if (flag == 0 && options.initial_step > 0) flag = IDASetInitStep(m, options.initial_step);
  if (flag != 0) return finish(flag);

  // The pattern (and with it the band) is fixed by one Jacobian evaluation at t0.
  if (model.jacobian(t0, 1.0, model.initial_y().data(), model.initial_yp().data(), data.jacobian) != 0) {
    data.message = model.error();
    return finish(IDA_LSETUP_FAIL);
  }
  matrix_handle a;
  solver_handle ls;
  switch (options.linear_solver) {
    case ida_linear_solver::dense:
      a.reset(SUNDenseMatrix(size, size, ctx.get()));
      if (a) ls.reset(SUNLinSol_Dense(y.get(), a.get(), ctx.get()));
      break;
    case ida_linear_solver::band: {
      const auto [upper, lower] = bandwidths(data.jacobian);
      a.reset(SUNBandMatrix(size, upper, lower, ctx.get()));
      if (a) ls.reset(SUNLinSol_Band(y.get(), a.get(), ctx.get()));
      break;
    }
    case ida_linear_solver::klu:
      a.reset(SUNSparseMatrix(size, size, data.jacobian.nonZeros(), CSC_MAT, ctx.get()));
      if (a) ls.reset(SUNLinSol_KLU(y.get(), a.get(), ctx.get()));
      break;
  }
  if (!a || !ls) return finish(IDA_MEM_FAIL);
  flag = IDASetLinearSolver(m, ls.get(), a.get());
  if (flag == 0) flag = IDASetJacFn(m, jacobian_fn);
  if (flag != 0) return finish(flag);

  for (double tout : options.output_times) {
    sunrealtype tret = t0;
    flag = IDASolve(m, tout, &tret, y.get(), yp.get(), IDA_NORMAL);
    if (flag < 0) break;
    ida_sample s;
    s.t = tret;
    model.extract(N_VGetArrayPointer(y.get()), s.q, s.p, s.lambda);
    result.samples.push_back(std::move(s));
  }
  read_statistics(m, result.statistics);
  result.all_stats = all_stats_table(m);
  return finish(flag);
}

}  // namespace detail
}  // namespace geomint::sundials
