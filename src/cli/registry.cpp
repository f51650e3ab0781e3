#include "cli/registry.hpp"

#include "cli/method_list.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace geomint::cli {

volatile std::sig_atomic_t interrupted = 0;

namespace {
std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}
}  // namespace

double parse_number(const std::string& what, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) throw usage_error(what + ": '" + text + "' is not a number");
  if (!std::isfinite(v))
    throw usage_error(what + ": must be finite, got '" + text + "'" + (errno == ERANGE ? " (beyond the largest double)" : ""));
  return v;
}

std::string format_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

double parameter_values::operator[](const std::string& name) const {
  for (const auto& p : params_)
    if (p.name == name) return p.value;
  throw std::logic_error("geomint: internal error: no parameter '" + name + "'");
}

void parameter_values::set(const std::string& name, double value, const std::string& problem) {
  std::vector<std::string> names;
  for (auto& p : params_) {
    if (p.name == name) {
      if (p.integer && value != std::floor(value))
        throw usage_error("--set " + name + ": must be a whole number, got " + format_number(value));
      p.value = value;
      return;
    }
    names.push_back(p.name);
  }
  throw usage_error("--set: problem '" + problem + "' has no parameter '" + name + "'" +
                    (names.empty() ? std::string("; it has no parameters") : "; valid: " + join(names)));
}

std::string alias_of(std::string_view id) {
  // The command's short names (the catalogue's ids are what the C module and the CSV name).
  static const std::pair<std::string_view, std::string_view> aliases[] = {
      {"constrained_rattle_2_2", "rattle"},
      {"constrained_lobatto_2_2", "lobatto2"},
      {"constrained_lobatto_4_3", "lobatto3"},
      {"constrained_lobatto_6_4", "lobatto4"},
      {"constrained_lobatto_8_5", "lobatto5"},
      {"constrained_symplectic_euler_1_2", "symplectic_euler"},
      {"constrained_reich_1_1", "reich"},
      {"constrained_reich_adjoint_1_1", "reich_adjoint"},
      {"constrained_reich_symmetric_2_2", "reich_symmetric"},
      {"compose_rattle_yoshida4_4_3", "rattle_yoshida4"},
      {"compose_rattle_kahan_li6_6_9", "rattle_kahan_li6"},
      {"compose_reich_symmetric_kahan_li8_8_17", "reich_symmetric_kahan_li8"},
      {"variational_midpoint_2_1", "variational_midpoint"},
      {"variational_first_order_1_1", "variational_first_order"},
      {"variational_shake_2_1", "shake"},
      {"riemannian_leapfrog_2_1", "leapfrog"},
      {"lie_rkmk_rk4_exp_4_4", "rkmk_rk4_exp"},
      {"lie_rkmk_rk4_two_commutators_exp_4_4", "rkmk_rk4_2c_exp"},
      {"lie_rkmk_rk4_cayley_4_4", "rkmk_rk4_cayley"},
      {"lie_rkmk_heun_exp_2_2", "rkmk_heun_exp"},
      {"lie_rkmk_midpoint_exp_2_1", "rkmk_gl2_exp"},
      {"lie_rkmk_midpoint_cayley_2_1", "rkmk_gl2_cayley"},
      {"lie_discrete_gradient_trapezoidal_exp_2_1", "discrete_gradient"},
      {"lie_discrete_gradient_gonzalez_exp_2_1", "discrete_gradient_gonzalez"},
      {"lie_discrete_gradient_gonzalez_cayley_2_1", "discrete_gradient_gonzalez_cayley"},
      {"lie_moser_veselov_2_1", "moser_veselov"},
      {"lie_poisson_leapfrog_2_1", "lie_leapfrog"},
      {"lie_isospectral_midpoint_2_1", "isospectral_midpoint"},
  };
  for (const auto& [catalogue_id, alias] : aliases)
    if (catalogue_id == id) return std::string(alias);
  throw std::logic_error("geomint: method " + std::string(id) + " has no alias in the command");
}

std::string method_info::id() const { return std::string(entry->id); }
std::string method_info::family() const { return std::string(entry->family); }
const geomint::method_properties& method_info::properties() const { return entry->properties; }
bool method_info::continuous_extension() const { return entry->properties.state() != state_kind::two_step_pair; }
std::string method_info::note() const { return std::string(entry->name) + "; " + std::string(entry->applies_to); }

std::map<std::string, problem_descriptor>& problems() {
  static std::map<std::string, problem_descriptor> r;
  return r;
}
std::vector<method_descriptor>& methods() {
  static std::vector<method_descriptor> r;
  return r;
}
std::vector<reference_descriptor>& references() {
  static std::vector<reference_descriptor> r;
  return r;
}

void add_problem(problem_descriptor p) {
  const std::string name = p.name;
  if (!problems().emplace(name, std::move(p)).second)
    throw std::logic_error("geomint: problem '" + name + "' registered twice");
}

void add_method(const method_info& p, const std::string& problem, runner_factory f) {
  auto& all = methods();
  auto it = std::find_if(all.begin(), all.end(), [&](const method_descriptor& m) { return m.properties.entry == p.entry; });
  if (it == all.end()) {
    all.push_back(method_descriptor{p, {}});
    it = all.end() - 1;
  }
  it->problems[problem] = std::move(f);
}

void add_reference(const std::string& id, const std::string& description, const std::string& problem,
                   reference_solver f) {
  auto& all = references();
  auto it = std::find_if(all.begin(), all.end(), [&](const reference_descriptor& r) { return r.id == id; });
  if (it == all.end()) {
    all.push_back(reference_descriptor{id, description, {}});
    it = all.end() - 1;
  }
  it->problems[problem] = std::move(f);
}

const problem_descriptor& find_problem(const std::string& name) {
  const auto it = problems().find(name);
  if (it != problems().end()) return it->second;
  std::vector<std::string> names;
  for (const auto& [n, p] : problems()) names.push_back(n);
  throw usage_error("unknown problem '" + name + "'; valid problems: " + join(names));
}

section_definition coordinate_section(std::string name, const std::vector<std::string>& names, int i, int direction,
                                      int ix, int iy, const std::string& meaning) {
  section_definition s;
  s.name = std::move(name);
  s.definition = names.at(i) + " = 0 " + (direction > 0 ? "rising" : direction < 0 ? "falling" : "either way") + " (" +
                 meaning + "); points (" + names.at(ix) + ", " + names.at(iy) + ")";
  s.x_name = names.at(ix);
  s.y_name = names.at(iy);
  s.direction = direction;
  s.g = [i](const std::vector<double>& x) { return x[i]; };
  s.x = [ix](const std::vector<double>& x) { return x[ix]; };
  s.y = [iy](const std::vector<double>& x) { return x[iy]; };
  return s;
}

void add_sections(const std::string& problem, std::vector<section_definition> sections) {
  problems().at(problem).sections = std::move(sections);
}

const section_definition& find_section(const problem_descriptor& problem, const std::string& name) {
  std::vector<std::string> names;
  for (const section_definition& s : problem.sections) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  if (names.empty()) throw usage_error("problem '" + problem.name + "' defines no Poincaré section");
  throw usage_error("unknown section '" + name + "' of problem '" + problem.name + "'; its sections: " + join(names));
}

const section_definition* checked_section(const problem_descriptor& problem, const std::string& name,
                                          const std::vector<const method_descriptor*>& methods) {
  if (name.empty()) return nullptr;
  const section_definition& section = find_section(problem, name);
  for (const method_descriptor* m : methods)
    if (!m->properties.continuous_extension())
      throw usage_error("--section: " + m->properties.alias +
                        " has no continuous extension in the command, on which section crossings are located "
                        "(every other method has one); drop --section or that method");
  return &section;
}

void runner::interpolate(double, std::vector<double>&) {
  throw usage_error("this method has no continuous extension: sections need one (every method but SHAKE has)");
}

const method_descriptor& find_method(const std::string& id, const std::string& problem) {
  std::vector<std::string> valid;
  const method_descriptor* found = nullptr;
  for (const auto& m : methods()) {
    const bool on_problem = m.problems.count(problem) > 0;
    if (on_problem) valid.push_back(m.properties.alias + " (" + m.properties.id() + ")");
    if (m.properties.id() == id || m.properties.alias == id) {
      if (!on_problem) found = &m;  // exists, but not for this problem: keep looking for the message
      else return m;
    }
  }
  if (found)
    throw usage_error("method '" + id + "' is not available for problem '" + problem +
                      "'; valid methods for it: " + join(valid));
  throw usage_error("unknown method '" + id + "'; valid methods for problem '" + problem + "': " + join(valid));
}

const reference_descriptor* find_reference(const std::string& id) {
  for (const auto& r : references())
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace geomint::cli
