// The constrained two-stage methods without constraints are explicit; for RATTLE this is
// velocity Verlet:
//   q1 = q0 + M⁻¹(h c_2 p0 − h² B_21 ∇V(q0)),   p1 = p0 − h (b_1 ∇V(q0) + b_2 ∇V(q1)).
// With a cheap force a step is bound by passes over memory, so this kernel for diagonal
// masses fuses its checks into three loops: (1) q1 together with the test that the state is
// exactly the previous step's end point (then ∇V(q0) is reused), (2) the finiteness test of q1
// and ∇V(q1), (3) the in-place update of (q, p). The tests use integer bit operations and x − x,
// which vectorize; the state is untouched until both tests passed.
#pragma once

#include <cstdint>
#include <cstring>

namespace geomint::detail {

inline std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct explicit_two_stage_coefficients {
  double cq, cg;  // q1 = q0 + M⁻¹(cq p0 − cg ∇V(q0))
  double b1, b2;  // p1 = p0 − b1 ∇V(q0) − b2 ∇V(q1)   (h folded in)
};

/// Loop (1): q1 = q + M⁻¹(cq p − cg g0); `minv(i)` is the i-th inverse mass. Returns whether q
/// equals `q1` on entry, bit for bit. Four independent accumulators, see finite_entries.
template <class InverseMass>
bool explicit_positions(long n, const double* q, const double* p, const double* g0, InverseMass minv,
                        const explicit_two_stage_coefficients& c, double* q1) {
  std::uint64_t differ[4] = {0, 0, 0, 0};
  long i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) {
      differ[k] |= bits_of(q[i + k]) ^ bits_of(q1[i + k]);
      q1[i + k] = q[i + k] + minv(i + k) * (c.cq * p[i + k] - c.cg * g0[i + k]);
    }
  for (; i < n; ++i) {
    differ[0] |= bits_of(q[i]) ^ bits_of(q1[i]);
    q1[i] = q[i] + minv(i) * (c.cq * p[i] - c.cg * g0[i]);
  }
  return (differ[0] | differ[1] | differ[2] | differ[3]) == 0;
}

/// Loop (2): every entry of a and b is finite (x − x is +0 for finite x, NaN otherwise). Four
/// independent accumulators keep the loop from waiting on a single OR chain.
inline bool finite_entries(long n, const double* a, const double* b) {
  std::uint64_t bad[4] = {0, 0, 0, 0};
  long i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) bad[k] |= bits_of(a[i + k] - a[i + k]) | bits_of(b[i + k] - b[i + k]);
  for (; i < n; ++i) bad[0] |= bits_of(a[i] - a[i]) | bits_of(b[i] - b[i]);
  return (bad[0] | bad[1] | bad[2] | bad[3]) == 0;
}

/// Loop (3): p ← p − b1 g0 − b2 g1, q ← q1.
inline void explicit_update(long n, const double* q1, const double* g0, const double* g1,
                            const explicit_two_stage_coefficients& c, double* q, double* p) {
  for (long i = 0; i < n; ++i) {
    p[i] -= c.b1 * g0[i] + c.b2 * g1[i];
    q[i] = q1[i];
  }
}

}  // namespace geomint::detail
