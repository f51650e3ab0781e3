// Options and statistics of the constrained family (constrained_prk and the methods built on it).
#pragma once

#include <functional>
#include <memory>

#include "geomint/solvers/linear_solvers.hpp"
#include "geomint/solvers/solver_options.hpp"

namespace geomint {

struct constrained_options : solver_options {
  /// Optional factorization of the stage Newton systems (null: Eigen's; not owned, not shared
  /// between steppers). Systems on the separable fast path (separable H, no force or a position
  /// force) hand it S = G M⁻¹ Gᵀ (m × m, sparse when G is), which carries both the stage
  /// iteration and the momentum projection; other systems (general H, or a velocity-dependent
  /// force) hand it the stage Jacobian (dense, stage_system_size() square). The rare full-Newton
  /// fallback of the separable path and the m × m hidden-constraint iteration of general H keep
  /// Eigen's LU.
  ///
  /// A copy of the stepper (an ensemble's per trajectory, dense output's for its derivatives)
  /// would factorize into the same object: ensembles refuse it on more than one thread. For
  /// steppers that are copied, give a linear_solver_factory instead.
  external_linear_solver* linear_solver = nullptr;
  /// Makes the external solver of each stepper copy (its first fresh start with a system calls
  /// it; copies never share what it made). Used when linear_solver is null.
  std::function<std::unique_ptr<external_linear_solver>()> linear_solver_factory;
  /// Redundant constraints (dense G, separable H; RATTLE, Lobatto, symplectic Euler): 0 (the
  /// default) refuses a singular G M⁻¹ Gᵀ with singular_constraint_jacobian; a positive value
  /// factorizes it by a complete orthogonal decomposition that takes pivots below
  /// rank_tolerance × the largest as zero and solves for the minimum-norm multipliers. 1e-10
  /// suits constraints redundant everywhere (Bricard's mechanism, a constraint given twice); a
  /// configuration where G only momentarily loses rank is better refused (docs/constrained.md).
  double rank_tolerance = 0;
};

struct constrained_statistics : solver_statistics {
  /// Steps whose stages the general (non-separable) solver solved.
  long general_solver_steps = 0;
  /// Driven constraints g(q, t) = 0: the work their forces did on the system over the steps
  /// taken, Σ h Σ_i b_i ∂g/∂t(Q_i, t_i)·Λ_i (the trapezoidal rule of ∫ ∂g/∂t·λ dt for RATTLE).
  /// With H independent of t, H(t) − H(t0) − driving_work is the extended phase space's energy
  /// error: bounded, without drift, O(h^p) (docs/constrained.md).
  double driving_work = 0;
  /// The rank of G M⁻¹ Gᵀ at the last factorization (separable H): the constraint count m, or
  /// less when redundant constraints were solved (constrained_options::rank_tolerance).
  int constraint_rank = 0;
};

/// Order of the stage Newton matrix that constrained_options::linear_solver receives;
/// fast_path: the system takes the separable fast path (separable H, no velocity-dependent force).
inline int stage_system_size(int stages, int n, int m, bool fast_path) {
  return fast_path ? m : stages * n + (stages - 1) * (n + m);
}

}  // namespace geomint
