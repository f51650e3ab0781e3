// Problems of the Riemannian family (Leimkuhler–Patrick 1996) shared by their registration and
// method translation units: the heavy top on SO(3), whose state (q ∈ SO(3) as 9 numbers, body
// momentum p ∈ ℝ³) is not a constrained system's, gets its own problem_instance.
#pragma once

#include "cli/hamiltonian_problem.hpp"
#include "geomint/problems/double_spherical_pendulum_s2.hpp"
#include "geomint/problems/heavy_top_so3.hpp"
#include "geomint/problems/particle_on_ellipsoid.hpp"

namespace geomint::cli {

class heavy_top_so3_problem final : public problem_instance {
 public:
  using system_type = problems::heavy_top_so3;
  using state_type = system_type::state_type;

  heavy_top_so3_problem(const system_type& sys, const state_type& x0) : sys_(sys), x0_(x0) {}
  const system_type& system() const { return sys_; }
  const state_type& start() const { return x0_; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) n.push_back("R" + std::to_string(j) + std::to_string(i));  // column-major
    for (const char* p : {"Pi1", "Pi2", "Pi3"}) n.push_back(p);
    return n;
  }
  /// Energy, the distance of q from SO(3) (as a constraint residual), and k·(q Π), conserved.
  std::vector<invariant> invariants() const override {
    return {{"energy", invariant_kind::energy}, {"orthogonality", invariant_kind::constraint},
            {"Lz_spatial", invariant_kind::momentum}};
  }
  std::vector<double> initial_state() const override {
    std::vector<double> s;
    pack(x0_, s);
    return s;
  }
  void evaluate_invariants(const std::vector<double>& s, std::vector<double>& out) const override {
    const vector<9> q = Eigen::Map<const vector<9>>(s.data());
    const vector<3> p = Eigen::Map<const vector<3>>(s.data() + 9);
    out = {sys_.hamiltonian(q, p), sys_.space().point_residual(q), system_type::spatial_momentum(q, p)(2)};
  }

 private:
  system_type sys_;
  state_type x0_;
};

}  // namespace geomint::cli
