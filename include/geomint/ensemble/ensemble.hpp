// Ensembles: M trajectories of one system type with one stepper type, each from its own
// parameters and initial state, on threads (threads.hpp) or MPI ranks (mpi.hpp).
//
//   auto member_of = [&](std::uint64_t i) { return member<System, State>{system_i, x0_i}; };
//   auto observer_for = [](std::uint64_t, const System& s) { return constrained_invariants(s); };
//   run_result r = geomint::ensemble::run(geomint::rattle<State>(), M, member_of,
//                                         time_grid{0, 0.01, 1000, 10}, observer_for, execution{4});
//
// Trajectory i runs a copy of the prototype stepper (a copy starts afresh: no shared caches) on
// member_of(i)'s system from its initial state over the grid (trajectory.hpp's integrate), its
// observer observer_for(i, system) writing the record's error summary. member_of(i) comes from a
// generator, a vector (from_vector) or a CSV file (table.hpp, then a lambda reading row i).
// Events and section points: run_with_events (ensemble/events.hpp).
//
// member_of and observer_for are called on the worker threads, concurrently: they must build
// trajectory i from i alone, reading shared data but writing none. Then every record depends on
// its index only, and the results are identical bit for bit for any number of threads or ranks.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "geomint/ensemble/random.hpp"
#include "geomint/ensemble/record.hpp"
#include "geomint/ensemble/threads.hpp"
#include "geomint/ensemble/trajectory.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint::ensemble {

namespace detail {
inline void check_grid(const time_grid& grid) {
  if (!(grid.dt != 0 && std::isfinite(grid.dt)) || !std::isfinite(grid.t0) || grid.steps < 0 || grid.every < 1)
    throw std::invalid_argument("geomint::ensemble::run: the grid needs a finite dt != 0, steps >= 0 and every >= 1");
}

template <class S, class = void>
struct has_linear_solver_option : std::false_type {};
template <class S>
struct has_linear_solver_option<S, std::void_t<decltype(std::declval<const S&>().options().linear_solver)>>
    : std::true_type {};

/// The trajectories' copies of the prototype must not factorize into one external solver from
/// several threads (constrained_options::linear_solver is not owned: copies share it).
template <class Stepper, class Execution>
void require_unshared_solver(const Stepper& prototype, const Execution& exec) {
  if constexpr (has_linear_solver_option<Stepper>::value) {
    if (exec.threads > 1 && prototype.options().linear_solver != nullptr)
      throw std::invalid_argument(
          "geomint::ensemble: the stepper's options().linear_solver is one object, and the trajectories' "
          "copies of the stepper would factorize into it from several threads at once; give "
          "constrained_options::linear_solver_factory instead (each copy makes its own), or run on one thread");
  }
}
}  // namespace detail

/// One trajectory's data: its system (parameters) and initial state.
template <class System, class State>
struct member {
  System system;
  State initial;
};

/// member_of for members held in a vector (which must outlive the run).
template <class System, class State>
auto from_vector(const std::vector<member<System, State>>& members) {
  return [&members](std::uint64_t i) -> const member<System, State>& { return members.at(static_cast<std::size_t>(i)); };
}

/// The observer of a constrained Hamiltonian system (system/constrained_system.hpp) for
/// states (q, p): max_error and final_error of the energy (relative), then, if it has
/// constraints, of the scaled residuals of g(q) = 0 and G(q) ∂H/∂p = 0 (system/consistency.hpp).
template <class System>
auto constrained_invariants(const System& system) {
  const bool constrained = system.constraint_count() > 0;
  std::vector<bool> conserved{true};
  if (constrained) conserved.insert(conserved.end(), {false, false});
  return make_invariant_observer(std::move(conserved), [&system, constrained](const auto& x, std::vector<double>& out) {
    out.assign(1, system.hamiltonian(x.first, x.second));
    if (constrained) {
      const constraint_residuals r = constraint_residuals_of(system, x.first, x.second);
      out.push_back(r.position);
      out.push_back(r.velocity);
    }
  });
}

/// Runs `count` trajectories (see the top of this file) with `exec`: an `execution` (threads of
/// this process) or an `mpi_execution` (mpi.hpp; collective, records on rank 0). A hook
/// (trajectory.hpp) from hook_for(i), if given, sees every step of trajectory i.
template <class Stepper, class MemberOf, class ObserverFor, class Execution = execution, class HookFor = void*>
run_result run(const Stepper& prototype, std::uint64_t count, MemberOf member_of, const time_grid& grid,
               ObserverFor observer_for, const Execution& exec = {}, HookFor hook_for = nullptr) {
  detail::check_grid(grid);
  detail::require_unshared_solver(prototype, exec);
  trajectory_work work = [&](std::uint64_t i, trajectory_record& record, const std::atomic<bool>& stop) {
    decltype(auto) m = member_of(i);
    using system_type = std::decay_t<decltype(m.system)>;
    using state_type = std::decay_t<decltype(m.initial)>;
    stepper_trajectory<Stepper, system_type, state_type> trajectory(prototype, m.system, m.initial);
    auto observer = observer_for(i, m.system);
    if constexpr (std::is_same_v<HookFor, void*>) {
      integrate(trajectory, grid, observer, record, stop);
    } else {
      auto hook = hook_for(i);
      integrate(trajectory, grid, observer, record, stop, hook);
    }
  };
  return run_indexed(count, work, exec);
}

}  // namespace geomint::ensemble
