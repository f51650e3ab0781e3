// The C module's Reich / variational ids (constrained lifecycle) and its Lie–Poisson lifecycle
// (GeomintLie*): agreement with the C++ steppers, invariants, flags, untouched state on failure.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <sunlinsol/sunlinsol_dense.h>

#include <cmath>
#include <string>
#include <tuple>

#include "c_problems.hpp"
#include "geomint/catalogue.hpp"
#include "geomint/diagnostics/allocation_counter.hpp"  // counted by test_c_api.cpp's allocation_counter.hpp
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/lie/se3.hpp"
#include "geomint/lie/so3.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace sundials_test;
using Eigen::VectorXd;
using state = std::pair<VectorXd, VectorXd>;

namespace {


/// Evolves mem over `count` intervals of 0.1 with h = 0.01; `advance(x, t, h)` takes the C++
/// stepper's step. After every interval the states must agree bit for bit: the C module runs the
/// same C++ code on the same arithmetic (the callbacks compute what the C++ system computes).
/// Every GeomintEvolve after the first allocates nothing.
template <class Advance>
void compare(void* mem, state x, sun& s, int count, Advance&& advance) {
  const double h = 0.01;
  N_Vector q = s.vector(x.first), p = s.vector(x.second);
  double t = 0;
  for (int k = 1; k <= count; ++k) {
    sunrealtype tret = -1;
    const geomint::diagnostics::allocation_scope scope;  // the first call sizes the workspaces
    BOOST_TEST_REQUIRE(GeomintEvolve(mem, 0.1 * k, q, p, &tret, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
    if (k > 1) BOOST_TEST(scope.count() == 0, "GeomintEvolve allocated in interval " << k);
    for (int i = 0; i < 10; ++i, t += h) advance(x, t, h);
    BOOST_TEST_REQUIRE(bitwise_equal(x.first, q), "q differs after interval " << k);
    BOOST_TEST_REQUIRE(bitwise_equal(x.second, p), "p differs after interval " << k);
  }
  long nsteps = 0;
  BOOST_TEST(GeomintGetNumSteps(mem, &nsteps) == GEOMINT_SUCCESS);
  BOOST_TEST(nsteps == 10 * count);
  // The constraint invariants: g(q) = 0 and G ∂H/∂p = 0 are solved for to the Newton tolerance
  // (10 ε relative) at every step, so the scaled residuals stay at round-off (≤ 1e-12 ≈ 4500 ε).
  sunrealtype position = 1, velocity = 1;
  BOOST_TEST(GeomintGetConstraintResidual(mem, &position, &velocity) == GEOMINT_SUCCESS);
  BOOST_TEST(position <= 1e-12);
  BOOST_TEST(velocity <= 1e-12);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_families)

// Reich symmetric, separable H with dense G: the C++ reich_symmetric on the same potential and
// constraints in a geomint::separable_system of the same (dynamic) sizes.
BOOST_AUTO_TEST_CASE(reich_symmetric_double_spherical_pendulum) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_REICH_SYMMETRIC_2, 0.01, g);
  const auto x0 = d.problem.initial_state();
  const auto sys = d.system();
  geomint::reich_symmetric<state> stepper;
  compare(mem, state(x0.first, x0.second), s, 10, [&](state& x, double t, double h) { stepper.do_step(sys, x, t, h); });
  long iterations = 0;
  BOOST_TEST(GeomintGetNumNewtonIters(mem, &iterations) == GEOMINT_SUCCESS);
  BOOST_TEST(iterations == stepper.statistics().newton.iterations);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// Reich symmetric, general H(q, p) (the variable-mass sphere, Hessian callbacks given).
BOOST_AUTO_TEST_CASE(reich_symmetric_general_hamiltonian) {
  sun s;
  vms_data d;
  SUNMatrix g;
  void* mem = make_vms(s, d, GEOMINT_REICH_SYMMETRIC_2, 0.01, true, g);
  const auto x0 = d.problem.initial_state();
  const dynamic_vms<true> sys(d.problem);
  geomint::reich_symmetric<state> stepper;
  compare(mem, state(x0.first, x0.second), s, 5, [&](state& x, double t, double h) { stepper.do_step(sys, x, t, h); });
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// The variational midpoint on the Lagrangian view of the same separable system.
BOOST_AUTO_TEST_CASE(variational_midpoint_double_spherical_pendulum) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_VARIATIONAL_MIDPOINT_2, 0.01, g);
  const auto x0 = d.problem.initial_state();
  const auto sys = d.system();
  const geomint::lagrangian_view<dynamic_dsp> lagrangian(sys);
  geomint::variational_midpoint<state> stepper;
  compare(mem, state(x0.first, x0.second), s, 10, [&](state& x, double t, double h) { stepper.do_step(lagrangian, x, t, h); });
  long iterations = 0;
  BOOST_TEST(GeomintGetNumNewtonIters(mem, &iterations) == GEOMINT_SUCCESS);
  BOOST_TEST(iterations == stepper.statistics().newton.iterations);
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// SHAKE as documented: one variational-midpoint step from (q0, p0), then SHAKE on the pair
// (q_{k−1}, q_k), p_k from the discrete Legendre transform (shake_momentum). The C module's
// intervals continue the pair across GeomintEvolve calls.
BOOST_AUTO_TEST_CASE(shake_double_spherical_pendulum) {
  sun s;
  dsp_data d;
  SUNMatrix g;
  void* mem = make_dsp(s, d, GEOMINT_SHAKE_2, 0.01, g);
  const auto x0 = d.problem.initial_state();
  const auto sys = d.system();
  const geomint::lagrangian_view<dynamic_dsp> lagrangian(sys);
  geomint::variational_midpoint<state> starter;
  geomint::shake<state> stepper;
  state pair;
  bool started = false;
  compare(mem, state(x0.first, x0.second), s, 10, [&](state& x, double t, double h) {
    if (!started) {
      pair.first = x.first;
      starter.do_step(lagrangian, x, t, h);
      pair.second = x.first;
      started = true;
      return;
    }
    stepper.do_step(sys, pair, t, h);
    x.first = pair.second;
    x.second = geomint::shake_momentum(sys, pair.first, pair.second, h);
  });
  GeomintFree(&mem);
  SUNMatDestroy(g);
}

// A recoverable / unrecoverable callback failure in a step of each new id: the flag, and the
// state reported is the twin's (no failure) at the reported time, bit for bit.
BOOST_AUTO_TEST_CASE(callback_failure_leaves_the_state) {
  for (int method : {GEOMINT_REICH_SYMMETRIC_2, GEOMINT_VARIATIONAL_MIDPOINT_2, GEOMINT_SHAKE_2}) {
    for (int code : {2, -3}) {
      BOOST_TEST_CONTEXT(GeomintGetMethodName(method) << ", callback returns " << code) {
        sun s;
        dsp_data d, twin_data;
        SUNMatrix g, twin_g;
        void* mem = make_dsp(s, d, method, 0.01, g);
        void* twin = make_dsp(s, twin_data, method, 0.01, twin_g);
        N_Vector q = s.vector(VectorXd::Zero(6)), p = s.vector(VectorXd::Zero(6));
        N_Vector qt = s.vector(VectorXd::Zero(6)), pt = s.vector(VectorXd::Zero(6));
        d.f = fault{"dh_dq", 0, 200, code};
        sunrealtype t = -1, tt = -1;
        const int expected = code > 0 ? GEOMINT_CALLBACK_RECOVERABLE : GEOMINT_CALLBACK_FAIL;
        BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == expected, last_error(mem));
        BOOST_TEST(last_error(mem).find("dh_dq") != std::string::npos);
        BOOST_TEST(t > 0.0);
        BOOST_TEST(t < 1.0);
        BOOST_TEST_REQUIRE(GeomintEvolve(twin, t, qt, pt, &tt, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
        BOOST_TEST((map(q).array() == map(qt).array()).all());
        BOOST_TEST((map(p).array() == map(pt).array()).all());
        d.f = fault{};
        BOOST_TEST(GeomintEvolve(mem, 1.0, q, p, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, last_error(mem));
        GeomintFree(&mem);
        GeomintFree(&twin);
        SUNMatDestroy(g);
        SUNMatDestroy(twin_g);
      }
    }
  }
}

// Combinations the methods do not cover are GEOMINT_ILL_INPUT with the reason, state unchanged.
BOOST_AUTO_TEST_CASE(unsupported_combinations) {
  sun s;
  N_Vector q = s.vector(VectorXd::Zero(3)), p = s.vector(VectorXd::Zero(3));
  for (int method : {GEOMINT_VARIATIONAL_MIDPOINT_2, GEOMINT_SHAKE_2}) {  // non-separable H
    vms_data d;
    SUNMatrix g;
    void* mem = make_vms(s, d, method, 0.01, false, g);
    sunrealtype t = -1;
    BOOST_TEST(GeomintEvolve(mem, 0.1, q, p, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
    BOOST_TEST(last_error(mem).find("separable") != std::string::npos, last_error(mem));
    sunrealtype now = -1;
    BOOST_TEST(GeomintGetCurrentTime(mem, &now) == GEOMINT_SUCCESS);
    BOOST_TEST(now == 0.0);
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  for (int method : {GEOMINT_REICH_SYMMETRIC_2, GEOMINT_VARIATIONAL_MIDPOINT_2, GEOMINT_SHAKE_2}) {  // sparse G
    chain_data d(5);
    SUNMatrix g;
    void* mem = make_chain(s, d, method, 0.01, g);
    N_Vector qc = s.vector(VectorXd::Zero(d.n())), pc = s.vector(VectorXd::Zero(d.n()));
    sunrealtype t = -1;
    BOOST_TEST(GeomintEvolve(mem, 0.1, qc, pc, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
    BOOST_TEST(last_error(mem).find("dense") != std::string::npos, last_error(mem));
    GeomintFree(&mem);
    SUNMatDestroy(g);
  }
  {  // a SUNLinearSolver with a method that takes none
    dsp_data d;
    SUNMatrix g;
    void* mem = make_dsp(s, d, GEOMINT_REICH_SYMMETRIC_2, 0.01, g);
    SUNMatrix a = SUNDenseMatrix(2, 2, s.ctx());
    SUNLinearSolver ls = SUNLinSol_Dense(s.vector(VectorXd::Zero(2)), a, s.ctx());
    sunindextype size = -1;
    BOOST_TEST(GeomintGetLinearSystemSize(mem, &size) == GEOMINT_ILL_INPUT);
    BOOST_TEST(GeomintSetLinearSolver(mem, ls, a) == GEOMINT_ILL_INPUT);  // refused at once
    BOOST_TEST(last_error(mem).find("takes no SUNLinearSolver") != std::string::npos, last_error(mem));
    N_Vector q6 = s.vector(VectorXd::Zero(6)), p6 = s.vector(VectorXd::Zero(6));
    sunrealtype t = -1;
    BOOST_TEST(GeomintEvolve(mem, 0.1, q6, p6, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    // A solver attached for a PRK method, then a switch to Reich: GeomintEvolve refuses it.
    BOOST_TEST(GeomintSetMethod(mem, GEOMINT_CONSTRAINED_RATTLE_2_2) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintSetLinearSolver(mem, ls, a) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintSetMethod(mem, GEOMINT_REICH_SYMMETRIC_2) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintEvolve(mem, 0.2, q6, p6, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
    BOOST_TEST(last_error(mem).find("GeomintSetLinearSolver") != std::string::npos, last_error(mem));
    BOOST_TEST(GeomintSetLinearSolver(mem, nullptr, nullptr) == GEOMINT_SUCCESS);
    BOOST_TEST(GeomintEvolve(mem, 0.2, q6, p6, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
    GeomintFree(&mem);
    SUNLinSolFree(ls);
    SUNMatDestroy(a);
    SUNMatDestroy(g);
  }
}

BOOST_AUTO_TEST_SUITE_END()

// ---- Lie–Poisson lifecycle ----------------------------------------------------------------------

namespace {

/// The free rigid body on so(3)* (H = ½ Σ y_i²/I_i) and the heavy top on se(3)*
/// (H = ½ uᵀI⁻¹u + c v·χ, problems/heavy_top_se3.hpp), without Hessians: the C module takes D²H
/// by forward differences of ∇H, and so do the C++ steppers for a system without hessian().
struct rigid_body {
  using algebra_type = geomint::so3;
  geomint::vector<3> inertia{2.0, 1.0, 2.0 / 3.0};
  template <class Y> double hamiltonian(const Y& y) const { return 0.5 * y.cwiseAbs2().cwiseQuotient(inertia).sum(); }
  template <class Y, class O> void gradient(const Y& y, O& out) const { out = y.cwiseQuotient(inertia); }
  static VectorXd initial() { return geomint::vector<3>(std::cos(1.1), 0.0, std::sin(1.1)); }
};
struct heavy_top {
  using algebra_type = geomint::se3;
  geomint::vector<3> inertia{7.0 / 8, 7.0 / 8, 2.0 / 8}, chi{0, 0, 1};
  double c = 9.81 * std::sqrt(3.0) / 2;
  template <class Y> double hamiltonian(const Y& y) const {
    return 0.5 * y.template head<3>().cwiseAbs2().cwiseQuotient(inertia).sum() + c * y.template tail<3>().dot(chi);
  }
  template <class Y, class O> void gradient(const Y& y, O& out) const {
    out << y.template head<3>().cwiseQuotient(inertia), c * chi;
  }
  static VectorXd initial() {
    VectorXd y(6);
    y << 0, 0, 0.25, 0, -0.195090, 0.980785;  // Engø–Faltinsen §6.2
    return y;
  }
};

template <class P>
struct lie_data {
  P problem;
  fault f;
};
template <class P>
int lie_gradient(sunrealtype, N_Vector y, N_Vector out, void* ud) {
  auto& d = *static_cast<lie_data<P>*>(ud);
  vmap o = map(out);
  d.problem.gradient(map(y), o);
  return d.f.hit("grad_h", o.data(), o.size());
}
template <class P>
int lie_energy(sunrealtype, N_Vector y, sunrealtype* h, void* ud) {
  auto& d = *static_cast<lie_data<P>*>(ud);
  *h = d.problem.hamiltonian(map(y));
  return d.f.hit("hamiltonian");
}
template <class P>
constexpr int algebra_id() {
  return std::is_same<typename P::algebra_type, geomint::so3>::value ? GEOMINT_ALGEBRA_SO3 : GEOMINT_ALGEBRA_SE3;
}

template <class P>
void* make_lie(sun& s, lie_data<P>& d, int method, double h) {
  void* mem = GeomintLieCreate(s.ctx(), method, algebra_id<P>());
  if (!mem || GeomintLieInit(mem, lie_gradient<P>, lie_energy<P>, 0.0, s.vector(P::initial())) ||
      GeomintLieSetUserData(mem, &d) || GeomintLieSetFixedStep(mem, h))
    throw std::runtime_error("make_lie failed");
  return mem;
}

std::string lie_error(void* mem) {
  const char* m = nullptr;
  GeomintLieGetLastErrorMessage(mem, &m);
  return m ? m : "";
}

template <int Id, template <class> class Stepper>
struct lie_method {
  static constexpr int id = Id;
  template <class A>
  using stepper = Stepper<A>;
};
template <class A> using rk4_exp = geomint::rkmk<A, geomint::rk::rk4, geomint::exp_coordinates>;
template <class A> using rk4_cay = geomint::rkmk<A, geomint::rk::rk4, geomint::cayley_coordinates>;
template <class A> using mid_exp = geomint::rkmk<A, geomint::rk::implicit_midpoint, geomint::exp_coordinates>;
template <class A> using mid_cay = geomint::rkmk<A, geomint::rk::implicit_midpoint, geomint::cayley_coordinates>;
template <class A> using dg_exp = geomint::lie_discrete_gradient<A, geomint::exp_coordinates, geomint::gonzalez_gradient>;
template <class A> using dg_cay = geomint::lie_discrete_gradient<A, geomint::cayley_coordinates, geomint::gonzalez_gradient>;
using lie_methods = boost::mpl::list<
    lie_method<GEOMINT_LIE_RKMK_RK4_EXP_4_4, rk4_exp>, lie_method<GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4, rk4_cay>,
    lie_method<GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, mid_exp>, lie_method<GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1, mid_cay>,
    lie_method<GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2, dg_exp>, lie_method<GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2, dg_cay>>;

/// 1000 steps of h = 0.01 in 10 GeomintLieEvolve calls against the C++ stepper: bit for bit
/// after every call. Casimirs: every method updates y by a coadjoint action, which keeps the
/// orbit exactly; in floating point each step moves a Casimir by a few ulps, so over 1000 steps
/// the relative change stays ≤ 1e-12 (≈ 4500 ε, a linear worst case). The discrete-gradient
/// methods conserve H the same way (Newton solved to 16 ulps): ≤ 1e-12 relative as well.
template <class M, class P>
void check_lie() {
  using algebra = typename P::algebra_type;
  sun s;
  lie_data<P> d;
  void* mem = make_lie(s, d, M::id, 0.01);
  typename M::template stepper<algebra> stepper;
  typename algebra::vector_type x = P::initial();
  N_Vector y = s.vector(P::initial());
  int count = 0;
  BOOST_TEST(GeomintLieGetNumCasimirs(mem, &count) == GEOMINT_SUCCESS);
  BOOST_TEST(count == algebra::casimir_count);
  VectorXd c0(count), c(count);
  BOOST_TEST(GeomintLieGetCasimirs(mem, c0.data()) == GEOMINT_SUCCESS);
  sunrealtype e0 = 0, e = 0;
  BOOST_TEST(GeomintLieGetEnergy(mem, &e0) == GEOMINT_SUCCESS);
  double t = 0;
  for (int k = 1; k <= 10; ++k) {
    sunrealtype tret = -1;
    const geomint::diagnostics::allocation_scope scope;  // the first call sizes the workspaces
    BOOST_TEST_REQUIRE(GeomintLieEvolve(mem, 1.0 * k, y, &tret, GEOMINT_NORMAL) == GEOMINT_SUCCESS, lie_error(mem));
    if (k > 1) BOOST_TEST(scope.count() == 0, "GeomintLieEvolve allocated in interval " << k);
    BOOST_TEST(tret == 1.0 * k);
    for (int i = 0; i < 100; ++i, t += 0.01) stepper.do_step(d.problem, x, t, 0.01);
    BOOST_TEST_REQUIRE(bitwise_equal(x, y), "y differs after interval " << k);
  }
  BOOST_TEST(GeomintLieGetCasimirs(mem, c.data()) == GEOMINT_SUCCESS);
  for (int i = 0; i < count; ++i) BOOST_TEST(std::fabs(c(i) - c0(i)) <= 1e-12 * std::fabs(c0(i)), "Casimir " << i);
  BOOST_TEST(GeomintLieGetEnergy(mem, &e) == GEOMINT_SUCCESS);
  BOOST_TEST_MESSAGE(GeomintGetMethodName(M::id) << " on " << algebra::name() << ": Casimir drift " << (c - c0).cwiseAbs().maxCoeff()
                                                 << ", energy drift " << std::fabs(e - e0));
  if (M::id == GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2 || M::id == GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2)
    BOOST_TEST(std::fabs(e - e0) <= 1e-12 * std::fabs(e0));
  long nsteps = 0, iterations = 0;
  BOOST_TEST(GeomintLieGetNumSteps(mem, &nsteps) == GEOMINT_SUCCESS);
  BOOST_TEST(nsteps == 1000);
  BOOST_TEST(GeomintLieGetNumNewtonIters(mem, &iterations) == GEOMINT_SUCCESS);
  BOOST_TEST(iterations == stepper.statistics().newton.iterations);
  GeomintLieFree(&mem);
  BOOST_TEST(mem == nullptr);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(c_api_lie)

BOOST_AUTO_TEST_CASE_TEMPLATE(rigid_body_so3, M, lie_methods) { check_lie<M, rigid_body>(); }
BOOST_AUTO_TEST_CASE_TEMPLATE(heavy_top_se3, M, lie_methods) { check_lie<M, heavy_top>(); }

// A callback failure in the middle of a run: the flag, y and *tret are those of the last
// successful step (equal to a twin run without failure), and the run goes on afterwards.
BOOST_AUTO_TEST_CASE(callback_failure_leaves_the_state) {
  for (int method : {GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1, GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2}) {
    for (const char* which : {"grad_h", "hamiltonian"}) {
      if (method != GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2 && std::string(which) == "hamiltonian") continue;
      for (int code : {1, -1}) {
        BOOST_TEST_CONTEXT(GeomintGetMethodName(method) << ", " << which << " returns " << code) {
          sun s;
          lie_data<heavy_top> d, twin_data;
          void* mem = make_lie(s, d, method, 0.01);
          void* twin = make_lie(s, twin_data, method, 0.01);
          N_Vector y = s.vector(VectorXd::Zero(6)), yt = s.vector(VectorXd::Zero(6));
          GeomintLieSetMaxNumSteps(mem, -1);  // 1000 steps to tout = 10, beyond IDA's default 500
          d.f = fault{which, 0, 300, code};
          sunrealtype t = -1, tt = -1;
          BOOST_TEST(GeomintLieEvolve(mem, 10.0, y, &t, GEOMINT_NORMAL) == (code > 0 ? GEOMINT_CALLBACK_RECOVERABLE : GEOMINT_CALLBACK_FAIL));
          BOOST_TEST(lie_error(mem).find(which) != std::string::npos, lie_error(mem));
          int flag = 0;
          BOOST_TEST(GeomintLieGetLastFlag(mem, &flag) == GEOMINT_SUCCESS);
          BOOST_TEST(flag == (code > 0 ? GEOMINT_CALLBACK_RECOVERABLE : GEOMINT_CALLBACK_FAIL));
          BOOST_TEST(t > 0.0);
          BOOST_TEST(t < 10.0);
          BOOST_TEST_REQUIRE(GeomintLieEvolve(twin, t, yt, &tt, GEOMINT_NORMAL) == GEOMINT_SUCCESS);
          BOOST_TEST((map(y).array() == map(yt).array()).all());
          d.f = fault{};
          BOOST_TEST(GeomintLieEvolve(mem, 10.0, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, lie_error(mem));
          GeomintLieFree(&mem);
          GeomintLieFree(&twin);
        }
      }
    }
  }
  sun s;  // NaN from the gradient: GEOMINT_NONFINITE (recoverable)
  lie_data<rigid_body> d;
  void* mem = make_lie(s, d, GEOMINT_LIE_RKMK_RK4_EXP_4_4, 0.01);
  d.f = fault{"grad_h", 0, 50, 0};
  d.f.nan = true;
  N_Vector y = s.vector(VectorXd::Zero(3));
  sunrealtype t = -1;
  BOOST_TEST(GeomintLieEvolve(mem, 1.0, y, &t, GEOMINT_NORMAL) == GEOMINT_NONFINITE);
  BOOST_TEST(map(y).allFinite());
  GeomintLieFree(&mem);
}

// Newton cannot converge in one iteration: GEOMINT_NEWTON_FAIL at the first step, y0 kept; the
// default limit restores it.
BOOST_AUTO_TEST_CASE(newton_failure) {
  sun s;
  lie_data<heavy_top> d;
  void* mem = make_lie(s, d, GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, 0.01);
  BOOST_TEST(GeomintLieSetMaxStageIters(mem, 1) == GEOMINT_SUCCESS);
  N_Vector y = s.vector(VectorXd::Zero(6));
  sunrealtype t = -1;
  BOOST_TEST(GeomintLieEvolve(mem, 1.0, y, &t, GEOMINT_NORMAL) == GEOMINT_NEWTON_FAIL);
  BOOST_TEST(t == 0.0);
  BOOST_TEST((map(y).array() == heavy_top::initial().array()).all());
  BOOST_TEST(GeomintLieSetMaxStageIters(mem, 50) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(mem, 1.0, y, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, lie_error(mem));
  GeomintLieFree(&mem);
}

// Bad ids, bad combinations and the wrong memory block.
BOOST_AUTO_TEST_CASE(bad_ids_and_inputs) {
  sun s;
  // NULL only without a context; a refused id is recorded in the block and refused by Init.
  BOOST_TEST(GeomintLieCreate(nullptr, GEOMINT_LIE_RKMK_RK4_EXP_4_4, GEOMINT_ALGEBRA_SO3) == nullptr);
  N_Vector y0 = s.vector(rigid_body::initial());
  using refusal = std::tuple<int, int, int>;  // method, algebra, flag
  for (const auto& [method, algebra, flag] : {refusal{GEOMINT_CONSTRAINED_RATTLE_2_2, GEOMINT_ALGEBRA_SO3, GEOMINT_BAD_METHOD},
                                              refusal{12345, GEOMINT_ALGEBRA_SO3, GEOMINT_BAD_METHOD},
                                              refusal{GEOMINT_LIE_RKMK_RK4_EXP_4_4, 99, GEOMINT_ILL_INPUT}}) {
    void* refused = GeomintLieCreate(s.ctx(), method, algebra);
    BOOST_TEST_REQUIRE(refused != nullptr);
    int last = 0;
    BOOST_TEST(GeomintLieGetLastFlag(refused, &last) == GEOMINT_SUCCESS);
    BOOST_TEST(last == flag);
    BOOST_TEST(GeomintLieInit(refused, lie_gradient<rigid_body>, lie_energy<rigid_body>, 0.0, y0) == flag);
    BOOST_TEST(lie_error(refused).find(std::to_string(method == GEOMINT_LIE_RKMK_RK4_EXP_4_4 ? algebra : method)) !=
               std::string::npos, lie_error(refused));
    GeomintLieFree(&refused);
  }
  // Every C id is named by a catalogue row: the id the geomint command accepts, spelled as the
  // enumerator (GEOMINT_ + the id in capitals); old spellings alias.
  const std::pair<int, const char*> ids[] = {
      {GEOMINT_CONSTRAINED_RATTLE_2_2, "constrained_rattle_2_2"},
      {GEOMINT_CONSTRAINED_LOBATTO_2_2, "constrained_lobatto_2_2"},
      {GEOMINT_CONSTRAINED_LOBATTO_4_3, "constrained_lobatto_4_3"},
      {GEOMINT_CONSTRAINED_LOBATTO_6_4, "constrained_lobatto_6_4"},
      {GEOMINT_CONSTRAINED_LOBATTO_8_5, "constrained_lobatto_8_5"},
      {GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2, "constrained_symplectic_euler_1_2"},
      {GEOMINT_CONSTRAINED_REICH_SYMMETRIC_2_2, "constrained_reich_symmetric_2_2"},
      {GEOMINT_VARIATIONAL_MIDPOINT_2_1, "variational_midpoint_2_1"},
      {GEOMINT_VARIATIONAL_SHAKE_2_1, "variational_shake_2_1"},
      {GEOMINT_LIE_RKMK_RK4_EXP_4_4, "lie_rkmk_rk4_exp_4_4"},
      {GEOMINT_LIE_RKMK_RK4_CAYLEY_4_4, "lie_rkmk_rk4_cayley_4_4"},
      {GEOMINT_LIE_RKMK_MIDPOINT_EXP_2_1, "lie_rkmk_midpoint_exp_2_1"},
      {GEOMINT_LIE_RKMK_MIDPOINT_CAYLEY_2_1, "lie_rkmk_midpoint_cayley_2_1"},
      {GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_EXP_2_1, "lie_discrete_gradient_gonzalez_exp_2_1"},
      {GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_CAYLEY_2_1, "lie_discrete_gradient_gonzalez_cayley_2_1"},
  };
  for (const auto& [id, name] : ids) {
    BOOST_TEST(std::string(GeomintGetMethodName(id)) == name);
    BOOST_TEST(geomint::find_method_entry(name) != nullptr, name);
  }
  BOOST_TEST(GEOMINT_LIE_DISCRETE_GRADIENT_CAYLEY_2 == GEOMINT_LIE_DISCRETE_GRADIENT_GONZALEZ_CAYLEY_2_1);
  BOOST_TEST(std::string(GeomintGetMethodName(GEOMINT_SHAKE_2)) == "variational_shake_2_1");

  void* lie = GeomintLieCreate(s.ctx(), GEOMINT_LIE_DISCRETE_GRADIENT_EXP_2, GEOMINT_ALGEBRA_SO3);
  BOOST_TEST_REQUIRE(lie != nullptr);
  N_Vector y3 = s.vector(rigid_body::initial()), y6 = s.vector(heavy_top::initial());
  sunrealtype t = -1;
  BOOST_TEST(GeomintLieEvolve(lie, 1.0, y3, &t, GEOMINT_NORMAL) == GEOMINT_NO_MALLOC);
  BOOST_TEST(GeomintLieEvolve(nullptr, 1.0, y3, &t, GEOMINT_NORMAL) == GEOMINT_MEM_NULL);
  BOOST_TEST(GeomintLieInit(lie, lie_gradient<rigid_body>, nullptr, 0.0, y3) == GEOMINT_ILL_INPUT);  // DG needs H
  BOOST_TEST(lie_error(lie).find("hamiltonian") != std::string::npos, lie_error(lie));
  BOOST_TEST(GeomintLieInit(lie, lie_gradient<rigid_body>, lie_energy<rigid_body>, 0.0, y6) == GEOMINT_ILL_INPUT);  // length
  lie_data<rigid_body> d;
  BOOST_TEST(GeomintLieInit(lie, lie_gradient<rigid_body>, lie_energy<rigid_body>, 0.0, y3) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieSetUserData(lie, &d) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(lie, 1.0, y3, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // no step size
  BOOST_TEST(GeomintLieSetFixedStep(lie, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetFixedStep(lie, NAN) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetStageTolerance(lie, 0.0) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetFixedStep(lie, 0.1) == GEOMINT_SUCCESS);
  BOOST_TEST(GeomintLieEvolve(lie, 1.0, y6, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);  // wrong length
  BOOST_TEST(GeomintLieEvolve(lie, 1.0, y3, &t, GEOMINT_NORMAL) == GEOMINT_SUCCESS, lie_error(lie));
  BOOST_TEST(GeomintLieReInit(lie, 0.0, s.vector(rigid_body::initial())) == GEOMINT_SUCCESS);
  sunrealtype now = -1;
  BOOST_TEST(GeomintLieGetCurrentTime(lie, &now) == GEOMINT_SUCCESS);
  BOOST_TEST(now == 0.0);

  // Each lifecycle rejects the other's memory block (and Free leaves it alone).
  dsp_data dd;
  SUNMatrix g;
  void* mem = make_dsp(s, dd, GEOMINT_CONSTRAINED_RATTLE_2_2, 0.01, g);
  BOOST_TEST(GeomintLieEvolve(mem, 1.0, y3, &t, GEOMINT_NORMAL) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintLieSetFixedStep(mem, 0.1) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetFixedStep(lie, 0.1) == GEOMINT_ILL_INPUT);
  BOOST_TEST(GeomintSetMethod(mem, GEOMINT_LIE_RKMK_RK4_EXP_4_4) == GEOMINT_BAD_METHOD);
  GeomintLieFree(&mem);
  BOOST_TEST(mem != nullptr);
  GeomintFree(&lie);
  BOOST_TEST(lie != nullptr);
  GeomintFree(&mem);
  GeomintLieFree(&lie);
  BOOST_TEST(mem == nullptr);
  BOOST_TEST(lie == nullptr);
  SUNMatDestroy(g);
}

BOOST_AUTO_TEST_SUITE_END()
