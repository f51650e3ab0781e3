// c_model / c_stepper for one system type; included by one translation unit per system kind.
#pragma once

#include <limits>
#include <string>

#include "c_model.hpp"
#include "c_state_view.hpp"
#include "c_variational_steppers.hpp"
#include "geomint/constrained/constrained_prk.hpp"
#include "geomint/constrained/hamiltonian_extension.hpp"
#include "geomint/constrained/project_to_manifold.hpp"
#include "geomint/constrained/reich_symmetric.hpp"
#include "geomint/sundials/detail/constrained_dae.hpp"
#include "geomint/tableau/constrained_tableaux.hpp"

namespace geomint::sundials::detail {

template <int S, class System>
class prk_stepper final : public c_stepper {
 public:
  prk_stepper(const System& system, const partitioned_tableau<S>& tableau) : system_(system), stepper_(tableau) {}
  void step(double t, double dt, double* q, double* p) override {
    const int n = system_.position_count();
    state_view x{Eigen::Map<Eigen::VectorXd>(q, n), Eigen::Map<Eigen::VectorXd>(p, n)};
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
class c_interpolant_impl final : public c_interpolant {
  using state = std::pair<Eigen::VectorXd, Eigen::VectorXd>;

 public:
  c_interpolant_impl(const System& system, int order)
      : n_(system.position_count()),
        x0_(Eigen::VectorXd::Zero(n_), Eigen::VectorXd::Zero(n_)),
        x1_(x0_),
        out_(x0_),
        extension_(system, x0_, order) {}
  void begin_step(double t0, const double* q0, const double* p0, double t1, const double* q1,
                  const double* p1) override {
    x0_.first = in(q0);
    x0_.second = in(p0);
    x1_.first = in(q1);
    x1_.second = in(p1);
    // The system's value does not change between steps (a restart from another state at the same
    // time, as after GeomintReInit, is seen by the extension itself).
    extension_.begin_step(x0_, x1_, t0, t1 - t0, true);
  }
  void evaluate(double t, int k, double* q, double* p) override {
    extension_.evaluate(t, out_, k, false);
    Eigen::Map<Eigen::VectorXd>(q, n_) = out_.first;
    Eigen::Map<Eigen::VectorXd>(p, n_) = out_.second;
  }

 private:
  Eigen::Map<const Eigen::VectorXd> in(const double* x) const { return {x, n_}; }
  int n_;
  state x0_, x1_, out_;
  hamiltonian_extension<System, state> extension_;
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
        if constexpr (traits::has_force) throw std::invalid_argument(takes_no_force("GEOMINT_REICH_SYMMETRIC_2"));
        else if constexpr (traits::sparse_jacobian) throw std::invalid_argument(needs_dense("GEOMINT_REICH_SYMMETRIC_2"));
        else return std::make_unique<reich_symmetric_stepper<System>>(system_);
      case GEOMINT_VARIATIONAL_MIDPOINT_2:
      case GEOMINT_SHAKE_2: {
        const char* name = method == GEOMINT_SHAKE_2 ? "GEOMINT_SHAKE_2" : "GEOMINT_VARIATIONAL_MIDPOINT_2";
        if constexpr (traits::has_force) throw std::invalid_argument(takes_no_force(name));
        else if constexpr (!traits::separable)
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
  constraint_residuals residuals(double t, const double* q, const double* p) const override {
    return constraint_residuals_of(system_, in(q), in(p), t);
  }
  double energy(double t, const double* q, const double* p) const override {
    return system_.hamiltonian(t, in(q), in(p));
  }
  void multipliers(double t, const double* q, const double* p, double* lambda, double* mu) const override {
    const int n = system_.position_count(), m = system_.constraint_count();
    const Eigen::VectorXd qv = in(q), pv = in(p);
    // λ: the GGL DAE's consistent multipliers at (q, p) (constrained_dae.hpp: G H_pp Gᵀ λ =
    // d/dt [G H_p] without the constraint force, refined); checks that (q, p) is consistent.
    const constrained_dae<System> dae(system_, true, qv, pv, t);
    Eigen::VectorXd q_out, p_out, lambda_out;
    dae.extract(dae.initial_y().data(), q_out, p_out, lambda_out);
    Eigen::Map<Eigen::VectorXd>(lambda, m) = lambda_out;
    // μ: from 0 = d/dt g = G (H_p − Gᵀμ), i.e. G Gᵀ μ = G H_p (zero on the manifold).
    typename system_traits<System>::jacobian_type g(m, n);
    system_.constraint_jacobian(t, qv, g);
    Eigen::VectorXd v(n);
    system_.dh_dp(t, qv, pv, v);
    const Eigen::MatrixXd ggt = Eigen::MatrixXd(g * g.transpose());
    Eigen::Map<Eigen::VectorXd>(mu, m) = ggt.ldlt().solve(Eigen::VectorXd(g * v));
  }
  void project(double t, double* q, double* p, bool momenta_only, int max_iterations) const override {
    Eigen::VectorXd qv = in(q), pv = in(p);
    projection_options opt;
    // Momenta only: an infinite position tolerance accepts q as it is.
    opt.tolerance = momenta_only ? std::numeric_limits<double>::infinity() : 1e-14;
    opt.max_iterations = max_iterations;
    opt.t = t;
    manifold_projection<System>(system_).project(system_, qv, pv, opt);
    const int n = system_.position_count();
    Eigen::Map<Eigen::VectorXd>(q, n) = qv;
    Eigen::Map<Eigen::VectorXd>(p, n) = pv;
  }
  ida_result solve_ida(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                       const ida_options& options) const override {
    return sundials::solve_ida(system_, q0, p0, t0, options);
  }
  bool separable() const override { return system_traits<System>::separable; }
  std::unique_ptr<c_interpolant> make_interpolant(int order) const override {
    return std::make_unique<c_interpolant_impl<System>>(system_, order);
  }

 private:
  using traits = system_traits<System>;
  Eigen::Map<const Eigen::VectorXd> in(const double* x) const { return {x, system_.position_count()}; }
  static std::string takes_no_force(const char* name) {
    return std::string("geomint: ") + name + " takes no force (GeomintSetForce); the constrained PRK methods (ids 100-105) do";
  }
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
