// The C API's separable sparse systems: c_separable_system<sparse_jacobian> (one translation unit per system kind).
#include "c_model_impl.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_separable_sparse_model(const c_problem& problem) {
  return std::make_unique<c_model_impl<c_separable_system<sparse_jacobian>>>(problem);
}

}  // namespace geomint::sundials::detail
