// su(N) for N > 15 (dynamic-size matrices) built without FFTW: the change of basis state <->
// matrix goes through the Fourier matrix instead of FFTs (this unit links geomint::core, not
// geomint::fftw). The coadjoint action keeps the Casimirs tr(Wᵏ), which read the state through
// that change of basis both ways. Where the build has FFTW, the program has a second unit that
// links geomint::fftw (su_n_fft_unit.cpp): the two units' su(17) are two types, not two
// definitions of one, and they agree on the action to round-off.
#define BOOST_TEST_MODULE su_n_without_fftw
#include <boost/test/unit_test.hpp>

#include <typeinfo>

#include "geomint/config.hpp"
#include "geomint/lie/su_n.hpp"
#include "geomint/problems/sine_euler.hpp"
#if GEOMINT_WITH_FFTW
#include "su_n_fft_unit.hpp"
#endif

#ifdef GEOMINT_USE_FFTW
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

BOOST_AUTO_TEST_CASE(matrix_form_of_su_17_is_the_sum_over_its_basis) {
  // W = Σ_{m ∈ C⁺} (x_m T_m + x_m* T_{−m}), T_m = ε^{−m₁m₂} G^{m₁} h^{m₂}, entry by entry from
  // the definition: T_m(r, j) = ε^{2m₁r − m₁m₂} where r ≡ j + m₂ (mod N), else 0. The Fourier-
  // matrix path must build it to round-off (each entry sums N²−1 terms of size |x_m|:
  // ~N ε relative to max|x| after cancellation), and coefficients() must read x back.
  constexpr int N = 17;
  using complex = std::complex<double>;
  const su_n<N> a;
  const su_n<N>::vector_type x = problems::sine_euler<N>::random_initial_state(5);
  const double two_pi = 6.283185307179586;
  auto eps_power = [&](long e) { return std::polar(1.0, two_pi * double(((e % N) + N) % N) / N); };
  Eigen::MatrixXcd direct = Eigen::MatrixXcd::Zero(N, N);
  for (int i = 0; i < su_n<N>::mode_count; ++i) {
    const auto m = a.modes()[i];
    const complex xm(x(2 * i), x(2 * i + 1));
    for (int j = 0; j < N; ++j) {
      const int r = ((j + m.m2) % N + N) % N, r_minus = ((j - m.m2) % N + N) % N;
      direct(r, j) += xm * eps_power(2L * m.m1 * r - long(m.m1) * m.m2);                   // T_m
      direct(r_minus, j) += std::conj(xm) * eps_power(-2L * m.m1 * r_minus - long(m.m1) * m.m2);  // T_{−m}
    }
  }
  const su_n<N>::matrix_type w = a.hermitian(x);
  const double size = x.cwiseAbs().maxCoeff();
  BOOST_TEST_MESSAGE("hermitian() against the basis sum: " << (w - direct).cwiseAbs().maxCoeff() / size);
  BOOST_TEST((w - direct).cwiseAbs().maxCoeff() <= 1e-14 * N * size);
  BOOST_TEST((a.coefficients(w) - x).cwiseAbs().maxCoeff() <= 1e-14 * N * size);
}

#if GEOMINT_WITH_FFTW
BOOST_AUTO_TEST_CASE(units_that_choose_differently_define_two_types) {
  constexpr int N = 17;
  static_assert(!su_n<N>::uses_fft);
  BOOST_TEST(su_n_fft_unit::uses_fft());
  BOOST_TEST(su_n_fft_unit::type_name() != std::string(typeid(su_n<N>).name()));
  const su_n<N> a;
  const su_n<N>::vector_type y = problems::sine_euler<N>::random_initial_state(3),
                             sigma = 0.3 * problems::sine_euler<N>::random_initial_state(4);
  const Eigen::VectorXd by_matrix = a.exp_coadjoint(sigma, y), by_fft = su_n_fft_unit::exp_coadjoint(sigma, y);
  // Both round the same action (changes of basis ~N ε|y| each way, measured 1e-15 relative).
  BOOST_TEST((by_fft - by_matrix).cwiseAbs().maxCoeff() <= 1e-13 * y.cwiseAbs().maxCoeff());
}
#endif
