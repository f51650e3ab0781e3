// The geomint command's type-erased interface between problems, methods and the driver.
//
//   problem_descriptor  a named problem: its parameters (physical data and initial data, all
//                       overridable with --set) and a factory building a problem_instance
//   problem_instance    one built problem: state layout, initial state, and its invariants
//                       (energy, constraint residuals, momentum maps, Casimirs) of a state
//   method_descriptor   a named fixed-step method: properties, and one factory per problem it
//                       is instantiated on, producing a runner that steps that problem
//   reference_descriptor an adaptive reference solver (IDA, odeint's dopri5): one solve
//                       function per problem, sampling the solution at given times
//
// Each family registers itself from its own translation unit with a static `registration`
// object (see methods_constrained.cpp), so no translation unit instantiates every stepper and
// a new family — a Lie–Poisson one, say — is one new .cpp file in src/CMakeLists.txt.
#pragma once

#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace geomint {
struct method_entry;         // geomint/catalogue.hpp
class method_properties;     // geomint/core/properties.hpp
}  // namespace geomint

namespace geomint::cli {

/// A bad command line (unknown name, bad number, invalid parameter): exit code 1.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A problem parameter or initial-data value, settable with --set name=value.
struct parameter {
  std::string name;
  double value = 0;
  std::string meaning;
  std::string unit;      ///< e.g. "kg", "m/s^2", "rad"; "1" for a dimensionless number
  bool integer = false;  ///< must be a whole number (e.g. the number of links)
};

/// A number for a message: printf's %g ("-1", "1e+300", "0.1"), never 300 digits or "-0.000000".
std::string format_number(double v);

/// The finite number `text` spells, whole (strtod; a value below the smallest normal double is
/// kept as strtod rounds it); usage_error naming `what` otherwise.
double parse_number(const std::string& what, const std::string& text);

/// Named parameter values after --set overrides.
class parameter_values {
 public:
  explicit parameter_values(std::vector<parameter> p) : params_(std::move(p)) {}
  double operator[](const std::string& name) const;
  int integer(const std::string& name) const { return static_cast<int>((*this)[name]); }
  const std::vector<parameter>& all() const { return params_; }
  /// Sets `name` (usage_error naming the valid parameters if there is none such).
  void set(const std::string& name, double value, const std::string& problem);

 private:
  std::vector<parameter> params_;
};

/// What an invariant column holds. Conserved quantities (energy, momentum, Casimir) are reported
/// as errors relative to their initial value; residuals (constraint, hidden constraint) as is.
enum class invariant_kind { energy, constraint, hidden_constraint, momentum, casimir };
inline bool is_conserved(invariant_kind k) {
  return k == invariant_kind::energy || k == invariant_kind::momentum || k == invariant_kind::casimir;
}

struct invariant {
  std::string name;  ///< CSV column name
  invariant_kind kind;
};

/// A problem built from its parameter values. States are packed into a flat vector of doubles
/// (q then p for Hamiltonian problems).
class problem_instance {
 public:
  virtual ~problem_instance() = default;
  virtual std::vector<std::string> state_names() const = 0;
  virtual std::vector<invariant> invariants() const = 0;
  virtual std::vector<double> initial_state() const = 0;
  /// Raw values (not errors) of invariants() at a packed state.
  virtual void evaluate_invariants(const std::vector<double>& state, std::vector<double>& out) const = 0;
};

/// A Poincaré section: the states at which g(state) crosses zero in `direction` (+1 rising,
/// −1 falling), each drawn as the point (x(state), y(state)). Crossings are located on the
/// method's continuous extension (dense_output.hpp), the steps unchanged.
struct section_definition {
  std::string name;        ///< "default" for a problem's first section
  std::string definition;  ///< what `geomint list` shows, e.g. "q1 = 0 rising; (q4, p4)"
  std::string x_name, y_name;
  int direction = 1;
  std::function<double(const std::vector<double>& state)> g;
  std::function<double(const std::vector<double>& state)> x, y;
};

struct problem_descriptor {
  std::string name;  ///< kebab-case
  std::string description;
  std::string kind;  ///< "constrained", "riemannian", "lie-poisson"
  std::vector<parameter> parameters;
  std::function<std::unique_ptr<problem_instance>(const parameter_values&)> make;
  std::vector<section_definition> sections;  ///< the first is named "default" (if any)
};

/// A section where the packed state's component `i` crosses 0 in `direction`, drawn in
/// (state[ix], state[iy]); `names` are the packed state's names (q1.., p1.. or y1..), `meaning`
/// says what the crossing is.
section_definition coordinate_section(std::string name, const std::vector<std::string>& names, int i, int direction,
                                      int ix, int iy, const std::string& meaning);

/// The section `name` of a problem; usage_error listing the problem's sections otherwise.
const section_definition& find_section(const problem_descriptor& problem, const std::string& name);

/// Steps one problem with one method. step() throws geomint::step_error and leaves the state
/// as it was.
class runner {
 public:
  virtual ~runner() = default;
  virtual void step(double t, double dt) = 0;
  virtual void state(std::vector<double>& out) const = 0;  ///< packed, problem_instance layout
  /// The packed state at t inside the last step (the continuous extension); methods without
  /// one throw usage_error.
  virtual void interpolate(double t, std::vector<double>& out);
};

/// A method as the command knows it: its catalogue row (geomint/catalogue.hpp: id, family, what
/// it is and its properties) and the command's short alias for it.
struct method_info {
  const method_entry* entry = nullptr;
  std::string alias;  ///< short name accepted on the command line, e.g. "rattle"

  std::string id() const;      ///< family_name_order_stages
  std::string family() const;
  const geomint::method_properties& properties() const;
  /// runner::interpolate works (sections need it): every method but those of two-step state,
  /// whose runner keeps the position pair and interpolates nothing.
  bool continuous_extension() const;
  std::string note() const;  ///< what it is, and what it applies to
};

using runner_factory = std::function<std::unique_ptr<runner>(const problem_instance&)>;

struct method_descriptor {
  method_info properties;
  std::map<std::string, runner_factory> problems;  ///< problem name → factory
};

/// The section `name` (nullptr for ""), checked before any output is written: the problem has it
/// and every method in `methods` has the continuous extension it is located on (usage_error).
const section_definition* checked_section(const problem_descriptor& problem, const std::string& name,
                                          const std::vector<const method_descriptor*>& methods);

/// What a reference solver is asked for.
struct reference_request {
  double t_end = 0;
  double tolerance = 1e-8;           ///< rtol = atol
  std::vector<double> sample_times;  ///< increasing, in (0, t_end]
  /// Called at each sample with the packed state (may throw io_error).
  std::function<void(double t, const std::vector<double>& state)> sample;
  /// Polled often (at least once per solver step) with the time reached: progress display, and
  /// false when the solver is to stop at once (SIGINT, SIGTERM). Never throws.
  std::function<bool(double t)> progress;
};

struct reference_result {
  long steps = 0;
  double cpu_seconds = 0;  ///< solver only, diagnostics excluded
  bool ok = true;
  bool stopped = false;  ///< progress() asked to stop; the samples reached were handed on
  std::string error;     ///< why it failed
};

using reference_solver = std::function<reference_result(const problem_instance&, const reference_request&)>;

struct reference_descriptor {
  std::string id;  ///< "ida_ggl", "odeint_dopri5"
  std::string description;
  std::map<std::string, reference_solver> problems;
};

/// The registries (function-local statics, so registration order across TUs does not matter).
std::map<std::string, problem_descriptor>& problems();
std::vector<method_descriptor>& methods();
std::vector<reference_descriptor>& references();

/// Registration from a family's translation unit: `static const registration r([] { ... });`
struct registration {
  explicit registration(const std::function<void()>& f) { f(); }
};
void add_problem(problem_descriptor p);
/// Gives an added problem its Poincaré sections (the first should be named "default").
void add_sections(const std::string& problem, std::vector<section_definition> sections);
/// Adds (or extends) a method: the properties must match an earlier registration of the id.
void add_method(const method_info& p, const std::string& problem, runner_factory f);
void add_reference(const std::string& id, const std::string& description, const std::string& problem,
                   reference_solver f);

/// Lookups that throw usage_error listing the valid choices.
const problem_descriptor& find_problem(const std::string& name);
const method_descriptor& find_method(const std::string& id_or_alias, const std::string& problem);
const reference_descriptor* find_reference(const std::string& id);

/// The description of the "odeint_dopri5" reference, registered by several families.
inline constexpr const char* odeint_dopri5_description =
    "Boost.Odeint runge_kutta_dopri5, controlled, integrate_adaptive, on the plain ODE: the index-1 form of a "
    "constrained problem (drifts off g = 0), y' = -ad*_{dH} y of a Lie-Poisson one (leaves the coadjoint orbit)";

/// 0, or the number of the signal (SIGINT, SIGTERM) that asked the command to stop: loops poll
/// it and stop cleanly.
extern volatile std::sig_atomic_t interrupted;

}  // namespace geomint::cli
