/* The slider crank of SUNDIALS' IDA example idaSlCrank_dns (after E. J. Haug, Intermediate
 * Dynamics, 1992, Example 6.1.8), shared by the geomint program (slider_crank.c) and the IDA-only
 * one (slider_crank_ida.c) so that both integrate the same model.
 *
 * A crank (angle theta, moment of inertia J1, half-length a) drives a connecting rod (angle phi,
 * mass m2, moment of inertia J2) whose end slides along the x axis (position x). Generalized
 * coordinates q = (theta, x, phi), constant mass matrix M = diag(J1, m2, J2), two constraints
 *   g(q) = (x - cos phi - a cos theta,  -sin phi - a sin theta) = 0.
 * Forces: a spring-damper (TSDA) between crank and rod of stiffness k, damping c and free length
 * l0, its length l given by
 *   l^2 = x^2 - x (cos phi + a cos theta) + (1 + a^2)/4 + (a/2) cos(phi - theta),
 * and a constant horizontal force F on the rod. The spring and F are conservative:
 *   V(q) = k (l - l0)^2 / 2 - F (x + cos phi),
 * so H = p^T M^-1 p / 2 + V(q) is what geomint integrates. The damper's generalized force
 * -c (dl/dt) grad l depends on the velocity: it is not a gradient. */
#ifndef SLIDER_CRANK_MODEL_H
#define SLIDER_CRANK_MODEL_H

#include <math.h>

typedef struct {
  double a;         /* half-length of the crank             */
  double J1;        /* crank moment of inertia               */
  double m2, J2;    /* mass and moment of inertia of the rod */
  double k, c, l0;  /* spring constant, damper constant, spring free length */
  double F;         /* constant force on the rod             */
} SliderCrank;

/* The parameters of idaSlCrank_dns. */
static inline SliderCrank slider_crank_parameters(void) {
  SliderCrank s = {0.5, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0};
  return s;
}

/* The mass matrix' diagonal. */
static inline void slider_crank_masses(const SliderCrank* s, double* m) {
  m[0] = s->J1;
  m[1] = s->m2;
  m[2] = s->J2;
}

/* The start of idaSlCrank_dns: crank upright (theta = pi/2), phi and x from g = 0, at rest. */
static inline void slider_crank_initial_positions(const SliderCrank* s, double* q) {
  q[0] = 2 * atan(1.0);
  q[2] = asin(-s->a);
  q[1] = cos(q[2]) + s->a * cos(q[0]);
}

/* The spring's length l and its gradient dl/dq = (d l^2/dq) / (2 l). */
static inline double slider_crank_spring(const SliderCrank* s, const double* q, double* dl) {
  const double a = s->a, theta = q[0], x = q[1], phi = q[2];
  const double l2 = x * x - x * (cos(phi) + a * cos(theta)) + (1 + a * a) / 4 + a * cos(phi - theta) / 2;
  const double l = sqrt(l2);
  dl[0] = (a * x * sin(theta) + a * sin(phi - theta) / 2) / (2 * l);
  dl[1] = (2 * x - cos(phi) - a * cos(theta)) / (2 * l);
  dl[2] = (x * sin(phi) - a * sin(phi - theta) / 2) / (2 * l);
  return l;
}

static inline double slider_crank_potential(const SliderCrank* s, const double* q) {
  double dl[3];
  const double l = slider_crank_spring(s, q, dl);
  return s->k * (l - s->l0) * (l - s->l0) / 2 - s->F * (q[1] + cos(q[2]));
}

/* grad V = k (l - l0) grad l - F (0, 1, -sin phi). */
static inline void slider_crank_potential_gradient(const SliderCrank* s, const double* q, double* out) {
  double dl[3];
  const double stretch = s->k * (slider_crank_spring(s, q, dl) - s->l0);
  out[0] = stretch * dl[0];
  out[1] = stretch * dl[1] - s->F;
  out[2] = stretch * dl[2] + s->F * sin(q[2]);
}

/* The damper's generalized force -c (grad l . v) grad l at velocity v = dq/dt. */
static inline void slider_crank_damper_force(const SliderCrank* s, const double* q, const double* v, double* out) {
  double dl[3];
  slider_crank_spring(s, q, dl);
  const double rate = dl[0] * v[0] + dl[1] * v[1] + dl[2] * v[2];
  for (int i = 0; i < 3; ++i) out[i] = -s->c * rate * dl[i];
}

static inline void slider_crank_constraints(const SliderCrank* s, const double* q, double* g) {
  g[0] = q[1] - cos(q[2]) - s->a * cos(q[0]);
  g[1] = -sin(q[2]) - s->a * sin(q[0]);
}

/* G = dg/dq, row-major 2 x 3. */
static inline void slider_crank_jacobian(const SliderCrank* s, const double* q, double G[2][3]) {
  G[0][0] = s->a * sin(q[0]);
  G[0][1] = 1;
  G[0][2] = sin(q[2]);
  G[1][0] = -s->a * cos(q[0]);
  G[1][1] = 0;
  G[1][2] = -cos(q[2]);
}

/* max |g(q)| and max |G(q) v|: how far (q, v) is from the position and velocity constraints. */
static inline void slider_crank_residuals(const SliderCrank* s, const double* q, const double* v, double* g_max,
                                          double* gv_max) {
  double g[2], G[2][3];
  slider_crank_constraints(s, q, g);
  slider_crank_jacobian(s, q, G);
  *g_max = fmax(fabs(g[0]), fabs(g[1]));
  *gv_max = 0;
  for (int k = 0; k < 2; ++k) *gv_max = fmax(*gv_max, fabs(G[k][0] * v[0] + G[k][1] * v[1] + G[k][2] * v[2]));
}

#endif /* SLIDER_CRANK_MODEL_H */
