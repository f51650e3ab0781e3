// Initial conditions in the C module (geomint_sundials.h): consistency checked as soon as the
// state and the constraints are known (GeomintReInit, GeomintSetConstraints, GeomintSetMass),
// and GeomintCalcIC, which projects the state as the C++ project_to_manifold does.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "c_problems.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/system/consistency.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

/// The double pendulum's initial state moved off the manifold: q by dq in x1, p by dp in p_z1.
std::pair<VectorXd, VectorXd> perturbed(const dsp_data& d, double dq, double dp) {
  auto x = d.problem.initial_state();
  VectorXd q = x.first, p = x.second;
  q(0) += dq;
  p(2) += dp;
  return {q, p};
}


}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_calcic)

// Init, then the constraints: as in IDA the setters take the inconsistent state as it is and
// succeed (an IDA-style `if (flag < 0) exit` passes them); GeomintEvolve refuses the state with
// GEOMINT_INCONSISTENT_STATE and its residuals, naming GeomintCalcIC, which projects it. The projection equals the C++ project_to_manifold's bit for bit;
// the projected state is on the manifold to round-off, integrates, and starts the IDA reference.
BOOST_AUTO_TEST_CASE(project_positions_and_momenta) {
  sun s;
  dsp_data d;
  const auto x = perturbed(d, 1e-3, 0.05);
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_LOBATTO_4_3);
  GeomintCallbacks cb{dsp_gradient, nullptr, dsp_energy};
  SUNMatrix g = SUNDenseMatrix(2, 6, s.ctx());
  BOOST_TEST(GeomintInit(mem, &cb, 0.0, s.vector(x.first), s.vector(x.second)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetUserData(mem, &d) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetMass(mem, s.vector(d.masses())) == GEOMINT_SUCCESS);  // no constraints yet
  BOOST_TEST(GeomintSetConstraints(mem, dsp_constraint, dsp_jacobian, g) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetFixedStep(mem, 0.01) == GEOMINT_SUCCESS);
  {
    N_Vector q_out = s.vector(VectorXd::Zero(6)), p_out = s.vector(VectorXd::Zero(6));
    sunrealtype t_out = -1;
    BOOST_TEST(GeomintEvolve(mem, 0.5, q_out, p_out, &t_out, GEOMINT_NORMAL) == GEOMINT_INCONSISTENT_STATE);
    BOOST_TEST(last_error(mem).find("GeomintCalcIC") != std::string::npos, last_error(mem));
    BOOST_TEST(last_error(mem).find("project_to_manifold") == std::string::npos, last_error(mem));
    BOOST_TEST(t_out == 0.0);  // nothing was taken
    BOOST_TEST(bitwise_equal(q_out, x.first));
  }
  sunrealtype position = 0, velocity = 0;
  BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);  // attached
  BOOST_TEST(position > 1e-5);

  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P) == GEOMINT_SUCCESS, last_error(mem));
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  BOOST_TEST(GeomintGetCurrentState(mem, q, p) == GEOMINT_SUCCESS);
  VectorXd q_cpp = x.first, p_cpp = x.second;
  geomint::project_to_manifold(d.system(), q_cpp, p_cpp);
  BOOST_TEST(bitwise_equal(q, q_cpp));
  BOOST_TEST(bitwise_equal(p, p_cpp));
  BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);
  BOOST_TEST(position <= 1e-14);  // project_to_manifold's position tolerance
  BOOST_TEST(velocity <= 1e-14);

  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
  GeomintIDAOptions o;
  GeomintIDADefaultOptions(&o);
  GeomintIDAStats st;
  const sunrealtype tout = 0.5;
  N_Vector qi = s.vector(VectorXd::Zero(6)), pi = s.vector(VectorXd::Zero(6));
  BOOST_TEST(GeomintSolveIDA(mem, &o, 1, &tout, &qi, &pi, &st) == GEOMINT_SUCCESS, last_error(mem));
  // Both from the projected state: they agree to the IDA tolerance (1e-8) times the growth over
  // half a second (measured ≤ 1e-6).
  BOOST_TEST((map(q) - map(qi)).cwiseAbs().maxCoeff() <= 1e-5);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// GEOMINT_CALCIC_P keeps q bit for bit and projects p onto G ∂H/∂p = 0; with q off g = 0 it
// refuses (GEOMINT_INCONSISTENT_STATE) and changes nothing. GeomintReInit and GeomintSetMass take
// an inconsistent state as it is (GEOMINT_SUCCESS, as IDA's setters).
BOOST_AUTO_TEST_CASE(project_momenta_only) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, g);
  const auto off_p = perturbed(d, 0.0, 0.05);
  BOOST_TEST(GeomintReInit(mem, 0.0, s.vector(off_p.first), s.vector(off_p.second)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_P) == GEOMINT_SUCCESS, last_error(mem));
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  GeomintGetCurrentState(mem, q, p);
  BOOST_TEST(bitwise_equal(q, off_p.first));
  BOOST_TEST(!bitwise_equal(p, off_p.second));
  sunrealtype position = 1, velocity = 1;
  GeomintGetConstraintResidual(mem, &position, &velocity);
  BOOST_TEST(velocity <= 1e-14);
  // The projection is G-orthogonal to the tangent space: p moved along M⁻¹-weighted rows of G,
  // here by exactly the hidden-constraint correction of project_to_manifold.
  VectorXd q_cpp = off_p.first, p_cpp = off_p.second;
  geomint::project_to_manifold(d.system(), q_cpp, p_cpp);
  BOOST_TEST(bitwise_equal(p, p_cpp));

  const auto off_q = perturbed(d, 1e-3, 0.0);
  BOOST_TEST(GeomintReInit(mem, 0.0, s.vector(off_q.first), s.vector(off_q.second)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_P) == GEOMINT_INCONSISTENT_STATE);
  BOOST_TEST(last_error(mem).find("GEOMINT_CALCIC_Q_P") != std::string::npos, last_error(mem));
  GeomintGetCurrentState(mem, q, p);
  BOOST_TEST(bitwise_equal(q, off_q.first));
  BOOST_TEST(bitwise_equal(p, off_q.second));
  // Masses that change ∂H/∂p make the velocity inconsistent: taken, and measurable.
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetMass(mem, s.vector(VectorXd::LinSpaced(6, 1.0, 6.0))) == GEOMINT_SUCCESS);
  GeomintGetConstraintResidual(mem, &position, &velocity);
  BOOST_TEST(velocity > 1e-6);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_P) == GEOMINT_SUCCESS);
  GeomintGetConstraintResidual(mem, &position, &velocity);
  BOOST_TEST(position <= 1e-14);
  BOOST_TEST(velocity <= 1e-14);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// A general H (the variable-mass sphere): momenta projected by Newton on G ∂H/∂p = 0.
BOOST_AUTO_TEST_CASE(general_hamiltonian) {
  sun s;
  vms_data d;
  SUNMatrix g;
  void* mem = make_vms(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, true, g);
  const auto x0 = d.problem.initial_state();
  VectorXd q0 = x0.first * 1.01, p0 = x0.second;
  p0(0) += 0.1;
  BOOST_TEST(GeomintReInit(mem, 0.0, s.vector(q0), s.vector(p0)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P) == GEOMINT_SUCCESS, last_error(mem));
  sunrealtype position = 1, velocity = 1;
  BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);
  BOOST_TEST(position <= 1e-14);
  BOOST_TEST(velocity <= 1e-13);  // Newton on the hidden constraint, 10 ε relative on p
  N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(mem, 0.2, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// Failures and bad calls: dependent constraints (G Gᵀ singular) leave the state as it was, with
// an ASCII message that names no C++ function; an unknown `which`; without constraints there is
// nothing to project.
BOOST_AUTO_TEST_CASE(failures_and_bad_arguments) {
  sun s;
  auto twice = [](sunrealtype, N_Vector q, N_Vector g, void*) {
    NV_Ith_S(g, 0) = NV_Ith_S(g, 1) = map(q).squaredNorm() - 1.0;
    return 0;
  };
  auto twice_jacobian = [](sunrealtype, N_Vector q, SUNMatrix G, void*) {
    for (int j = 0; j < 3; ++j) SM_ELEMENT_D(G, 0, j) = SM_ELEMENT_D(G, 1, j) = 2 * NV_Ith_S(q, j);
    return 0;
  };
  auto gravity = [](sunrealtype, N_Vector, N_Vector, N_Vector out, void*) {
    map(out) << 0, 0, 9.81;
    return 0;
  };
  void* mem = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  GeomintCallbacks cb{gravity, nullptr, nullptr};
  VectorXd q0(3), p0(3);
  q0 << 0.8, 0.0, -0.7;  // |q| ≠ 1
  p0 << 0.0, 1.0, 0.0;
  SUNMatrix g = SUNDenseMatrix(2, 3, s.ctx());
  BOOST_TEST(GeomintInit(mem, &cb, 0.0, s.vector(q0), s.vector(p0)) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P) == GEOMINT_SUCCESS);  // unconstrained: nothing to do
  BOOST_TEST(GeomintSetMass(mem, s.vector(VectorXd::Ones(3))) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetConstraints(mem, twice, twice_jacobian, g) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintCalcIC(mem, GEOMINT_CALCIC_Q_P) == GEOMINT_SINGULAR_JACOBIAN);
  const std::string why = last_error(mem);
  BOOST_TEST(why.find("GeomintCalcIC") != std::string::npos, why);
  BOOST_TEST(why.find("project_to_manifold") == std::string::npos, why);
  BOOST_TEST(why.find("G G^T is singular") != std::string::npos, why);
  N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
  GeomintGetCurrentState(mem, q, p);
  BOOST_TEST(bitwise_equal(q, q0));
  BOOST_TEST(bitwise_equal(p, p0));
  BOOST_TEST(GeomintCalcIC(mem, 0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintCalcIC(mem, 3) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(mem).find("GEOMINT_CALCIC_Q_P") != std::string::npos);
  // GeomintInit rejects non-finite data at once.
  q0(1) = NAN;
  BOOST_TEST(GeomintInit(mem, &cb, 0.0, s.vector(q0), s.vector(p0)) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(mem).find("finite") != std::string::npos);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

BOOST_AUTO_TEST_SUITE_END()
