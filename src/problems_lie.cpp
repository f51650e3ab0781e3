// Lie–Poisson problems (Engø–Faltinsen 1999 §6, McLachlan–Scovel 1994 §6), and Boost.Odeint's
// runge_kutta_dopri5 on their plain ODE ẏ = −ad*_{∇H(y)} y (lie_poisson_vector_field) as the
// "what a user does today" reference: it does not stay on the coadjoint orbit.
#include "cli/dopri5_reference.hpp"
#include "cli/hamiltonian_problem.hpp"  // positive()
#include "cli/lie_problems.hpp"

namespace geomint::cli {
namespace {

using namespace geomint::problems;

template <class System>
reference_result solve_dopri5(const problem_instance& instance, const reference_request& req) {
  const auto& problem = as_lie_problem<System>(instance);
  const lie_poisson_vector_field<System> field(problem.system());
  return run_dopri5(field, std::vector<double>(problem.start().data(), problem.start().data() + problem.start().size()), req);
}

const registration problems_lie([] {
  add_problem({"free-rigid-body",
               "free rigid body on so(3)*, y = body angular momentum (Engo-Faltinsen 1999, §6.1 data); Casimir |y|",
               "lie-poisson",
               {{"I1", 7.0 / 8, "principal moment of inertia 1 (dimensionless model)", "1"},
                {"I2", 5.0 / 8, "principal moment of inertia 2", "1"}, {"I3", 1.0 / 4, "principal moment of inertia 3", "1"},
                {"y1", 0.875, "initial body angular momentum 1", "1"}, {"y2", 0.625, "initial body angular momentum 2", "1"},
                {"y3", 0.25, "initial body angular momentum 3", "1"}},
               [](const parameter_values& v) {
                 const free_rigid_body sys(vector<3>(positive(v, "I1"), positive(v, "I2"), positive(v, "I3")));
                 return std::make_unique<lie_poisson_problem<free_rigid_body>>(sys, vector<3>(v["y1"], v["y2"], v["y3"]));
               }, {}});
  add_sections("free-rigid-body", {coordinate_section("default", {"y1", "y2", "y3"}, 1, 1, 0, 2,
                                                      "the body angular momentum crosses y2 = 0 increasing")});
  add_problem({"heavy-top-se3",
               "heavy top on se(3)*, y = (u, v) (Engo-Faltinsen 1999, §6.2 data); Casimirs |v|, u.v", "lie-poisson",
               {{"I1", 7.0 / 8, "principal moment of inertia 1", "kg m^2"},
                {"I2", 7.0 / 8, "principal moment of inertia 2", "kg m^2"},
                {"I3", 2.0 / 8, "principal moment of inertia 3", "kg m^2"}, {"mass", 1.0, "mass M", "kg"},
                {"gravity", 9.81, "gravitational acceleration g", "m/s^2"},
                {"length", std::sqrt(3.0) / 2, "distance l from the fixed point to the centre of mass", "m"},
                {"chi_x", 0, "body direction to the centre of mass, x (the direction is normalized)", "1"},
                {"chi_y", 0, "body direction to the centre of mass, y", "1"},
                {"chi_z", 1, "body direction to the centre of mass, z", "1"},
                {"u1", 0, "initial body angular momentum 1", "kg m^2/s"},
                {"u2", 0, "initial body angular momentum 2", "kg m^2/s"},
                {"u3", 0.25, "initial body angular momentum 3", "kg m^2/s"},
                {"v1", 0, "initial direction of gravity in the body, 1", "1"},
                {"v2", -0.195090, "initial direction of gravity in the body, 2", "1"},
                {"v3", 0.980785, "initial direction of gravity in the body, 3", "1"}},
               [](const parameter_values& v) {
                 heavy_top_se3_parameters p;
                 p.inertia = vector<3>(positive(v, "I1"), positive(v, "I2"), positive(v, "I3"));
                 p.mass = v["mass"];
                 p.gravity = v["gravity"];
                 p.length = v["length"];
                 p.chi = vector<3>(v["chi_x"], v["chi_y"], v["chi_z"]);
                 if (!(p.chi.norm() > 0)) throw usage_error("parameters chi_x, chi_y, chi_z: must be nonzero");
                 p.chi.normalize();
                 vector<6> y;
                 y << v["u1"], v["u2"], v["u3"], v["v1"], v["v2"], v["v3"];
                 return std::make_unique<lie_poisson_problem<heavy_top_se3>>(heavy_top_se3(p), y);
               }, {}});
  add_problem({"rigid-body-so5", "free rigid body on so(5)* (McLachlan-Scovel 1994, §6.1); Casimirs of so(5)",
               "lie-poisson", {},
               [](const parameter_values&) {
                 return std::make_unique<lie_poisson_problem<rigid_body_so5>>(rigid_body_so5(), rigid_body_so5::initial_state());
               }, {}});
  add_problem({"sine-euler-su3",
               "Zeitlin's su(3) truncation of 2D ideal flow (Engo-Faltinsen 1999, §6.3), random vorticity; Casimirs "
               "tr(W^k)/3",
               "lie-poisson", {{"seed", 1999, "seed of the random initial vorticity (a whole number)", "1", true}},
               [](const parameter_values& v) {
                 if (v["seed"] < 0 || v["seed"] > 4294967295.0) throw usage_error("parameter seed: must be in 0 ... 2^32 - 1");
                 return std::make_unique<lie_poisson_problem<sine_euler_su3>>(
                     sine_euler_su3(), sine_euler_su3::random_initial_state(static_cast<unsigned>(v["seed"])));
               }, {}});
  for_each_lie_problem([](auto tag, const char* name) {
    add_reference("odeint_dopri5", odeint_dopri5_description, name, solve_dopri5<typename decltype(tag)::type>);
  });
});

}  // namespace
}  // namespace geomint::cli
