// Messages of the C API in plain ASCII: geomint's C++ messages write their mathematics in UTF-8
// (½pᵀM⁻¹p, ∂H/∂p, λ); C users get "1/2p^TM^-1p", "dH/dp", "lambda". References to C++
// functions a C user cannot call are replaced by their C equivalents (project_to_manifold,
// project_to_phase_space: GeomintCalcIC). Characters without a transliteration become '?'.
#pragma once

#include <string>

namespace geomint::sundials::detail {

std::string ascii_message(const std::string& text);

}  // namespace geomint::sundials::detail
