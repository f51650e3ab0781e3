// The Reich / McLachlan–Scovel constraint algorithm (reich_constrained, reich_constrained_adjoint,
// reich_symmetric): orders, symmetry, symplecticity, momentum conservation, equivariance, errors,
// allocation.
#define BOOST_TEST_MODULE constrained_reich
#include <boost/test/unit_test.hpp>

#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/heavy_top.hpp"
#include "reich_test_support.hpp"

using namespace geomint;
using namespace reich_test;
using geomint::problems::double_spherical_pendulum;
using geomint::problems::variable_mass_sphere;

namespace {

/// Observed order of `Stepper` on [0, T] from step counts n, against `reference`.
template <class Stepper, class System, class State>
double observed_order(const System& sys, const State& x0, const State& reference, double T, std::initializer_list<int> counts) {
  std::vector<double> h, err;
  for (int n : counts) {
    const State x = run(Stepper(), sys, x0, T, n);
    h.push_back(T / n);
    err.push_back((x.first - reference.first).norm());
  }
  return geomint::diagnostics::loglog_slope(h, err);
}

/// ‖Φ_{−h}(Φ_h(x)) − x‖ (relative, distance()).
template <class Stepper, class System, class State>
double reversal_defect(Stepper stepper, const System& sys, const State& x0, double h) {
  State x = x0;
  stepper.do_step(sys, x, 0.0, h);
  stepper.do_step(sys, x, h, -h);
  return distance(x, x0);
}

}  // namespace

// Orders: γ and its adjoint are first order (Theorem 2), the symmetric pair second order.
// The slope over a factor-8 step range is within ±0.1 of the order: the errors, 1e-2 … 1e-6,
// are far above the reference error (< 1e-12) and in the asymptotic regime.
BOOST_AUTO_TEST_CASE(gamma_and_adjoint_are_first_order_and_the_pair_second_order) {
  const double_spherical_pendulum sys;
  const dsp_state x0 = sys.initial_state();
  const double T = 0.5;
  const dsp_state ref = dsp_reference(sys, x0, T);
  const double forward = observed_order<reich_constrained<dsp_state>>(sys, x0, ref, T, {100, 200, 400, 800});
  const double adjoint = observed_order<reich_constrained_adjoint<dsp_state>>(sys, x0, ref, T, {100, 200, 400, 800});
  const double pair = observed_order<reich_symmetric<dsp_state>>(sys, x0, ref, T, {50, 100, 200, 400});
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("γ order", forward) - 1) < 0.1);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("adjoint order", adjoint) - 1) < 0.1);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("pair order", pair) - 2) < 0.1);
}

// The same on a non-separable H (general path: n + m unknowns, Newton projection onto CM).
BOOST_AUTO_TEST_CASE(orders_for_a_non_separable_hamiltonian) {
  const variable_mass_sphere sys;
  const vms_state x0 = sys.initial_state();
  const double T = 1.0;
  const vms_state ref = run(composition<reich_symmetric<vms_state>, kahan_li8>(), sys, x0, T, 100);
  const double forward = observed_order<reich_constrained<vms_state>>(sys, x0, ref, T, {50, 100, 200, 400});
  const double adjoint = observed_order<reich_constrained_adjoint<vms_state>>(sys, x0, ref, T, {50, 100, 200, 400});
  const double pair = observed_order<reich_symmetric<vms_state>>(sys, x0, ref, T, {25, 50, 100, 200});
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("γ order", forward) - 1) < 0.1);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("adjoint order", adjoint) - 1) < 0.1);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("pair order", pair) - 2) < 0.1);
}

// Symmetry Φ_{−h} ∘ Φ_h = id to round-off. The momentum is fixed by the position constraint
// only to ε‖q‖‖M‖/h (≈ 2e-13 absolute here, ≈ 1e-14 relative), Newton stops at ≤ 1000ε:
// 1e-11 leaves a margin of ~50.
BOOST_AUTO_TEST_CASE(the_pair_is_symmetric) {
  const double_spherical_pendulum dsp;
  const variable_mass_sphere vms;
  BOOST_TEST(GEOMINT_MEASURED("pair reversal defect (dsp)", reversal_defect(reich_symmetric<dsp_state>(), dsp, dsp.initial_state(), 0.02)) < 1e-11);
  BOOST_TEST(GEOMINT_MEASURED("pair reversal defect (vms)", reversal_defect(reich_symmetric<vms_state>(), vms, vms.initial_state(), 0.05)) < 1e-11);
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  BOOST_TEST(GEOMINT_MEASURED("pair (12) reversal defect", reversal_defect(reich_symmetric<dsp_state>({}, positions), dsp, dsp.initial_state(), 0.02)) < 1e-11);
  // γ alone is not symmetric when H depends on q: the defect is O(h²) ≈ 1e-4 — the check above
  // is able to fail.
  BOOST_TEST(GEOMINT_MEASURED("γ reversal defect (dsp, not symmetric)", reversal_defect(reich_constrained<dsp_state>(), dsp, dsp.initial_state(), 0.02)) > 1e-6);
}

// McLachlan–Scovel's position form (12) uses M itself, kept from the first system a stepper
// met: a second system of the same size with other masses stepped with the first one's M
// (no error, the state on the manifold, the drift off by the mass ratio). A step of the second
// system now equals a new stepper's.
BOOST_AUTO_TEST_CASE(the_position_form_uses_each_systems_mass) {
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  problems::double_spherical_pendulum_parameters heavy;
  heavy.m1 = 4.0;
  heavy.m2 = 7.0;
  const double_spherical_pendulum a, b(heavy);
  reich_symmetric<dsp_state> used({}, positions), fresh({}, positions);
  dsp_state xa = a.initial_state(), xb = b.initial_state(), xf = b.initial_state();
  used.do_step(a, xa, 0.0, 0.01);
  used.do_step(b, xb, 0.0, 0.01);
  fresh.do_step(b, xf, 0.0, 0.01);
  BOOST_TEST(GEOMINT_MEASURED("used stepper vs new one on the heavier pendulum", distance(xb, xf)) <= 1e-15);
}

// "If H is a function of p only … this is identical to the original map γ(t). Thus in this case
// the constraint algorithm is symmetric" (after eq. (10)). Checked for a separable H = ½|p|²
// (free particle on a sphere) and a non-separable H = √(1 + |p|²); tolerances as above.
BOOST_AUTO_TEST_CASE(gamma_is_symmetric_when_h_depends_on_p_only) {
  geomint::problems::spherical_pendulum_parameters free;
  free.gravity = 0;
  const geomint::problems::spherical_pendulum particle(free);
  using s3 = geomint::problems::spherical_pendulum::state_type;
  const s3 x0 = particle.initial_state(1.1, 2.5);
  BOOST_TEST(GEOMINT_MEASURED("γ reversal defect, H = |p|²/2", reversal_defect(reich_constrained<s3>(), particle, x0, 0.1)) < 1e-12);
  s3 a = x0, b = x0;
  reich_constrained<s3>().do_step(particle, a, 0.0, 0.1);
  reich_constrained_adjoint<s3>().do_step(particle, b, 0.0, 0.1);
  BOOST_TEST(GEOMINT_MEASURED("|γ(t) − γ⁻¹(−t)|, H = |p|²/2", distance(a, b)) < 1e-13);

  const relativistic_sphere rel;
  const relativistic_sphere::state_type y0 = rel.initial_state();
  BOOST_TEST(GEOMINT_MEASURED("γ reversal defect, H = √(1+|p|²)", reversal_defect(reich_constrained<relativistic_sphere::state_type>(), rel, y0, 0.1)) < 1e-12);
  auto c = y0, d = y0;
  reich_constrained<relativistic_sphere::state_type>().do_step(rel, c, 0.0, 0.1);
  reich_constrained_adjoint<relativistic_sphere::state_type>().do_step(rel, d, 0.0, 0.1);
  BOOST_TEST(GEOMINT_MEASURED("|γ(t) − γ⁻¹(−t)|, H = √(1+|p|²)", distance(c, d)) < 1e-13);
}

// Theorem 2: the rotation about the vertical is a linear symmetry of g and H, so the algorithm
// is equivariant and conserves J = k·(q1×p1 + q2×p2) up to rounding, 2000 steps of h = 0.01,
// relative to the scale |q|∞|p|∞ of J. Multiplier form: each step rounds J by a few ε
// (measured 4e-15 … 8e-15 after 2000 steps); tolerance 1e-12. Eq. (12) computes
// p̃ = M(Q − q)/h, whose rounding ε|q|‖M‖/h ≈ 1e-14 of |p| per step is not equivariant and
// accumulates (measured 4e-12); tolerance 1e-10.
BOOST_AUTO_TEST_CASE(vertical_angular_momentum_is_conserved_to_round_off) {
  const double_spherical_pendulum sys;
  const dsp_state x0 = sys.initial_state();
  const double j0 = double_spherical_pendulum::vertical_angular_momentum(x0.first, x0.second);
  const double scale = x0.first.cwiseAbs().maxCoeff() * x0.second.cwiseAbs().maxCoeff();
  auto drift = [&](auto stepper) {
    dsp_state x = x0;
    double worst = 0;
    for (int i = 0; i < 2000; ++i) {
      stepper.do_step(sys, x, i * 0.01, 0.01);
      worst = std::fmax(worst, std::fabs(double_spherical_pendulum::vertical_angular_momentum(x.first, x.second) - j0));
    }
    return worst / scale;
  };
  BOOST_TEST(GEOMINT_MEASURED("J drift γ", drift(reich_constrained<dsp_state>())) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("J drift adjoint", drift(reich_constrained_adjoint<dsp_state>())) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("J drift pair", drift(reich_symmetric<dsp_state>())) < 1e-12);
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  BOOST_TEST(GEOMINT_MEASURED("J drift pair (12)", drift(reich_symmetric<dsp_state>({}, positions))) < 1e-10);
}

// The same for a general H: the heavy top in unit quaternions (Hairer 2003 §5; H(e, p) with an
// e-dependent mass, the general path with n + m unknowns). Rotations about the spatial vertical,
// e ↦ r ⋆ e, are orthogonal in ℝ⁴ and leave H and g invariant; their momentum map ½ pᵀ(k ⋆ e)
// is conserved up to rounding and the stage-solver tolerance: 2000 steps of h = 0.05, relative to
// |p|∞ (|e| = 1). Measured 1.5e-14 … 2.3e-14; tolerance 1e-12. (Newton stopping at a stale
// Jacobian's stall near 1e-10, as it once did, drifts it by 3e-12.)
BOOST_AUTO_TEST_CASE(spatial_vertical_momentum_is_conserved_for_a_general_hamiltonian) {
  using geomint::problems::heavy_top;
  const heavy_top sys;
  const heavy_top::state_type x0 = sys.initial_state();
  auto momentum = [](const heavy_top::state_type& x) {
    return 0.5 * x.second.dot(geomint::problems::quaternion_multiply(vector<4>(0, 0, 0, 1), x.first));
  };
  const double j0 = momentum(x0), scale = x0.second.cwiseAbs().maxCoeff();
  auto drift = [&](auto stepper) {
    heavy_top::state_type x = x0;
    double worst = 0;
    for (int i = 0; i < 2000; ++i) {
      stepper.do_step(sys, x, i * 0.05, 0.05);
      worst = std::fmax(worst, std::fabs(momentum(x) - j0));
    }
    return worst / scale;
  };
  using state = heavy_top::state_type;
  BOOST_TEST(GEOMINT_MEASURED("heavy top J drift γ", drift(reich_constrained<state>())) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("heavy top J drift adjoint", drift(reich_constrained_adjoint<state>())) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("heavy top J drift pair", drift(reich_symmetric<state>())) < 1e-12);
}

// Equivariance: Φ(R x) = R Φ(x) for rotations R about the vertical, to round-off (one step:
// a few ulps of the state, amplified ≤ 100 by the constrained solve; tolerance 1e-13).
BOOST_AUTO_TEST_CASE(steps_are_equivariant_under_rotations_about_the_vertical) {
  const double_spherical_pendulum sys;
  const dsp_state x0 = sys.initial_state();
  for (double phi : {0.3, 1.9, -2.6}) {
    BOOST_TEST_CONTEXT("φ = " << phi) {
      auto check = [&](auto stepper) {
        dsp_state a = x0, b = rotate_about_vertical(x0, phi);
        auto other = stepper;
        stepper.do_step(sys, a, 0.0, 0.05);
        other.do_step(sys, b, 0.0, 0.05);
        return distance(b, rotate_about_vertical(a, phi));
      };
      BOOST_TEST(GEOMINT_MEASURED("equivariance γ", check(reich_constrained<dsp_state>())) < 1e-13);
      BOOST_TEST(GEOMINT_MEASURED("equivariance adjoint", check(reich_constrained_adjoint<dsp_state>())) < 1e-13);
      BOOST_TEST(GEOMINT_MEASURED("equivariance pair", check(reich_symmetric<dsp_state>())) < 1e-13);
    }
  }
}

// Symplecticity on the constraint manifold by central differences (step 1e-5): truncation
// ~1e-10, rounding ~ε/1e-5 · (amplification 1/h) ≈ 1e-9; tolerance 1e-7. A deliberately
// non-symplectic map (the pair followed by p ← (1 + h/2) p, re-projected) shows the check fails.
BOOST_AUTO_TEST_CASE(gamma_adjoint_and_pair_are_symplectic) {
  const double_spherical_pendulum sys;
  const dsp_state x0 = sys.initial_state();
  const Eigen::VectorXd q0 = x0.first, p0 = x0.second;
  const double h = 0.05;
  auto defect = [&](auto stepper, double scale) {
    return geomint::diagnostics::manifold_map_symplecticity_defect(sys, q0, p0, [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      dsp_state x{q, p};
      auto s = stepper;
      s.do_step(sys, x, 0.0, h);
      q = x.first;
      p = scale * x.second;
      project_to_manifold(sys, q, p);
    });
  };
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect γ", defect(reich_constrained<dsp_state>(), 1.0)) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect adjoint", defect(reich_constrained_adjoint<dsp_state>(), 1.0)) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect pair", defect(reich_symmetric<dsp_state>(), 1.0)) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, non-symplectic control", defect(reich_symmetric<dsp_state>(), 1.0 + h / 2)) > 1e-3);

  const variable_mass_sphere vms;
  const vms_state y0 = vms.initial_state();
  const Eigen::VectorXd q1 = y0.first, p1 = y0.second;
  auto general = [&](auto stepper) {
    return geomint::diagnostics::manifold_map_symplecticity_defect(vms, q1, p1, [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      vms_state x{q, p};
      auto s = stepper;
      s.do_step(vms, x, 0.0, 0.1);
      q = x.first;
      p = x.second;
    });
  };
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect γ (vms)", general(reich_constrained<vms_state>())) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect adjoint (vms)", general(reich_constrained_adjoint<vms_state>())) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect pair (vms)", general(reich_symmetric<vms_state>())) < 1e-7);
}

// Composition with the other constrained steppers is coherent: canonical states are shared, so
// alternating RATTLE and the Reich pair keeps every state on CM (the consistency check of each
// stepper would reject anything else) with residuals at round-off.
BOOST_AUTO_TEST_CASE(alternating_with_rattle_stays_on_the_manifold) {
  const double_spherical_pendulum sys;
  dsp_state x = sys.initial_state();
  rattle<dsp_state> r;
  reich_symmetric<dsp_state> s;
  double worst = 0;
  for (int i = 0; i < 200; ++i) {
    if (i % 2) r.do_step(sys, x, i * 0.01, 0.01);
    else s.do_step(sys, x, i * 0.01, 0.01);
    const constraint_residuals res = constraint_residuals_of(sys, x.first, x.second);
    worst = std::fmax(worst, std::fmax(res.position, res.velocity));
  }
  BOOST_TEST(GEOMINT_MEASURED("worst residual alternating with rattle", worst) < 1e-14);
}

BOOST_AUTO_TEST_CASE(an_inconsistent_state_is_rejected_and_left_unchanged) {
  const double_spherical_pendulum sys;
  dsp_state x = sys.initial_state();
  x.first(0) += 1e-6;
  const dsp_state before = x;
  reich_symmetric<dsp_state> s;
  try {
    s.do_step(sys, x, 0.0, 0.01);
    BOOST_FAIL("no exception");
  } catch (const step_error& e) {
    BOOST_TEST(to_string(e.reason()) == std::string("inconsistent_initial_state"));
    BOOST_TEST(std::string(e.what()).find("project_to_manifold") != std::string::npos);
  }
  BOOST_TEST((x.first.array() == before.first.array()).all());
  BOOST_TEST((x.second.array() == before.second.array()).all());
}

// A step far beyond the region where the constrained drift has a solution fails cleanly.
BOOST_AUTO_TEST_CASE(a_failed_step_throws_and_leaves_the_state_unchanged) {
  const double_spherical_pendulum sys;
  const variable_mass_sphere vms;
  dsp_state x = sys.initial_state();
  const dsp_state before = x;
  BOOST_CHECK_THROW(reich_symmetric<dsp_state>().do_step(sys, x, 0.0, 40.0), step_error);
  BOOST_TEST((x.first.array() == before.first.array()).all());
  BOOST_TEST((x.second.array() == before.second.array()).all());
  vms_state y = vms.initial_state();
  const vms_state y_before = y;
  BOOST_CHECK_THROW(reich_constrained<vms_state>().do_step(vms, y, 0.0, 200.0), step_error);
  BOOST_TEST((y.first.array() == y_before.first.array()).all());
  BOOST_TEST((y.second.array() == y_before.second.array()).all());
  // Eq. (12) needs a separable H: a clear error, nothing touched.
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  BOOST_CHECK_THROW(reich_symmetric<vms_state>({}, positions).do_step(vms, y, 0.0, 0.01), std::invalid_argument);
  BOOST_TEST((y.first.array() == y_before.first.array()).all());
}

namespace {
// The double spherical pendulum with run-time sizes (dynamic Eigen vectors throughout).
using dynamic_pendulum = separable_system<dynamic, problems::two_mass_gravity, problems::double_pendulum_constraints,
                                          diagonal_mass<dynamic>>;
dynamic_pendulum make_dynamic_pendulum() {
  const problems::double_spherical_pendulum_parameters p;
  Eigen::VectorXd m(6);
  m << p.m1, p.m1, p.m1, p.m2, p.m2, p.m2;
  return dynamic_pendulum(diagonal_mass<dynamic>(m), problems::two_mass_gravity{p.m1 * p.gravity, p.m2 * p.gravity},
                          problems::double_pendulum_constraints{p.l1, p.l2});
}

}  // namespace

BOOST_AUTO_TEST_CASE(no_allocation_after_the_first_step) {
  using geomint::diagnostics::allocations_after_first_step;
  const double_spherical_pendulum sys;
  const dsp_state x0 = sys.initial_state();
  reich_options positions;
  positions.formulation = reich_formulation::positions;
  BOOST_TEST(allocations_after_first_step(reich_constrained<dsp_state>(), sys, x0, 0.0, 0.01) == 0);
  BOOST_TEST(allocations_after_first_step(reich_constrained_adjoint<dsp_state>(), sys, x0, 0.0, 0.01) == 0);
  BOOST_TEST(allocations_after_first_step(reich_symmetric<dsp_state>(), sys, x0, 0.0, 0.01) == 0);
  BOOST_TEST(allocations_after_first_step(reich_symmetric<dsp_state>({}, positions), sys, x0, 0.0, 0.01) == 0);
  using metric = metric_momentum<diagonal_mass<6>>;
  dsp_state xm = x0;
  to_metric_momentum(sys, euclidean_metric<6>(), xm.first, xm.second);
  BOOST_TEST(allocations_after_first_step(reich_symmetric<dsp_state, metric>(metric{euclidean_metric<6>()}), sys, xm, 0.0, 0.01) == 0);

  const variable_mass_sphere vms;
  BOOST_TEST(allocations_after_first_step(reich_symmetric<vms_state>(), vms, vms.initial_state(), 0.0, 0.01) == 0);

  // Run-time sizes: the workspace is sized once on the first step.
  const dynamic_pendulum dyn = make_dynamic_pendulum();
  using dyn_state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;
  const dyn_state y0{x0.first, x0.second};
  BOOST_TEST(allocations_after_first_step(reich_symmetric<dyn_state>(), dyn, y0, 0.0, 0.01) == 0);
  BOOST_TEST(allocations_after_first_step(reich_symmetric<dyn_state>({}, positions), dyn, y0, 0.0, 0.01) == 0);
  BOOST_TEST(allocations_after_first_step(reich_constrained<dyn_state>(), dyn, y0, 0.0, 0.01) == 0);
  // … and the dynamic system gives the fixed-size result.
  BOOST_TEST(distance(run(reich_symmetric<dyn_state>(), dyn, y0, 0.2, 20),
                      dyn_state(run(reich_symmetric<dsp_state>(), sys, x0, 0.2, 20))) < 1e-13);
}
