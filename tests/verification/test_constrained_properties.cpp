// Every constrained, Reich and composed method on the double spherical pendulum (separable H)
// and, through its general stage solver, on the variable-mass sphere (non-separable H).
#define BOOST_TEST_MODULE verification
#include "verification.hpp"

#include "geomint/compose/composition.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/constrained/reich_constrained.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/diagnostics/count_allocations.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#include "geomint/problems/variable_mass_sphere.hpp"

using namespace geomint;
using verification::order_check;

namespace {

/// The common checks, symplecticity on the constraint manifold, and what the constrained
/// family conserves: g and the hidden constraint (scaled residuals) and the vertical angular
/// momentum q₁p₂ − q₂p₁ summed over the bodies (both problems are invariant under rotations
/// about the vertical axis, a linear symmetry of H and g).
template <class Stepper, class System>
void check_constrained(std::string_view id, const System& sys, const order_check& oc) {
  using state = typename System::state_type;
  constexpr geomint::method_properties p = properties_of<Stepper>;
  const state x0 = sys.initial_state();
  const state reference = diagnostics::integrate_steps(composition<rattle<state>, kahan_li8>(), sys, x0, oc.t_end, 400);
  verification::check_common<Stepper>(id, sys, x0, reference, oc);

  verification::check_trend(id, "symplecticity", p.symplectic(),
                            diagnostics::symplecticity_trend(Stepper(), sys, x0, diagnostics::halving_steps(0.1, 4)));

  BOOST_TEST((p.conserves() & conserves_constraints));
  Stepper stepper;
  state x = x0;
  double residual = 0;
  const double lz_drift = diagnostics::invariant_drift(stepper, sys, x, 0.0, 0.01, 2000, [&](const state& s) {
    const constraint_residuals r = constraint_residuals_of(sys, s.first, s.second);
    residual = std::fmax(residual, std::fmax(r.position, r.velocity));
    double lz = 0;
    for (int b = 0; b < s.first.size() / 3; ++b) lz += s.first(3 * b) * s.second(3 * b + 1) - s.first(3 * b + 1) * s.second(3 * b);
    return lz;
  }).max_deviation;
  BOOST_TEST(residual <= 1e-13, id << ": constraint residual " << residual);
  // L_z is the momentum map of rotations about the vertical: a symmetry of the pendulum, not of
  // the variable-mass sphere (its mass matrix is not rotation invariant).
  if ((p.conserves() & conserves_linear_momentum_maps) && std::is_same_v<System, problems::double_spherical_pendulum>)
    BOOST_TEST(lz_drift <= 1e-12, id << ": L_z drift " << lz_drift);
}

using dsp_state = problems::double_spherical_pendulum::state_type;
using vm_state = problems::variable_mass_sphere::state_type;

}  // namespace

BOOST_AUTO_TEST_CASE(constrained_prk_methods) {
  const problems::double_spherical_pendulum dsp;
  const problems::variable_mass_sphere vm;
  check_constrained<rattle<dsp_state>>("constrained_rattle_2_2", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<lobatto_iiia_iiib<2, dsp_state>>("constrained_lobatto_2_2", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<lobatto_iiia_iiib<3, dsp_state>>("constrained_lobatto_4_3", dsp, {1.0, {16, 32, 64, 128}});
  check_constrained<lobatto_iiia_iiib<4, dsp_state>>("constrained_lobatto_6_4", dsp, {1.0, {16, 24, 32, 48}});
  check_constrained<lobatto_iiia_iiib<5, dsp_state>>("constrained_lobatto_8_5", dsp, {2.0, {8, 12, 16, 24}, 0.3});
  check_constrained<constrained_symplectic_euler<dsp_state>>("constrained_symplectic_euler_1_2", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<rattle<vm_state>>("constrained_rattle_2_2", vm, {2.0, {8, 16, 32, 64}});
  check_constrained<lobatto_iiia_iiib<3, vm_state>>("constrained_lobatto_4_3", vm, {2.0, {8, 16, 32, 64}});
  check_constrained<constrained_symplectic_euler<vm_state>>("constrained_symplectic_euler_1_2", vm, {2.0, {8, 16, 32, 64}});
}

BOOST_AUTO_TEST_CASE(reich_methods) {
  const problems::double_spherical_pendulum dsp;
  const problems::variable_mass_sphere vm;
  check_constrained<reich_constrained<dsp_state>>("constrained_reich_1_1", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<reich_constrained_adjoint<dsp_state>>("constrained_reich_adjoint_1_1", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<reich_symmetric<dsp_state>>("constrained_reich_symmetric_2_2", dsp, {1.0, {32, 64, 128, 256}});
  check_constrained<reich_symmetric<vm_state>>("constrained_reich_symmetric_2_2", vm, {2.0, {8, 16, 32, 64}});
}

BOOST_AUTO_TEST_CASE(composed_methods) {
  const problems::double_spherical_pendulum dsp;
  check_constrained<composition<rattle<dsp_state>, yoshida4>>("compose_rattle_yoshida4_4_3", dsp, {1.0, {20, 40, 80, 160}, 0.3});
  check_constrained<composition<rattle<dsp_state>, kahan_li6>>("compose_rattle_kahan_li6_6_9", dsp, {1.0, {16, 20, 24, 32}, 0.3});
  check_constrained<composition<reich_symmetric<dsp_state>, kahan_li8>>("compose_reich_symmetric_kahan_li8_8_17", dsp,
                                                                        {1.0, {12, 16, 20, 24}, 0.35});  // 8.31 measured
}
