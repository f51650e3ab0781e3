// Root finding for both C lifecycles (GeomintRootInit, GeomintLieRootInit): sign changes of
// g between the ends of a step, located on the step's continuous extension with Boost.Math's
// TOMS 748, reported one time at a time in the direction of integration (IDA's behaviour).
#pragma once

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/core/step_error.hpp"

namespace geomint::sundials::detail {

class root_search {
 public:
  /// nrtfn functions, all directions allowed; the search starts again at the next begin().
  void configure(int nrtfn) {
    direction_.assign(nrtfn, 0);
    found_.assign(nrtfn, 0);
    low_.assign(nrtfn, 0);
    high_.assign(nrtfn, 0);
    scratch_.assign(nrtfn, 0);
    started_ = false;
  }
  int count() const { return static_cast<int>(low_.size()); }
  bool started() const { return started_; }
  void restart() { started_ = false; }
  /// rootdir[i] ∈ {−1, 0, 1}; false if one is not.
  bool set_direction(const int* rootdir) {
    for (int i = 0; i < count(); ++i)
      if (rootdir[i] < -1 || rootdir[i] > 1) return false;
    std::copy(rootdir, rootdir + count(), direction_.begin());
    return true;
  }
  const std::vector<int>& found() const { return found_; }
  /// Where the search stands: the last root returned, or the end of the last step searched.
  double position() const { return t_low_; }

  /// The search starts at t with g(t) (evaluate(t, out) fills out; a g that is zero there is
  /// not reported: IDA does not report roots at the initial time either).
  template <class Evaluate>
  void begin(double t, Evaluate&& evaluate) {
    t_low_ = t;
    evaluate(t, low_);
    check(low_, t);
    started_ = true;
  }

  /// The earliest root in (t_low, t_end] of the last step [t_step, t_end], or NaN if none;
  /// evaluate(t, out) gives g on the step's extension (at t_end: at the grid state).
  /// After a root the search resumes there, the reported functions taken as zero at it (a
  /// sign change from zero is not a new root).
  template <class Evaluate>
  double next(double t_step, double t_end, Evaluate&& evaluate) {
    if (t_low_ == t_end) return NAN;
    evaluate(t_end, high_);
    check(high_, t_end);
    const bool forward = t_end > t_low_;
    const double width = 1e-14 * std::fabs(t_end - t_step);
    double first = t_end;
    bool any = false;
    std::fill(found_.begin(), found_.end(), 0);
    for (int i = 0; i < count(); ++i) {
      const double g0 = low_[i], g1 = high_[i];
      const bool rises = g0 < 0 && g1 >= 0, falls = g0 > 0 && g1 <= 0;
      if (!((rises && direction_[i] >= 0) || (falls && direction_[i] <= 0))) continue;
      double root = t_end;
      if (g1 != 0) {
        auto g = [&](double t) {
          evaluate(t, scratch_);
          check(scratch_, t);  // a NaN inside the step must not read as "no root"
          return scratch_[i];
        };
        std::uintmax_t iterations = 100;
        const double a = forward ? t_low_ : t_end, b = forward ? t_end : t_low_;
        const auto bracket = boost::math::tools::toms748_solve(
            g, a, b, forward ? g0 : g1, forward ? g1 : g0,
            [width](double x, double y) { return std::fabs(y - x) <= width; }, iterations);
        root = forward ? bracket.second : bracket.first;  // the end past the root (IDA's thi)
      }
      if (!any || (forward ? root < first - width : root > first + width)) {
        std::fill(found_.begin(), found_.end(), 0);
        first = root;
        any = true;
      }
      if (std::fabs(root - first) <= width) found_[i] = rises ? 1 : -1;
    }
    if (!any) {
      low_.swap(high_);
      t_low_ = t_end;
      return NAN;
    }
    evaluate(first, low_);
    for (int i = 0; i < count(); ++i)
      if (found_[i] != 0) low_[i] = 0;
    t_low_ = first;
    return first;
  }

 private:
  static void check(const std::vector<double>& g, double t) {
    for (double v : g)
      if (std::isnan(v)) throw std::invalid_argument("geomint: a root function returned NaN at t = " + geomint::detail::decimal(t));
  }

  std::vector<int> direction_, found_;
  std::vector<double> low_, high_, scratch_;
  double t_low_ = 0;
  bool started_ = false;
};

}  // namespace geomint::sundials::detail
