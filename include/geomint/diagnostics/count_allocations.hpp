// Replaces the global operator new so that allocation_counter.hpp counts allocations. Include it
// in exactly one translation unit of a program (a test's main file, say).
#pragma once

#include <cstdlib>
#include <new>

#include "geomint/diagnostics/allocation_counter.hpp"

namespace geomint::diagnostics::detail {
inline const bool counting_registered = (counting.store(true), true);
}  // namespace geomint::diagnostics::detail

void* operator new(std::size_t n) {
  ++geomint::diagnostics::allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++geomint::diagnostics::allocations;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
