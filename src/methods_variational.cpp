// The variational family (Marsden–Wendlandt 1997): the one-step discrete Euler–Lagrange
// steppers and SHAKE, on the separable problems with dense G through lagrangian_view.
#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "cli/method_list.hpp"
#include "geomint/constrained/rattle.hpp"
#include "geomint/system/separable_lagrangian.hpp"
#include "geomint/variational/shake.hpp"
#include "geomint/variational/variational_first_order.hpp"
#include "geomint/variational/variational_midpoint.hpp"

namespace geomint::cli {
namespace {

/// A one-step DEL stepper on the Lagrangian view L = ½q̇ᵀMq̇ − V of a separable system; the
/// state (q, p) is the constrained system's.
template <class Stepper, class System>
runner_factory del_runner() {
  return [](const problem_instance& p) -> std::unique_ptr<runner> {
    const auto& problem = as_problem<System>(p);
    return std::make_unique<stepper_runner<lagrangian_view<System>, Stepper>>(lagrangian_view<System>(problem.system()),
                                                                             problem.start());
  };
}

/// SHAKE on x = (q_{k−1}, q_k): the first step is RATTLE's (its positions are SHAKE's), and the
/// reported state is (q_k, p_k) with p_k from the discrete Legendre transform (shake_momentum).
template <class System>
class shake_runner final : public runner {
  using state_type = typename System::state_type;
  using positions = std::pair<typename state_type::first_type, typename state_type::first_type>;

 public:
  shake_runner(const System& sys, const state_type& x0) : sys_(sys), x0_(x0) {}
  void step(double t, double dt) override {
    if (!started_) {
      state_type x = x0_;
      rattle<state_type>().do_step(sys_, x, t, dt);
      pair_ = {x0_.first, x.first};
      started_ = true;
    } else {
      shake_.do_step(sys_, pair_, t, dt);
    }
    h_ = dt;
  }
  void state(std::vector<double>& out) const override {
    if (!started_) return pack(x0_, out);
    pack(std::make_pair(pair_.second, shake_momentum(sys_, pair_.first, pair_.second, h_)), out);
  }

 private:
  System sys_;
  state_type x0_;
  positions pair_;
  shake<positions> shake_;
  bool started_ = false;
  double h_ = 0;
};

const registration methods_variational([] {
  for_each_separable_dense_problem([&](auto tag, const char* name) {
    using system = typename decltype(tag)::type;
    using state = typename system::state_type;
    add_method(catalogued<variational_midpoint<state>>("variational_midpoint_2_1"), name, del_runner<variational_midpoint<state>, system>());
    add_method(catalogued<variational_first_order<state>>("variational_first_order_1_1"), name, del_runner<variational_first_order<state>, system>());
    add_method(catalogued<shake<state>>("variational_shake_2_1"), name, [](const problem_instance& p) -> std::unique_ptr<runner> {
      const auto& problem = as_problem<system>(p);
      return std::make_unique<shake_runner<system>>(problem.system(), problem.start());
    });
  });
});

}  // namespace
}  // namespace geomint::cli
