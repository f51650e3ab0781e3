// The Riemannian leapfrog (Leimkuhler–Patrick 1996) on its spaces — the unit sphere of the
// ellipsoid problem, S² of the spherical pendulum, S² × S² of the relative-coordinate double
// pendulum (on_space: the state is the constrained system's), SO(3) of the heavy top — and
// RATTLE on the same constrained problems for comparison.
#include "cli/constrained_problems.hpp"
#include "cli/method_list.hpp"
#include "cli/riemannian_problems.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/riemannian/riemannian_leapfrog.hpp"

namespace geomint::cli {
namespace {

/// The leapfrog on on_space(system, space) for a constrained problem whose manifold is `space`.
template <class System, class SpaceOf>
runner_factory leapfrog_on_space(SpaceOf space_of) {
  return [space_of](const problem_instance& p) -> std::unique_ptr<runner> {
    const auto& problem = as_problem<System>(p);
    const auto riemannian = on_space(problem.system(), space_of(problem.system()));
    using state = typename System::state_type;
    return std::make_unique<stepper_runner<std::decay_t<decltype(riemannian)>, riemannian_leapfrog<state>>>(
        riemannian, problem.start());
  };
}

const registration methods_riemannian([] {
  using namespace geomint::problems;
  const method_info leapfrog =
      catalogued<riemannian_leapfrog<particle_on_ellipsoid::state_type>>("riemannian_leapfrog_2_1");
  add_method(leapfrog, "particle-on-ellipsoid",
             leapfrog_on_space<particle_on_ellipsoid>([](const particle_on_ellipsoid& s) { return s.space(); }));
  add_method(leapfrog, "double-spherical-pendulum-s2", leapfrog_on_space<double_spherical_pendulum_s2>(
                                                           [](const double_spherical_pendulum_s2& s) { return s.space(); }));
  add_method(leapfrog, "spherical-pendulum", leapfrog_on_space<spherical_pendulum>([](const spherical_pendulum& s) {
               return sphere(s.parameters().length);
             }));
  add_method(leapfrog, "heavy-top-so3", [](const problem_instance& p) -> std::unique_ptr<runner> {
    const auto& problem = dynamic_cast<const heavy_top_so3_problem&>(p);
    using state = heavy_top_so3::state_type;
    return std::make_unique<stepper_runner<heavy_top_so3, riemannian_leapfrog<state>>>(problem.system(), problem.start());
  });

  const method_info rattle_p = catalogued<rattle<particle_on_ellipsoid::state_type>>("constrained_rattle_2_2");
  add_method(rattle_p, "particle-on-ellipsoid", runner_for<rattle<particle_on_ellipsoid::state_type>, particle_on_ellipsoid>());
  add_method(rattle_p, "double-spherical-pendulum-s2",
             runner_for<rattle<double_spherical_pendulum_s2::state_type>, double_spherical_pendulum_s2>());
});

}  // namespace
}  // namespace geomint::cli
