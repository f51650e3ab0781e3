// The C API's general systems: c_general_system (one translation unit per system kind).
#include "c_model_impl.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_model> make_general_model(const c_problem& problem) {
  return std::make_unique<c_model_impl<c_general_system>>(problem);
}

}  // namespace geomint::sundials::detail
