// The constrained two-stage methods without constraints are explicit; for RATTLE this is
// velocity Verlet:
//   q1 = q0 + M⁻¹(h c_2 p0 − h² B_21 ∇V(q0)),   p1 = p0 − h (b_1 ∇V(q0) + b_2 ∇V(q1)).
// With a cheap force a step is bound by passes over memory: for diagonal masses each half is
// one loop over raw arrays.
#pragma once

#include <cstdint>
#include <cstring>

namespace geomint::detail {

struct explicit_two_stage_coefficients {
  double cq, cg;  // q1 = q0 + M⁻¹(cq p0 − cg ∇V(q0))
  double b1, b2;  // p1 = p0 − b1 ∇V(q0) − b2 ∇V(q1)   (h folded in)
};

/// q1 = q + M⁻¹(cq p − cg g0); `minv(i)` is the i-th inverse mass. With `last` (the last end
/// positions, see reuse::compared_in_advance) also whether q equals it bit for bit, in the same
/// pass (integer XOR/OR, which vectorizes); without, true.
template <class InverseMass>
bool explicit_positions(long n, const double* __restrict q, const double* __restrict p, const double* __restrict g0,
                        InverseMass minv, const explicit_two_stage_coefficients& c, double* __restrict q1,
                        const double* __restrict last) {
  if (!last) {
    for (long i = 0; i < n; ++i) q1[i] = q[i] + minv(i) * (c.cq * p[i] - c.cg * g0[i]);
    return true;
  }
  std::uint64_t differ = 0;
  for (long i = 0; i < n; ++i) {
    std::uint64_t a, b;
    std::memcpy(&a, q + i, sizeof a);
    std::memcpy(&b, last + i, sizeof b);
    differ |= a ^ b;
    q1[i] = q[i] + minv(i) * (c.cq * p[i] - c.cg * g0[i]);
  }
  return differ == 0;
}

/// p1 = p − b1 g0 − b2 g1.
inline void explicit_momenta(long n, const double* __restrict p, const double* __restrict g0,
                             const double* __restrict g1, const explicit_two_stage_coefficients& c,
                             double* __restrict p1) {
  for (long i = 0; i < n; ++i) p1[i] = p[i] - (c.b1 * g0[i] + c.b2 * g1[i]);
}

}  // namespace geomint::detail
