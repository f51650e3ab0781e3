// Observed order of convergence: the least-squares slope of log(error) against log(h).
#pragma once

#include <cmath>
#include <vector>

namespace geomint_test {

inline double loglog_slope(const std::vector<double>& h, const std::vector<double>& err) {
  const std::size_t n = h.size();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace geomint_test
