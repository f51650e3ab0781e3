// The variational methods (one-step forms on (q, p), SHAKE on (q_{k−1}, q_k)) on the double
// spherical pendulum as a Lagrangian system, and the Riemannian leapfrog on the particle on a
// triaxial ellipsoid (its configuration space, the sphere).
#include "verification.hpp"

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"
#include "geomint/riemannian/riemannian_system.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_first_order.hpp"
#include "geomint/variational/variational_midpoint.hpp"

using namespace geomint;
using verification::order_check;
using dsp_state = problems::double_spherical_pendulum::state_type;

namespace {

template <class Stepper>
void check_variational(std::string_view id, const order_check& oc) {
  constexpr geomint::method_properties p = properties_of<Stepper>;
  const problems::double_spherical_pendulum dsp;
  const lagrangian_view<problems::double_spherical_pendulum> lagrangian(dsp);
  const dsp_state x0 = dsp.initial_state();  // (q, p) on the constraint manifold = the phase space
  const dsp_state reference = diagnostics::integrate_steps(composition<rattle<dsp_state>, kahan_li8>(), dsp, x0, oc.t_end, 400);
  verification::check_common<Stepper>(id, lagrangian, x0, reference, oc);
  // Symplectic on the phase space = the constraint manifold of the Hamiltonian form: the
  // defect's trend over h = 0.1 … 0.0125 (diagnostics/defect_trend.hpp).
  const std::vector<double> steps = diagnostics::halving_steps(0.1, 4);
  std::vector<double> defects;
  for (double h : steps)
    defects.push_back(diagnostics::manifold_map_symplecticity_defect(
        dsp, x0.first, x0.second, [&](Eigen::VectorXd& q, Eigen::VectorXd& p) {
          dsp_state s{q, p};
          Stepper().do_step(lagrangian, s, 0.0, h);
          q = s.first;
          p = s.second;
        }));
  BOOST_TEST(p.symplectic());
  verification::check_trend(id, "symplecticity", true,
                            diagnostics::judge_by_slope(steps, defects, p.order() + 1, diagnostics::difference_noise_floor));
  const double residual = verification::drift<Stepper>(lagrangian, x0, 0.01, 2000, [&](const dsp_state& s) {
    const constraint_residuals r = constraint_residuals_of(dsp, s.first, s.second);
    return std::fmax(r.position, r.velocity);
  });
  BOOST_TEST(residual <= 1e-13, id << ": constraint residual " << residual);
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_step_variational_methods) {
  check_variational<variational_midpoint<dsp_state>>("variational_midpoint_2_1", {1.0, {32, 64, 128, 256}});
  check_variational<variational_first_order<dsp_state>>("variational_first_order_1_1", {1.0, {32, 64, 128, 256}});
}

// SHAKE's state is (q_{k−1}, q_k): its order is measured on q_k, its symmetry as
// (q₀, q₁) ↦ (q₁, q₂) followed by the step −h from (q₂, q₁), which returns (q₁, q₀).
BOOST_AUTO_TEST_CASE(shake_two_step_method) {
  constexpr geomint::method_properties p = properties_of<geomint::shake<dsp_state>>;
  const problems::double_spherical_pendulum dsp;
  const geomint::method_entry* e = find_method_entry("variational_shake_2_1");
  BOOST_TEST_REQUIRE(e != nullptr);
  BOOST_TEST(catalogue_matches<geomint::shake<dsp_state>>(*e));
  const dsp_state x0 = dsp.initial_state();
  const double T = 1.0;
  const dsp_state reference = diagnostics::integrate_steps(composition<rattle<dsp_state>, kahan_li8>(), dsp, x0, T, 400);
  std::vector<double> h, err;
  for (int n : {32, 64, 128, 256}) {
    dsp_state pair{x0.first, x0.first};
    dsp_state first = x0;
    rattle<dsp_state>().do_step(dsp, first, 0.0, T / n);          // q₁ by one RATTLE step (its positions are SHAKE's)
    pair.second = first.first;
    geomint::shake<dsp_state> s;
    for (int k = 1; k < n; ++k) s.do_step(dsp, pair, k * T / n, T / n);
    h.push_back(T / n);
    err.push_back((pair.second - reference.first).cwiseAbs().maxCoeff());
  }
  const double order = diagnostics::loglog_slope(h, err);
  BOOST_TEST_MESSAGE("variational_shake_2_1: observed order " << order);
  BOOST_TEST(std::fabs(order - p.order()) <= 0.25);

  dsp_state first = x0;
  rattle<dsp_state>().do_step(dsp, first, 0.0, 0.1);
  dsp_state pair{x0.first, first.first};
  geomint::shake<dsp_state> s;
  s.do_step(dsp, pair, 0.1, 0.1);  // (q₁, q₂)
  std::swap(pair.first, pair.second);
  s.do_step(dsp, pair, 0.2, -0.1);  // (q₁, q₀')
  const double defect = (pair.second - x0.first).cwiseAbs().maxCoeff() / (first.first - x0.first).cwiseAbs().maxCoeff();
  BOOST_TEST_MESSAGE("variational_shake_2_1: reversibility defect " << defect);
  BOOST_TEST(p.symmetric());
  BOOST_TEST(defect <= 1e-12);
}

BOOST_AUTO_TEST_CASE(riemannian_leapfrog_on_an_ellipsoid) {
  using state = problems::particle_on_ellipsoid::state_type;
  using stepper = riemannian_leapfrog<state>;
  const problems::particle_on_ellipsoid ellipsoid({1.0, 1.0, 0.8, 1.3, 1.0});
  const auto riemannian = on_space(ellipsoid, ellipsoid.space());
  const state x0 = ellipsoid.initial_state();
  const state reference = diagnostics::integrate_steps(composition<rattle<state>, kahan_li8>(), ellipsoid, x0, 2.0, 400);
  verification::check_common<stepper>("riemannian_leapfrog_2_1", riemannian, x0, reference, {2.0, {20, 40, 80, 160}});
  // Measured on the sphere's constraint manifold (the constrained system on_space wraps).
  verification::check_trend("riemannian_leapfrog_2_1", "symplecticity", true,
                            diagnostics::symplecticity_trend(stepper(), riemannian, x0, diagnostics::halving_steps(0.2, 4)));
  const double off_space = verification::drift<stepper>(riemannian, x0, 0.01, 2000, [](const state& s) { return s.first.norm(); });
  BOOST_TEST((properties_of<stepper>.conserves() & conserves_configuration_space));
  BOOST_TEST(off_space <= 1e-14);
}
