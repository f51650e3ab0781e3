// Problems of the constrained family (include/geomint/problems/): their parameters, initial
// data and momentum maps, for every method registered on them.
#include <cmath>
#include <cstdio>
#include <string>

#include "cli/hamiltonian_problem.hpp"
#include "cli/constrained_problems.hpp"

namespace geomint::cli {
namespace {

using namespace geomint::problems;

const registration problems_constrained([] {
  add_problem({"double-spherical-pendulum",
               "two point masses on rigid rods in 3D, absolute coordinates (Marsden-Wendlandt 1997, §7 data); "
               "n = 6, m = 2; Lz conserved",
               "constrained",
               {{"m1", 2.0, "mass 1", "kg"}, {"m2", 3.5, "mass 2", "kg"}, {"l1", 4.0, "rod 1 (pivot to mass 1)", "m"},
                {"l2", 3.0, "rod 2 (mass 1 to mass 2)", "m"}, {"gravity", 9.81, "gravitational acceleration", "m/s^2"},
                {"x1", 2.820, "initial x of mass 1 (z below the pivot follows from l1)", "m"},
                {"y1", 0.025, "initial y of mass 1", "m"},
                {"x2", 5.085, "initial x of mass 2 (z follows from l2)", "m"}, {"y2", 0.105, "initial y of mass 2", "m"},
                {"vx1", 3.381, "initial x velocity of mass 1", "m/s"}, {"vy1", 2.506, "initial y velocity of mass 1", "m/s"},
                {"vx2", 2.497, "initial x velocity of mass 2", "m/s"}, {"vy2", 10.495, "initial y velocity of mass 2", "m/s"}},
               [](const parameter_values& v) {
                 const double_spherical_pendulum_parameters p = double_pendulum_parameters(v);
                 const double_spherical_pendulum sys(p);
                 auto x0 = sys.state_from(v["x1"], v["y1"], v["x2"], v["y2"], v["vx1"], v["vy1"], v["vx2"], v["vy2"]);
                 return std::make_unique<hamiltonian_problem<double_spherical_pendulum>>(sys, x0,
                     std::vector<hamiltonian_problem<double_spherical_pendulum>::named_map>{{"Lz", vertical_angular_momentum}});
               }, {}});

  add_problem({"spherical-pendulum", "a point mass on a rod about a fixed pivot; n = 3, m = 1; Lz conserved",
               "constrained",
               {{"mass", 1.0, "mass", "kg"}, {"length", 1.0, "rod length", "m"},
                {"gravity", 9.81, "gravitational acceleration", "m/s^2"},
                {"theta", 1.0, "initial polar angle from the downward vertical", "rad"},
                {"omega", 2.0, "initial azimuthal angular velocity", "rad/s"}},
               [](const parameter_values& v) {
                 spherical_pendulum_parameters p;
                 p.mass = positive(v, "mass");
                 p.length = positive(v, "length");
                 p.gravity = v["gravity"];
                 const spherical_pendulum sys(p);
                 return std::make_unique<hamiltonian_problem<spherical_pendulum>>(
                     sys, sys.initial_state(v["theta"], v["omega"]),
                     std::vector<hamiltonian_problem<spherical_pendulum>::named_map>{{"Lz", vertical_angular_momentum}});
               }, {}});

  add_problem({"pendulum-chain",
               "N-link 3D chain of point masses on rigid rods (sparse G, tridiagonal G M^-1 G^T); n = 3N, m = N; "
               "Lz conserved",
               "constrained",
               {{"links", 10, "number of links N (a whole number)", "1", true}, {"mass", 1.0, "mass per particle", "kg"},
                {"length", 1.0, "length of each rod", "m"}, {"gravity", 9.81, "gravitational acceleration", "m/s^2"}},
               [](const parameter_values& v) {
                 pendulum_chain_parameters p;
                 const double links = v["links"];
                 if (links < 1 || links > 1e6) throw usage_error("parameter links: must be in 1 ... 1000000");
                 p.links = static_cast<int>(links);
                 p.mass = positive(v, "mass");
                 p.length = positive(v, "length");
                 p.gravity = v["gravity"];
                 const pendulum_chain sys(p);
                 return std::make_unique<hamiltonian_problem<pendulum_chain>>(
                     sys, sys.initial_state(), std::vector<hamiltonian_problem<pendulum_chain>::named_map>{{"Lz", vertical_angular_momentum}});
               }, {}});

  add_problem({"variable-mass-sphere",
               "a particle on a sphere with position-dependent inertia: non-separable H(q, p); n = 3, m = 1",
               "constrained",
               {{"radius", 1.0, "sphere radius (dimensionless model)", "1"}, {"gravity", 1.0, "gamma in V = gamma q3", "1"},
                {"a1", 0.5, "inertia coefficient: mu1(q) = 1 + a1 q1^2", "1"},
                {"a2", 1.5, "inertia coefficient: mu2(q) = 1 + a2 q2^2", "1"},
                {"a3", 0.8, "inertia coefficient: mu3(q) = 1 + a3 q3^2", "1"}},
               [](const parameter_values& v) {
                 variable_mass_sphere_parameters p;
                 p.radius = positive(v, "radius");
                 p.gravity = v["gravity"];
                 p.a1 = v["a1"];
                 p.a2 = v["a2"];
                 p.a3 = v["a3"];
                 if (p.a1 < 0 || p.a2 < 0 || p.a3 < 0) throw usage_error("parameters a1, a2, a3: must be >= 0");
                 const variable_mass_sphere sys(p);
                 return std::make_unique<hamiltonian_problem<variable_mass_sphere>>(sys, sys.initial_state());
               }, {}});

  add_problem({"heavy-top",
               "heavy top in quaternions, |e| = 1 (Hairer 2003, §5 data): general H(q, p); n = 4, m = 1; the "
               "vertical spatial angular momentum is conserved",
               "constrained",
               {{"I1", 0.5, "principal moment of inertia 1 (dimensionless model)", "1"},
                {"I2", 0.9, "principal moment of inertia 2", "1"}, {"I3", 1.0, "principal moment of inertia 3", "1"},
                {"gravity", 1.0, "gamma in V = gamma Q33(e)", "1"},
                {"e0", 0.4, "initial orientation quaternion, scalar part; |e| = 1 is required", "1"},
                {"e1", 0.2, "initial orientation quaternion, vector part 1", "1"},
                {"e2", 0.4, "initial orientation quaternion, vector part 2", "1"},
                {"e3", 0.8, "initial orientation quaternion, vector part 3", "1"},
                {"omega1", 0.2, "initial body angular velocity 1", "1"}, {"omega2", 1.0, "initial body angular velocity 2", "1"},
                {"omega3", 0.4, "initial body angular velocity 3", "1"}},
               [](const parameter_values& v) {
                 heavy_top_parameters p;
                 p.inertia = vector<3>(positive(v, "I1"), positive(v, "I2"), positive(v, "I3"));
                 p.gravity = v["gravity"];
                 // The orientation is initial data on the constraint |e| = 1: like every initial
                 // state off the manifold it is rejected, not projected (the message gives the
                 // normalized values to pass instead).
                 const vector<4> e(v["e0"], v["e1"], v["e2"], v["e3"]);
                 if (!(std::fabs(e.squaredNorm() - 1) <= 1e-10)) {
                   std::string fix;  // full precision, so that it passes the 1e-10 test
                   char digits[32];
                   if (e.norm() > 0)
                     for (int i = 0; i < 4; ++i) {
                       std::snprintf(digits, sizeof digits, "%.17g", e(i) / e.norm());
                       fix += " --set e" + std::to_string(i) + "=" + digits;
                     }
                   throw usage_error("parameters e0..e3: the orientation quaternion must have |e| = 1 (initial data off the "
                                     "constraint manifold are rejected), got |e| = " + format_number(e.norm()) +
                                     (fix.empty() ? "" : "; normalized:" + fix));
                 }
                 p.orientation = e;
                 p.body_angular_velocity = vector<3>(v["omega1"], v["omega2"], v["omega3"]);
                 const heavy_top sys(p);
                 // Rotations about the spatial vertical, e ↦ r ⋆ e, leave H invariant; their momentum
                 // map ½ pᵀ(k ⋆ e), k = (0, 0, 0, 1), is k·(Q(e)Π) on the manifold (bilinear: RATTLE
                 // and the Lobatto pairs keep it to round-off).
                 auto spatial_lz = [](const Eigen::VectorXd& q, const Eigen::VectorXd& mom) {
                   return 0.5 * vector<4>(mom).dot(quaternion_multiply(vector<4>(0, 0, 0, 1), vector<4>(q)));
                 };
                 return std::make_unique<hamiltonian_problem<heavy_top>>(
                     sys, sys.initial_state(), std::vector<hamiltonian_problem<heavy_top>::named_map>{{"Lz_spatial", spatial_lz}});
               }, {}});

  // Poincaré sections (geomint run ... --section NAME), on the packed states (q, p).
  const auto qp = [](int n) {
    std::vector<std::string> names;
    for (int i = 1; i <= n; ++i) names.push_back("q" + std::to_string(i));
    for (int i = 1; i <= n; ++i) names.push_back("p" + std::to_string(i));
    return names;
  };
  add_sections("double-spherical-pendulum",
               {coordinate_section("default", qp(6), 1, 1, 0, 3, "mass 1 crosses the vertical xz plane toward +y"),
                coordinate_section("mass2", qp(6), 4, 1, 3, 9, "mass 2 crosses the vertical xz plane toward +y")});
  add_sections("spherical-pendulum",
               {coordinate_section("default", qp(3), 1, 1, 0, 3, "the mass crosses the vertical xz plane toward +y")});
  add_sections("heavy-top",
               {coordinate_section("default", qp(4), 1, 1, 2, 3, "quaternion component e1 passes 0 increasing")});
});

}  // namespace
}  // namespace geomint::cli
