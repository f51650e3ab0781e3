// The heavy top in quaternions (Hairer 2003 §5; geomint/problems/heavy_top.hpp) with rattle and
// lobatto_iiia_iiib<3>: the derivation reproduces the body-frame equations, the flow does not
// depend on the regularizing moment I₀, constraints hold, and the scaled energy error behaves
// as in Hairer's Fig. 1.
#include <boost/numeric/odeint.hpp>
#include <boost/test/unit_test.hpp>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/problems/heavy_top.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/index1.hpp"

using namespace geomint;
using problems::heavy_top;
using top_state = heavy_top::state_type;

namespace {

template <class Stepper>
top_state integrate(const heavy_top& top, double h, double t_end) {
  top_state x = top.initial_state();
  Stepper stepper;
  const int n = static_cast<int>(std::lround(t_end / h));
  for (int k = 0; k < n; ++k) stepper.do_step(top, x, k * h, h);
  return x;
}

/// (H_n − H_0)/h^power at t_n = n h, n = 0..t_end/h.
template <class Stepper>
std::vector<double> scaled_energy_error(const heavy_top& top, double h, double t_end, int power) {
  top_state x = top.initial_state();
  const double h0 = top.hamiltonian(x.first, x.second);
  Stepper stepper;
  const int n = static_cast<int>(std::lround(t_end / h));
  std::vector<double> out{0.0};
  for (int k = 0; k < n; ++k) {
    stepper.do_step(top, x, k * h, h);
    out.push_back((top.hamiltonian(x.first, x.second) - h0) / std::pow(h, power));
  }
  return out;
}

/// max_n |coarse_n − fine_{2n}| / max |fine|: the curves compared at the coarse times.
double curve_difference(const std::vector<double>& coarse, const std::vector<double>& fine) {
  double diff = 0, scale = 0;
  for (std::size_t n = 0; n < coarse.size(); ++n) {
    diff = std::fmax(diff, std::fabs(coarse[n] - fine[2 * n]));
    scale = std::fmax(scale, std::fabs(fine[2 * n]));
  }
  return diff / scale;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(heavy_top_quaternions)

// Independent check of the derivation in heavy_top.hpp: the body-frame equations
// Π̇ = Π × Ω + γ Γ × e₃, Γ̇ = Γ × Ω (Ω = I⁻¹Π, Γ = Q(e)ᵀe₃) integrated by odeint's adaptive
// Runge–Kutta–Fehlberg 7(8) at 1e-13 tolerance, against Lobatto IIIA–IIIB(4) (order 6) with
// h = 0.005 on the quaternion system: both are accurate to ~1e-13 at t = 5 (observed agreement
// ~4e-14); 1e-11 leaves margin for round-off and separates a correct derivation from any wrong
// term (which gives O(h⁰) differences).
BOOST_AUTO_TEST_CASE(reproduces_the_body_frame_equations) {
  const heavy_top top;
  const auto& par = top.parameters();
  const double t_end = 5.0;
  const top_state x = integrate<lobatto_iiia_iiib<4, top_state>>(top, 0.005, t_end);

  using body_state = std::array<double, 6>;  // (Π, Γ)
  const top_state x0 = top.initial_state();
  const vector<3> pi0 = par.inertia.cwiseProduct(par.body_angular_velocity);
  const vector<3> gamma0 = problems::rotation_matrix(x0.first).transpose() * vector<3>(0, 0, 1);
  body_state y{pi0(0), pi0(1), pi0(2), gamma0(0), gamma0(1), gamma0(2)};
  auto rhs = [&](const body_state& s, body_state& ds, double) {
    const vector<3> pi(s[0], s[1], s[2]), gamma(s[3], s[4], s[5]);
    const vector<3> omega = pi.cwiseQuotient(par.inertia);
    const vector<3> dpi = pi.cross(omega) + par.gravity * gamma.cross(vector<3>(0, 0, 1));
    const vector<3> dgamma = gamma.cross(omega);
    for (int i = 0; i < 3; ++i) {
      ds[i] = dpi(i);
      ds[3 + i] = dgamma(i);
    }
  };
  namespace odeint = boost::numeric::odeint;
  odeint::integrate_adaptive(odeint::make_controlled<odeint::runge_kutta_fehlberg78<body_state>>(1e-13, 1e-13), rhs, y,
                             0.0, t_end, 0.01);
  const vector<3> pi = heavy_top::body_angular_momentum(x.first, x.second);
  const vector<3> gamma = problems::rotation_matrix(x.first).transpose() * vector<3>(0, 0, 1);
  BOOST_TEST_MESSAGE("body-frame equations vs quaternion system at t = 5: |dPi| = "
                     << (pi - vector<3>(y[0], y[1], y[2])).cwiseAbs().maxCoeff() << ", |dGamma| = "
                     << (gamma - vector<3>(y[3], y[4], y[5])).cwiseAbs().maxCoeff());
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(std::fabs(pi(i) - y[i]) <= 1e-11);
    BOOST_TEST(std::fabs(gamma(i) - y[3 + i]) <= 1e-11);
  }
}

// The regularizing moment I₀ only acts off the constraint manifold: the exact flow is the same
// for every I₀. Lobatto IIIA–IIIB(4) with h = 0.005 resolves the flow to ~1e-13 for both values,
// so the states at t = 5 agree to 1e-11 (observed ~2e-14); the numerical methods themselves
// differ (RATTLE at h = 0.1 gives states that differ by more than 1e-6).
BOOST_AUTO_TEST_CASE(flow_does_not_depend_on_the_radial_inertia) {
  problems::heavy_top_parameters a, b;
  a.radial_inertia = 1.0;
  b.radial_inertia = 0.2;
  const top_state xa = integrate<lobatto_iiia_iiib<4, top_state>>(heavy_top(a), 0.005, 5.0);
  const top_state xb = integrate<lobatto_iiia_iiib<4, top_state>>(heavy_top(b), 0.005, 5.0);
  BOOST_TEST_MESSAGE("I0 = 1 vs 0.2 at t = 5: " << (xa.first - xb.first).cwiseAbs().maxCoeff() << " (positions), "
                                                << (xa.second - xb.second).cwiseAbs().maxCoeff() << " (momenta)");
  BOOST_TEST((xa.first - xb.first).cwiseAbs().maxCoeff() <= 1e-11);
  BOOST_TEST((xa.second - xb.second).cwiseAbs().maxCoeff() <= 1e-11);
  const top_state ra = integrate<rattle<top_state>>(heavy_top(a), 0.1, 5.0);
  const top_state rb = integrate<rattle<top_state>>(heavy_top(b), 0.1, 5.0);
  BOOST_TEST((ra.first - rb.first).cwiseAbs().maxCoeff() > 1e-6);
}

// Constraint |e| = 1 and hidden constraint e·p = 0 (scaled residuals, consistency.hpp) after every
// step: solved to round-off, ≤ 1e-12 (the foundation's bound).
template <class Stepper>
void check_constraints(double h, int steps) {
  const heavy_top top;
  top_state x = top.initial_state();
  Stepper stepper;
  double worst = 0;
  for (int k = 0; k < steps; ++k) {
    stepper.do_step(top, x, k * h, h);
    const constraint_residuals r = constraint_residuals_of(top, x.first, x.second);
    worst = std::fmax(worst, std::fmax(r.position, r.velocity));
  }
  BOOST_TEST_MESSAGE("heavy top constraint residuals, max over " << steps << " steps: " << worst);
  BOOST_TEST(worst <= 1e-12);
}

BOOST_AUTO_TEST_CASE(constraints_hold_at_every_step) {
  check_constraints<rattle<top_state>>(0.05, 2000);
  check_constraints<lobatto_iiia_iiib<3, top_state>>(0.05, 2000);
}

// Hairer Fig. 1: (H_n − H_0)/h² ≈ −(H₃(y(t_n)) − H₃(y_0)) + O(h²) for the symmetric order-2 RATTLE,
// so the curves for h = 0.05 and 0.025 differ by ~(3/4)·C·0.05², a few per cent of their size:
// within 5% in max norm over t ∈ [0, 20]. Lobatto IIIA–IIIB(3) is of order 4
// and symmetric: (H_n − H_0)/h⁴ converges the same way, with a larger relative O(h²) remainder
// (the h⁴ term is small), so its curves agree within 10%.
BOOST_AUTO_TEST_CASE(scaled_energy_error_curves_agree) {
  const heavy_top top;
  const double t_end = 20.0;
  const double rattle_diff = curve_difference(scaled_energy_error<rattle<top_state>>(top, 0.05, t_end, 2),
                                              scaled_energy_error<rattle<top_state>>(top, 0.025, t_end, 2));
  const double lobatto_diff =
      curve_difference(scaled_energy_error<lobatto_iiia_iiib<3, top_state>>(top, 0.05, t_end, 4),
                       scaled_energy_error<lobatto_iiia_iiib<3, top_state>>(top, 0.025, t_end, 4));
  BOOST_TEST_MESSAGE("scaled energy curves: RATTLE " << rattle_diff << ", Lobatto(3) " << lobatto_diff);
  BOOST_TEST(rattle_diff <= 0.05);
  BOOST_TEST(lobatto_diff <= 0.10);
}

// Energy error bounded without drift: max |ΔH| over [0, 10T] ≤ 1.5 × over [0, T], T = 20.
BOOST_AUTO_TEST_CASE(energy_bounded_without_drift) {
  const heavy_top top;
  const std::vector<double> e = scaled_energy_error<rattle<top_state>>(top, 0.05, 200.0, 0);
  double first = 0, all = 0;
  for (std::size_t n = 0; n < e.size(); ++n) {
    all = std::fmax(all, std::fabs(e[n]));
    if (n <= 400) first = std::fmax(first, std::fabs(e[n]));
  }
  BOOST_TEST_MESSAGE("heavy top RATTLE h = 0.05: max |dH| over [0, 20] " << first << ", over [0, 200] " << all);
  BOOST_TEST(all <= 1.5 * first);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
/// The heavy top counting its derivative calls.
struct counting_top : heavy_top {
  mutable int gradients_calls = 0, dh_dq_calls = 0, hessians_calls = 0, h_qq_calls = 0;
  template <class Q, class P, class DQ, class DP>
  void gradients(const Q& e, const P& p, DQ& dq, DP& dp) const {
    ++gradients_calls;
    heavy_top::gradients(e, p, dq, dp);
  }
  template <class Q, class P, class Out>
  void dh_dq(const Q& e, const P& p, Out& out) const {
    ++dh_dq_calls;
    heavy_top::dh_dq(e, p, out);
  }
  template <class Q, class P, class QQ, class QP, class PP>
  void hessians(const Q& e, const P& p, QQ& qq, QP& qp, PP& pp) const {
    ++hessians_calls;
    heavy_top::hessians(e, p, qq, qp, pp);
  }
  template <class Q, class P, class Out>
  void h_qq(const Q& e, const P& p, Out& out) const {
    ++h_qq_calls;
    heavy_top::h_qq(e, p, out);
  }
};
/// `count` points (e, p) with standard normal entries (off the constraint manifold too).
std::vector<top_state> random_points(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<top_state> points(count);
  for (auto& [e, p] : points)
    for (int i = 0; i < 4; ++i) e(i) = normal(rng), p(i) = normal(rng);
  return points;
}
/// The heavy top without gradients() and hessians(): the solver asks for each derivative alone.
struct top_without_combined_calls : counting_top {
  template <class Q, class P, class DQ, class DP>
  void gradients(const Q&, const P&, DQ&, DP&) const = delete;
  template <class Q, class P, class QQ, class QP, class PP>
  void hessians(const Q&, const P&, QQ&, QP&, PP&) const = delete;
};
}  // namespace

BOOST_AUTO_TEST_CASE(combined_derivatives_agree_with_the_separate_ones_and_feed_the_stage_solver) {
  static_assert(system_traits<heavy_top>::has_gradients && !system_traits<top_without_combined_calls>::has_gradients);
  static_assert(system_traits<heavy_top>::has_hessians && !system_traits<top_without_combined_calls>::has_hessians);
  const heavy_top top;
  for (const auto& [e, p] : random_points(5, 5)) {
    vector<4> dq, dp, u, v;
    top.gradients(e, p, dq, dp);
    top.dh_dq(e, p, u), top.dh_dp(e, p, v);
    BOOST_TEST((dq - u).norm() <= 1e-15 * u.norm());
    BOOST_TEST((dp - v).norm() <= 1e-15 * v.norm());
    matrix<4, 4> qq, qp, pp, a, b, c;
    top.hessians(e, p, qq, qp, pp);
    top.h_qq(e, p, a), top.h_qp(e, p, b), top.h_pp(e, p, c);
    BOOST_TEST((qq - a).norm() <= 1e-15 * a.norm());
    BOOST_TEST((qp - b).norm() <= 1e-15 * b.norm());
    BOOST_TEST((pp - c).norm() <= 1e-15 * c.norm());
  }
  // The stage solver takes the combined calls when they exist and the separate ones otherwise;
  // the stage functions agree to rounding and Newton gets the same matrix, so the trajectories
  // agree to the solver's tolerance.
  const counting_top combined;
  const top_without_combined_calls separate;
  top_state x = combined.initial_state(), y = x;
  lobatto_iiia_iiib<3, top_state> a, b;
  for (int k = 0; k < 200; ++k) {
    a.do_step(combined, x, k * 0.05, 0.05);
    b.do_step(separate, y, k * 0.05, 0.05);
  }
  BOOST_TEST(combined.gradients_calls > 0);
  BOOST_TEST(combined.dh_dq_calls == 0);
  BOOST_TEST(separate.dh_dq_calls > 0);
  BOOST_TEST(combined.hessians_calls > 0);
  BOOST_TEST(combined.h_qq_calls == 0);
  BOOST_TEST(separate.h_qq_calls > 0);
  BOOST_TEST((x.first - y.first).norm() <= 1e-13);
  BOOST_TEST((x.second - y.second).norm() <= 1e-13);
}

BOOST_AUTO_TEST_CASE(the_index1_field_takes_the_combined_calls_and_agrees_with_the_separate_ones) {
  // The index-1 vector field (dense output's Hermite derivatives, the odeint and IDA baselines)
  // asks for both gradients, ∂²H/∂q∂p and ∂²H/∂p² in one call each when the system has them.
  const counting_top combined;
  const top_without_combined_calls separate;
  index1_vector_field<counting_top> f(combined);
  index1_vector_field<top_without_combined_calls> g(separate);
  for (const auto& [e, p] : random_points(11, 5)) {
    vector<4> dq, dp, dq2, dp2;
    f(0.0, e, p, dq, dp);
    g(0.0, e, p, dq2, dp2);
    // The same arithmetic on the same derivatives (equal to 1e-15, above): equal to rounding.
    BOOST_TEST((dq - dq2).norm() <= 1e-14 * dq2.norm());
    BOOST_TEST((dp - dp2).norm() <= 1e-14 * dp2.norm());
    BOOST_TEST(std::fabs(f.lambda()(0) - g.lambda()(0)) <= 1e-14 * (std::fabs(g.lambda()(0)) + dp2.norm()));
  }
  BOOST_TEST(combined.gradients_calls == 5);
  BOOST_TEST(combined.dh_dq_calls == 0);
  BOOST_TEST(combined.hessians_calls == 5);
  BOOST_TEST(separate.dh_dq_calls == 5);
}
