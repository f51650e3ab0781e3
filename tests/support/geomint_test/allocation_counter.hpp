// Counts heap allocations, to prove that steps do not allocate after the first one.
// Include in exactly one translation unit of a test binary: it replaces global operator new.
// Other translation units of the binary include allocation_scope.hpp only.
#pragma once

#include <cstdlib>
#include <new>

#include "geomint_test/allocation_scope.hpp"

void* operator new(std::size_t n) {
  ++geomint_test::allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++geomint_test::allocations;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
