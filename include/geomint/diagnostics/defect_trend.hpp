// Judging a property (symplectic, Poisson map, symmetric) by how its defect scales with h, not
// by a fixed threshold. A method of order p that lacks the property has a defect of one step
// that vanishes as a power of h: Φₕ = φₕ + C hᵖ⁺¹ + O(hᵖ⁺²) gives a symplecticity (or
// Poisson-map) defect DΦᵀJDΦ − J = O(hᵖ⁺¹), so at moderate h it can fall below any fixed
// threshold (a non-symplectic second-order projection method shows 8.9e-8 at h = 0.002,
// RKMK-RK4's Poisson defect is 9.8e-9 at h = 0.05). A method that has the property shows only
// the noise of the measurement (central differences: O(ε²) truncation and round-off/ε), which
// does not shrink with h. So, over a few step sizes halving:
//   held          every defect at or below the noise floor (or at most one point within 10× of
//                 it, the rest below);
//   violated      the defects above the floor shrink with a log–log slope near the violation
//                 slope s_v (p + 1 for symplecticity and the Poisson property; see
//                 reversibility.hpp for symmetry): slope ≥ s_v − min(1, s_v/2) — a slope
//                 above s_v (a vanishing leading term) is a violation too;
//   inconclusive  defects above the floor that do not shrink (slope < ½: a noise floor higher
//                 than assumed, e.g. a solver stopped well above round-off, or a property failing
//                 at O(1)), or that shrink at a slope between ½ and the violation's: take steps
//                 in the asymptotic range (larger, if the smallest are near the floor).
// Choose the steps so that a violation stands clearly above the floor at the smallest of them:
// a defect C hᵖ⁺¹ drops by 2ᵖ⁺¹ per halving (8× for p = 2, 32× for p = 4).
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/diagnostics/observed_order.hpp"

namespace geomint::diagnostics {

/// The outcome of a check of one property.
enum class verdict {
  held,            ///< the measurement agrees with the property
  violated,        ///< the measurement contradicts it (figures in the note)
  inconclusive,    ///< neither (see the note: choose other step sizes)
  not_applicable,  ///< not declared, or nothing to measure it with
};

inline const char* to_string(verdict v) {
  switch (v) {
    case verdict::held: return "held";
    case verdict::violated: return "violated";
    case verdict::inconclusive: return "inconclusive";
    case verdict::not_applicable: return "not applicable";
  }
  return "?";
}

/// A property judged by the slope of its defect against h.
struct property_judgement {
  verdict outcome = verdict::not_applicable;
  std::vector<double> steps, defects;
  double slope = 0;            ///< log–log slope over the defects above the floor (0 if < 2 of them)
  double violation_slope = 0;  ///< the slope a method without the property shows
  double noise_floor = 0;      ///< the measurement's noise: defects at or below it count as zero
  std::string note;
  bool held() const { return outcome == verdict::held; }
};

namespace detail {
inline std::string figures(const std::vector<double>& h, const std::vector<double>& d) {
  std::ostringstream s;
  s.precision(2);
  for (std::size_t i = 0; i < h.size(); ++i) s << (i ? ", " : "") << d[i] << " at h = " << h[i];
  return s.str();
}
}  // namespace detail

/// The verdict on defects d[i] measured at steps h[i] (two or more, any order), for a property
/// whose absence shows as d ∝ h^violation_slope, with a measurement noise floor noise_floor.
inline property_judgement judge_by_slope(std::vector<double> h, std::vector<double> defect, double violation_slope,
                                         double noise_floor) {
  if (h.size() != defect.size() || h.size() < 2)
    throw std::invalid_argument("geomint: judge_by_slope needs two or more (h, defect) pairs");
  if (!(violation_slope > 0) || !(noise_floor > 0))
    throw std::invalid_argument("geomint: judge_by_slope needs a positive violation slope and noise floor");
  property_judgement r;
  r.violation_slope = violation_slope;
  r.noise_floor = noise_floor;
  std::vector<double> ha, da;  // the points above the floor
  double largest = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!(h[i] > 0)) throw std::invalid_argument("geomint: judge_by_slope needs positive steps");
    if (!std::isfinite(defect[i])) {
      r.steps = std::move(h);
      r.defects = std::move(defect);
      r.outcome = verdict::violated;
      r.note = "a defect is not finite: " + detail::figures(r.steps, r.defects);
      return r;
    }
    largest = std::fmax(largest, defect[i]);
    if (defect[i] > noise_floor) {
      ha.push_back(h[i]);
      da.push_back(defect[i]);
    }
  }
  r.steps = std::move(h);
  r.defects = std::move(defect);
  std::ostringstream note;
  note.precision(2);
  const std::string at = detail::figures(r.steps, r.defects);
  if (ha.size() < 2 && largest <= 10 * noise_floor) {
    r.outcome = verdict::held;
    note << "at the noise floor " << noise_floor << ": " << at;
  } else if (ha.size() < 2) {
    r.outcome = verdict::inconclusive;
    note << "one defect far above the floor " << noise_floor << ", the others below it (" << at
         << "): take steps between";
  } else {
    r.slope = loglog_slope(ha, da);
    const double needed = violation_slope - std::fmin(1.0, violation_slope / 2);
    if (r.slope >= needed) {
      r.outcome = verdict::violated;
      note << "the defect shrinks as h^" << r.slope << " (a method without the property: h^" << violation_slope
           << "), above the floor " << noise_floor << ": " << at;
    } else if (r.slope < 0.5) {
      r.outcome = verdict::inconclusive;
      note << "the defect stands above the floor " << noise_floor << " and does not shrink with h (slope " << r.slope
           << "): a noisier measurement than assumed (solver tolerance) or a property failing at O(1): " << at;
    } else {
      r.outcome = verdict::inconclusive;
      note << "the defect shrinks as h^" << r.slope << ", below a violation's h^" << violation_slope
           << ": take steps in the asymptotic range: " << at;
    }
  }
  r.note = note.str();
  return r;
}

/// The noise floor of the central-difference checks (symplecticity.hpp, poisson_map.hpp) with
/// ε = 1e-5: O(ε²)·|D³Φ| truncation plus the state's round-off over ε (~1e-15/ε), amplified by
/// |DΦ|² — ~1e-10 on a problem of unit size; 3e-10 … 7e-10 measured for the symplectic methods on
/// the double spherical pendulum (momenta ~10). 1e-8 leaves a factor of ten over that, and a
/// violation of order p ≤ 4 at h ≥ 0.025 stands far above it (RKMK-RK4: 1e-8 already at h = 0.05).
inline constexpr double difference_noise_floor = 1e-8;

/// Steps h₀, h₀/2, …: `count` of them.
inline std::vector<double> halving_steps(double h0, int count) {
  std::vector<double> h;
  for (int i = 0; i < count; ++i) h.push_back(std::ldexp(h0, -i));
  return h;
}

}  // namespace geomint::diagnostics
