// Every property a stepper declares (core/properties.hpp: properties_of<Stepper>, and its
// run-time order()), checked by measurement on a system and a state, each reported as held,
// violated, inconclusive or not applicable, with its figures:
//
//   order        the self-convergence order: the differences |x_N − x_{2N}| of runs of N and 2N
//                steps over [0, T] of the stepper itself scale as C hᵖ (1 − 2⁻ᵖ), h = T/N
//                (Richardson), so their log–log slope is the order — no reference solution is
//                needed. N doubles from `order_first_count`; differences below round-off
//                (order_lowest_difference) or outside the asymptotic range
//                (order_highest_difference) are left out, and the slope is fitted over the last
//                (smallest-h) four that remain. Held if |slope − order()| ≤ order_tolerance.
//   symmetric    reversibility_trend (reversibility.hpp): the defect of Φ₋ₕ ∘ Φₕ = id at the
//                defect steps, judged by its slope (defect_trend.hpp).
//   symplectic   symplecticity_trend (symplecticity.hpp) on the constraint manifold of the system
//                (or of the constrained system a Riemannian view wraps), for phase-space steppers;
//   Poisson map  poisson_trend (poisson_map.hpp), for Lie–Poisson steppers.
//   constraints, configuration space, Casimirs, energy, momentum maps
//                the largest deviation over `drift_steps` steps of `drift_step` (invariant_drift):
//                scaled constraint residuals (system/consistency.hpp), the space's point
//                residual, the algebra's Casimirs, H, and the momentum maps the caller passes
//                (the symmetries are the system's: verify_properties cannot guess them). Held
//                if ≤ drift_tolerance (a round-off random walk of 1000 steps stays below ~1e-13).
//                The trapezoidal discrete gradient's energy claim (conserves_energy_if_quadratic)
//                applies only on a system declaring hamiltonian_is_quadratic: elsewhere it is
//                reported not applicable, with the measured drift.
//
// What a held verdict proves is what was measured, on this system and state: a method wrong at
// O(1) can be reversible and keep the constraints — the order check is what catches it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "geomint/core/properties.hpp"
#include "geomint/diagnostics/defect_trend.hpp"
#include "geomint/diagnostics/invariant_drift.hpp"
#include "geomint/diagnostics/observed_order.hpp"
#include "geomint/diagnostics/poisson_map.hpp"
#include "geomint/diagnostics/reversibility.hpp"
#include "geomint/diagnostics/symplecticity.hpp"
#include "geomint/system/consistency.hpp"

namespace geomint::diagnostics {

struct verify_options {
  // order (self-convergence)
  double order_t_end = 1.0;             ///< T
  int order_first_count = 8;            ///< steps of the coarsest run
  int order_max_count = 1024;           ///< steps of the finest run at most
  double order_lowest_difference = 1e-10;  ///< relative to max(1, |x₀|): below, round-off of ~N steps
  double order_highest_difference = 1e-2;  ///< above, not yet asymptotic
  double order_tolerance = 0.3;         ///< on the slope
  // symmetry, symplecticity, Poisson map: defects at halving steps
  std::vector<double> defect_steps = {0.2, 0.1, 0.05, 0.025};
  double difference_noise_floor = diagnostics::difference_noise_floor;  ///< symplecticity, Poisson map
  double reversibility_noise_floor = diagnostics::reversibility_noise_floor;
  // conserved quantities
  double drift_step = 0.02;
  long drift_steps = 1000;
  double drift_tolerance = 1e-12;  ///< largest deviation of a conserved quantity, relative to max(1, |I₀|)
};

/// A conserved quantity of the caller's (a momentum map of a symmetry of the system).
template <class State>
struct named_invariant {
  std::string name;
  std::function<double(const State&)> value;
};

/// One property: what was declared, what was measured.
struct property_entry {
  std::string name;
  bool declared = false;
  verdict outcome = verdict::not_applicable;
  double figure = 0;     ///< observed order, largest defect, or largest drift
  double threshold = 0;  ///< declared order, the noise floor, or the drift tolerance
  double slope = 0;      ///< of the defect against h (trend checks)
  std::string note;
  bool held() const { return outcome == verdict::held; }
};

struct property_report {
  std::vector<property_entry> entries;

  /// The entry named `name` (nullptr if none).
  const property_entry* find(std::string_view name) const {
    for (const property_entry& e : entries)
      if (e.name == name) return &e;
    return nullptr;
  }
  /// No declared property violated or inconclusive (a declared one that could not be measured,
  /// not applicable, does not count: see complete()).
  bool all_held() const {
    return std::all_of(entries.begin(), entries.end(), [](const property_entry& e) {
      return !e.declared || e.held() || e.outcome == verdict::not_applicable;
    });
  }
  /// Every declared property was measured (none not applicable).
  bool complete() const {
    return std::none_of(entries.begin(), entries.end(),
                        [](const property_entry& e) { return e.declared && e.outcome == verdict::not_applicable; });
  }
  /// One line per property: name, declared, verdict, figure, threshold, slope, note.
  std::string summary() const {
    std::string s;
    char line[160];
    for (const property_entry& e : entries) {
      std::snprintf(line, sizeof line, "%-22s %-12s %-15s %10.3g %10.3g %7.2f  ", e.name.c_str(),
                    e.declared ? "declared" : "not declared", to_string(e.outcome), e.figure, e.threshold, e.slope);
      s += line + e.note + "\n";
    }
    return s;
  }
};

namespace detail {
/// max-norm of a state (both halves of a pair).
template <class Q, class P>
double state_norm(const std::pair<Q, P>& x) {
  return std::fmax(view(x.first).cwiseAbs().maxCoeff(), view(x.second).cwiseAbs().maxCoeff());
}
template <class X>
double state_norm(const X& x) {
  return view(x).cwiseAbs().maxCoeff();
}
}  // namespace detail

/// The self-convergence order of a stepper (see the top of this file): steps are T/N, errors
/// the differences |x_N − x_{2N}|, order their slope over the usable ones (NaN if fewer than two).
template <class Stepper, class System, class State>
order_estimate self_convergence_order(const Stepper& stepper, const System& sys, const State& x0,
                                      const verify_options& o = {}) {
  const double scale = std::fmax(1.0, detail::state_norm(x0));
  order_estimate all, used;
  State previous = integrate_steps(stepper, sys, x0, o.order_t_end, o.order_first_count);
  for (int n = o.order_first_count; 2 * n <= o.order_max_count; n *= 2) {
    State next = integrate_steps(stepper, sys, x0, o.order_t_end, 2 * n);
    const double d = state_distance(previous, next);
    all.steps.push_back(o.order_t_end / n);
    all.errors.push_back(d);
    previous = std::move(next);
    if (d < o.order_lowest_difference * scale) break;  // the next would be round-off
  }
  for (std::size_t i = 0; i < all.steps.size(); ++i)
    if (all.errors[i] >= o.order_lowest_difference * scale && all.errors[i] <= o.order_highest_difference * scale) {
      used.steps.push_back(all.steps[i]);
      used.errors.push_back(all.errors[i]);
    }
  if (used.steps.size() > 4) {
    used.steps.erase(used.steps.begin(), used.steps.end() - 4);
    used.errors.erase(used.errors.begin(), used.errors.end() - 4);
  }
  used.order = used.steps.size() >= 2 ? loglog_slope(used.steps, used.errors) : std::nan("");
  return used;
}

namespace detail {

template <class S, class = void>
struct is_hamiltonian_form : std::false_type {};
template <class S>
struct is_hamiltonian_form<S, std::void_t<decltype(std::declval<const S&>().constraint_count()),
                                          decltype(std::declval<const S&>().hamiltonian(
                                              std::declval<const Eigen::VectorXd&>(),
                                              std::declval<const Eigen::VectorXd&>()))>>
    : std::bool_constant<!takes_time_v<S>> {};

template <class S, class = void>
struct has_space : std::false_type {};
template <class S>
struct has_space<S, std::void_t<decltype(std::declval<const S&>().space().point_residual(Eigen::VectorXd()))>>
    : std::true_type {};

template <class S, class = void>
struct has_lie_hamiltonian : std::false_type {};
template <class S>
struct has_lie_hamiltonian<S, std::void_t<typename S::algebra_type>> : std::true_type {};

inline property_entry from_judgement(std::string name, const property_judgement& j) {
  property_entry e;
  e.name = std::move(name);
  e.declared = true;
  e.outcome = j.outcome;
  e.figure = *std::max_element(j.defects.begin(), j.defects.end());
  e.threshold = j.noise_floor;
  e.slope = j.slope;
  e.note = j.note;
  return e;
}

inline property_entry undeclared(std::string name) {
  property_entry e;
  e.name = std::move(name);
  e.note = "not declared";
  return e;
}

inline std::string number(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

}  // namespace detail

/// Measures every property Stepper declares on (sys, x0) (see the top of this file). `momenta`:
/// the momentum maps of the system's symmetries, checked if the stepper claims to conserve them.
template <class Stepper, class System, class State>
property_report verify_properties(const Stepper& stepper, const System& sys, const State& x0,
                                  const verify_options& o = {}, const std::vector<named_invariant<State>>& momenta = {}) {
  constexpr method_properties p = properties_of<Stepper>;
  constexpr bool coadjoint = p.state() == state_kind::coadjoint_vector;
  constexpr bool one_step = p.state() != state_kind::two_step_pair;
  const int order = static_cast<int>(stepper.order());
  property_report report;

  // Order.
  property_entry oe;
  oe.name = "order";
  oe.declared = order > 0;
  oe.threshold = order;
  if (!one_step) {
    oe.note = "a two-step state (q_{k−1}, q_k): measure on q_k (tests/verification)";
  } else if (order > 0) {
    const order_estimate est = self_convergence_order(stepper, sys, x0, o);
    oe.figure = est.order;
    std::string figures;
    for (std::size_t i = 0; i < est.steps.size(); ++i)
      figures += (i ? ", " : "") + detail::number(est.errors[i]) + " at h = " + detail::number(est.steps[i]);
    if (est.steps.size() < 2) {
      oe.outcome = verdict::inconclusive;
      oe.note = "fewer than two differences between round-off and the asymptotic range: choose order_t_end, "
                "order_first_count";
    } else {
      oe.outcome = std::fabs(est.order - order) <= o.order_tolerance ? verdict::held : verdict::violated;
      oe.note = "self-convergence slope " + detail::number(est.order) + " (declared " + std::to_string(order) +
                " ± " + detail::number(o.order_tolerance) + "): differences " + figures;
    }
  } else {
    oe.note = "no order declared";
  }
  report.entries.push_back(oe);

  // Symmetry.
  if (!p.symmetric()) report.entries.push_back(detail::undeclared("symmetric"));
  else if (!one_step) {
    property_entry e = detail::undeclared("symmetric");
    e.declared = true;
    e.note = "a two-step state: reversibility is (q₀, q₁) ↦ (q₁, q₂), then −h from (q₂, q₁) (tests/verification)";
    report.entries.push_back(e);
  } else {
    report.entries.push_back(detail::from_judgement(
        "symmetric", reversibility_trend(stepper, sys, x0, 0.0, o.defect_steps, o.reversibility_noise_floor)));
  }

  // Symplectic / Poisson map.
  const char* structure = coadjoint ? "Poisson map" : "symplectic";
  if (!p.symplectic()) {
    report.entries.push_back(detail::undeclared(structure));
  } else if constexpr (coadjoint) {
    report.entries.push_back(
        detail::from_judgement(structure, poisson_trend(stepper, sys, x0, o.defect_steps, o.difference_noise_floor)));
  } else if constexpr (one_step && detail::is_hamiltonian_form<
                                       std::decay_t<decltype(detail::hamiltonian_form(sys))>>::value) {
    report.entries.push_back(detail::from_judgement(
        structure, symplecticity_trend(stepper, sys, x0, o.defect_steps, o.difference_noise_floor)));
  } else {
    property_entry e = detail::undeclared(structure);
    e.declared = true;
    e.note = "no constrained Hamiltonian form of this system to measure on (a Lagrangian system: measure its "
             "Hamiltonian form with manifold_map_symplecticity_defect)";
    report.entries.push_back(e);
  }

  // Conserved quantities, over one run. Each watched quantity: its entry, its functions (the
  // Casimirs: several under one name).
  const unsigned conserved = conserves_on<System>(p.conserves());
  // The trapezoidal discrete gradient's claim on a system that does not declare a quadratic H:
  // not applicable, but its drift is measured and reported.
  const bool conditional_energy = (p.conserves() & conserves_energy_if_quadratic) && !(conserved & conserves_energy);
  struct watched_quantity {
    property_entry entry;
    std::vector<std::function<double(const State&)>> functions;
  };
  std::vector<watched_quantity> watched;
  auto watch = [&](unsigned bit, std::string name, std::vector<std::function<double(const State&)>> f) {
    watched_quantity w;
    w.entry.name = std::move(name);
    w.entry.declared = (conserved & bit) != 0;
    w.entry.threshold = o.drift_tolerance;
    w.functions = std::move(f);
    watched.push_back(std::move(w));
  };
  auto skip = [&](unsigned bit, const char* name, const char* why) {
    property_entry e = detail::undeclared(name);
    if (conserved & bit) {
      e.declared = true;
      e.note = why;
    }
    report.entries.push_back(e);
  };
  if constexpr (coadjoint) {
    const auto& alg = geomint::detail::algebra_of(sys);
    std::vector<std::function<double(const State&)>> casimirs;
    for (int k = 0; k < static_cast<int>(alg.casimirs(x0).size()); ++k)
      casimirs.push_back([&alg, k](const State& y) { return double(alg.casimirs(y)(k)); });
    if (casimirs.empty()) skip(conserves_casimirs, "Casimirs", "the algebra offers no Casimir");
    else watch(conserves_casimirs, "Casimirs", std::move(casimirs));
    watch(conserves_energy, "energy", {[&sys](const State& y) { return double(sys.hamiltonian(y)); }});
  } else if constexpr (one_step) {
    const auto& form = detail::hamiltonian_form(sys);
    if constexpr (detail::is_hamiltonian_form<std::decay_t<decltype(form)>>::value) {
      watch(conserves_constraints, "constraints", {[&form](const State& x) {
              const constraint_residuals r = constraint_residuals_of(form, view(x.first), view(x.second));
              return std::fmax(r.position, r.velocity);
            }});
      watch(conserves_energy, "energy", {[&form](const State& x) {
              return form.hamiltonian(Eigen::VectorXd(view(x.first)), Eigen::VectorXd(view(x.second)));
            }});
    } else {
      skip(conserves_constraints, "constraints", "no constrained Hamiltonian form of this system");
      skip(conserves_energy, "energy", "no Hamiltonian form of this system");
    }
    if constexpr (detail::has_space<System>::value)
      watch(conserves_configuration_space, "configuration space",
            {[&sys](const State& x) { return sys.space().point_residual(view(x.first)); }});
    else
      skip(conserves_configuration_space, "configuration space", "the system has no space() with point_residual");
  } else {
    const char* two_step = "a two-step state (q_{k−1}, q_k): measure with the system's own functions";
    skip(conserves_constraints, "constraints", two_step);
    skip(conserves_energy, "energy", two_step);
    skip(conserves_configuration_space, "configuration space", two_step);
  }
  const unsigned momentum_bits = conserves_linear_momentum_maps | conserves_momentum_maps;
  if (momenta.empty())
    skip(momentum_bits, "momentum maps", "pass the momentum maps of the system's symmetries (verify_properties' last argument)");
  for (const named_invariant<State>& m : momenta) watch(momentum_bits, m.name, {m.value});

  // Measure what is declared (and the conditional energy): the largest deviation
  // |I(x_k) − I(x₀)| / max(1, |I(x₀)|) over the run (invariant_drift, every function at once).
  std::vector<std::function<double(const State&)>> functions;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < watched.size(); ++i) {
    const bool measure = watched[i].entry.declared || (conditional_energy && watched[i].entry.name == "energy");
    if (!measure) continue;
    for (const auto& f : watched[i].functions) {
      functions.push_back(f);
      owner.push_back(i);
    }
  }
  if (!functions.empty()) {
    Stepper s = stepper;
    State x = x0;
    const std::vector<drift_report> drifts = invariant_drifts(s, sys, x, 0.0, o.drift_step, o.drift_steps, functions);
    for (std::size_t j = 0; j < drifts.size(); ++j) {
      double& figure = watched[owner[j]].entry.figure;
      figure = std::isnan(figure) || std::isnan(drifts[j].max_deviation) ? std::nan("")
                                                                           : std::fmax(figure, drifts[j].max_deviation);
    }
  }
  const std::string run = " over " + std::to_string(o.drift_steps) + " steps of " + detail::number(o.drift_step);
  for (watched_quantity& w : watched) {
    property_entry& e = w.entry;
    if (e.declared) {
      e.outcome = e.figure <= o.drift_tolerance ? verdict::held : verdict::violated;  // NaN: violated
      e.note = "largest deviation " + detail::number(e.figure) + run + " (tolerance " +
               detail::number(o.drift_tolerance) + ")";
    } else if (conditional_energy && e.name == "energy") {
      e.note = "claimed only for a quadratic H (conserves_energy_if_quadratic), and the system does not declare "
               "hamiltonian_is_quadratic: largest deviation " + detail::number(e.figure) + run;
    } else {
      e.note = "not declared";
    }
    report.entries.push_back(e);
  }
  return report;
}

}  // namespace geomint::diagnostics
