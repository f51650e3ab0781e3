// Hermite interpolation on one step [t0, t0 + h], θ = (t − t0)/h ∈ [0, 1]:
//   cubic    from y and ẏ at both ends: error O(h⁴) for a smooth curve;
//   quintic  from y, ẏ and ÿ at both ends: error O(h⁶).
// The weights multiply (y0, h ẏ0, h² ÿ0, h² ÿ1, h ẏ1, y1); their θ-derivatives (divided by h)
// give the interpolant's derivative.
#pragma once

#include <array>

namespace geomint {

struct hermite_weights {
  std::array<double, 6> value;  ///< for y0, h ẏ0, h² ÿ0, h² ÿ1, h ẏ1, y1
  std::array<double, 6> slope;  ///< d/dθ of the same
};

inline hermite_weights cubic_hermite(double s) {
  const double s2 = s * s, s3 = s2 * s;
  return {{2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, 0, 0, s3 - s2, -2 * s3 + 3 * s2},
          {6 * s2 - 6 * s, 3 * s2 - 4 * s + 1, 0, 0, 3 * s2 - 2 * s, -6 * s2 + 6 * s}};
}

inline hermite_weights quintic_hermite(double s) {
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s, s5 = s4 * s;
  return {{1 - 10 * s3 + 15 * s4 - 6 * s5, s - 6 * s3 + 8 * s4 - 3 * s5, 0.5 * s2 - 1.5 * s3 + 1.5 * s4 - 0.5 * s5,
           0.5 * s3 - s4 + 0.5 * s5, -4 * s3 + 7 * s4 - 3 * s5, 10 * s3 - 15 * s4 + 6 * s5},
          {-30 * s2 + 60 * s3 - 30 * s4, 1 - 18 * s2 + 32 * s3 - 15 * s4, s - 4.5 * s2 + 6 * s3 - 2.5 * s4,
           1.5 * s2 - 4 * s3 + 2.5 * s4, -12 * s2 + 28 * s3 - 15 * s4, 30 * s2 - 60 * s3 + 30 * s4}};
}

}  // namespace geomint
