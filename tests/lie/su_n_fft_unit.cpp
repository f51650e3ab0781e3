// su(17) in a unit that links geomint::fftw (GEOMINT_USE_FFTW): the FFT change of basis, in the
// same program as test_su_n_without_fftw.cpp's Fourier-matrix su(17).
#include "su_n_fft_unit.hpp"

#include <typeinfo>

#include "geomint/lie/su_n.hpp"

#ifndef GEOMINT_USE_FFTW
#error "this unit is meant to be compiled with FFTW (geomint::fftw)"
#endif

namespace su_n_fft_unit {
bool uses_fft() { return geomint::su_n<17>::uses_fft; }
std::string type_name() { return typeid(geomint::su_n<17>).name(); }
Eigen::VectorXd exp_coadjoint(const Eigen::VectorXd& sigma, const Eigen::VectorXd& y) {
  const geomint::su_n<17> a;
  return a.exp_coadjoint(sigma, y);
}
}  // namespace su_n_fft_unit
