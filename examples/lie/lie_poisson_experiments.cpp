// The numerical experiments of Engø–Faltinsen 1999 §6 (Figs. 3, 4, 5, 7, 9), every method in
// exponential and Cayley coordinates, plus the Moser–Veselov maps (McLachlan–Scovel 1994 §6.1–6.2)
// and the Lie–Poisson leapfrog (Leimkuhler–Patrick 1996 §5.2) on the same problems:
//   rigid body on so(3)*        (§6.1: I = diag(7/8, 5/8, 1/4), y₀ = (0.875, 0.625, 0.25))
//   heavy top on se(3)*         (§6.2: M = 1, g = 9.81, l = √3/2, I = diag(7, 7, 2)/8, χ = e₃)
//   sine-Euler on su(3)*        (§6.3, (6.32), random complex initial vorticity), su(7)
//   free rigid body on so(5)*   (McLachlan–Scovel §6.1)
// For each method: the largest relative Casimir error (against the scale of the Casimir's terms,
// as su_n/se3 casimir_scales), the largest relative energy error over [0, T/10] and over [0, T]
// (a drift shows as a tenfold growth, a bounded error as none), and for the heavy top the third
// integral u₃ (I₁ = I₂, χ = e₃: "the last remaining first integral" of §6.2).
//
//   lie_poisson_experiments [T] [h]      (default T = 25, h = 0.1, as in the paper)
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "geomint/lie/cayley_coordinates.hpp"
#include "geomint/lie/lie_discrete_gradient.hpp"
#include "geomint/lie/lie_poisson_leapfrog.hpp"
#include "geomint/lie/moser_veselov.hpp"
#include "geomint/lie/rkmk.hpp"
#include "geomint/problems/free_rigid_body.hpp"
#include "geomint/problems/heavy_top_se3.hpp"
#include "geomint/problems/rigid_body_so_n.hpp"
#include "geomint/problems/sine_euler.hpp"

using namespace geomint;

namespace {

struct errors {
  double casimir = 0, energy_short = 0, energy = 0, third = 0;
};

/// Steps [0, T] with step h and returns the largest errors. `third(y)` is an extra integral
/// (its absolute error is reported), or nullptr.
template <class Stepper, class System>
errors run(Stepper stepper, const System& sys, typename System::state_type y, double t_end, double h,
           double (*third)(const typename System::state_type&) = nullptr) {
  const auto& a = geomint::detail::algebra_of(sys);
  const auto c0 = a.casimirs(y);
  const auto scale = a.casimir_scales(y);
  const double h0 = sys.hamiltonian(y), i0 = third ? third(y) : 0;
  const long n = std::lround(t_end / h), n_short = n / 10;
  errors e;
  for (long k = 0; k < n; ++k) {
    stepper.do_step(sys, y, k * h, h);
    e.casimir = std::fmax(e.casimir, (a.casimirs(y) - c0).cwiseAbs().cwiseQuotient(scale).maxCoeff());
    const double de = std::fabs(sys.hamiltonian(y) - h0) / std::fabs(h0);
    e.energy = std::fmax(e.energy, de);
    if (k < n_short) e.energy_short = e.energy;
    if (third) e.third = std::fmax(e.third, std::fabs(third(y) - i0));
  }
  return e;
}

void print(const char* method, const errors& e, bool third = false) {
  std::printf("  %-36s %11.2e %13.2e %13.2e", method, e.casimir, e.energy_short, e.energy);
  if (third) std::printf(" %11.2e", e.third);
  std::printf("\n");
}

void header(const char* problem, bool third = false) {
  std::printf("\n%s\n  %-36s %11s %13s %13s%s\n", problem, "method", "Casimirs", "energy[0,T/10]", "energy[0,T]",
              third ? "          u3" : "");
}

/// RKMK with tableau Tag in both coordinates.
template <class Tag, class System>
void rkmk_both(const char* name, const System& sys, const typename System::state_type& y0, double t_end, double h,
               double (*third)(const typename System::state_type&) = nullptr) {
  using A = typename System::algebra_type;
  char label[64];
  std::snprintf(label, sizeof label, "rkmk %s, exp", name);
  print(label, run(rkmk<A, Tag, exp_coordinates>{}, sys, y0, t_end, h, third), third != nullptr);
  std::snprintf(label, sizeof label, "rkmk %s, Cayley", name);
  print(label, run(rkmk<A, Tag, cayley_coordinates>{}, sys, y0, t_end, h, third), third != nullptr);
}

/// The energy-conserving trapezoidal rule (discrete gradient, Theorem 2) in both coordinates.
template <class System>
void trapezoidal_both(const System& sys, const typename System::state_type& y0, double t_end, double h,
                      double (*third)(const typename System::state_type&) = nullptr) {
  using A = typename System::algebra_type;
  print("lie_discrete_gradient trap., exp", run(lie_discrete_gradient<A, exp_coordinates>{}, sys, y0, t_end, h, third),
        third != nullptr);
  print("lie_discrete_gradient trap., Cayley",
        run(lie_discrete_gradient<A, cayley_coordinates>{}, sys, y0, t_end, h, third), third != nullptr);
}

double u3(const vector<6>& y) { return y(2); }

}  // namespace

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 25.0, h = argc > 2 ? std::atof(argv[2]) : 0.1;
  std::printf("Engø–Faltinsen 1999 §6 experiments, T = %g, h = %g\n", t_end, h);
  std::printf("maxima over every step: Casimirs |C - C0| / scale(C), energy |H - H0| / |H0|\n");

  const problems::free_rigid_body body;
  const auto y_body = problems::free_rigid_body::engo_faltinsen_initial_state();
  header("rigid body on so(3)* (Figs. 3 and 4)");
  rkmk_both<rk::implicit_midpoint>("GL2", body, y_body, t_end, h);
  rkmk_both<rk::heun>("Heun", body, y_body, t_end, h);
  trapezoidal_both(body, y_body, t_end, h);
  rkmk_both<rk::rk4>("RK4", body, y_body, t_end, h);
  print("moser_veselov", run(moser_veselov<so3>{}, body, y_body, t_end, h));
  print("lie_poisson_leapfrog", run(lie_poisson_leapfrog<so3>{}, body, y_body, t_end, h));

  const problems::heavy_top_se3 top;
  const auto y_top = problems::heavy_top_se3::engo_faltinsen_initial_state();
  header("heavy top on se(3)* (Fig. 5)", true);
  trapezoidal_both(top, y_top, t_end, h, u3);
  rkmk_both<rk::implicit_midpoint>("GL2", top, y_top, t_end, h, u3);
  rkmk_both<rk::rk4>("RK4", top, y_top, t_end, h, u3);
  print("moser_veselov (reduced RATTLE)", run(moser_veselov<se3>{}, top, y_top, t_end, h, u3), true);
  print("moser_veselov (constraint, order 1)", run(moser_veselov<se3, heavy_top_scheme::constraint>{}, top, y_top, t_end, h, u3), true);

  const problems::sine_euler<3> fluid;
  const auto y_fluid = problems::sine_euler<3>::random_initial_state();
  header("sine-Euler on su(3)* (Figs. 7 and 9)");
  rkmk_both<rk::implicit_midpoint>("GL2", fluid, y_fluid, t_end, h);
  rkmk_both<rk::heun>("Heun", fluid, y_fluid, t_end, h);
  trapezoidal_both(fluid, y_fluid, t_end, h);
  rkmk_both<rk::rk4>("RK4", fluid, y_fluid, t_end, h);
  print("lie_poisson_leapfrog", run(lie_poisson_leapfrog<su_n<3>>{}, fluid, y_fluid, t_end, h));

  const problems::sine_euler<7> fluid7;
  const auto y_fluid7 = problems::sine_euler<7>::random_initial_state();
  header("sine-Euler on su(7)* (48 modes)");
  rkmk_both<rk::rk4>("RK4", fluid7, y_fluid7, t_end, h);
  print("lie_discrete_gradient trap., exp", run(lie_discrete_gradient<su_n<7>>{}, fluid7, y_fluid7, t_end, h));
  print("lie_poisson_leapfrog", run(lie_poisson_leapfrog<su_n<7>>{}, fluid7, y_fluid7, t_end, h));

  const problems::rigid_body_so_n<5> body5;
  const auto y_body5 = problems::rigid_body_so_n<5>::initial_state();
  header("free rigid body on so(5)*");
  rkmk_both<rk::implicit_midpoint>("GL2", body5, y_body5, t_end, h);
  trapezoidal_both(body5, y_body5, t_end, h);
  rkmk_both<rk::rk4>("RK4", body5, y_body5, t_end, h);
  print("moser_veselov", run(moser_veselov<so_n<5>>{}, body5, y_body5, t_end, h));
  print("lie_poisson_leapfrog", run(lie_poisson_leapfrog<so_n<5>>{}, body5, y_body5, t_end, h));
  return 0;
}
