// Error reporting of the C module (geomint_sundials.h): the last failure's flag and message stay
// until another call fails, the error handler (IDASetErrHandlerFn's signature) sees every
// failure with the failing function's name, and messages are plain ASCII.
#include <boost/test/unit_test.hpp>

#include <ida/ida.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "c_problems.hpp"

using namespace sundials_test;
using Eigen::VectorXd;

namespace {

int last_flag(void* mem) {
  int flag = 12345;
  GeomintGetLastFlag(mem, &flag);
  return flag;
}

struct reported {
  int code;
  std::string module, function, message;
  void* data;
};
std::vector<reported> reports;
void record(int code, const char* module, const char* function, char* msg, void* data) {
  reports.push_back({code, module, function, msg, data});
}

bool ascii(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_errors)

// Read the statistics after a failure, then print the reason: the getters and later successful
// calls leave the record of the failure; the next failure replaces it.
BOOST_AUTO_TEST_CASE(last_failure_persists) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  BOOST_TEST(last_flag(mem) == GEOMINT_SUCCESS);
  BOOST_TEST(last_error(mem).empty());
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  sunrealtype t = 0, r1 = 0, r2 = 0;
  BOOST_TEST(GeomintSetMaxStageIters(mem, 1) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
  const std::string why = last_error(mem);
  BOOST_TEST(why.find("max_iterations") != std::string::npos, why);
  long n = 0;
  BOOST_TEST(GeomintGetNumSteps(mem, &n) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumNewtonIters(mem, &n) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetNumFailedSteps(mem, &n) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetCurrentTime(mem, &t) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintGetConstraintResidual(mem, &r1, &r2) == GEOMINT_SUCCESS);
  std::FILE* out = std::tmpfile();
  BOOST_TEST(GeomintPrintAllStats(mem, out, SUN_OUTPUTFORMAT_CSV) == GEOMINT_SUCCESS);
  std::fclose(out);
  BOOST_TEST(GeomintSetMaxStageIters(mem, 50) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintEvolve(mem, 0.2, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(last_flag(mem) == GEOMINT_NEWTON_FAIL);
  BOOST_TEST(last_error(mem) == why);
  BOOST_TEST(GeomintSetFixedStep(mem, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_flag(mem) == GEOMINT_ILL_INPUT);
  BOOST_TEST(last_error(mem).find("fixed step") != std::string::npos);
  // The getters themselves with bad arguments.
  BOOST_TEST(GeomintGetLastFlag(mem, nullptr) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintGetLastErrorMessage(mem, nullptr) == GEOMINT_ILL_INPUT);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// The handler has IDAErrHandlerFn's type; it is called once per failing call, after the record
// is made, with the flag, the module, the failing function's name, the message and eh_data;
// never on success; NULL removes it. Before GeomintInit it reports GEOMINT_NO_MALLOC too.
BOOST_AUTO_TEST_CASE(error_handler) {
  static_assert(std::is_same_v<GeomintErrHandlerFn, IDAErrHandlerFn>, "IDA's handler signature");
  sun s;
  int tag = 0;
  reports.clear();
  void* fresh = GeomintCreate(s.ctx(), GEOMINT_CONSTRAINED_RATTLE_2_2);
  BOOST_TEST(GeomintSetErrHandlerFn(fresh, record, &tag) == GEOMINT_SUCCESS);
  N_Vector v6 = s.vector(VectorXd::Zero(6));
  sunrealtype t = 0;
  BOOST_TEST(GeomintEvolve(fresh, 1.0, v6, v6, &t, GEOMINT_NORMAL) == GEOMINT_NO_MALLOC);
  BOOST_TEST_REQUIRE(reports.size() == 1u);
  BOOST_TEST(reports[0].code == GEOMINT_NO_MALLOC);
  BOOST_TEST(reports[0].module == "GEOMINT");
  BOOST_TEST(reports[0].function == "GeomintEvolve");
  BOOST_TEST(reports[0].message == last_error(fresh));
  BOOST_TEST(reports[0].data == &tag);
  GeomintFree(&fresh);

  reports.clear();
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
  BOOST_TEST(GeomintSetErrHandlerFn(mem, record, &tag) == GEOMINT_SUCCESS);
  N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
  BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
  BOOST_TEST(reports.empty());
  BOOST_TEST(GeomintSetFixedStep(mem, -INFINITY) == GEOMINT_ILL_INPUT);
  d.f = fault{"constraint", 0, 5, -4};
  BOOST_TEST(GeomintEvolve(mem, 0.5, q, p, &t, GEOMINT_NORMAL) == GEOMINT_CALLBACK_FAIL);
  d.f = fault{};
  BOOST_TEST_REQUIRE(reports.size() == 2u);
  BOOST_TEST(reports[0].code == GEOMINT_ILL_INPUT);
  BOOST_TEST(reports[0].function == "GeomintSetFixedStep");
  BOOST_TEST(reports[1].code == GEOMINT_CALLBACK_FAIL);
  BOOST_TEST(reports[1].function == "GeomintEvolve");
  BOOST_TEST(reports[1].message == last_error(mem));
  BOOST_TEST(reports[1].message.find("returned -4") != std::string::npos);
  BOOST_TEST(GeomintSetErrHandlerFn(mem, nullptr, nullptr) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintSetFixedStep(mem, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(reports.size() == 2u);
  GeomintFree(&mem);
  SUNMatDestroy(g);

  reports.clear();
  void* lie = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3);
  BOOST_TEST(GeomintLieSetErrHandlerFn(lie, record, nullptr) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieSetFixedStep(lie, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST_REQUIRE(reports.size() == 1u);
  BOOST_TEST(reports[0].module == "GEOMINT_LIE");
  BOOST_TEST(reports[0].function == "GeomintLieSetFixedStep");
  BOOST_TEST(reports[0].data == nullptr);
  GeomintLieFree(&lie);
}

// Failures whose C++ messages write mathematics in UTF-8 (½pᵀM⁻¹p, G M⁻¹ Gᵀ, ∂²L/∂q̇², a pointer
// to geomint::project_to_manifold) reach C users in ASCII, the C++ function replaced by its C
// equivalent.
BOOST_AUTO_TEST_CASE(messages_are_ascii) {
  sun s;
  std::vector<std::string> messages;
  {  // a method for separable H on a general H
    vms_data d;
    SUNMatrix g;
    void* mem = make_vms(s, d, GEOMINT_VARIATIONAL_MIDPOINT_2, 0.01, false, g);
    N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
    sunrealtype t = 0;
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
    messages.push_back(last_error(mem));
    BOOST_TEST(messages.back().find("H = 1/2p^TM^-1p + V(q)") != std::string::npos, messages.back());
    BOOST_TEST(messages.back().find("grad V") != std::string::npos, messages.back());
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  for (int method : {GEOMINT_CONSTRAINED_LOBATTO_4_3, GEOMINT_VARIATIONAL_MIDPOINT_2}) {  // off the manifold
    dsp_data d;
    SUNMatrix g;
    void* mem = make_dsp(s, d, method, 0.01, g);
    VectorXd q0 = d.problem.initial_state().first;
    q0(2) += 1e-3;
    N_Vector q = s.vector(q0), p = s.vector(d.problem.initial_state().second);
    BOOST_TEST(GeomintReInit(mem, 0.0, q, p) == GEOMINT_SUCCESS);  // taken as it is, as IDAReInit
    sunrealtype t = 0;
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_INCONSISTENT_STATE);
    messages.push_back(last_error(mem));
    BOOST_TEST(messages.back().find("GeomintCalcIC") != std::string::npos, messages.back());
    BOOST_TEST(messages.back().find("project_to_manifold") == std::string::npos, messages.back());
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  {  // a Newton failure of the stage equations
    dsp_data d;
    SUNMatrix g;
    void* mem = make_dsp(s, d, GEOMINT_CONSTRAINED_LOBATTO_4_3, 0.01, g);
    N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
    sunrealtype t = 0;
    BOOST_TEST(GeomintSetMaxStageIters(mem, 1) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
    messages.push_back(last_error(mem));
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  {  // the Lie lifecycle: Newton failure of RKMK's stage equations
    void* lie = GeomintLieCreate(s.ctx(), GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, GEOMINT_ALGEBRA_SO3);
    auto gradient = [](sunrealtype, N_Vector y, N_Vector out, void*) {  // a rigid body, I = (2, 1, 2/3)
      map(out) = map(y).cwiseQuotient(geomint::vector<3>(2.0, 1.0, 2.0 / 3.0));
      return 0;
    };
    N_Vector y = s.vector(geomint::vector<3>(0.6, 0.0, 0.8));
    BOOST_TEST(GeomintLieInit(lie, gradient, nullptr, 0.0, y) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintLieSetFixedStep(lie, 0.1) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintLieSetMaxStageIters(lie, 1) == GEOMINT_SUCCESS);
    sunrealtype t = 0;
    BOOST_TEST(GeomintLieEvolve(lie, 1.0, y, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
    const char* m = nullptr;
    GeomintLieGetLastErrorMessage(lie, &m);
    messages.push_back(m);
    GeomintLieFree(&lie);
  }
  for (const std::string& m : messages) {
    BOOST_TEST(!m.empty());
    BOOST_TEST(ascii(m), m);
    BOOST_TEST(m.find('?') == std::string::npos, "a character without transliteration: " << m);
  }
}

BOOST_AUTO_TEST_SUITE_END()
