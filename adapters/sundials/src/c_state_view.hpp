// The state as the C API's steppers see it: Eigen::Map views of the memory block's N_Vector data.
#pragma once

#include <Eigen/Core>
#include <utility>

namespace geomint::sundials::detail {

using state_view = std::pair<Eigen::Map<Eigen::VectorXd>, Eigen::Map<Eigen::VectorXd>>;

}  // namespace geomint::sundials::detail
