// Redundant constraints: the double spherical pendulum with a third constraint g3 = g1 + g2 + c,
// so that G has rank 2 everywhere. With c = 0 (consistent) and constrained_options::rank_tolerance
// set, RATTLE, the Lobatto IIIA–IIIB pairs and constrained symplectic Euler solve for the
// minimum-norm multipliers and follow the non-redundant model's trajectory; without the option,
// or with c ≠ 0 (no q satisfies the constraints), the stepper refuses with a clear error.
// Tolerances: the two models' steps solve the same equations with different rounding (the
// Newton iterations stop at ~10ε of the unknowns); over 1000 steps of a motion whose
// perturbations grow slowly (the Marsden–Wendlandt data, 1 s) that stays below 1e-9 of |q| and
// |p|, and 1e-7 of the multipliers (a difference of forces of size ~50 N divided by h²).
#define BOOST_TEST_MODULE constrained_redundant
#include <boost/test/unit_test.hpp>

#include <limits>
#include <string>

#include "common.hpp"

using namespace geomint;
using problems::double_spherical_pendulum;
using problems::double_pendulum_constraints;
using problems::two_mass_gravity;
using test::expect_failure;
using state6 = std::pair<vector<6>, vector<6>>;

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

/// The double pendulum's two constraints and their sum plus an offset (0: redundant but
/// consistent; otherwise no configuration satisfies all three).
struct with_sum_constraint {
  static constexpr int size = 3;
  double_pendulum_constraints pair;
  double offset = 0;
  int count() const { return 3; }
  template <class Q, class Out>
  void value(const Q& q, Out& out) const {
    vector<2> g;
    pair.value(q, g);
    out << g(0), g(1), g(0) + g(1) + offset;
  }
  template <class Q, class G>
  void jacobian(const Q& q, G& g) const {
    matrix<2, 6> g2;
    pair.jacobian(q, g2);
    g.template topRows<2>() = g2;
    g.row(2) = g2.row(0) + g2.row(1);
  }
};

using redundant_pendulum = separable_system<6, two_mass_gravity, with_sum_constraint>;

redundant_pendulum redundant_model(const double_spherical_pendulum& dsp, double offset = 0) {
  const auto& p = dsp.parameters();
  return redundant_pendulum(dsp.mass(), two_mass_gravity{p.m1 * p.gravity, p.m2 * p.gravity},
                            with_sum_constraint{double_pendulum_constraints{p.l1, p.l2}, offset});
}

/// The redundant model against the original over 1000 steps of 1 ms with the same method.
template <class Stepper>
void check_against_the_full_rank_model() {
  const double_spherical_pendulum dsp;
  const redundant_pendulum redundant = redundant_model(dsp);
  state6 x = dsp.initial_state(), y = x;
  Stepper full_rank, minimum_norm;
  minimum_norm.options().rank_tolerance = 1e-10;
  const double h = 1e-3;
  for (int i = 0; i < 1000; ++i) {
    full_rank.do_step(dsp, x, i * h, h);
    minimum_norm.do_step(redundant, y, i * h, h);
  }
  BOOST_TEST((y.first - x.first).norm() <= 1e-9 * x.first.norm());
  BOOST_TEST((y.second - x.second).norm() <= 1e-9 * x.second.norm());
  BOOST_TEST(full_rank.statistics().constraint_rank == 2);
  BOOST_TEST(minimum_norm.statistics().constraint_rank == 2);  // of the 3 constraints
  vector<3> g;
  redundant.constraint(y.first, g);
  BOOST_TEST(g.cwiseAbs().maxCoeff() <= 64 * eps * y.first.squaredNorm());

  // The constraint forces agree: Λ1 + Λ3 and Λ2 + Λ3 are the full-rank model's Λ1 and Λ2; and
  // the multipliers are the minimum-norm ones, orthogonal to the kernel of Gᵀ, (1, 1, −1).
  const auto a = full_rank.template last_multipliers<double_spherical_pendulum>();
  const auto b = minimum_norm.template last_multipliers<redundant_pendulum>();
  for (int i = 0; i < a.cols(); ++i) {
    const double scale = a.col(i).norm();
    BOOST_TEST(std::abs(b(0, i) + b(2, i) - a(0, i)) <= 1e-7 * scale);
    BOOST_TEST(std::abs(b(1, i) + b(2, i) - a(1, i)) <= 1e-7 * scale);
    BOOST_TEST(std::abs(b(0, i) + b(1, i) - b(2, i)) <= 1e-9 * scale);
  }
}

/// |q|² = 0: G = 2qᵀ vanishes where the constraint holds.
struct sphere_through_origin {
  static constexpr int size = 1;
  int count() const { return 1; }
  template <class Q, class O> void value(const Q& q, O& o) const { o(0) = q.squaredNorm(); }
  template <class Q, class G> void jacobian(const Q& q, G& g) const { g.row(0) = 2 * q.transpose(); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(rattle_solves_redundant_constraints_for_the_minimum_norm_multipliers) {
  check_against_the_full_rank_model<rattle<state6>>();
}

BOOST_AUTO_TEST_CASE(lobatto_pairs_solve_redundant_constraints) {
  check_against_the_full_rank_model<lobatto_iiia_iiib<3, state6>>();
}

BOOST_AUTO_TEST_CASE(constrained_symplectic_euler_solves_redundant_constraints) {
  check_against_the_full_rank_model<constrained_symplectic_euler<state6>>();
}

BOOST_AUTO_TEST_CASE(redundant_constraints_without_a_rank_tolerance_are_refused_and_say_how) {
  const double_spherical_pendulum dsp;
  const redundant_pendulum redundant = redundant_model(dsp);
  state6 x = dsp.initial_state();
  rattle<state6> stepper;
  const step_error e = expect_failure(stepper, redundant, x, 0.0, 1e-3);
  BOOST_TEST(e.reason() == failure_reason::singular_constraint_jacobian);
  BOOST_TEST(std::string(e.what()).find("rank_tolerance") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(redundant_inconsistent_constraints_are_rejected_with_the_residual) {
  // g3 = g1 + g2 + 0.5: on g1 = g2 = 0 the third constraint is 0.5, and no q satisfies all three.
  const double_spherical_pendulum dsp;
  const redundant_pendulum inconsistent = redundant_model(dsp, 0.5);
  state6 x = dsp.initial_state();
  rattle<state6> stepper;
  stepper.options().rank_tolerance = 1e-10;
  const step_error e = expect_failure(stepper, inconsistent, x, 0.0, 1e-3);
  BOOST_TEST(e.reason() == failure_reason::inconsistent_initial_state);
  BOOST_TEST(std::string(e.what()).find("position residual") != std::string::npos);
  BOOST_TEST(e.residual() > 1e-3);
}

BOOST_AUTO_TEST_CASE(a_configuration_where_no_constraint_acts_is_refused_even_with_a_rank_tolerance) {
  // At q = 0 the constraint |q|² = 0 holds and G = 0: S = 0 has rank 0.
  const auto sys = make_separable_system(diagonal_mass<3>(vector<3>::Ones()), problems::uniform_gravity_3{9.81},
                                         sphere_through_origin{});
  std::pair<vector<3>, vector<3>> x{vector<3>::Zero(), vector<3>::Zero()};
  rattle<std::pair<vector<3>, vector<3>>> stepper;
  stepper.options().rank_tolerance = 1e-10;
  const step_error e = expect_failure(stepper, sys, x, 0.0, 1e-3);
  BOOST_TEST(e.reason() == failure_reason::singular_constraint_jacobian);
  BOOST_TEST(std::string(e.what()).find("no constraint acts") != std::string::npos);
}
