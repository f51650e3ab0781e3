// SUNDIALS linear solvers (dense, band, KLU) for the stage Newton systems: through the C API
// and through the C++ hook (sunlinsol_factorization with constrained_options::linear_solver).
#include <boost/test/unit_test.hpp>

#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>

#include "c_problems.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/sundials/sunlinsol_factorization.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

enum class kind { dense, band, klu_csc, klu_csr };
const kind all_kinds[] = {kind::dense, kind::band, kind::klu_csc, kind::klu_csr};

/// A SUNDIALS direct solver of order n (band: half-bandwidths `band`), owned.
struct linear_solver {
  N_Vector tmpl = nullptr;
  SUNMatrix a = nullptr;
  SUNLinearSolver ls = nullptr;
  linear_solver(SUNContext ctx, kind k, sunindextype n, sunindextype band = 1) {
    tmpl = N_VNew_Serial(n, ctx);
    switch (k) {
      case kind::dense: a = SUNDenseMatrix(n, n, ctx); ls = SUNLinSol_Dense(tmpl, a, ctx); break;
      case kind::band: a = SUNBandMatrix(n, band, band, ctx); ls = SUNLinSol_Band(tmpl, a, ctx); break;
      case kind::klu_csc: a = SUNSparseMatrix(n, n, 1, CSC_MAT, ctx); ls = SUNLinSol_KLU(tmpl, a, ctx); break;
      case kind::klu_csr: a = SUNSparseMatrix(n, n, 1, CSR_MAT, ctx); ls = SUNLinSol_KLU(tmpl, a, ctx); break;
    }
  }
  ~linear_solver() {
    SUNLinSolFree(ls);
    SUNMatDestroy(a);
    N_VDestroy(tmpl);
  }
};

double max_difference(N_Vector a, N_Vector b) { return (map(a) - map(b)).cwiseAbs().maxCoeff(); }

/// Evolves `with` (a SUNDIALS solver attached) and `without` (Eigen's) to t and compares.
/// Both solve the same stage equations to the same near-round-off tolerance; only the rounding
/// of the linear solves differs, so the states agree to a few hundred ulps of |q| ≈ 1..20 after
/// these short runs: 1e-12 is asserted (measured: ≤ 1e-13).
void expect_agreement(void* with, void* without, sun& s, int n, double t_end) {
  N_Vector q1 = s.vector(VectorXd::Zero(n)), p1 = s.vector(VectorXd::Zero(n));
  N_Vector q2 = s.vector(VectorXd::Zero(n)), p2 = s.vector(VectorXd::Zero(n));
  sunrealtype t = 0;
  BOOST_TEST_REQUIRE(GeomintEvolve(without, t_end, q2, p2, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  const int flag = GeomintEvolve(with, t_end, q1, p1, &t, GEOMINT_NORMAL);
  const char* message = nullptr;
  GeomintGetLastErrorMessage(with, &message);
  BOOST_TEST_REQUIRE(flag == GEOMINT_SUCCESS, GeomintGetReturnFlagName(flag) << ": " << message);
  BOOST_TEST(max_difference(q1, q2) <= 1e-12);
  BOOST_TEST(max_difference(p1, p2) <= 1e-12);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sundials_linear_solvers)

// Separable H, dense G: the stage systems are G M⁻¹ Gᵀ, 2 × 2.
BOOST_AUTO_TEST_CASE(double_pendulum_with_each_solver) {
  for (kind k : all_kinds) {
    BOOST_TEST_CONTEXT("solver " << int(k)) {
      sun s;
      dsp_data d1, d2;
      SUNMatrix g1, g2;
      void* with = make_dsp(s, d1, GEOMINT_CONSTRAINED_LOBATTO_6_4, 0.01, g1);
      void* without = make_dsp(s, d2, GEOMINT_CONSTRAINED_LOBATTO_6_4, 0.01, g2);
      sunindextype size = 0;
      BOOST_TEST(GeomintGetLinearSystemSize(with, &size) == GEOMINT_SUCCESS);
      BOOST_TEST(size == 2);
      linear_solver ls(s.ctx(), k, size);
      BOOST_TEST_REQUIRE(GeomintSetLinearSolver(with, ls.ls, ls.a) == GEOMINT_SUCCESS);
      expect_agreement(with, without, s, 6, 1.0);
      GeomintFree(&with);
      GeomintFree(&without);
      SUNMatDestroy(g1);
      SUNMatDestroy(g2);
    }
  }
}

// Separable H, sparse G: G M⁻¹ Gᵀ of a chain is tridiagonal (band 1) and sparse (KLU).
BOOST_AUTO_TEST_CASE(chain_with_each_solver) {
  for (kind k : all_kinds) {
    BOOST_TEST_CONTEXT("solver " << int(k)) {
      sun s;
      chain_data d1(20), d2(20);
      SUNMatrix g1, g2;
      void* with = make_chain(s, d1, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g1);
      void* without = make_chain(s, d2, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g2);
      sunindextype size = 0;
      BOOST_TEST(GeomintGetLinearSystemSize(with, &size) == GEOMINT_SUCCESS);
      BOOST_TEST(size == 20);
      linear_solver ls(s.ctx(), k, size, 1);
      BOOST_TEST_REQUIRE(GeomintSetLinearSolver(with, ls.ls, ls.a) == GEOMINT_SUCCESS);
      expect_agreement(with, without, s, 60, 0.3);
      GeomintFree(&with);
      GeomintFree(&without);
      SUNMatDestroy(g1);
      SUNMatDestroy(g2);
    }
  }
}

// General H: the stage Jacobian itself, S n + (S − 1)(n + m) = 17 for three stages (band: full).
BOOST_AUTO_TEST_CASE(general_hamiltonian_with_each_solver) {
  for (kind k : all_kinds) {
    BOOST_TEST_CONTEXT("solver " << int(k)) {
      sun s;
      vms_data d1, d2;
      SUNMatrix g1, g2;
      void* with = make_vms(s, d1, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, true, g1);
      void* without = make_vms(s, d2, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, true, g2);
      sunindextype size = 0;
      BOOST_TEST(GeomintGetLinearSystemSize(with, &size) == GEOMINT_SUCCESS);
      BOOST_TEST(size == 17);
      linear_solver ls(s.ctx(), k, size, size - 1);
      BOOST_TEST_REQUIRE(GeomintSetLinearSolver(with, ls.ls, ls.a) == GEOMINT_SUCCESS);
      expect_agreement(with, without, s, 3, 0.5);
      GeomintFree(&with);
      GeomintFree(&without);
      SUNMatDestroy(g1);
      SUNMatDestroy(g2);
    }
  }
}

// A matrix of the wrong order is refused by GeomintSetLinearSolver, a band too narrow for the
// matrix by GeomintEvolve (the matrix is only known then), with GEOMINT_ILL_INPUT and the state
// left as it was; NULL restores Eigen's factorizations.
BOOST_AUTO_TEST_CASE(mismatched_solvers_are_refused) {
  sun s;
  chain_data d(20);
  SUNMatrix g;
  void* mem = make_chain(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, g);
  N_Vector q = s.vector(VectorXd::Zero(60)), p = s.vector(VectorXd::Zero(60));
  sunrealtype t = -1;
  const char* message = nullptr;
  VectorXd q_then, p_then;
  {
    linear_solver wrong(s.ctx(), kind::dense, 7);
    BOOST_TEST(GeomintSetLinearSolver(mem, wrong.ls, wrong.a) == GEOMINT_ILL_INPUT);  // refused at once
    GeomintGetLastErrorMessage(mem, &message);
    BOOST_TEST(std::string(message).find("order 7") != std::string::npos, message);
    BOOST_TEST(std::string(message).find("order 20") != std::string::npos, message);
    BOOST_TEST(GeomintEvolve(mem, 0.05, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);  // Eigen's, as before
    q_then = map(q);
    p_then = map(p);
  }
  {
    linear_solver narrow(s.ctx(), kind::band, 20, 0);  // diagonal only: G M⁻¹ Gᵀ is tridiagonal
    BOOST_TEST(GeomintSetLinearSolver(mem, narrow.ls, narrow.a) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
    GeomintGetLastErrorMessage(mem, &message);
    BOOST_TEST(std::string(message).find("outside the band") != std::string::npos, message);
    BOOST_TEST(t == 0.05);  // where the run stood, state untouched
    sunrealtype now = -1;
    BOOST_TEST(GeomintGetCurrentTime(mem, &now) == GEOMINT_SUCCESS);
    BOOST_TEST(now == 0.05);
    BOOST_TEST((map(q).array() == q_then.array()).all());
    BOOST_TEST((map(p).array() == p_then.array()).all());
  }
  BOOST_TEST(GeomintSetLinearSolver(mem, nullptr, nullptr) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  {
    linear_solver no_matrix(s.ctx(), kind::dense, 20);
    BOOST_TEST(GeomintSetLinearSolver(mem, no_matrix.ls, nullptr) == GEOMINT_ILL_INPUT);
  }
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// The C++ hook directly: a 200-link chain with rattle, G M⁻¹ Gᵀ factorized by KLU and by the band
// solver, against Eigen's sparse LDLᵀ (same 1e-12 bound as above).
BOOST_AUTO_TEST_CASE(cpp_steppers_take_a_sunlinsol_factorization) {
  sun s;
  geomint::problems::pendulum_chain_parameters pp;
  pp.links = 200;
  const geomint::problems::pendulum_chain sys(pp);
  for (kind k : {kind::klu_csc, kind::band}) {
    linear_solver ls(s.ctx(), k, 200, 1);
    geomint::sundials::sunlinsol_factorization factorization(ls.ls, ls.a, s.ctx());
    geomint::rattle<> plain, hooked;
    hooked.options().linear_solver = &factorization;
    auto x = sys.initial_state(), y = x;
    for (int i = 0; i < 50; ++i) {
      plain.do_step(sys, x, i * 0.002, 0.002);
      hooked.do_step(sys, y, i * 0.002, 0.002);
    }
    BOOST_TEST((x.first - y.first).cwiseAbs().maxCoeff() <= 1e-12);
    BOOST_TEST((x.second - y.second).cwiseAbs().maxCoeff() <= 1e-12);
  }
}

BOOST_AUTO_TEST_SUITE_END()
