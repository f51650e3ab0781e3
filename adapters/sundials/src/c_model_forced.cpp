// The C API's systems with a force (GeomintSetForce): f(t, q, p) on a general or separable H
// with dense G (the general stage solver), f(t, q) on a separable H with dense or sparse G (the
// separable fast path). One translation unit for the four kinds, apart from the unforced ones.
#include "c_model_impl.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_forced_model(const c_problem& problem) {
  if (!problem.separable()) return std::make_unique<c_model_impl<c_forced<c_general_system>>>(problem);
  if (problem.general_force()) {
    if (problem.sparse())
      throw std::invalid_argument("geomint: a velocity-dependent force (GEOMINT_FORCE_GENERAL) needs a dense G; "
                                  "a sparse G takes a position force (GEOMINT_FORCE_POSITION)");
    return std::make_unique<c_model_impl<c_forced<c_separable_system<Eigen::MatrixXd>>>>(problem);
  }
  if (problem.sparse()) return std::make_unique<c_model_impl<c_position_forced<c_separable_system<sparse_jacobian>>>>(problem);
  return std::make_unique<c_model_impl<c_position_forced<c_separable_system<Eigen::MatrixXd>>>>(problem);
}

}  // namespace geomint::sundials::detail
