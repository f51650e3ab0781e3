// Options of the Lie–Poisson steppers: the solvers', with the Newton and fixed-point tolerance at
// one ulp (lie_newton_defaults), and for RKMK the choice of stage solver and the fixed-point
// iteration's acceleration. consistency_tolerance
// is not used: every y ∈ g* lies on its coadjoint orbit.
#pragma once

#include <limits>

#include "geomint/solvers/fixed_point.hpp"
#include "geomint/solvers/solver_options.hpp"

namespace geomint {

/// The core defaults with the tolerance at one ulp. The driver also stops when a slowly
/// contracting iteration stalls below stall_factor × tolerance (newton.hpp); with the core's
/// 10 ε that can leave σ wrong by 2e-13 relative, which a discrete-gradient method turns into
/// an energy drift (Engø–Faltinsen §5.3).
inline newton_options lie_newton_defaults() {
  newton_options o;
  o.tolerance = std::numeric_limits<double>::epsilon();
  return o;
}

/// How the stage equations of implicit RKMK tableaux are solved.
enum class lie_stage_solver {
  automatic,    ///< newton up to s·d = fixed_point_threshold unknowns, fixed_point above
  newton,       ///< simplified Newton with the frozen (s·d)² matrix 1 − h A ⊗ J₀
  fixed_point,  ///< K ← F(K), matrix-free; converges for small h
};

struct lie_options : solver_options {
  lie_options() { newton = lie_newton_defaults(); }
  lie_stage_solver stage_solver = lie_stage_solver::automatic;
  /// Fixed-point stage iterations (lie_stage_solver::fixed_point, isospectral_midpoint):
  /// Anderson acceleration of depth anderson_depth (solvers/fixed_point.hpp); 0 = plain iteration.
  fixed_point_acceleration acceleration;
  static constexpr int fixed_point_threshold = 1000;
};

}  // namespace geomint
