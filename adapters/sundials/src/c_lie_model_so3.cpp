// The C API's Lie–Poisson methods on so3 (one translation unit per algebra).
#include "c_lie_model_impl.hpp"
#include "geomint/lie/so3.hpp"

namespace geomint::sundials::detail {

std::unique_ptr<c_lie_stepper> make_so3_stepper(const c_lie_problem& problem, int method) {
  return make_lie_stepper<so3>(problem, method);
}

}  // namespace geomint::sundials::detail
