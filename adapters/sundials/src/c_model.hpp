// The C API's systems and steppers behind virtual interfaces: one c_model per system kind
// (general H, separable with dense G, separable with sparse G), one c_stepper per method
// (constrained PRK, Reich symmetric, variational midpoint, SHAKE).
#pragma once

#include <memory>

#include "c_system.hpp"
#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/sundials/ida_reference.hpp"

namespace geomint::sundials::detail {

/// A method on a system. step() advances (q, p) in place and throws on failure (leaving them).
/// The C API's settings are constrained_options; each family maps them onto its own options
/// (the stage-solve tolerance and iteration limit are newton_options everywhere) and its
/// counters onto constrained_statistics (steps, Newton solves/iterations/Jacobian updates).
class c_stepper {
 public:
  virtual ~c_stepper() = default;
  virtual void step(double t, double dt, double* q, double* p) = 0;
  /// Takes the settings; linear_solver is only used when uses_linear_solver().
  virtual void configure(const constrained_options& options) = 0;
  virtual constrained_statistics statistics() const = 0;
  /// Whether the stage Newton systems go through constrained_options::linear_solver (PRK only).
  virtual bool uses_linear_solver() const = 0;
  /// Stages of the PRK tableau (meaningful when uses_linear_solver()).
  virtual int stages() const = 0;
  virtual void reset() = 0;  ///< forget cached factorizations and multipliers
};

/// The C module's dense output (GeomintGetDky, root finding): the continuous extension of the
/// last step (dense_output.hpp: Hermite with the exact vector field at both ends, quintic for
/// methods of order ≥ 4). Arrays of length n.
class c_interpolant {
 public:
  virtual ~c_interpolant() = default;
  virtual void begin_step(double t0, const double* q0, const double* p0, double t1, const double* q1,
                          const double* p1) = 0;
  /// k = 0: (q, p) at t; k = 1: (dq/dt, dp/dt) of the interpolant.
  virtual void evaluate(double t, int k, double* q, double* p) = 0;
};

/// The system built from a c_problem.
class c_model {
 public:
  virtual ~c_model() = default;
  /// nullptr if the method id is not one of this family's; throws std::invalid_argument when the
  /// method does not apply to this system kind (e.g. SHAKE on a non-separable H).
  virtual std::unique_ptr<c_stepper> make_stepper(int method) const = 0;
  // Diagnostics at time t (the callbacks' time argument) and state (q, p), each of length n.
  virtual constraint_residuals residuals(double t, const double* q, const double* p) const = 0;
  virtual double energy(double t, const double* q, const double* p) const = 0;
  /// λ and μ (length m) of the GGL form consistent with (q, p) (geomint_sundials.h,
  /// GeomintGetCurrentMultipliers). Throws step_error if (q, p) is off the manifold.
  virtual void multipliers(double t, const double* q, const double* p, double* lambda, double* mu) const = 0;
  /// project_to_manifold on (q, p) in place: positions and momenta, or (momenta_only) the momenta
  /// with q kept. Throws step_error, leaving (q, p), if the projection fails.
  virtual void project(double t, double* q, double* p, bool momenta_only, int max_iterations) const = 0;
  virtual ida_result solve_ida(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                               const ida_options& options) const = 0;
  virtual bool separable() const = 0;
  /// The continuous extension for a method of the given order on this system.
  virtual std::unique_ptr<c_interpolant> make_interpolant(int order) const = 0;
};

/// Chooses the system kind from the problem (mass given: separable; G sparse or dense; force).
std::unique_ptr<c_model> make_c_model(const c_problem& problem);
std::unique_ptr<c_model> make_general_model(const c_problem& problem);
std::unique_ptr<c_model> make_separable_dense_model(const c_problem& problem);
std::unique_ptr<c_model> make_separable_sparse_model(const c_problem& problem);
/// Any kind with a force (c_model_forced.cpp); std::invalid_argument for f(t, q, p) with sparse G.
std::unique_ptr<c_model> make_forced_model(const c_problem& problem);

/// The method table of the C API (geomint_sundials.h, GeomintMethodID): each id and what its
/// catalogue row (geomint/catalogue.hpp) says of it.
struct method_info {
  int id;
  const char* name;  ///< family_name_order_stages
  int order, stages;
  bool lie;  ///< a GeomintLie* method (y ∈ g*), not a Geomint* one
};
const method_info* find_method(int id);

}  // namespace geomint::sundials::detail
