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

/// The system built from a c_problem.
class c_model {
 public:
  virtual ~c_model() = default;
  /// nullptr if the method id is not one of this family's; throws std::invalid_argument when the
  /// method does not apply to this system kind (e.g. SHAKE on a non-separable H).
  virtual std::unique_ptr<c_stepper> make_stepper(int method) const = 0;
  virtual constraint_residuals residuals(const double* q, const double* p) const = 0;
  virtual double energy(const double* q, const double* p) const = 0;
  virtual ida_result solve_ida(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                               const ida_options& options) const = 0;
  virtual bool separable() const = 0;
};

/// Chooses the system kind from the problem (mass given: separable; G sparse or dense).
std::unique_ptr<c_model> make_c_model(const c_problem& problem);
std::unique_ptr<c_model> make_general_model(const c_problem& problem);
std::unique_ptr<c_model> make_separable_dense_model(const c_problem& problem);
std::unique_ptr<c_model> make_separable_sparse_model(const c_problem& problem);

/// The method table of the C API (geomint_sundials.h, GeomintMethodID).
struct method_info {
  int id;
  const char* name;  ///< family_name_order_stages
  int stages;
  bool lie = false;  ///< a GeomintLie* method (y ∈ g*), not a Geomint* one
};
const method_info* find_method(int id);

}  // namespace geomint::sundials::detail
