// Problems of the Riemannian family: spaces the leapfrog of Leimkuhler–Patrick 1996 moves on.
#include "cli/riemannian_problems.hpp"

namespace geomint::cli {
namespace {

using namespace geomint::problems;

const registration problems_riemannian([] {
  add_problem({"particle-on-ellipsoid",
               "a particle on the ellipsoid sum y_i^2/a_i^2 = 1 with V = mu y3, in x = y/a on the unit sphere "
               "(Leimkuhler-Patrick 1996, §2); the axial momentum is conserved when a1 = a2",
               "riemannian",
               {{"mass", 1.0, "mass (dimensionless model)", "1"}, {"a1", 1.0, "semi-axis 1", "1"},
                {"a2", 1.0, "semi-axis 2", "1"}, {"a3", 0.6, "semi-axis 3", "1"},
                {"mu", 1.0, "potential V = mu y3", "1"}, {"theta", 2.0, "initial polar angle of x on the unit sphere", "rad"},
                {"omega_azimuthal", 1.3, "initial azimuthal rate of x", "rad/time"},
                {"omega_polar", 0.4, "initial polar rate of x", "rad/time"}},
               [](const parameter_values& v) {
                 particle_on_ellipsoid_parameters p;
                 p.mass = positive(v, "mass");
                 p.a1 = positive(v, "a1");
                 p.a2 = positive(v, "a2");
                 p.a3 = positive(v, "a3");
                 p.mu = v["mu"];
                 const particle_on_ellipsoid sys(p);
                 using problem = hamiltonian_problem<particle_on_ellipsoid>;
                 std::vector<problem::named_map> momenta;
                 if (p.a1 == p.a2) momenta.push_back({"Lz", vertical_angular_momentum});
                 return std::make_unique<problem>(
                     sys, sys.initial_state(v["theta"], v["omega_azimuthal"], v["omega_polar"]), momenta);
               }, {}});
  add_sections("particle-on-ellipsoid",
               {coordinate_section("default", {"q1", "q2", "q3", "p1", "p2", "p3"}, 0, 1, 2, 5,
                                   "x crosses the plane x1 = 0 toward +x1")});

  add_problem({"double-spherical-pendulum-s2",
               "the double spherical pendulum in relative coordinates on S^2 x S^2 (dense constant mass); same data "
               "as double-spherical-pendulum; Lz conserved",
               "riemannian",
               {{"m1", 2.0, "mass 1", "kg"}, {"m2", 3.5, "mass 2", "kg"}, {"l1", 4.0, "rod 1 (pivot to mass 1)", "m"},
                {"l2", 3.0, "rod 2 (mass 1 to mass 2)", "m"}, {"gravity", 9.81, "gravitational acceleration", "m/s^2"}},
               [](const parameter_values& v) {
                 const double_spherical_pendulum_parameters p = double_pendulum_parameters(v);
                 const double_spherical_pendulum_s2 sys(p);
                 using problem = hamiltonian_problem<double_spherical_pendulum_s2>;
                 return std::make_unique<problem>(sys, sys.initial_state(),
                                                  std::vector<problem::named_map>{{"Lz", vertical_angular_momentum}});
               }, {}});

  add_problem({"heavy-top-so3",
               "the heavy top on SO(3) with its bi-invariant metric (Leimkuhler-Patrick 1996, §5.2); k.(q Pi) is "
               "conserved",
               "riemannian",
               {{"I1", 1.0, "principal moment of inertia 1 (dimensionless model)", "1"},
                {"I2", 2.0, "principal moment of inertia 2", "1"}, {"I3", 3.0, "principal moment of inertia 3", "1"},
                {"c", 1.0, "m g l: mass x gravity x distance to the centre of mass", "1"},
                {"chi_x", 0.0, "body vector to the centre of mass, x", "1"},
                {"chi_y", 0.0, "body vector to the centre of mass, y", "1"},
                {"chi_z", 1.0, "body vector to the centre of mass, z", "1"},
                {"tilt", 0.7, "initial tilt about the spatial x axis", "rad"},
                {"omega1", 0.3, "initial body angular velocity 1", "rad/time"},
                {"omega2", -0.2, "initial body angular velocity 2", "rad/time"},
                {"omega3", 4.0, "initial body angular velocity 3", "rad/time"}},
               [](const parameter_values& v) {
                 heavy_top_so3_parameters p;
                 p.i1 = positive(v, "I1");
                 p.i2 = positive(v, "I2");
                 p.i3 = positive(v, "I3");
                 p.c = v["c"];
                 p.chi_x = v["chi_x"];
                 p.chi_y = v["chi_y"];
                 p.chi_z = v["chi_z"];
                 if (!(vector<3>(p.chi_x, p.chi_y, p.chi_z).norm() > 0))
                   throw usage_error("parameters chi_x, chi_y, chi_z: the centre-of-mass direction must be nonzero");
                 const heavy_top_so3 sys(p);
                 return std::make_unique<heavy_top_so3_problem>(
                     sys, sys.initial_state(v["tilt"], vector<3>(v["omega1"], v["omega2"], v["omega3"])));
               }, {}});
});

}  // namespace
}  // namespace geomint::cli
