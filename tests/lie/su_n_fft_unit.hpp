// The translation unit of test_su_n_without_fftw compiled with FFTW (su_n_fft_unit.cpp): su(17)
// as that unit defines it, through functions whose signatures name no su_n.
#pragma once

#include <Eigen/Core>
#include <string>

namespace su_n_fft_unit {
bool uses_fft();
std::string type_name();  ///< typeid(su_n<17>).name() in that unit
/// exp_coadjoint(σ, y) of su(17) in that unit.
Eigen::VectorXd exp_coadjoint(const Eigen::VectorXd& sigma, const Eigen::VectorXd& y);
}  // namespace su_n_fft_unit
