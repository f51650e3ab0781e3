// c_model / c_stepper for one system type; included by one translation unit per system kind.
#pragma once

#include "c_model.hpp"
#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint::sundials::detail {

/// The state as the steppers see it: Eigen::Map views of the memory block's N_Vector data.
using state_view = std::pair<Eigen::Map<Eigen::VectorXd>, Eigen::Map<Eigen::VectorXd>>;

template <int S, class System>
class prk_stepper final : public c_stepper {
 public:
  prk_stepper(const System& system, const partitioned_tableau<S>& tableau) : system_(system), stepper_(tableau) {}
  void step(double t, double dt, double* q, double* p) override {
    const int n = system_.position_count();
    state_view x{Eigen::Map<Eigen::VectorXd>(q, n), Eigen::Map<Eigen::VectorXd>(p, n)};
    system_.set_time(t);
    stepper_.do_step(system_, x, t, dt);
  }
  constrained_options& options() override { return stepper_.options(); }
  const constrained_statistics& statistics() const override { return stepper_.statistics(); }
  int stages() const override { return S; }
  void reset() override { stepper_.reset(); }

 private:
  const System& system_;
  constrained_prk<S, state_view> stepper_;
};

template <class System>
class c_model_impl final : public c_model {
 public:
  explicit c_model_impl(const c_problem& problem) : system_(problem) {}

  std::unique_ptr<c_stepper> make_stepper(int method) const override {
    switch (method) {
      case GEOMINT_CONSTRAINED_RATTLE_2_2: return make<2>(rattle_tableau());
      case GEOMINT_CONSTRAINED_LOBATTO_2_2: return make<2>(lobatto_iiia_iiib_tableau<2>());
      case GEOMINT_CONSTRAINED_LOBATTO_4_3: return make<3>(lobatto_iiia_iiib_tableau<3>());
      case GEOMINT_CONSTRAINED_LOBATTO_6_4: return make<4>(lobatto_iiia_iiib_tableau<4>());
      case GEOMINT_CONSTRAINED_LOBATTO_8_5: return make<5>(lobatto_iiia_iiib_tableau<5>());
      case GEOMINT_CONSTRAINED_SYMPLECTIC_EULER_1_2: return make<2>(constrained_symplectic_euler_tableau());
      default: return nullptr;
    }
  }
  constraint_residuals residuals(const double* q, const double* p) const override {
    const int n = system_.position_count();
    return constraint_residuals_of(system_, Eigen::Map<const Eigen::VectorXd>(q, n), Eigen::Map<const Eigen::VectorXd>(p, n));
  }
  double energy(const double* q, const double* p) const override {
    const int n = system_.position_count();
    return system_.hamiltonian(Eigen::Map<const Eigen::VectorXd>(q, n), Eigen::Map<const Eigen::VectorXd>(p, n));
  }
  ida_result solve_ida(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                       const ida_options& options) const override {
    return sundials::solve_ida(system_, q0, p0, t0, options);
  }
  bool separable() const override { return system_traits<System>::separable; }

 private:
  template <int S>
  std::unique_ptr<c_stepper> make(const partitioned_tableau<S>& tableau) const {
    return std::make_unique<prk_stepper<S, System>>(system_, tableau);
  }

  System system_;
};

}  // namespace geomint::sundials::detail
