// Starting guesses for implicit steps from the converged unknowns of the previous steps.
//
// In a sequence of steps of one size h, an unknown that is a smooth function of the step's start
// time (a stage slope, a midpoint, the stage increments) is sampled at equally spaced times. The
// polynomial through the last m samples u₁ (the latest), …, u_m, taken one spacing on, predicts
// the next one with an error O(h^m) (Newton's backward-difference form, binomial weights):
//   u ≈ Σ_{j=1..m} (−1)^{j+1} C(m, j) u_j       m = 2: 2u₁ − u₂,   m = 3: 3u₁ − 3u₂ + u₃.
// A higher degree pays only while h resolves the motion: its error constant grows with m, and it
// amplifies the samples' rounding by up to 2^m − 1. So the number of points is chosen by the
// data: each converged value is compared with what every m would have predicted for it, and the
// next guess uses the m that came closest — one more when the largest available was the best, so
// that a well-resolved sequence climbs to the maximum (depth) and a poorly resolved one stays low.
// The guess only sets where an iteration to round-off starts; the converged step does not
// depend on it beyond round-off.
#pragma once

#include <algorithm>
#include <array>
#include <limits>

namespace geomint {

/// The last `Depth` converged values of an equally spaced sequence (V: an Eigen vector or matrix,
/// fixed or dynamic size) and the extrapolated next one. The first value of a size sizes every
/// slot; no allocation after it.
template <class V, int Depth = 6>
class sequence_extrapolation {
  static_assert(Depth >= 2 && Depth <= 8, "sequence_extrapolation: depth 2 to 8");

 public:
  /// Starts a new sequence (another step size, a fresh start).
  void forget() {
    count_ = 0;
    points_ = 2;
  }
  /// How many values of the current sequence are held (≤ Depth).
  int size() const { return count_; }
  /// The latest value; requires size() ≥ 1.
  const V& latest() const { return values_[slot_[0]]; }
  /// The points the next prediction uses (2 ≤ points() ≤ size() once size() ≥ 2).
  int points() const { return std::min(points_, count_); }

  /// u = the extrapolation through the last points() values; requires size() ≥ 2.
  template <class U>
  void predict(U& u) const {
    const int m = points();
    u = weight(m, 1) * values_[slot_[0]];
    for (int j = 2; j <= m; ++j) u += weight(m, j) * values_[slot_[j - 1]];
  }

  /// Appends the converged value u and chooses the points of the next prediction by how close
  /// each number of points (2 … size()) came to u.
  template <class U>
  void record(const U& u) {
    if (scratch_.rows() != u.rows() || scratch_.cols() != u.cols()) {  // dynamic V: all slots at once
      for (V& v : values_) v.resize(u.rows(), u.cols());
      scratch_.resize(u.rows(), u.cols());
    }
    if (count_ >= 2) {
      double best_error = std::numeric_limits<double>::infinity();
      int best = 2;
      for (int m = 2; m <= count_; ++m) {
        scratch_ = -u;
        for (int j = 1; j <= m; ++j) scratch_ += weight(m, j) * values_[slot_[j - 1]];
        const double error = scratch_.cwiseAbs().maxCoeff();
        if (error < best_error) best_error = error, best = m;  // NaN never wins
      }
      points_ = best == count_ ? best + 1 : best;
    }
    std::rotate(slot_.begin(), slot_.end() - 1, slot_.end());  // the oldest slot becomes the latest
    values_[slot_[0]] = u;
    count_ = std::min(count_ + 1, Depth);
    points_ = std::min(points_, Depth);
  }

 private:
  /// (−1)^{j+1} C(m, j): the weight of u_j in the prediction through m points.
  static double weight(int m, int j) {
    double c = 1;
    for (int i = 1; i <= j; ++i) c = c * (m - i + 1) / i;
    return j % 2 == 1 ? c : -c;
  }

  std::array<V, Depth> values_;
  std::array<int, Depth> slot_ = make_slots();  ///< values_[slot_[j]] is u_{j+1}
  V scratch_;
  int count_ = 0;
  int points_ = 2;

  static std::array<int, Depth> make_slots() {
    std::array<int, Depth> s{};
    for (int j = 0; j < Depth; ++j) s[j] = j;
    return s;
  }
};

}  // namespace geomint
