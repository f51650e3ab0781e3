// Helpers for a family's method registrations.
#pragma once

#include <string>

#include "cli/registry.hpp"

namespace geomint::cli {

/// Properties of a symplectic method that keeps g and the hidden constraint to round-off and
/// the momentum maps of linear symmetries exactly (energy: bounded error, no drift).
inline method_properties symplectic_constrained(std::string id, std::string alias, std::string family, int order,
                                                bool symmetric, std::string note) {
  method_properties p;
  p.id = std::move(id);
  p.alias = std::move(alias);
  p.family = std::move(family);
  p.order = order;
  p.symplectic = true;
  p.symmetric = symmetric;
  p.conserves_momentum = true;
  p.note = std::move(note);
  return p;
}

}  // namespace geomint::cli
