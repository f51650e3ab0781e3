// IDA reference solutions of a constrained Hamiltonian system (constrained_system.hpp), built
// from the same system object the steppers use: no residual is written per problem.
//
// Two index-reduced formulations F(t, y, ẏ) = 0 are handed to SUNDIALS IDA:
//
//   ggl     stabilized index 2 (Gear–Gupta–Leimkuhler), y = (q, p, λ, μ):
//             q̇ = ∂H/∂p − G(q)ᵀμ,   ṗ = −∂H/∂q − G(q)ᵀλ (+ f),   0 = g(q),   0 = G(q) ∂H/∂p.
//           g and the hidden constraint hold to the tolerance at all times; μ vanishes on
//           exact solutions.
//   index1  y = (q, p, λ) with the acceleration-level constraint 0 = d/dt [G(q) ∂H/∂p(q, p)]
//           (Hairer 2003, (2.5) differentiated once more). λ is then index 1, but nothing holds
//           g = 0 itself: the positions drift off the manifold. Kept for comparisons.
//
// λ and μ are algebraic variables (IDASetId). They are excluded from IDA's error test
// (IDASetSuppressAlg) and, by a loose absolute tolerance, from its Newton convergence test:
// at index 2 their Newton corrections carry round-off amplified by 1/h², and weighted like q
// and p they make IDA's first step fail at tight tolerances (at rtol ≤ 1e-10 on the double
// spherical pendulum, repeated convergence failures at t ≈ 1e-12). The consistent initial
// values λ(t0), μ(t0) = 0 are computed here, not by IDACalcIC (which cannot handle index 2). The time derivative of the hidden constraint, the curvature terms of the
// Jacobian (Σ λ_k ∇²g_k and ∂(G v)/∂q) are central differences of G(q) along fixed directions,
// exact to round-off for the quadratic constraints of mechanical systems. The Jacobian handed
// to IDA is assembled from the structure of G (dense, band or, with KLU, a sparse pattern);
// for a sparse G (long chains) ∂²V/∂q² is left out of it, as in the steppers' separable path.
//
// IDA failures are reported in the result with IDA's flag name (IDAGetReturnFlagName) and the
// samples reached so far; nothing aborts. Input errors (sizes, an initial state off the
// constraint manifold) throw, as everywhere in geomint.
#pragma once

#include <string>
#include <vector>

#include "geomint/core/step_checks.hpp"
#include "geomint/sundials/detail/constrained_dae.hpp"

namespace geomint::sundials {

enum class dae_formulation {
  ggl,     ///< stabilized index 2 (Gear–Gupta–Leimkuhler): the reference
  index1,  ///< acceleration-level constraint: drifts off g = 0
};

enum class ida_linear_solver {
  dense,  ///< SUNDenseMatrix + SUNLinSol_Dense
  band,   ///< SUNBandMatrix + SUNLinSol_Band, unknowns interleaved so that G's band carries over
  klu,    ///< SUNSparseMatrix (CSC) + SUNLinSol_KLU, pattern from the structure of G
};

struct ida_options {
  dae_formulation formulation = dae_formulation::ggl;
  ida_linear_solver linear_solver = ida_linear_solver::dense;
  double rtol = 1e-8;
  double atol = 1e-8;  ///< for q and p
  /// Absolute tolerance of the multipliers λ, μ; 0: 1e3·max(1, ‖λ(t0)‖∞), which keeps them out
  /// of IDA's Newton convergence test (see above). atol gives IDA's uniform weighting, whose
  /// first step fails at tight tolerances.
  double multiplier_atol = 0;
  /// Times at which samples are taken (increasing, after t0). Required.
  std::vector<double> output_times;
  long max_steps = 1000000;  ///< per output interval (IDASetMaxNumSteps)
  /// First step (IDASetInitStep); 0: IDA's own estimate.
  double initial_step = 0;
};

struct ida_sample {
  double t = 0;
  Eigen::VectorXd q, p;
  Eigen::VectorXd lambda;  ///< λ (the constraint forces)
};

/// IDA's counters and sizes (IDAGet*) at the end of the run: all that IDAPrintAllStats reports.
struct ida_statistics {
  long steps = 0;
  long residual_evaluations = 0;
  long jacobian_evaluations = 0;
  long linear_setups = 0;
  long nonlinear_iterations = 0;
  long error_test_failures = 0;
  long convergence_failures = 0;
  long step_solve_failures = 0;           ///< IDAGetNumStepSolveFails
  long backtrack_operations = 0;          ///< IDAGetNumBacktrackOps (IDACalcIC, not used here)
  long linear_residual_evaluations = 0;   ///< IDAGetNumLinResEvals
  long preconditioner_evaluations = 0;    ///< IDAGetNumPrecEvals
  long preconditioner_solves = 0;         ///< IDAGetNumPrecSolves
  long linear_iterations = 0;             ///< IDAGetNumLinIters
  long linear_convergence_failures = 0;   ///< IDAGetNumLinConvFails
  long jacobian_times_setups = 0;         ///< IDAGetNumJTSetupEvals
  long jacobian_times_evaluations = 0;    ///< IDAGetNumJtimesEvals
  long root_evaluations = 0;              ///< IDAGetNumGEvals
  int last_order = 0, current_order = 0;  ///< IDAGetLastOrder, IDAGetCurrentOrder
  double initial_step = 0;                ///< IDAGetActualInitStep
  double last_step = 0;                   ///< IDAGetLastStep
  double current_step = 0;                ///< IDAGetCurrentStep
  double current_time = 0;                ///< IDAGetCurrentTime
};

struct ida_result {
  std::vector<ida_sample> samples;  ///< one per output time reached
  ida_statistics statistics;
  double cpu_seconds = 0;  ///< process CPU time of setup and integration
  int flag = 0;            ///< IDA's last return flag (0 = IDA_SUCCESS)
  std::string flag_name;   ///< IDAGetReturnFlagName(flag), e.g. "IDA_CONV_FAIL"
  std::string message;     ///< IDA's (or the model's) error message on failure
  std::string all_stats;   ///< IDAPrintAllStats' table for the run (empty if IDA was not set up)
  bool ok() const { return flag >= 0; }
};

namespace detail {
/// Runs IDA on a DAE model (compiled part of the adapter).
ida_result run_ida(dae_model& model, double t0, const ida_options& options);
}  // namespace detail

/// Integrates (q0, p0) from t0 through options.output_times with IDA. System: the constrained
/// system concept; Q, P: Eigen vectors or anything geomint::view accepts.
template <class System, class Q, class P>
ida_result solve_ida(const System& system, const Q& q0, const P& p0, double t0, const ida_options& options) {
  const auto& sys = unwrap_system(system);
  require_size(q0, sys.position_count(), "the position vector q");
  require_size(p0, sys.position_count(), "the momentum vector p");
  detail::constrained_dae<std::decay_t<decltype(sys)>> model(sys, options.formulation == dae_formulation::ggl,
                                                             Eigen::VectorXd(view(q0)), Eigen::VectorXd(view(p0)), t0);
  return detail::run_ida(model, t0, options);
}

/// IDA's name for one of its return flags ("IDA_SUCCESS", "IDA_CONV_FAIL", …).
std::string ida_flag_name(int flag);

}  // namespace geomint::sundials
