// Side-by-side timing for benchmarks: candidates run interleaved, repetition by repetition, so
// machine noise hits all of them alike; each reports min and median time per call.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {

struct timing {
  double min = 0, median = 0;  // seconds per call
};

/// Times `calls` invocations of each candidate, `repetitions` times, interleaved.
inline std::vector<timing> side_by_side(const std::vector<std::function<void(long)>>& candidates, long calls,
                                        int repetitions) {
  std::vector<std::vector<double>> samples(candidates.size());
  for (int r = 0; r < repetitions; ++r) {
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      const auto start = std::chrono::steady_clock::now();
      candidates[c](calls);
      samples[c].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / calls);
    }
  }
  std::vector<timing> out;
  for (auto& s : samples) {
    std::sort(s.begin(), s.end());
    out.push_back({s.front(), s[s.size() / 2]});
  }
  return out;
}

/// Keeps the optimizer from discarding a computed value.
template <class T>
void keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

/// One verdict line: ratios a / b (min, median) against `target` (≤ 0: none). A missed target is
/// followed by the line "why the target is missed: <why_missed>" (bench/run_all collects both).
/// The verdict uses the min ratio, the one least disturbed by other load on the machine.
inline void print_ratio(const char* what, const timing& a, const timing& b, double target = 0,
                        const char* why_missed = nullptr) {
  const double ratio_min = a.min / b.min, ratio_median = a.median / b.median;
  if (target > 0)
    std::printf("%-58s %8.3f %8.3f   target <= %.2f  %s\n", what, ratio_min, ratio_median, target,
                ratio_min <= target ? "met" : "MISSED");
  else
    std::printf("%-58s %8.3f %8.3f   (no target)\n", what, ratio_min, ratio_median);
  if (target > 0 && ratio_min > target && why_missed) std::printf("  why the target is missed: %s\n", why_missed);
}

}  // namespace bench
