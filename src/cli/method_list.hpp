// A family's method registrations read the method catalogue (geomint/catalogue.hpp): the
// command's properties of a method are its catalogue row, checked against the stepper type.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "cli/registry.hpp"
#include "geomint/catalogue.hpp"

namespace geomint::cli {

/// The command's properties from a catalogue row.
method_properties properties_of_entry(const method_entry& e);

/// The properties of catalogue row `id`, after checking that Stepper's compile-time properties
/// are the row's; a mismatch (or an id missing from the catalogue) is a programming error:
/// std::logic_error when the command starts.
template <class Stepper>
method_properties catalogued(std::string_view id) {
  const method_entry* e = find_method_entry(id);
  if (!e || e->id != id) throw std::logic_error("geomint: method " + std::string(id) + " is not in the catalogue");
  if (!catalogue_matches<Stepper>(*e))
    throw std::logic_error("geomint: the catalogue row of " + std::string(id) + " disagrees with the stepper type's properties");
  return properties_of_entry(*e);
}

}  // namespace geomint::cli
