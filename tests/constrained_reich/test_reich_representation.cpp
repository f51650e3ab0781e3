// Which momentum the state holds (momentum_representation.hpp), the metric projection ψ of
// McLachlan–Scovel §5 with identity and non-identity metrics, and the position formulation
// (12) of the implicit step.
#include <boost/test/unit_test.hpp>

#include "reich_test_support.hpp"

using namespace geomint;
using namespace reich_test;
using geomint::problems::double_spherical_pendulum;
using geomint::problems::variable_mass_sphere;

namespace {

/// A fixed symmetric positive definite 6 × 6 metric, far from the identity and from the mass.
dense_mass<6> skew_metric() {
  matrix<6, 6> a;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) a(i, j) = std::sin(1.0 + 3 * i + 7 * j);
  return dense_mass<6>(a * a.transpose() + 0.5 * matrix<6, 6>::Identity());
}

/// G(q) W⁻¹ p, scaled: the metric_momentum condition.
template <class System, class Metric, class State>
double metric_condition(const System& sys, const Metric& w, const State& x) {
  matrix<System::constraint_size, System::position_size> g;
  sys.constraint_jacobian(x.first, g);
  vector<System::position_size> v;
  w.apply_inverse(x.second, v);
  return (g * v).cwiseAbs().maxCoeff() / (g.norm() * v.norm());
}

/// One canonical step against ψ|CM⁻¹ ∘ (metric step) ∘ ψ, for stepper template S and metric w.
template <template <class, class> class S, class System, class State, class Metric>
double conjugacy_defect(const System& sys, const State& x0, const Metric& w, double h, int steps) {
  using metric = metric_momentum<Metric>;
  const State canonical = run(S<State, canonical_momentum>(), sys, x0, steps * h, steps);
  State xm = x0;
  to_metric_momentum(sys, w, xm.first, xm.second);
  State m = run(S<State, metric>(metric{w}), sys, xm, steps * h, steps);
  BOOST_TEST(metric_condition(sys, w, m) < 1e-14);  // the metric state stays in T*N ≅ TN
  to_canonical_momentum(sys, m.first, m.second);
  return distance(m, canonical);
}

}  // namespace

// ψ|CM is a symplectic diffeomorphism conjugating the TN algorithm (9) to the CM algorithm
// (2)–(3) (Theorem 1; §5): a metric step, read back on CM, is the canonical step — for the
// Euclidean metric and for a non-identity metric, separable and non-separable H, each of γ, its
// adjoint and the pair. Ten steps of h = 0.01: the two computations differ in rounding only
// (momenta fixed to ε‖q‖‖M‖/h ≈ 1e-14 relative per step); tolerance 1e-11.
BOOST_AUTO_TEST_CASE(metric_and_canonical_steps_are_conjugate_by_psi) {
  const double_spherical_pendulum dsp;
  const dsp_state x0 = dsp.initial_state();
  for (int which = 0; which < 2; ++which) {
    BOOST_TEST_CONTEXT((which == 0 ? "Euclidean metric" : "non-identity metric")) {
      auto check = [&](const auto& w) {
        BOOST_TEST(GEOMINT_MEASURED("conjugacy γ", (conjugacy_defect<reich_constrained>(dsp, x0, w, 0.01, 10))) < 1e-11);
        BOOST_TEST(GEOMINT_MEASURED("conjugacy adjoint", (conjugacy_defect<reich_constrained_adjoint>(dsp, x0, w, 0.01, 10))) < 1e-11);
        BOOST_TEST(GEOMINT_MEASURED("conjugacy pair", (conjugacy_defect<reich_symmetric>(dsp, x0, w, 0.01, 10))) < 1e-11);
      };
      if (which == 0) check(euclidean_metric<6>());
      else check(skew_metric());
    }
  }
  // Non-separable H: the metric step ends with a linear projection, the canonical one with a
  // Newton iteration on the hidden constraint; still the same map.
  const variable_mass_sphere vms;
  const vms_state y0 = vms.initial_state();
  matrix<3, 3> w3;
  w3 << 2.0, 0.3, -0.2, 0.3, 1.0, 0.1, -0.2, 0.1, 0.7;
  BOOST_TEST(GEOMINT_MEASURED("conjugacy γ (vms, W = I)", (conjugacy_defect<reich_constrained>(vms, y0, euclidean_metric<3>(), 0.02, 10))) < 1e-11);
  BOOST_TEST(GEOMINT_MEASURED("conjugacy pair (vms, W = I)", (conjugacy_defect<reich_symmetric>(vms, y0, euclidean_metric<3>(), 0.02, 10))) < 1e-11);
  BOOST_TEST(GEOMINT_MEASURED("conjugacy pair (vms, W ≠ I)", (conjugacy_defect<reich_symmetric>(vms, y0, dense_mass<3>(w3), 0.02, 10))) < 1e-11);
}

// The metric matters for the state: ψ_W of a canonical state differs between metrics, and a
// canonical state is not a metric_momentum state (G W⁻¹ p ≠ 0): the stepper says so.
BOOST_AUTO_TEST_CASE(the_metric_representative_depends_on_the_metric) {
  const double_spherical_pendulum dsp;
  const dsp_state x0 = dsp.initial_state();
  dsp_state a = x0, b = x0;
  to_metric_momentum(dsp, euclidean_metric<6>(), a.first, a.second);
  to_metric_momentum(dsp, skew_metric(), b.first, b.second);
  BOOST_TEST(distance(a, b) > 1e-3);
  BOOST_TEST(distance(a, x0) > 1e-3);
  BOOST_TEST(metric_condition(dsp, euclidean_metric<6>(), a) < 1e-15);
  BOOST_TEST(metric_condition(dsp, skew_metric(), b) < 1e-15);

  using metric = metric_momentum<diagonal_mass<6>>;
  dsp_state x = x0;
  try {
    reich_symmetric<dsp_state, metric>(metric{euclidean_metric<6>()}).do_step(dsp, x, 0.0, 0.01);
    BOOST_FAIL("no exception");
  } catch (const step_error& e) {
    BOOST_TEST(to_string(e.reason()) == std::string("inconsistent_initial_state"));
    BOOST_TEST(std::string(e.what()).find("to_metric_momentum") != std::string::npos);
  }
  BOOST_TEST((x.second.array() == x0.second.array()).all());
}

// For separable H with the kinetic-energy metric W = M the representations coincide
// (ψ|CM = id, §5): the metric stepper runs directly on canonical states, step for step.
BOOST_AUTO_TEST_CASE(with_the_kinetic_metric_the_representations_coincide) {
  const double_spherical_pendulum dsp;
  const dsp_state x0 = dsp.initial_state();
  using kinetic = metric_momentum<diagonal_mass<6>>;
  const dsp_state a = run(reich_symmetric<dsp_state, kinetic>(kinetic{dsp.mass()}), dsp, x0, 0.5, 50);
  const dsp_state b = run(reich_symmetric<dsp_state>(), dsp, x0, 0.5, 50);
  BOOST_TEST(GEOMINT_MEASURED("kinetic metric vs canonical, 50 steps", distance(a, b)) < 1e-14);
}

// Eq. (12) eliminates μ and solves for Q alone; eqs. (9)/(10) solve for the multiplier. Same Q;
// p̃ = M(Q − q)/h against p₀ + G(q)ᵀν/h agree to the momentum's round-off floor ε‖q‖‖M‖/h
// (≈ 2e-13 absolute, 1e-14 relative for h = 0.01): one step, tolerance 1e-12. With a metric
// (the projection Π(q) of (12) built from W) too.
BOOST_AUTO_TEST_CASE(position_formulation_12_equals_the_multiplier_formulation) {
  const double_spherical_pendulum dsp;
  const dsp_state x0 = dsp.initial_state();
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  auto one = [&](auto a, auto b, const dsp_state& x) {
    dsp_state u = x, v = x;
    a.do_step(dsp, u, 0.0, 0.01);
    b.do_step(dsp, v, 0.0, 0.01);
    return distance(u, v);
  };
  BOOST_TEST(GEOMINT_MEASURED("(12) vs (9), γ", one(reich_constrained<dsp_state>(), reich_constrained<dsp_state>({}, positions), x0)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("(12) vs (10), adjoint", one(reich_constrained_adjoint<dsp_state>(), reich_constrained_adjoint<dsp_state>({}, positions), x0)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("(12) vs multipliers, pair", one(reich_symmetric<dsp_state>(), reich_symmetric<dsp_state>({}, positions), x0)) < 1e-12);
  using metric = metric_momentum<dense_mass<6>>;
  dsp_state xm = x0;
  to_metric_momentum(dsp, skew_metric(), xm.first, xm.second);
  BOOST_TEST(one(reich_symmetric<dsp_state, metric>(metric{skew_metric()}),
                 reich_symmetric<dsp_state, metric>(metric{skew_metric()}, positions), xm) < 1e-12);
  // Over 100 steps the two stay together up to accumulated rounding (chaotic motion amplifies it
  // mildly over t = 1).
  const dsp_state u = run(reich_symmetric<dsp_state>(), dsp, x0, 1.0, 100);
  const dsp_state v = run(reich_symmetric<dsp_state>({}, positions), dsp, x0, 1.0, 100);
  BOOST_TEST(GEOMINT_MEASURED("(12) vs multipliers, 100 steps", distance(u, v)) < 1e-10);
}
