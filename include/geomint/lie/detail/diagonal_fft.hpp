// N discrete Fourier transforms of length N, one per column of a column-major N × N complex
// matrix, in place, through FFTW in translation units compiled with GEOMINT_USE_FFTW (those that
// link geomint::fftw): su_n's change of basis between a state and its matrix (su_n.hpp).
// Without it, `available` is false and su_n multiplies by its Fourier matrix instead.
//
// The choice is part of the types: diagonal_fft and su_n live in the inline namespace
// GEOMINT_SU_N_BASIS (fft_basis or matrix_basis), so two translation units of one program that
// choose differently define two distinct su_n<N>, never two definitions of one (which the
// one-definition rule forbids and a linker resolves silently to either).
//
// Plans are made once (FFTW_ESTIMATE, for any alignment: they run on Eigen's storage) under a
// lock, since FFTW's planner is not thread-safe; executing a plan is, so one object serves every
// copy of an algebra and every thread.
#pragma once

#include <complex>

#if defined(GEOMINT_USE_FFTW)
#define GEOMINT_SU_N_BASIS fft_basis
#else
#define GEOMINT_SU_N_BASIS matrix_basis
#endif

#if defined(GEOMINT_USE_FFTW)
#include <fftw3.h>

#include <mutex>
#include <vector>
#endif

namespace geomint::detail {
inline namespace GEOMINT_SU_N_BASIS {

#if defined(GEOMINT_USE_FFTW)

class diagonal_fft {
 public:
  static constexpr bool available = true;

  explicit diagonal_fft(int n) {
    std::vector<std::complex<double>> scratch(static_cast<std::size_t>(n) * n);
    auto* p = reinterpret_cast<fftw_complex*>(scratch.data());
    const std::lock_guard<std::mutex> lock(planner_mutex());
    forward_ = fftw_plan_many_dft(1, &n, n, p, nullptr, 1, n, p, nullptr, 1, n, FFTW_FORWARD,
                                  FFTW_ESTIMATE | FFTW_UNALIGNED);
    inverse_ = fftw_plan_many_dft(1, &n, n, p, nullptr, 1, n, p, nullptr, 1, n, FFTW_BACKWARD,
                                  FFTW_ESTIMATE | FFTW_UNALIGNED);
  }
  ~diagonal_fft() {
    const std::lock_guard<std::mutex> lock(planner_mutex());
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(inverse_);
  }
  diagonal_fft(const diagonal_fft&) = delete;
  diagonal_fft& operator=(const diagonal_fft&) = delete;

  /// Column c ← Σ_j e^{−2πi fj/N} column c (j), in place (unnormalized).
  void forward(std::complex<double>* m) const { run(forward_, m); }
  /// Column c ← Σ_j e^{+2πi fj/N} column c (j), in place (unnormalized).
  void inverse(std::complex<double>* m) const { run(inverse_, m); }

 private:
  static void run(fftw_plan plan, std::complex<double>* m) {
    auto* p = reinterpret_cast<fftw_complex*>(m);
    fftw_execute_dft(plan, p, p);
  }
  static std::mutex& planner_mutex() {
    static std::mutex m;
    return m;
  }
  fftw_plan forward_, inverse_;
};

#else

/// Without FFTW: only the flag (su_n never makes one, its uses_fft is false).
class diagonal_fft {
 public:
  static constexpr bool available = false;
};

#endif

}  // namespace GEOMINT_SU_N_BASIS
}  // namespace geomint::detail
