// geomint list: the problems, the methods with their properties, the references; and the method
// catalogue as README's Markdown table.
#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/method_list.hpp"
#include "cli/registry.hpp"
#include "geomint/catalogue.hpp"

namespace geomint::cli {
namespace {
std::string yes_no(bool b) { return b ? "yes" : "no"; }
}  // namespace

int list_command() {
  std::printf("Problems (geomint run PROBLEM ...; parameters settable with --set name=value):\n");
  for (const auto& [name, p] : problems()) {
    std::printf("\n  %s  [%s]\n    %s\n", name.c_str(), p.kind.c_str(), p.description.c_str());
    if (p.parameters.empty()) std::printf("    parameters: none\n");
    else std::printf("    parameters (default, meaning [unit]):\n");
    for (const auto& par : p.parameters)
      std::printf("      %-16s %-10g %s [%s]\n", par.name.c_str(), par.value, par.meaning.c_str(), par.unit.c_str());
    std::printf("    methods:");
    for (const auto& m : methods())
      if (m.problems.count(name)) std::printf(" %s", m.properties.alias.c_str());
    std::printf("\n    references:");
    bool any = false;
    for (const auto& r : references())
      if (r.problems.count(name)) {
        std::printf(" %s", r.id.c_str());
        any = true;
      }
    std::printf("%s\n", any ? "" : " none");
    for (const auto& sec : p.sections)
      std::printf("    section %-10s %s\n", sec.name.c_str(), sec.definition.c_str());
  }
  std::printf("\nMethods (--method accepts the alias or the id):\n");
  std::printf("  %-24s %-38s %5s %10s %9s %6s %8s %8s  %s\n", "alias", "id", "order", "symplectic", "symmetric", "energy",
              "momentum", "Casimirs", "note");
  std::vector<const method_descriptor*> sorted;
  for (const auto& m : methods()) sorted.push_back(&m);
  std::stable_sort(sorted.begin(), sorted.end(), [](const method_descriptor* a, const method_descriptor* b) {
    const auto& x = a->properties;
    const auto& y = b->properties;
    return std::make_tuple(x.family(), x.properties().order(), x.id()) <
           std::make_tuple(y.family(), y.properties().order(), y.id());
  });
  for (const method_descriptor* m : sorted) {
    const auto& p = m->properties.properties();
    const unsigned c = p.conserves();
    std::printf("  %-24s %-38s %5d %10s %9s %6s %8s %8s  %s\n", m->properties.alias.c_str(), m->properties.id().c_str(),
                p.order(), yes_no(p.symplectic()).c_str(), yes_no(p.symmetric()).c_str(),
                (c & geomint::conserves_energy_if_quadratic) ? "quad H" : yes_no(c & geomint::conserves_energy).c_str(),
                yes_no(c & (geomint::conserves_linear_momentum_maps | geomint::conserves_momentum_maps)).c_str(),
                yes_no(c & geomint::conserves_casimirs).c_str(), m->properties.note().c_str());
  }
  std::printf("\nReferences (geomint compare; adaptive, rtol = atol):\n");
  for (const auto& r : references()) std::printf("  %-24s %s\n", r.id.c_str(), r.description.c_str());
  return exit_ok;
}

/// The method catalogue as a Markdown table (README.md's, between its methods markers).
int list_markdown() {
  using namespace geomint;  // the catalogue (geomint/catalogue.hpp) and its property bits
  auto conserved = [](unsigned c) {
    std::string s;
    const std::pair<unsigned, const char*> names[] = {
        {conserves_constraints, "constraints"},   {conserves_linear_momentum_maps, "linear momentum maps"},
        {conserves_momentum_maps, "discrete momentum maps"}, {conserves_casimirs, "Casimirs"},
        {conserves_energy, "energy"},             {conserves_energy_if_quadratic, "energy (quadratic H)"},
        {conserves_configuration_space, "configuration space"}};
    for (const auto& [bit, name] : names)
      if (c & bit) s += (s.empty() ? "" : ", ") + std::string(name);
    return s.empty() ? std::string("—") : s;
  };
  std::printf("| id | alias | method | C++ type | order | stages | symmetric | symplectic | conserves | applies to |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const method_entry& e : method_catalogue) {
    const std::string alias = alias_of(e.id);
    const method_properties& p = e.properties;
    std::printf("| `%.*s` | `%s` | %.*s | `%.*s` | %d | %d | %s | %s | %s | %.*s |\n", int(e.id.size()), e.id.data(),
                alias.c_str(), int(e.name.size()), e.name.data(), int(e.type.size()), e.type.data(), p.order(), e.stages,
                p.symmetric() ? "yes" : "no", p.symplectic() ? "yes" : "no", conserved(p.conserves()).c_str(),
                int(e.applies_to.size()), e.applies_to.data());
  }
  return exit_ok;
}
}  // namespace geomint::cli
