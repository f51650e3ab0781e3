// Random numbers for trajectory i of an ensemble, from the ensemble's seed and i alone: the
// same on every thread and rank, whatever ran trajectory i or when. Both steps are fixed by the
// C++ standard (std::seed_seq's mixing and std::mt19937_64's output), and uniform() maps the
// engine's 64 bits to [0, 1) by its top 53 bits, so the numbers are the same with every
// standard library (std::uniform_real_distribution's algorithm is not specified).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace geomint::ensemble {

/// The engine of trajectory `index` in an ensemble with seed `seed`.
inline std::mt19937_64 trajectory_engine(std::uint64_t seed, std::uint64_t index) {
  const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v & 0xffffffffu); };
  const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
  std::seed_seq s{lo(seed), hi(seed), lo(index), hi(index)};
  return std::mt19937_64(s);
}

/// A number in [0, 1): the engine's top 53 bits times 2⁻⁵³.
inline double uniform01(std::mt19937_64& engine) { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }

/// A number in [lo, hi) (lo when lo == hi).
inline double uniform(std::mt19937_64& engine, double lo, double hi) { return lo + (hi - lo) * uniform01(engine); }

/// A whole number in lo … hi (both whole, lo ≤ hi), each equally likely (up to 2⁻⁵³).
inline double uniform_integer(std::mt19937_64& engine, double lo, double hi) {
  return std::fmin(hi, lo + std::floor((hi - lo + 1) * uniform01(engine)));
}

}  // namespace geomint::ensemble
