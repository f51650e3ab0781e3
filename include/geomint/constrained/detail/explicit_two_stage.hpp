// The constrained two-stage methods without constraints are explicit; for RATTLE this is
// velocity Verlet:
//   q1 = q0 + M⁻¹(h c_2 p0 − h² B_21 ∇V(q0)),   p1 = p0 − h (b_1 ∇V(q0) + b_2 ∇V(q1)).
// With a cheap force a step is bound by passes over memory: for diagonal masses each half is
// one loop over raw arrays.
#pragma once

namespace geomint::detail {

struct explicit_two_stage_coefficients {
  double cq, cg;  // q1 = q0 + M⁻¹(cq p0 − cg ∇V(q0))
  double b1, b2;  // p1 = p0 − b1 ∇V(q0) − b2 ∇V(q1)   (h folded in)
};

/// q1 = q + M⁻¹(cq p − cg g0); `minv(i)` is the i-th inverse mass.
template <class InverseMass>
void explicit_positions(long n, const double* q, const double* p, const double* g0, InverseMass minv,
                        const explicit_two_stage_coefficients& c, double* q1) {
  for (long i = 0; i < n; ++i) q1[i] = q[i] + minv(i) * (c.cq * p[i] - c.cg * g0[i]);
}

/// p1 = p − b1 g0 − b2 g1.
inline void explicit_momenta(long n, const double* p, const double* g0, const double* g1,
                             const explicit_two_stage_coefficients& c, double* p1) {
  for (long i = 0; i < n; ++i) p1[i] = p[i] - (c.b1 * g0[i] + c.b2 * g1[i]);
}

}  // namespace geomint::detail
