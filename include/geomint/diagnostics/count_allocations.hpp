// Makes allocation_counter.hpp count heap allocations. Include it in exactly one translation unit
// of a program (a test's main file, say).
//
// Every allocation is counted, operator new and malloc alike: Eigen's dynamic-size matrices call
// std::malloc directly, so counting operator new alone would miss the allocations that matter most
// in a stepper.
// - Under AddressSanitizer, ThreadSanitizer or MemorySanitizer the sanitizer's allocator owns
//   malloc and operator new; the count comes from its allocation hook
//   (__sanitizer_install_malloc_and_free_hooks) and operator new keeps the sanitizer's checks.
// - Otherwise, with glibc, the program replaces malloc and its relatives (the interposition glibc
//   documents under "Replacing malloc"), counting and forwarding to glibc's own allocator, and
//   operator new counts through malloc.
// - Elsewhere only operator new is counted (allocations_include_malloc() says false).
#pragma once

#include <Eigen/Core>  // first: it declares posix_memalign (Clang's mm_malloc.h) before the replacement below
#include <cstdlib>
#include <new>

#include "geomint/diagnostics/allocation_counter.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define GEOMINT_SANITIZER_ALLOCATOR 1
#endif
#endif
#if !defined(GEOMINT_SANITIZER_ALLOCATOR) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#define GEOMINT_SANITIZER_ALLOCATOR 1
#endif

#if defined(GEOMINT_SANITIZER_ALLOCATOR)

// The sanitizer runtimes' interface (sanitizer/allocator_interface.h, which GCC does not install).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, std::size_t),
                                                         void (*)(const volatile void*));

namespace geomint::diagnostics::detail {
inline void count_malloc(const volatile void*, std::size_t) { ++allocations; }
inline void ignore_free(const volatile void*) {}
inline const bool counting_registered =
    (__sanitizer_install_malloc_and_free_hooks(count_malloc, ignore_free), counting.store(true),
     counting_malloc.store(true), true);
}  // namespace geomint::diagnostics::detail

#elif defined(__GLIBC__)

#include <cerrno>

// glibc's allocator under its exported names: the replacements below count and forward to them.
extern "C" {
void* __libc_malloc(std::size_t) noexcept;
void __libc_free(void*) noexcept;
void* __libc_calloc(std::size_t, std::size_t) noexcept;
void* __libc_realloc(void*, std::size_t) noexcept;
void* __libc_memalign(std::size_t, std::size_t) noexcept;
void* __libc_valloc(std::size_t) noexcept;
void* __libc_pvalloc(std::size_t) noexcept;

void* malloc(std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_malloc(n);
}
void free(void* p) noexcept { __libc_free(p); }
void* calloc(std::size_t count, std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_calloc(count, n);
}
void* realloc(void* p, std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_realloc(p, n);
}
void* memalign(std::size_t alignment, std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept { return memalign(alignment, n); }
int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, n);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_valloc(n);
}
void* pvalloc(std::size_t n) noexcept {
  ++geomint::diagnostics::allocations;
  return __libc_pvalloc(n);
}
}  // extern "C"

namespace geomint::diagnostics::detail {
inline const bool counting_registered = (counting.store(true), counting_malloc.store(true), true);
}  // namespace geomint::diagnostics::detail

#else

namespace geomint::diagnostics::detail {
inline const bool counting_registered = (counting.store(true), true);
}  // namespace geomint::diagnostics::detail

#endif

#if !defined(GEOMINT_SANITIZER_ALLOCATOR)
// operator new through malloc (counted there where malloc is replaced, here otherwise).
void* operator new(std::size_t n) {
#if !defined(__GLIBC__)
  ++geomint::diagnostics::allocations;
#endif
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
#if !defined(__GLIBC__)
  ++geomint::diagnostics::allocations;
#endif
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif
