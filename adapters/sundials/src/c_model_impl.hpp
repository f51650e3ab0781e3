// c_model / c_stepper for one system type; included by one translation unit per system kind.
#pragma once

#include <string>

#include "c_model.hpp"
#include "c_state_view.hpp"
#include "c_variational_steppers.hpp"
#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint::sundials::detail {

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
  void configure(const constrained_options& options) override { stepper_.options() = options; }
  constrained_statistics statistics() const override { return stepper_.statistics(); }
  bool uses_linear_solver() const override { return true; }
  int stages() const override { return S; }
  void reset() override { stepper_.reset(); }

 private:
  const System& system_;
  constrained_prk<S, state_view> stepper_;
};

/// reich_symmetric (McLachlan–Scovel 1994, §5): any H, dense G; its own small Newton systems.
template <class System>
class reich_symmetric_stepper final : public c_stepper {
 public:
  explicit reich_symmetric_stepper(const System& system) : system_(system) {}
  void step(double t, double dt, double* q, double* p) override {
    const int n = system_.position_count();
    state_view x{Eigen::Map<Eigen::VectorXd>(q, n), Eigen::Map<Eigen::VectorXd>(p, n)};
    system_.set_time(t);
    stepper_.do_step(system_, x, t, dt);
  }
  void configure(const constrained_options& options) override {
    stepper_.options().newton = options.newton;
    stepper_.options().consistency_tolerance = options.consistency_tolerance;
  }
  constrained_statistics statistics() const override { return stepper_.statistics(); }
  bool uses_linear_solver() const override { return false; }
  int stages() const override { return 0; }
  void reset() override { stepper_.reset(); }

 private:
  const System& system_;
  reich_symmetric<state_view> stepper_;
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
      case GEOMINT_REICH_SYMMETRIC_2:
        if constexpr (traits::sparse_jacobian) throw std::invalid_argument(needs_dense("GEOMINT_REICH_SYMMETRIC_2"));
        else return std::make_unique<reich_symmetric_stepper<System>>(system_);
      case GEOMINT_VARIATIONAL_MIDPOINT_2:
      case GEOMINT_SHAKE_2: {
        const char* name = method == GEOMINT_SHAKE_2 ? "GEOMINT_SHAKE_2" : "GEOMINT_VARIATIONAL_MIDPOINT_2";
        if constexpr (!traits::separable)
          throw std::invalid_argument(std::string("geomint: ") + name +
                                      " needs a separable H = ½pᵀM⁻¹p + V(q): declare the masses with GeomintSetMass "
                                      "(callbacks.dh_dq is then ∇V)");
        else if constexpr (traits::sparse_jacobian) throw std::invalid_argument(needs_dense(name));
        else if (method == GEOMINT_SHAKE_2) return std::make_unique<shake_stepper<System>>(system_);
        else return std::make_unique<variational_midpoint_stepper<System>>(system_);
      }
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
  using traits = system_traits<System>;
  static std::string needs_dense(const char* name) {
    return std::string("geomint: ") + name + " needs a dense constraint Jacobian G (a dense SUNMatrix in GeomintSetConstraints)";
  }
  template <int S>
  std::unique_ptr<c_stepper> make(const partitioned_tableau<S>& tableau) const {
    return std::make_unique<prk_stepper<S, System>>(system_, tableau);
  }

  System system_;
};

}  // namespace geomint::sundials::detail
