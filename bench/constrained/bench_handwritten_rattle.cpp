// geomint::rattle on the double spherical pendulum against a minimal hand-written RATTLE loop
// for that problem: fixed-size Eigen, the same algorithm (SHAKE iteration on the 2 × 2 system
// G(q0)M⁻¹G(q0)ᵀ for the positions, one 2 × 2 solve for the momenta, G and ∇V reused from the
// previous step). Target: geomint ≤ 1.3× the hand-written loop.
#include <cmath>
#include <cstdio>

#include "bench_timing.hpp"
#include "geomint/constrained/constrained_symplectic_euler.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/consistency.hpp"
#include "geomint/system/forced_system.hpp"
#include "geomint/system/separable_system.hpp"
#include "geomint/tableau/collocation.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"

using Eigen::Matrix;
using vec6 = Matrix<double, 6, 1>;
using vec2 = Matrix<double, 2, 1>;
using jac = Matrix<double, 2, 6>;

/// Hand-written RATTLE for the double spherical pendulum in absolute coordinates.
class handwritten_rattle {
 public:
  handwritten_rattle(double m1, double m2, double l1, double l2, double g) : l1_(l1), l2_(l2) {
    minv_ << 1 / m1, 1 / m1, 1 / m1, 1 / m2, 1 / m2, 1 / m2;
    grad_ << 0, 0, m1 * g, 0, 0, m2 * g;
  }
  void start(const vec6& q) {
    jacobian(q, g0_);
    s0_.compute(g0_ * minv_.asDiagonal() * g0_.transpose());
  }
  void step(vec6& q, vec6& p, double h) {
    // positions: Q = q + h M⁻¹ (p − h/2 (∇V + G0ᵀλ)), g(Q) = 0, SHAKE iteration with S0
    const vec6 free = q + h * minv_.cwiseProduct(p - 0.5 * h * grad_);
    const Matrix<double, 6, 2> w = minv_.asDiagonal() * g0_.transpose();
    vec2 mu = mu_;  // μ = h²λ/2, warm start
    vec6 qn = free - w * mu;
    for (int it = 0; it < 50; ++it) {
      const vec2 r = constraint(qn);
      const vec2 d = s0_.solve(r);
      mu += d;
      qn.noalias() -= w * d;
      if (d.cwiseAbs().maxCoeff() * w.cwiseAbs().maxCoeff() <= 1e-15 * qn.cwiseAbs().maxCoeff()) break;
    }
    mu_ = mu;
    // momenta: p̂ = p − h/2(∇V(q) + G0ᵀλ) − h/2 ∇V(Q), then project onto G(Q)M⁻¹p = 0
    vec6 ph = p - h * grad_ - (1 / h) * (g0_.transpose() * mu);
    jacobian(qn, g0_);
    s0_.compute(g0_ * minv_.asDiagonal() * g0_.transpose());
    const vec2 nu = s0_.solve(g0_ * minv_.cwiseProduct(ph));
    p = ph - g0_.transpose() * nu;
    q = qn;
  }

 private:
  vec2 constraint(const vec6& q) const {
    return vec2(q.head<3>().squaredNorm() - l1_ * l1_, (q.tail<3>() - q.head<3>()).squaredNorm() - l2_ * l2_);
  }
  static void jacobian(const vec6& q, jac& g) {
    const Eigen::Vector3d d = q.tail<3>() - q.head<3>();
    g << 2 * q(0), 2 * q(1), 2 * q(2), 0, 0, 0, -2 * d(0), -2 * d(1), -2 * d(2), 2 * d(0), 2 * d(1), 2 * d(2);
  }
  double l1_, l2_;
  vec6 minv_, grad_;
  jac g0_;
  vec2 mu_ = vec2::Zero();
  Eigen::LDLT<Eigen::Matrix2d> s0_;
};

int main() {
  const geomint::problems::double_spherical_pendulum dsp;
  const auto& prm = dsp.parameters();
  const double dt = 0.001;
  using state = geomint::problems::double_spherical_pendulum::state_type;

  {  // Same algorithm: trajectories agree to round-off (over 1 s; the motion is chaotic, so
     // round-off differences grow like e^{λt} over longer times).
    state a = dsp.initial_state(), b = a;
    geomint::rattle<state> st;
    handwritten_rattle hw(prm.m1, prm.m2, prm.l1, prm.l2, prm.gravity);
    hw.start(b.first);
    for (int i = 0; i < 1000; ++i) {
      st.do_step(dsp, a, i * dt, dt);
      hw.step(b.first, b.second, dt);
    }
    std::printf("double spherical pendulum, dt = %g: after 1000 steps |q_geomint - q_handwritten| = %.2e\n\n", dt,
                (a.first - b.first).norm());
  }

  state a = dsp.initial_state(), b = a;
  geomint::rattle<state> st;
  handwritten_rattle hw(prm.m1, prm.m2, prm.l1, prm.l2, prm.gravity);
  hw.start(b.first);
  double ta = 0;
  const auto t = bench::side_by_side({[&](long s) { for (long i = 0; i < s; ++i, ta += dt) st.do_step(dsp, a, ta, dt); },
                                      [&](long s) { for (long i = 0; i < s; ++i) hw.step(b.first, b.second, dt); }},
                                     20000, 15);
  std::printf("%-58s %8s %8s   (time per step, ns: geomint %.0f, hand-written %.0f)\n", "ratio", "min", "median",
              1e9 * t[0].median, 1e9 * t[1].median);
  bench::print_ratio("geomint::rattle / hand-written RATTLE", t[0], t[1], 1.3);
  bench::keep(a);
  bench::keep(b);
  return 0;
}
