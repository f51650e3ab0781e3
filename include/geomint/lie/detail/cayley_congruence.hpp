// The matrix work of a Cayley sweep on su(N) (the isospectral midpoint's fixed point, the stages
// of RKMK in Cayley coordinates): for a Hermitian W₀ fixed across calls (prepare) and an
// anti-Hermitian B given per call,
//   e = (1 − B)⁻¹B,   X = eW₀,   Δ_c(B) = (1 + ce) W₀ (1 + ce)† − W₀ = c(X + X†) + c² Xe†,
// returned as its lower triangle (Δ_c is Hermitian). c = 1: W̃ − W₀ for the congruence
// W̃ = MW₀M†, M = (1 − B)⁻¹ = 1 + e; c = 2: the similarity by the unitary cay(2B) =
// (1 − B)⁻¹(1 + B) = 1 + 2e.
//
// A full evaluation costs an LU factorization of 1 − B, the solve for e (N right-hand sides, in
// two halves of columns), X = eW₀ and the lower triangle of Xe†: ~3.6 products of N × N
// matrices at N = 255 (bench/NOTES.md). It becomes the reference (B_r; e_r, X_r, Y_r = X_r e_r†).
//
// A fixed-point iteration calls again with B close to the last one (from the second sweep of a
// step on, B changes by 1e-9 … 1e-15 relative). With M = (1 − B)⁻¹ = 1 + e, M − M_r = M δB M_r
// exactly for δB = B − B_r, so to first order
//   Δ_c(B_r + δB) = Δ_c(B_r) + D + D†,   D = c M_r δB R_c,   R_c = M_r W₀ (1 + c e_r)†
//                                                            = W₀ + X_r + c(X_r† + Y_r):
// two products instead of the factorization, the solve and one and a half products. Each
// correction starts from the previous one (the base B_b, Δ_c(B_b)) with the reference's M_r and
// R_c, so successive sweeps stay small steps from their base. Bounds (‖·‖₂ ≤ ‖·‖_F): M_r has
// singular values 1/|1 − iβ| ≤ 1 (B is anti-Hermitian), so ‖e_r‖₂ ≤ 1, ‖1 + ce_r‖₂ ≤ 1 for
// c = 1, 2, ‖R_c‖₂ ≤ ‖W₀‖₂ and ‖M − M_r‖₂ ≤ ‖B − B_r‖₂; what the first-order step from B_b with
// M_r and e_r in place of M_b and e_b neglects is then at most
// (2c + c²) ‖δB‖ (‖δB‖ + 2‖B_b − B_r‖) ‖W₀‖₂. A correction is made only when
// that is below ε/4 ‖W₀‖₂ (ε = 2⁻⁵²), so each adds no more than the rounding of a full
// evaluation (c = 2, from the reference: ‖δB‖_F ≤ 2.6e-9); otherwise the call is a full
// evaluation and the new reference. D is of the size of δB, so its rounding needs less than
// double precision: when also √N u_f c ‖δB‖_F ≤ ε/4 (u_f = 2⁻²⁴; the probabilistic bound of
// Higham & Mary, SIAM J. Sci. Comput. 41 (2019), for inner products of length N), D is computed
// in single precision, two complex<float> products at ~0.5 of a double one each (N = 255, c = 2:
// ‖δB‖_F ≤ 2.9e-11, the sweeps after the second). Measured at N = 255 with ‖δB‖_F ~ 1e-13: the
// corrected Δ within 2e-18 ‖W₀‖_F of the full one, at 1.0 product against 3.6. Enabled for
// dynamic sizes (N > 15), where the products dominate.
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <complex>
#include <limits>
#include <utility>

namespace geomint::detail {

/// x = A⁻¹b from lu = LU(A), for square b: from 64 columns on, in two independent halves of
/// columns, run on two threads when OpenMP is on and Eigen runs on more than one.
template <class LU, class B, class X>
void solve_in_column_halves(const LU& lu, const B& b, X& x) {
  const int n = static_cast<int>(b.cols());
  if (n < 64) {
    x = lu.solve(b);
    return;
  }
  const int half = n / 2;
#if defined(_OPENMP)
#pragma omp parallel for num_threads(2) schedule(static) if (Eigen::nbThreads() > 1)
#endif
  for (int part = 0; part < 2; ++part) {
    const int first = part == 0 ? 0 : half, count = part == 0 ? half : n - half;
    x.middleCols(first, count) = lu.solve(b.middleCols(first, count));
  }
}

template <class Matrix>
class cayley_congruence {
  using complex = std::complex<double>;
  using single = Eigen::Matrix<std::complex<float>, Matrix::RowsAtCompileTime, Matrix::ColsAtCompileTime>;
  static constexpr bool correctable = Matrix::RowsAtCompileTime == Eigen::Dynamic;

 public:
  /// W₀ for the following calls (Hermitian); forgets the reference. The first W₀ of a size
  /// sizes every work matrix, so that no later call allocates.
  template <class W>
  void prepare(W&& w0) {
    w0_ = std::forward<W>(w0);
    const Eigen::Index n = w0_.rows();
    if (out_.rows() != n) {
      for (Matrix* m : {&a_, &b_, &e_, &x_, &y_, &out_, &db_, &base_b_, &m_, &r_, &y_full_, &t_}) m->resize(n, n);
      for (single* m : {&m_single_, &r_single_, &db_single_, &t_single_, &d_single_}) m->resize(n, n);
      lu_ = Eigen::PartialPivLU<Matrix>(n);
    }
    has_reference_ = false;
  }

  /// The lower triangle of Δ_c(B) (the upper one is not written); valid until the next call.
  const Matrix& increment(const Matrix& b, int c) {
    if constexpr (correctable) {
      if (has_reference_ && try_correction(b, c)) return out_;
    }
    evaluate(b);
    reference_increment(c);
    base_b_ = b;
    base_c_ = c;
    base_distance_ = 0;
    return out_;
  }

  /// Calls answered by a correction since construction, in double / in single precision.
  long double_corrections() const { return corrections_[0]; }
  long single_corrections() const { return corrections_[1]; }

 private:
  /// Δ_c(b) from the base (or, for another c, from the reference) if the bounds above allow.
  bool try_correction(const Matrix& b, int c) {
    const double eps = std::numeric_limits<double>::epsilon(), u_single = std::numeric_limits<float>::epsilon() / 2;
    double from = base_distance_;
    if (c == base_c_) {
      db_ = b - base_b_;
    } else {
      db_ = b - b_;
      from = 0;
      reference_increment(c);
    }
    const double step = db_.norm();
    if (!((2 * c + c * c) * step * (step + 2 * from) <= eps / 4)) return false;  // (a NaN too: full evaluation)
    prepare_corrections(c);
    const bool in_single = std::sqrt(double(w0_.rows())) * u_single * c * step <= eps / 4;
    if (in_single) {
      db_single_ = db_.template cast<std::complex<float>>();
      t_single_.noalias() = db_single_ * r_single_;
      d_single_.noalias() = m_single_ * t_single_;
      out_.template triangularView<Eigen::Lower>() += (double(c) * (d_single_ + d_single_.adjoint())).template cast<complex>();
    } else {
      t_.noalias() = db_ * r_;
      a_.noalias() = m_ * t_;  // D / c
      out_.template triangularView<Eigen::Lower>() += double(c) * (a_ + a_.adjoint());
    }
    ++corrections_[in_single];
    base_b_ = b;
    base_c_ = c;
    base_distance_ = from + step;
    return true;
  }

  /// out_ = Δ_c(B_r) = c(X_r + X_r†) + c²Y_r, lower triangle.
  void reference_increment(int c) {
    out_ = double(c) * (x_ + x_.adjoint());
    out_.template triangularView<Eigen::Lower>() += double(c * c) * y_;
  }

  /// M_r = 1 + e_r and R_c = W₀ + X_r + c(X_r† + Y_r), in double and single precision.
  void prepare_corrections(int c) {
    if (!corrections_ready_) {
      m_ = e_;
      m_.diagonal().array() += 1.0;
      m_single_ = m_.template cast<std::complex<float>>();
      y_full_ = y_.template selfadjointView<Eigen::Lower>();
      corrections_ready_ = true;
      r_c_ = 0;
    }
    if (r_c_ != c) {
      r_ = w0_ + x_ + double(c) * (x_.adjoint() + y_full_);
      r_single_ = r_.template cast<std::complex<float>>();
      r_c_ = c;
    }
  }

  /// The reference at b: e = (1 − B)⁻¹B, X = eW₀, Y = Xe† (lower triangle).
  void evaluate(const Matrix& b) {
    const int n = static_cast<int>(b.rows());
    b_ = b;
    a_ = -b_;
    a_.diagonal().array() += 1.0;
    lu_.compute(a_);
    e_.resize(n, n);
    solve_in_column_halves(lu_, b_, e_);
    x_.noalias() = e_ * w0_;
    y_.resize(n, n);
    y_.template triangularView<Eigen::Lower>() = x_ * e_.adjoint();
    has_reference_ = true;
    corrections_ready_ = false;
  }

  Matrix w0_, a_, b_, e_, x_, y_, out_;  // reference and result
  Matrix db_, base_b_, m_, r_, y_full_, t_;  // corrections
  Eigen::PartialPivLU<Matrix> lu_;
  single m_single_, r_single_, db_single_, t_single_, d_single_;
  double base_distance_ = 0;
  int base_c_ = 0, r_c_ = 0;
  bool has_reference_ = false, corrections_ready_ = false;
  long corrections_[2] = {0, 0};
};

}  // namespace geomint::detail
