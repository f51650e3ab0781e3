// The C API's separable dense systems: c_separable_system<Eigen::MatrixXd> (one translation unit per system kind).
#include "c_model_impl.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_separable_dense_model(const c_problem& problem) {
  return std::make_unique<c_model_impl<c_separable_system<Eigen::MatrixXd>>>(problem);
}

}  // namespace geomint::sundials::detail
