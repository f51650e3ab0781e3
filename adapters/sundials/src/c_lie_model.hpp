// The C API's Lie–Poisson systems and steppers behind a virtual interface: one translation unit
// per algebra (c_lie_model_so3.cpp, c_lie_model_se3.cpp) instantiates every method on it.
#pragma once

#include <memory>

#include "geomint/solvers/newton.hpp"
#include "geomint/lie/lie_poisson_system.hpp"
#include "geomint/sundials/geomint_sundials.h"

namespace geomint::sundials::detail {

/// The problem attached to a GeomintLie memory block.
struct c_lie_problem {
  SUNContext ctx = nullptr;
  int dimension = 0;
  GeomintLieGradientFn gradient = nullptr;
  GeomintLieEnergyFn hamiltonian = nullptr;
  void* user_data = nullptr;
  mutable long gradient_evals = 0, energy_evals = 0;  ///< callback evaluations
};

/// The C API's settings; 0 keeps the method's own default.
struct c_lie_settings {
  double tolerance = 0;
  int max_iterations = 0;
};

/// A Lie–Poisson method on a c_lie_problem. step() advances y in place and throws on failure
/// (leaving it).
class c_lie_stepper {
 public:
  virtual ~c_lie_stepper() = default;
  virtual void step(double t, double dt, double* y) = 0;
  virtual void configure(const c_lie_settings& settings) = 0;
  virtual const lie_statistics& statistics() const = 0;
  virtual int casimir_count() const = 0;
  virtual void casimirs(const double* y, double* out) const = 0;
  virtual double energy(const double* y) const = 0;
  virtual void reset() = 0;
  /// The continuous extension of the step [t0, t1] from y0 to y1, on the coadjoint orbit
  /// (lie_continuous_extension.hpp); then interpolate(t, k, out): y (k = 0) or dy/dt (k = 1).
  virtual void begin_interpolation(double t0, const double* y0, double t1, const double* y1) = 0;
  virtual void interpolate(double t, int k, double* out) = 0;
};

/// The dimension of the algebra with this id (GeomintAlgebraID), 0 if unknown.
int lie_algebra_dimension(int algebra);
/// nullptr if the method is not a Lie–Poisson id. The problem must outlive the stepper.
std::unique_ptr<c_lie_stepper> make_so3_stepper(const c_lie_problem& problem, int method);
std::unique_ptr<c_lie_stepper> make_se3_stepper(const c_lie_problem& problem, int method);

}  // namespace geomint::sundials::detail
