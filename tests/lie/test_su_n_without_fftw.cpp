// su(N) for N > 15 (dynamic-size matrices) built without FFTW: the change of basis state <->
// matrix goes through the Fourier matrix instead of FFTs (GEOMINT_HAVE_FFTW undefined here even
// when the rest of the suite has it). The coadjoint action keeps the Casimirs tr(Wᵏ), which
// read the state through that change of basis both ways.
#define BOOST_TEST_MODULE su_n_without_fftw
#include <boost/test/unit_test.hpp>

#include "geomint/lie/su_n.hpp"
#include "geomint/problems/sine_euler.hpp"

#ifdef GEOMINT_HAVE_FFTW
#error "this test is meant to be compiled without FFTW"
#endif

using namespace geomint;

BOOST_AUTO_TEST_CASE(casimirs_are_constant_on_coadjoint_orbits_of_su_17) {
  constexpr int N = 17;
  static_assert(!su_n<N>::uses_fft && su_n<N>::matrix_size == dynamic, "the Fourier-matrix path of dynamic size");
  const su_n<N> a;
  const su_n<N>::vector_type y = problems::sine_euler<N>::random_initial_state(3),
                             sigma = 0.3 * problems::sine_euler<N>::random_initial_state(4);
  const auto c0 = a.casimirs(y), scale = a.casimir_scales(y);
  const su_n<N>::vector_type by_exp = a.exp_coadjoint(sigma, y), by_cayley = a.cayley_coadjoint(sigma, y);
  const auto exp_error = ((a.casimirs(by_exp) - c0).cwiseAbs().array() / scale.array()).maxCoeff();
  const auto cay_error = ((a.casimirs(by_cayley) - c0).cwiseAbs().array() / scale.array()).maxCoeff();
  BOOST_TEST_MESSAGE("Casimir change relative to its scale: exp " << exp_error << ", Cayley " << cay_error);
  // tr(Wᵏ) for k ≤ 17 rounds to ~kNε of its scale (≤ 7e-14); measured 1.5e-16.
  BOOST_TEST(exp_error <= 1e-13);
  BOOST_TEST(cay_error <= 1e-13);
  // And the action moved the state (the Casimirs of an unchanged state would be trivially kept).
  BOOST_TEST((by_exp - y).norm() >= 1e-2 * y.norm());
  BOOST_TEST((by_cayley - y).norm() >= 1e-2 * y.norm());
}
