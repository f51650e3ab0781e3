// A family's method registrations read the method catalogue (geomint/catalogue.hpp): the
// command's method is its catalogue row, checked against the stepper type, and its alias.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "cli/registry.hpp"
#include "geomint/catalogue.hpp"

namespace geomint::cli {

/// The command's short name for catalogue row `id` (std::logic_error if it has none).
std::string alias_of(std::string_view id);

/// The command's method for catalogue row `id`, after checking that Stepper is that row's
/// method; a mismatch (or an id missing from the catalogue) is a programming error:
/// std::logic_error when the command starts.
template <class Stepper>
method_info catalogued(std::string_view id) {
  const method_entry* e = find_method_entry(id);
  if (!e) throw std::logic_error("geomint: method " + std::string(id) + " is not in the catalogue");
  if (!catalogue_matches<Stepper>(*e))
    throw std::logic_error("geomint: the catalogue row of " + std::string(id) + " disagrees with the stepper type's properties");
  return method_info{e, alias_of(id)};
}

}  // namespace geomint::cli
