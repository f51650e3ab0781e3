// Every Lie–Poisson method on the free rigid body (so(3)*, Engø–Faltinsen §6.1 data), the
// Cayley-coordinate and energy claims again on the heavy top (se(3)*), and the isospectral
// midpoint (su(N) only) on sine-Euler su(3).
#include "verification.hpp"

#include <utility>  // before odeint
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include "geomint/diagnostics/poisson_map.hpp"
#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/isospectral_midpoint.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;
using verification::order_check;

namespace {

/// The flow of ẏ = J(y)∇H(y) by odeint's dopri5 at tolerance 1e-14.
template <class System, class Y>
Y dopri5_reference(const System& sys, const Y& y0, double t_end) {
  namespace odeint = boost::numeric::odeint;
  std::vector<double> x(y0.data(), y0.data() + y0.size());
  odeint::integrate_adaptive(odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_dopri5<std::vector<double>>()),
                             lie_poisson_vector_field<System>(sys), x, 0.0, t_end, 1e-3);
  return Eigen::Map<Y>(x.data());
}

/// The common checks, the Poisson-map claim (the defect's trend over h = 0.3 … 0.0375: held for a
/// Poisson map, shrinking as hᵖ⁺¹ otherwise), and the Casimirs (and the energy, where claimed
/// on this system: conserves_on) over 2000 steps of 0.1.
template <class Stepper, class System>
void check_lie(std::string_view id, const System& sys, const typename System::state_type& y0, const order_check& oc) {
  constexpr geomint::method_properties p = properties_of<Stepper>;
  const auto reference = dopri5_reference(sys, y0, oc.t_end);
  verification::check_common<Stepper>(id, sys, y0, reference, oc);

  verification::check_trend(id, "Poisson map", p.symplectic(),
                            diagnostics::poisson_trend(Stepper(), sys, y0, diagnostics::halving_steps(0.3, 4)));

  const auto& alg = geomint::detail::algebra_of(sys);
  for (int k = 0; k < alg.casimirs(y0).size(); ++k) {
    const double c = verification::drift<Stepper>(sys, y0, 0.1, 2000, [&](const auto& y) { return alg.casimirs(y)(k); });
    BOOST_TEST(c <= 1e-13, id << ": Casimir " << k << " drift " << c);
  }
  const double energy = verification::drift<Stepper>(sys, y0, 0.1, 2000, [&](const auto& y) { return sys.hamiltonian(y); });
  BOOST_TEST_MESSAGE(id << ": energy drift " << energy);
  if (conserves_on<System>(p.conserves()) & conserves_energy) BOOST_TEST(energy <= 1e-13, id << ": energy drift " << energy);
}

}  // namespace

BOOST_AUTO_TEST_CASE(rkmk_methods) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  check_lie<rkmk<so3, rk::rk4, exp_coordinates>>("lie_rkmk_rk4_exp_4_4", body, y0, {2.0, {20, 40, 80, 160}});
  check_lie<rkmk<so3, rk::rk4, cayley_coordinates>>("lie_rkmk_rk4_cayley_4_4", body, y0, {2.0, {20, 40, 80, 160}});
  check_lie<rkmk<so3, rk::rk4_two_commutators>>("lie_rkmk_rk4_two_commutators_exp_4_4", body, y0,
                                                 {2.0, {20, 40, 80, 160}});
  check_lie<rkmk<so3, rk::heun, exp_coordinates>>("lie_rkmk_heun_exp_2_2", body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<rkmk<so3, rk::implicit_midpoint, exp_coordinates>>("lie_rkmk_midpoint_exp_2_1", body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<rkmk<so3, rk::implicit_midpoint, cayley_coordinates>>("lie_rkmk_midpoint_cayley_2_1", body, y0,
                                                                   {2.0, {40, 80, 160, 320}});
}

BOOST_AUTO_TEST_CASE(energy_conserving_and_poisson_methods) {
  const problems::free_rigid_body body;
  const vector<3> y0 = problems::free_rigid_body::engo_faltinsen_initial_state();
  check_lie<lie_discrete_gradient<so3, exp_coordinates, trapezoidal_gradient>>("lie_discrete_gradient_trapezoidal_exp_2_1",
                                                                               body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<lie_discrete_gradient<so3, exp_coordinates, gonzalez_gradient>>("lie_discrete_gradient_gonzalez_exp_2_1",
                                                                            body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<lie_discrete_gradient<so3, cayley_coordinates, gonzalez_gradient>>(
      "lie_discrete_gradient_gonzalez_cayley_2_1", body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<moser_veselov<so3>>("lie_moser_veselov_2_1", body, y0, {2.0, {40, 80, 160, 320}});
  check_lie<lie_poisson_leapfrog<so3>>("lie_poisson_leapfrog_2_1", body, y0, {2.0, {40, 80, 160, 320}});
}

BOOST_AUTO_TEST_CASE(heavy_top_on_se3) {
  const problems::heavy_top_se3 top;
  const vector<6> y0 = problems::heavy_top_se3::engo_faltinsen_initial_state();
  check_lie<rkmk<se3, rk::rk4, cayley_coordinates>>("lie_rkmk_rk4_cayley_4_4", top, y0, {1.0, {20, 40, 80, 160}});
  check_lie<lie_discrete_gradient<se3, cayley_coordinates, gonzalez_gradient>>("lie_discrete_gradient_gonzalez_cayley_2_1",
                                                                               top, y0, {1.0, {40, 80, 160, 320}});
  check_lie<moser_veselov<se3>>("lie_moser_veselov_2_1", top, y0, {1.0, {40, 80, 160, 320}});
}

BOOST_AUTO_TEST_CASE(isospectral_midpoint_on_su3) {
  const problems::sine_euler<3> flow;
  const auto y0 = problems::sine_euler<3>::random_initial_state();
  check_lie<isospectral_midpoint<su_n<3>>>("lie_isospectral_midpoint_2_1", flow, y0, {2.0, {40, 80, 160, 320}});
}
