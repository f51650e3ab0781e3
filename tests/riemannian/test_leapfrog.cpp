// The Leimkuhler–Patrick Riemannian leapfrog: order, staying on the space, reversibility,
// symplecticity, momentum conservation, equality with the kinetic/potential splitting for a
// proportional metric, composition to order 4, errors, allocation.
#define BOOST_TEST_MODULE riemannian
#include <boost/test/unit_test.hpp>

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/problems/double_spherical_pendulum_s2.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/problems/spherical_pendulum.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "riemannian_test_support.hpp"

using namespace geomint;
using namespace riemannian_test;
using problems::double_spherical_pendulum_s2;
using problems::heavy_top_so3;
using problems::particle_on_ellipsoid;
using s3_state = particle_on_ellipsoid::state_type;
using s6_state = double_spherical_pendulum_s2::state_type;
using top_state = heavy_top_so3::state_type;

namespace {

const particle_on_ellipsoid::parameters_type triaxial{1.0, 1.0, 0.8, 1.3, 1.0};   // a1 ≠ a2
const particle_on_ellipsoid::parameters_type spheroid{1.0, 1.0, 1.0, 0.6, 1.0};   // a1 = a2

template <class Stepper, class System, class State>
double observed_order(const System& sys, const State& x0, const State& ref, double T, std::initializer_list<int> counts) {
  std::vector<double> h, err;
  for (int n : counts) {
    const State x = run(Stepper(), sys, x0, T, n);
    h.push_back(T / n);
    err.push_back((x.first - ref.first).norm());
  }
  return geomint::diagnostics::loglog_slope(h, err);
}

template <class System, class State>
double reversal_defect(const System& sys, const State& x0, double h) {
  State x = x0;
  riemannian_leapfrog<State> lf;
  lf.do_step(sys, x, 0.0, h);
  lf.do_step(sys, x, h, -h);
  return distance(x, x0);
}

}  // namespace

// Second order (slopes within ±0.1; errors 1e-3 … 1e-6). The references are the eighth-order
// compositions of the *constrained* formulations of the same problems (RATTLE; the Reich pair for
// the non-separable variable-metric case), so this also shows that the leapfrog state (q, K v)
// is the canonical constrained state. The heavy top is referenced by the leapfrog's own
// kahan_li8 composition.
BOOST_AUTO_TEST_CASE(leapfrog_is_second_order) {
  const particle_on_ellipsoid ellipsoid(triaxial);
  const auto e = on_space(ellipsoid, ellipsoid.space());
  const s3_state x0 = ellipsoid.initial_state();
  const s3_state ref = run(composition<rattle<s3_state>, kahan_li8>(), ellipsoid, x0, 2.0, 200);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, ellipsoid", (observed_order<riemannian_leapfrog<s3_state>>(e, x0, ref, 2.0, {20, 40, 80, 160}))) - 2) < 0.1);

  const double_spherical_pendulum_s2 dsp;
  const auto d = on_space(dsp, dsp.space());
  const s6_state y0 = dsp.initial_state();
  const s6_state yref = run(composition<rattle<s6_state>, kahan_li8>(), dsp, y0, 1.0, 200);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, S²×S² pendulum", (observed_order<riemannian_leapfrog<s6_state>>(d, y0, yref, 1.0, {50, 100, 200, 400}))) - 2) < 0.1);

  const variable_metric_sphere vm;
  const problems::variable_mass_sphere constrained_vm(vm.par);
  const s3_state z0 = constrained_vm.initial_state();
  const s3_state zref = run(composition<reich_symmetric<s3_state>, kahan_li8>(), constrained_vm, z0, 1.0, 100);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, variable metric", (observed_order<riemannian_leapfrog<s3_state>>(vm, z0, zref, 1.0, {25, 50, 100, 200}))) - 2) < 0.1);

  const heavy_top_so3 top;
  const top_state t0 = top.initial_state();
  const top_state tref = run(composition<riemannian_leapfrog<top_state>, kahan_li8>(), top, t0, 2.0, 100);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, heavy top on SO(3)", (observed_order<riemannian_leapfrog<top_state>>(top, t0, tref, 2.0, {50, 100, 200, 400}))) - 2) < 0.1);
}

// Positions move along exact great circles / group exponentials: no projection, yet the iterates
// stay on the space to round-off (the computed geodesic endpoint is cleaned of its own rounding
// drift, see sphere_product.hpp and so3_group.hpp). Over 10⁴ steps, measured ||x| − 1| ≤ 2.3e-16
// (ellipsoid), ||r_i| − l_i|/l_i ≤ 3e-16 (S² × S²), |qᵀq − I| ≤ 4.5e-16 (SO(3)); tolerance 1e-14.
BOOST_AUTO_TEST_CASE(iterates_stay_on_the_space) {
  const particle_on_ellipsoid ellipsoid(triaxial);
  const auto e = on_space(ellipsoid, ellipsoid.space());
  s3_state x = ellipsoid.initial_state();
  riemannian_leapfrog<s3_state> lf;
  double worst = 0;
  for (int i = 0; i < 10000; ++i) {
    lf.do_step(e, x, i * 0.02, 0.02);
    worst = std::fmax(worst, std::fabs(x.first.norm() - 1));
  }
  BOOST_TEST(GEOMINT_MEASURED("max ||x| − 1|, ellipsoid", worst) <= 1e-14);

  const double_spherical_pendulum_s2 dsp;
  const auto d = on_space(dsp, dsp.space());
  s6_state y = dsp.initial_state();
  riemannian_leapfrog<s6_state> lf6;
  worst = 0;
  for (int i = 0; i < 10000; ++i) {
    lf6.do_step(d, y, i * 0.005, 0.005);
    worst = std::fmax(worst, dsp.space().point_residual(y.first));
  }
  BOOST_TEST(GEOMINT_MEASURED("max ||r_i| − l_i|/l_i, S²×S²", worst) <= 1e-14);

  const heavy_top_so3 top;
  top_state z = top.initial_state();
  riemannian_leapfrog<top_state> lft;
  worst = 0;
  for (int i = 0; i < 10000; ++i) {
    lft.do_step(top, z, i * 0.01, 0.01);
    worst = std::fmax(worst, top.space().point_residual(z.first));
  }
  BOOST_TEST(GEOMINT_MEASURED("max |qᵀq − I|, SO(3)", worst) <= 1e-14);
}

// Time-reversibility Φ_{−h} ∘ Φ_h = id, to the Newton tolerance of (32) (≤ 1e-15 relative of w,
// amplified ≤ 1/h in the momentum): tolerance 1e-12.
BOOST_AUTO_TEST_CASE(leapfrog_is_time_reversible) {
  const particle_on_ellipsoid ellipsoid(triaxial);
  const double_spherical_pendulum_s2 dsp;
  const heavy_top_so3 top;
  const variable_metric_sphere vm;
  BOOST_TEST(GEOMINT_MEASURED("reversal, ellipsoid", reversal_defect(on_space(ellipsoid, ellipsoid.space()), ellipsoid.initial_state(), 0.1)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("reversal, S²×S²", reversal_defect(on_space(dsp, dsp.space()), dsp.initial_state(), 0.02)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("reversal, SO(3)", reversal_defect(top, top.initial_state(), 0.05)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("reversal, variable metric", reversal_defect(vm, problems::variable_mass_sphere(vm.par).initial_state(), 0.1)) < 1e-12);
}

// Symplecticity by central differences on the constraint manifold {|q_i| = a_i, q_i·(K⁻¹p)_i = 0}
// of the constrained form (step 1e-5: truncation ~1e-10, rounding ~1e-9; tolerance 1e-7), and
// on T*SO(3) ⊂ ℝ¹⁸ for the top. Control: the leapfrog followed by p ← 1.1 p (not symplectic)
// is caught.
BOOST_AUTO_TEST_CASE(leapfrog_is_symplectic) {
  auto sphere_defect = [](const auto& constrained, const auto& riemannian, auto x0, double h, double scale) {
    using state = decltype(x0);
    const Eigen::VectorXd q0 = x0.first, p0 = x0.second;
    return geomint::diagnostics::manifold_map_symplecticity_defect(constrained, q0, p0, [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
      state x{q, p};
      riemannian_leapfrog<state> lf;
      lf.do_step(riemannian, x, 0.0, h);
      q = x.first;
      p = scale * x.second;
    });
  };
  const particle_on_ellipsoid ellipsoid(triaxial);
  const auto e = on_space(ellipsoid, ellipsoid.space());
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, ellipsoid", sphere_defect(ellipsoid, e, ellipsoid.initial_state(), 0.2, 1.0)) < 1e-7);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, control", sphere_defect(ellipsoid, e, ellipsoid.initial_state(), 0.2, 1.1)) > 1e-2);
  const double_spherical_pendulum_s2 dsp;
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, S²×S²", sphere_defect(dsp, on_space(dsp, dsp.space()), dsp.initial_state(), 0.05, 1.0)) < 1e-7);
  const variable_metric_sphere vm;
  const problems::variable_mass_sphere constrained_vm(vm.par);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, variable metric", sphere_defect(constrained_vm, vm, constrained_vm.initial_state(), 0.2, 1.0)) < 1e-7);

  const heavy_top_so3 top;
  const top_state t0 = top.initial_state();
  const double so3 = geomint::diagnostics::symplecticity_defect(
      [&](const Eigen::VectorXd& z) {
        top_state s = so3_embedding::unembed(z);
        riemannian_leapfrog<top_state> lf;
        lf.do_step(top, s, 0.0, 0.1);
        return so3_embedding::embed(s);
      },
      [](const Eigen::VectorXd& z) { return so3_embedding::embed(so3_embedding::unembed(z)); }, so3_embedding::embed(t0),
      so3_embedding::tangent_basis(t0), 1e-5);
  BOOST_TEST(GEOMINT_MEASURED("symplecticity defect, heavy top on SO(3)", so3) < 1e-7);
}

// a₁ = a₂: rotations about the x₃ axis are isometries of the round sphere and symmetries of g
// and V, so the leapfrog conserves x₁p₂ − x₂p₁ up to the iteration's stopping test and rounding
// (≤ 10ε of |p| per step, 1.1e-11 over 5000 steps; measured 1.5e-14): tolerance 1e-12. With
// a₁ ≠ a₂ it is not conserved, by the dynamics (control).
BOOST_AUTO_TEST_CASE(s1_momentum_is_conserved_when_a1_equals_a2) {
  auto drift = [](const particle_on_ellipsoid::parameters_type& par) {
    const particle_on_ellipsoid ellipsoid(par);
    const auto e = on_space(ellipsoid, ellipsoid.space());
    s3_state x = ellipsoid.initial_state();
    const double j0 = particle_on_ellipsoid::axial_momentum(x.first, x.second), scale = x.second.norm();
    riemannian_leapfrog<s3_state> lf;
    double worst = 0;
    for (int i = 0; i < 5000; ++i) {
      lf.do_step(e, x, i * 0.02, 0.02);
      worst = std::fmax(worst, std::fabs(particle_on_ellipsoid::axial_momentum(x.first, x.second) - j0));
    }
    return worst / scale;
  };
  BOOST_TEST(GEOMINT_MEASURED("axial momentum drift, a1 = a2", drift(spheroid)) < 1e-12);
  BOOST_TEST(GEOMINT_MEASURED("axial momentum change, a1 ≠ a2", drift(triaxial)) > 1e-3);
}

// The heavy top: rotations about the spatial vertical act by left multiplication, isometries of
// the bi-invariant metric leaving L invariant, so k·(qΠ) is conserved; the free rigid body
// (c = 0) conserves the whole spatial angular momentum qΠ. Equivariance holds up to the stopping
// test of the iteration for (32) (increments ≤ 10ε relative) and rounding: at most ~10ε of |Π|
// per step, 1.1e-11 over 5000 steps; tolerance 1e-11 (measured 4.5e-13: the per-step errors
// largely cancel).
BOOST_AUTO_TEST_CASE(heavy_top_conserves_the_vertical_spatial_momentum) {
  auto drift = [](const heavy_top_so3& top, bool all) {
    top_state x = top.initial_state();
    const vector<3> m0 = heavy_top_so3::spatial_momentum(x.first, x.second);
    riemannian_leapfrog<top_state> lf;
    double worst = 0;
    for (int i = 0; i < 5000; ++i) {
      lf.do_step(top, x, i * 0.01, 0.01);
      const vector<3> m = heavy_top_so3::spatial_momentum(x.first, x.second) - m0;
      worst = std::fmax(worst, all ? m.cwiseAbs().maxCoeff() : std::fabs(m(2)));
    }
    return worst / m0.norm();
  };
  problems::heavy_top_so3_parameters free;
  free.c = 0;
  BOOST_TEST(GEOMINT_MEASURED("vertical momentum drift, heavy top", drift(heavy_top_so3(), false)) < 1e-11);
  BOOST_TEST(GEOMINT_MEASURED("spatial momentum drift, free rigid body", drift(heavy_top_so3(free), true)) < 1e-11);
}

// "If g and g̃ are proportional, then A = 0, and the algorithm is exactly the iteration of
// F_{t/2} G_t F_{t/2}" (§4.2). Spherical pendulum of mass 2.5 on a sphere of radius 1.7 (g = m g̃,
// m ≠ 1: A vanishes analytically, not by h = 0) against the splitting written out here: kicks by
// the tangential force, exact great-circle motion in between. Spherical top K = 1.7 I on SO(3)
// against kicks and q ← q Exp(tΠ/1.7). Equal to round-off: one step ≤ 1e-15 relative; after
// 200 steps the rounding differences (the two compute the rotations differently) have grown with
// the motion: sphere ≤ 1e-13, top ≤ 1e-12 (measured 9e-15 and 1e-13).
BOOST_AUTO_TEST_CASE(proportional_metric_gives_the_kinetic_potential_splitting) {
  problems::spherical_pendulum_parameters par;
  par.mass = 2.5;
  par.length = 1.7;
  const problems::spherical_pendulum pendulum(par);
  const auto r = on_space(pendulum, sphere(par.length));
  using state = problems::spherical_pendulum::state_type;
  auto kick = [&](state& x, double tau) {  // F_τ: p ← p − τ (∇V)_tangential
    const vector<3> n = x.first / x.first.norm();
    const vector<3> grad(0, 0, par.mass * par.gravity);
    x.second -= tau * (grad - grad.dot(n) * n);
  };
  auto drift = [&](state& x, double tau) {  // G_τ: geodesic flow of g = m g̃
    const vector<3> v = x.second / par.mass;
    const double speed = v.norm(), w = speed / par.length;
    const vector<3> q = x.first;
    x.first = std::cos(w * tau) * q + (par.length / speed) * std::sin(w * tau) * v;
    x.second = par.mass * (-speed * std::sin(w * tau) * q / par.length + std::cos(w * tau) * v);
  };
  state a = pendulum.initial_state(1.0, 2.0), b = a;
  riemannian_leapfrog<state> lf;
  double one_step = 0;
  for (int i = 0; i < 200; ++i) {
    lf.do_step(r, a, i * 0.05, 0.05);
    kick(b, 0.025);
    drift(b, 0.05);
    kick(b, 0.025);
    if (i == 0) one_step = distance(a, b);
  }
  BOOST_TEST(GEOMINT_MEASURED("leapfrog vs splitting, sphere, one step", one_step) < 1e-15);
  BOOST_TEST(GEOMINT_MEASURED("leapfrog vs splitting, sphere, 200 steps", distance(a, b)) < 1e-13);

  problems::heavy_top_so3_parameters spherical;
  spherical.i1 = spherical.i2 = spherical.i3 = 1.7;
  spherical.chi_x = 0.3;
  const heavy_top_so3 top(spherical);
  top_state c = top.initial_state(), d = c;
  riemannian_leapfrog<top_state> lft;
  auto top_kick = [&](top_state& x, double tau) {
    vector<3> g;
    top.potential_gradient(x.first, g);
    x.second -= tau * g;
  };
  double top_one_step = 0;
  for (int i = 0; i < 200; ++i) {
    lft.do_step(top, c, i * 0.05, 0.05);
    top_kick(d, 0.025);
    Eigen::Map<matrix<3, 3>> q(d.first.data());
    const matrix<3, 3> turned = q * Eigen::AngleAxisd(0.05 * d.second.norm() / 1.7, d.second.normalized()).toRotationMatrix();
    q = turned;
    top_kick(d, 0.025);
    if (i == 0) top_one_step = distance(c, d);
  }
  BOOST_TEST(GEOMINT_MEASURED("leapfrog vs splitting, SO(3), one step", top_one_step) < 1e-15);
  BOOST_TEST(GEOMINT_MEASURED("leapfrog vs splitting, SO(3), 200 steps", distance(c, d)) < 1e-12);
}

// composition<riemannian_leapfrog, Scheme>: orders 4 and 6 in the asymptotic range (errors
// 5e-5 … 1e-8 and 1e-7 … 3e-11; measured slopes ≈ 3.97 and 5.95; ±0.3), the positions still on
// the sphere to round-off.
BOOST_AUTO_TEST_CASE(leapfrog_composes_to_higher_order) {
  const particle_on_ellipsoid ellipsoid(triaxial);
  const auto e = on_space(ellipsoid, ellipsoid.space());
  const s3_state x0 = ellipsoid.initial_state();
  const s3_state ref = run(composition<rattle<s3_state>, kahan_li8>(), ellipsoid, x0, 2.0, 400);
  const double o4 = observed_order<composition<riemannian_leapfrog<s3_state>, yoshida4>>(e, x0, ref, 2.0, {40, 80, 160, 320});
  const double o6 = observed_order<composition<riemannian_leapfrog<s3_state>, kahan_li6>>(e, x0, ref, 2.0, {20, 40, 80});
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, yoshida4 ∘ leapfrog", o4) - 4) < 0.3);
  BOOST_TEST(std::fabs(GEOMINT_MEASURED("order, kahan_li6 ∘ leapfrog", o6) - 6) < 0.3);
  const s3_state x = run(composition<riemannian_leapfrog<s3_state>, kahan_li6>(), e, x0, 20.0, 400);
  BOOST_TEST(std::fabs(x.first.norm() - 1) <= 1e-14);
}

BOOST_AUTO_TEST_CASE(a_state_off_the_space_is_rejected_and_left_unchanged) {
  // The first step from x fails as inconsistent_initial_state and leaves x bit for bit.
  auto rejected = [](const auto& sys, auto x, double dt) {
    const auto before = x;
    riemannian_leapfrog<decltype(x)> lf;
    try {
      lf.do_step(sys, x, 0.0, dt);
      BOOST_ERROR("no exception");
    } catch (const step_error& err) {
      BOOST_TEST(to_string(err.reason()) == std::string("inconsistent_initial_state"));
    }
    BOOST_TEST((x.first.array() == before.first.array()).all());
    BOOST_TEST((x.second.array() == before.second.array()).all());
  };
  const particle_on_ellipsoid ellipsoid(triaxial);
  const auto e = on_space(ellipsoid, ellipsoid.space());
  s3_state x = ellipsoid.initial_state();
  x.first *= 1.0 + 1e-7;
  rejected(e, x, 0.1);
  // A velocity off the tangent space, likewise.
  s3_state y = ellipsoid.initial_state();
  y.second += 1e-6 * ellipsoid.mass().inverse_diagonal().cwiseInverse().cwiseProduct(y.first);
  rejected(e, y, 0.1);
  // The heavy top's attitude −R: orthogonal, but a reflection (det −1), for which V(−R) = −V(R)
  // is another problem. Before, only |qᵀq − I| was checked and it ran.
  const heavy_top_so3 top;
  top_state z = top.initial_state();
  z.first = -z.first;
  rejected(top, z, 0.01);
}

BOOST_AUTO_TEST_CASE(no_allocation_after_the_first_step) {
  auto count = [](const auto& sys, auto x) {
    return geomint::diagnostics::allocations_after_first_step(riemannian_leapfrog<decltype(x)>(), sys, x, 0.0, 0.01);
  };
  const particle_on_ellipsoid ellipsoid(triaxial);
  const double_spherical_pendulum_s2 dsp;
  const heavy_top_so3 top;
  const variable_metric_sphere vm;
  BOOST_TEST(count(on_space(ellipsoid, ellipsoid.space()), ellipsoid.initial_state()) == 0);
  BOOST_TEST(count(on_space(dsp, dsp.space()), dsp.initial_state()) == 0);
  BOOST_TEST(count(top, top.initial_state()) == 0);
  BOOST_TEST(count(vm, problems::variable_mass_sphere(vm.par).initial_state()) == 0);
}
