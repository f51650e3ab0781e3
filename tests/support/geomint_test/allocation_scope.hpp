// allocation_scope: the heap allocations made while it is alive. Counted by the replacement
// operator new of allocation_counter.hpp, which exactly one translation unit of the test binary
// must include (otherwise every count is 0 — a test using this header must make sure of that).
#pragma once

#include <atomic>

namespace geomint_test {
inline std::atomic<long> allocations{0};

/// Allocations made while this object is alive.
class allocation_scope {
 public:
  allocation_scope() : start_(allocations.load()) {}
  long count() const { return allocations.load() - start_; }

 private:
  long start_;
};
}  // namespace geomint_test
