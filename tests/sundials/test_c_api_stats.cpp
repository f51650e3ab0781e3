// The C module's statistics (geomint_sundials.h): callback evaluations counted against the
// callbacks' own counts, linear-solver setups and solves against the SUNLinearSolver's calls,
// failed steps, GeomintPrintAllStats / GeomintLiePrintAllStats in both formats, and
// GeomintPrintIDAStats against IDAPrintAllStats for the same IDA run.
#include <boost/test/unit_test.hpp>

#include <sunlinsol/sunlinsol_dense.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "c_problems.hpp"
#include "geomint/sundials/ida_reference.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

/// What a print function writes, read back.
template <class Print>
std::string printed(Print&& print) {
  std::FILE* f = std::tmpfile();
  print(f);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  std::fclose(f);
  return text;
}

/// Entries of a table ("name<spaces>= value" lines) in order.
std::vector<std::pair<std::string, std::string>> table_entries(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::size_t eq = line.find("= ");
    BOOST_TEST_REQUIRE(eq != std::string::npos, line);
    BOOST_TEST(eq == 29u, "the value starts at column 31 as in IDAPrintAllStats: " << line);
    std::string name = line.substr(0, eq);
    name.erase(name.find_last_not_of(' ') + 1);
    entries.emplace_back(name, line.substr(eq + 2));
  }
  return entries;
}

/// Entries of a CSV line "name,value,name,value,...\n" in order.
std::vector<std::pair<std::string, std::string>> csv_entries(const std::string& text) {
  BOOST_TEST_REQUIRE(!text.empty());
  BOOST_TEST(text.back() == '\n');
  BOOST_TEST(text.find('\n') == text.size() - 1, "one line");
  std::vector<std::string> fields;
  std::istringstream in(text.substr(0, text.size() - 1));
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  BOOST_TEST_REQUIRE(fields.size() % 2 == 0u);
  std::vector<std::pair<std::string, std::string>> entries;
  for (std::size_t i = 0; i < fields.size(); i += 2) entries.emplace_back(fields[i], fields[i + 1]);
  return entries;
}

std::map<std::string, std::string> as_map(const std::vector<std::pair<std::string, std::string>>& entries) {
  return {entries.begin(), entries.end()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_stats)

// Every callback evaluation is counted: steps, diagnostics and the IDA reference alike. The
// spherical pendulum's callbacks count their own calls; the two counts must be equal, for the
// separable form (dh_dq, H, g, G) and the general one (all nine callbacks).
BOOST_AUTO_TEST_CASE(callback_evaluations) {
  for (bool separable : {true, false}) {
    BOOST_TEST_CONTEXT((separable ? "separable" : "general") << " H") {
      sun s;
      sp_data d;
      SUNMatrix g;
      void* mem = make_sp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, separable, g);
      N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3)), l1 = s.vector(VectorXd::Zero(1));
      sunrealtype t = 0, e = 0, r1 = 0, r2 = 0;
      BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
      BOOST_TEST(GeomintGetEnergy(mem, &e) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetConstraintResidual(mem, &r1, &r2) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetCurrentMultipliers(mem, l1, l1) == GEOMINT_SUCCESS);
      GeomintIDAOptions o;
      GeomintIDADefaultOptions(&o);
      GeomintIDAStats st;
      const sunrealtype tout = 0.2;
      BOOST_TEST(GeomintSolveIDA(mem, &o, 1, &tout, &q, &p, &st) == GEOMINT_SUCCESS, last_error(mem));
      long dq = -1, dp = -1, h = -1, c = -1, jac = -1, qq = -1, qp = -1, pp = -1, ch = -1;
      BOOST_TEST(GeomintGetNumGradientEvals(mem, &dq, &dp) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetNumEnergyEvals(mem, &h) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetNumConstraintEvals(mem, &c, &jac) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetNumHessianEvals(mem, &qq, &qp, &pp, &ch) == GEOMINT_SUCCESS);
      BOOST_TEST(dq == d.calls.dh_dq);
      BOOST_TEST(dp == d.calls.dh_dp);
      BOOST_TEST(h == d.calls.hamiltonian);
      BOOST_TEST(c == d.calls.constraint);
      BOOST_TEST(jac == d.calls.jacobian);
      BOOST_TEST(qq == d.calls.h_qq);
      BOOST_TEST(qp == d.calls.h_qp);
      BOOST_TEST(pp == d.calls.h_pp);
      BOOST_TEST(ch == d.calls.constraint_hessian);
      BOOST_TEST(dq > 50);  // 50 steps at least one each
      BOOST_TEST(h == 1);
      BOOST_TEST((separable ? dp == 0 : dp > 50));
      // GeomintInit starts the counts afresh.
      const auto x0 = d.initial_state();
      GeomintCallbacks cb{sp_dh_dq, separable ? nullptr : sp_dh_dp, sp_energy};
      BOOST_TEST(GeomintInit(mem, &cb, 0.0, s.vector(x0.first), s.vector(x0.second)) == GEOMINT_SUCCESS);
      BOOST_TEST(GeomintGetNumGradientEvals(mem, &dq, &dp) == GEOMINT_SUCCESS);
      BOOST_TEST(dq == 0);
      BOOST_TEST(dp == 0);
      GeomintFree(&mem);
      SUNMatDestroy(g);
    }
  }
}

// Linear setups and solves: with a SUNLinearSolver, exactly its setup and solve calls; with
// Eigen's default, the same kind of work counted the same way (at least one factorization of
// G M⁻¹ Gᵀ per step of a separable H, at least one solve per Newton iteration); none for the
// Reich method, which solves its own small systems.
BOOST_AUTO_TEST_CASE(linear_solver_setups_and_solves) {
  sun s;
  {
    dsp_data d;
    SUNMatrix g;
    void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
    SUNMatrix a = SUNDenseMatrix(2, 2, s.ctx());
    SUNLinearSolver ls = SUNLinSol_Dense(s.vector(VectorXd::Zero(2)), a, s.ctx());
    ls->ops->setup = counting_setup;
    ls->ops->solve = counting_solve;
    setup_calls = solve_calls = 0;
    BOOST_TEST(GeomintSetLinearSolver(mem, ls, a) == GEOMINT_SUCCESS);
    N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
    sunrealtype t = 0;
    BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
    long setups = -1, solves = -1, steps = 0, iterations = 0;
    BOOST_TEST(GeomintGetNumLinSolvSetups(mem, &setups) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintGetNumLinSolves(mem, &solves) == GEOMINT_SUCCESS);
    BOOST_TEST(setups == setup_calls);
    BOOST_TEST(solves == solve_calls);
    GeomintGetNumSteps(mem, &steps);
    GeomintGetNumNewtonIters(mem, &iterations);
    BOOST_TEST(setups >= steps);
    BOOST_TEST(solves >= iterations);
    GeomintFree(&mem);
    SUNLinSolFree(ls);
    SUNMatDestroy(a);
    SUNMatDestroy(g);
  }
  for (int method : {GEOMINT_CONSTRAINED_LOBATTO_4_3, GEOMINT_CONSTRAINED_RATTLE_2_2, GEOMINT_REICH_SYMMETRIC_2}) {
    for (bool separable : {true, false}) {
      BOOST_TEST_CONTEXT(GeomintGetMethodName(method) << (separable ? ", separable" : ", general") << " H") {
        sp_data d;
        SUNMatrix g;
        void* mem = make_sp(s, d, method, 0.01, separable, g);
        N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
        sunrealtype t = 0;
        BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
        long setups = -1, solves = -1, steps = 0, iterations = 0;
        GeomintGetNumLinSolvSetups(mem, &setups);
        GeomintGetNumLinSolves(mem, &solves);
        GeomintGetNumSteps(mem, &steps);
        GeomintGetNumNewtonIters(mem, &iterations);
        BOOST_TEST(steps == 50);
        if (method == GEOMINT_REICH_SYMMETRIC_2) {
          BOOST_TEST(setups == 0);
          BOOST_TEST(solves == 0);
          BOOST_TEST(iterations > 0);
        } else if (separable) {  // every Newton iteration solves with G M⁻¹ Gᵀ; one factorization per step at least
          BOOST_TEST(setups >= steps);
          BOOST_TEST(solves >= iterations);
        } else {  // stage Jacobians; the hidden-constraint iterations (counted by Newton) use their own m × m LU
          BOOST_TEST(setups > 0);
          BOOST_TEST(solves >= steps);
          BOOST_TEST(solves >= setups);
        }
        GeomintFree(&mem);
        SUNMatDestroy(g);
      }
    }
  }
}

// Failed steps and Newton convergence failures (steps failing with GEOMINT_NEWTON_FAIL).
BOOST_AUTO_TEST_CASE(failed_steps) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype t = 0;
  long failed = -1, newton = -1;
  BOOST_TEST(GeomintSetMaxStageIters(mem, 1) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
  BOOST_TEST(GeomintGetNumFailedSteps(mem, &failed) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumNewtonConvFails(mem, &newton) == GEOMINT_SUCCESS);
  BOOST_TEST(failed == 1);
  BOOST_TEST(newton == 1);
  BOOST_TEST(GeomintSetMaxStageIters(mem, 50) == GEOMINT_SUCCESS);
  d.f = fault{"dh_dq", 0, 30, 1};
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_CALLBACK_RECOVERABLE);
  GeomintGetNumFailedSteps(mem, &failed);
  GeomintGetNumNewtonConvFails(mem, &newton);
  BOOST_TEST(failed == 2);
  BOOST_TEST(newton == 1);
  d.f = fault{};
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  GeomintGetNumFailedSteps(mem, &failed);
  BOOST_TEST(failed == 2);
  // NULL outputs of every counter getter.
  long n = 0;
  const int flags[] = {GeomintGetNumFailedSteps(mem, nullptr), GeomintGetNumNewtonConvFails(mem, nullptr),
                       GeomintGetNumLinSolvSetups(mem, nullptr), GeomintGetNumLinSolves(mem, nullptr),
                       GeomintGetNumGradientEvals(mem, &n, nullptr), GeomintGetNumGradientEvals(mem, nullptr, &n),
                       GeomintGetNumEnergyEvals(mem, nullptr), GeomintGetNumConstraintEvals(mem, &n, nullptr),
                       GeomintGetNumConstraintEvals(mem, nullptr, &n),
                       GeomintGetNumHessianEvals(mem, &n, &n, &n, nullptr),
                       GeomintGetNumHessianEvals(mem, nullptr, &n, &n, &n)};
  for (int flag : flags) BOOST_TEST(flag == GEOMINT_ILL_INPUT);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// GeomintPrintAllStats: a table as IDAPrintAllStats writes it (names padded to 29 columns) and
// one CSV line with the same values in the same order; every value is the getter's.
BOOST_AUTO_TEST_CASE(print_all_stats) {
  sun s;
  sp_data d;
  SUNMatrix g;
  void* mem = make_sp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, false, g);
  N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.255, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  const auto table = table_entries(printed([&](std::FILE* f) { GeomintPrintAllStats(mem, f, SUN_OUTPUTFORMAT_TABLE); }));
  const auto csv = csv_entries(printed([&](std::FILE* f) { GeomintPrintAllStats(mem, f, SUN_OUTPUTFORMAT_CSV); }));
  BOOST_TEST_REQUIRE(table.size() == csv.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    BOOST_TEST((table[i].first == csv[i].first || (table[i].first == "Current time" && csv[i].first == "Time")));
    BOOST_TEST(table[i].second == csv[i].second);
  }
  auto value = as_map(table);
  long n[11];
  GeomintGetNumSteps(mem, &n[0]);
  GeomintGetNumFailedSteps(mem, &n[1]);
  GeomintGetNumNewtonIters(mem, &n[2]);
  GeomintGetNumNewtonConvFails(mem, &n[3]);
  GeomintGetNumJacEvals(mem, &n[4]);
  GeomintGetNumLinSolvSetups(mem, &n[5]);
  GeomintGetNumLinSolves(mem, &n[6]);
  GeomintGetNumGradientEvals(mem, &n[7], &n[8]);
  GeomintGetNumConstraintEvals(mem, &n[9], &n[10]);
  const char* names[] = {"Steps", "Failed steps", "Newton iters", "Newton conv fails", "Jac evals", "LS setups",
                         "LS solves", "dH/dq evals", "dH/dp evals", "g evals", "G evals"};
  for (int i = 0; i < 11; ++i) BOOST_TEST(value[names[i]] == std::to_string(n[i]), names[i]);
  long qq = 0, qp = 0, pp = 0, ch = 0, energy = 0;
  GeomintGetNumHessianEvals(mem, &qq, &qp, &pp, &ch);
  GeomintGetNumEnergyEvals(mem, &energy);
  BOOST_TEST(value["H_qq evals"] == std::to_string(qq));
  BOOST_TEST(value["H_qp evals"] == std::to_string(qp));
  BOOST_TEST(value["H_pp evals"] == std::to_string(pp));
  BOOST_TEST(value["Constraint Hessian evals"] == std::to_string(ch));
  BOOST_TEST(value["H evals"] == std::to_string(energy));
  // tout = 0.255 is off the grid: the integrator stepped to 0.26 (IDA's NORMAL mode), and its
  // last step is h.
  BOOST_TEST(value["Current time"] == "0.26");
  BOOST_TEST(value["Fixed step size"] == "0.01");
  BOOST_TEST(value["Last step size"] == "0.01");
  BOOST_TEST(n[0] == 26);
  BOOST_TEST(GeomintPrintAllStats(mem, nullptr, SUN_OUTPUTFORMAT_TABLE) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintPrintAllStats(mem, stdout, 7) == GEOMINT_ILL_INPUT);
  GeomintFree(&mem);
  SUNMatDestroy(g);
  // The Reich method factorizes no stage system through a linear solver: no LS lines (as
  // IDAPrintAllStats leaves them out without a linear solver).
  dsp_data dd;
  void* reich = make_dsp(s, dd, GEOMINT_REICH_SYMMETRIC_2, 0.01, g);
  const auto reich_table = as_map(table_entries(printed([&](std::FILE* f) { GeomintPrintAllStats(reich, f, SUN_OUTPUTFORMAT_TABLE); })));
  BOOST_TEST(reich_table.count("LS setups") == 0u);
  BOOST_TEST(reich_table.count("Steps") == 1u);
  GeomintFree(&reich);
  SUNMatDestroy(g);
}

// GeomintSolveIDA reports every counter IDAPrintAllStats prints: GeomintPrintIDAStats of its
// statistics is, character for character, IDAPrintAllStats' table of the same IDA run (the C++
// solve_ida on the C++ system the callbacks compute, which IDA integrates identically).
BOOST_AUTO_TEST_CASE(ida_statistics_as_ida_prints_them) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  GeomintIDAOptions o;
  GeomintIDADefaultOptions(&o);
  o.rtol = o.atol = 1e-9;
  const sunrealtype times[2] = {0.5, 1.0};
  N_Vector q[2] = {s.vector(VectorXd::Zero(6)), s.vector(VectorXd::Zero(6))};
  N_Vector p[2] = {s.vector(VectorXd::Zero(6)), s.vector(VectorXd::Zero(6))};
  GeomintIDAStats st;
  BOOST_TEST_REQUIRE(GeomintSolveIDA(mem, &o, 2, times, q, p, &st) == GEOMINT_SUCCESS, last_error(mem));

  geomint::sundials::ida_options options;
  options.rtol = options.atol = 1e-9;
  options.output_times = {0.5, 1.0};
  const auto x0 = d.problem.initial_state();
  const geomint::sundials::ida_result r = geomint::sundials::solve_ida(d.system(), x0.first, x0.second, 0.0, options);
  BOOST_TEST_REQUIRE(r.ok());
  BOOST_TEST_REQUIRE(!r.all_stats.empty());
  BOOST_TEST(st.steps == r.statistics.steps);
  BOOST_TEST(st.step_solve_fails == r.statistics.step_solve_failures);
  BOOST_TEST(st.current_time >= 1.0);  // IDA steps past tout and interpolates
  BOOST_TEST(st.last_order >= 1);
  const std::string ours = printed([&](std::FILE* f) { GeomintPrintIDAStats(&st, f, SUN_OUTPUTFORMAT_TABLE); });
  BOOST_TEST(ours == r.all_stats, "geomint:\n" << ours << "IDA:\n" << r.all_stats);

  // The CSV line: the same values, IDA's CSV names.
  const auto table = table_entries(ours);
  const auto csv = csv_entries(printed([&](std::FILE* f) { GeomintPrintIDAStats(&st, f, SUN_OUTPUTFORMAT_CSV); }));
  BOOST_TEST_REQUIRE(table.size() == csv.size());
  for (std::size_t i = 0; i < table.size(); ++i) BOOST_TEST(table[i].second == csv[i].second, table[i].first);
  BOOST_TEST(csv.front().first == "Time");
  BOOST_TEST(as_map(csv).count("LS residual evals") == 1u);

  BOOST_TEST(GeomintPrintIDAStats(nullptr, stdout, SUN_OUTPUTFORMAT_TABLE) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintPrintIDAStats(&st, nullptr, SUN_OUTPUTFORMAT_TABLE) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintPrintIDAStats(&st, stdout, -1) == GEOMINT_ILL_INPUT);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// The Lie–Poisson lifecycle: ∇H and H evaluations against the callbacks' counts, failed steps,
// and its statistics in both formats.
namespace {
long lie_gradient_calls = 0, lie_energy_calls = 0;
int lie_gradient(sunrealtype, N_Vector y, N_Vector out, void*) {
  ++lie_gradient_calls;
  map(out) = map(y).cwiseQuotient(geomint::vector<3>(2.0, 1.0, 2.0 / 3.0));
  return 0;
}
int lie_energy(sunrealtype, N_Vector y, sunrealtype* e, void*) {
  ++lie_energy_calls;
  *e = 0.5 * map(y).cwiseAbs2().cwiseQuotient(geomint::vector<3>(2.0, 1.0, 2.0 / 3.0)).sum();
  return 0;
}
}  // namespace

BOOST_AUTO_TEST_CASE(lie_statistics) {
  sun s;
  lie_gradient_calls = lie_energy_calls = 0;
  void* mem = GeomintLieCreate(s.ctx(), GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2, GEOMINT_ALGEBRA_SO3);
  N_Vector y = s.vector(geomint::vector<3>(0.6, 0.0, 0.8));
  BOOST_TEST_REQUIRE(GeomintLieInit(mem, lie_gradient, lie_energy, 0.0, y) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieSetFixedStep(mem, 0.05) == GEOMINT_SUCCESS);
  sunrealtype t = 0;
  BOOST_TEST(GeomintLieEvolve(mem, 1.0, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieSetMaxStageIters(mem, 1) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(mem, 2.0, y, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
  long grad = -1, energy = -1, failed = -1, newton = -1, steps = -1;
  BOOST_TEST(GeomintLieGetNumEvals(mem, &grad, &energy) == GEOMINT_SUCCESS);
  BOOST_TEST(grad == lie_gradient_calls);
  BOOST_TEST(energy == lie_energy_calls);
  BOOST_TEST(energy > 0);  // the discrete gradient evaluates H
  BOOST_TEST(GeomintLieGetNumFailedSteps(mem, &failed) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieGetNumNewtonConvFails(mem, &newton) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieGetNumSteps(mem, &steps) == GEOMINT_SUCCESS);
  BOOST_TEST(failed == 1);
  BOOST_TEST(newton == 1);
  BOOST_TEST(steps == 20);
  const auto table = table_entries(printed([&](std::FILE* f) { GeomintLiePrintAllStats(mem, f, SUN_OUTPUTFORMAT_TABLE); }));
  const auto csv = csv_entries(printed([&](std::FILE* f) { GeomintLiePrintAllStats(mem, f, SUN_OUTPUTFORMAT_CSV); }));
  BOOST_TEST_REQUIRE(table.size() == csv.size());
  auto value = as_map(table);
  BOOST_TEST(value["Steps"] == "20");
  BOOST_TEST(value["Failed steps"] == "1");
  BOOST_TEST(value["grad H evals"] == std::to_string(grad));
  BOOST_TEST(value["H evals"] == std::to_string(energy));
  BOOST_TEST(value["Current time"] == "1");
  BOOST_TEST(GeomintLieGetNumEvals(mem, &grad, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetNumFailedSteps(mem, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieGetNumNewtonConvFails(mem, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLiePrintAllStats(mem, nullptr, SUN_OUTPUTFORMAT_CSV) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLiePrintAllStats(mem, stdout, 9) == GEOMINT_ILL_INPUT);
  GeomintLieFree(&mem);
}

BOOST_AUTO_TEST_SUITE_END()
