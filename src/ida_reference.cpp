// The IDA reference (geomint::sundials, stabilized index-2 GGL formulation) on every
// constrained problem: the DAE is built from the same system object the steppers use.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "cli/constrained_problems.hpp"
#include "cli/hamiltonian_problem.hpp"
#include "geomint/sundials/ida_reference.hpp"

namespace geomint::cli {
namespace {

/// The GGL DAE as IDA sees it, with one addition: every residual evaluation first reports the
/// time reached (req.progress), and when that asks to stop (SIGINT, SIGTERM) the residual fails
/// unrecoverably, so that IDA returns at once (IDA_RES_FAIL) instead of finishing its run.
class stoppable_dae final : public sundials::detail::dae_model {
 public:
  stoppable_dae(sundials::detail::dae_model& model, const reference_request& req) : model_(model), req_(req) {}
  bool stopped() const { return stopped_; }

  int size() const override { return model_.size(); }
  const Eigen::VectorXd& initial_y() const override { return model_.initial_y(); }
  const Eigen::VectorXd& initial_yp() const override { return model_.initial_yp(); }
  const Eigen::VectorXd& differential() const override { return model_.differential(); }
  double multiplier_scale() const override { return model_.multiplier_scale(); }
  int residual(double t, const double* y, const double* yp, double* r) noexcept override {
    if (!req_.progress(t)) {
      stopped_ = true;
      return -1;
    }
    return model_.residual(t, y, yp, r);
  }
  int jacobian(double t, double cj, const double* y, const double* yp,
               Eigen::SparseMatrix<double>& jac) noexcept override {
    return model_.jacobian(t, cj, y, yp, jac);
  }
  void extract(const double* y, Eigen::VectorXd& q, Eigen::VectorXd& p, Eigen::VectorXd& lambda) const override {
    model_.extract(y, q, p, lambda);
  }
  const std::string& error() const override { return stopped_ ? stop_message_ : model_.error(); }

 private:
  sundials::detail::dae_model& model_;
  const reference_request& req_;
  bool stopped_ = false;
  const std::string stop_message_ = "stopped (interrupted)";
};

template <class System>
reference_result solve_ggl(const problem_instance& instance, const reference_request& req) {
  const auto& problem = as_problem<System>(instance);
  reference_result result;
  if (req.sample_times.empty()) return result;
  sundials::ida_options o;
  o.formulation = sundials::dae_formulation::ggl;
  o.linear_solver = system_traits<System>::sparse_jacobian ? sundials::ida_linear_solver::klu
                                                           : sundials::ida_linear_solver::dense;
  o.rtol = o.atol = req.tolerance;
  o.output_times = req.sample_times;
  // sundials::solve_ida, with the model wrapped.
  const auto& sys = unwrap_system(problem.system());
  sundials::detail::constrained_dae<std::decay_t<decltype(sys)>> ggl(sys, true, problem.start().first,
                                                                      problem.start().second, 0.0);
  stoppable_dae model(ggl, req);
  const sundials::ida_result r = sundials::detail::run_ida(model, 0.0, o);
  result.steps = r.statistics.steps;
  result.cpu_seconds = r.cpu_seconds;
  result.stopped = model.stopped();
  result.ok = r.ok() || result.stopped;
  if (!result.ok) result.error = r.flag_name + ": " + r.message;
  std::vector<double> state;
  for (const auto& s : r.samples) {
    state.resize(static_cast<std::size_t>(s.q.size() + s.p.size()));
    Eigen::Map<Eigen::VectorXd>(state.data(), s.q.size()) = s.q;
    Eigen::Map<Eigen::VectorXd>(state.data() + s.q.size(), s.p.size()) = s.p;
    req.sample(s.t, state);
  }
  return result;
}

const registration ida_reference([] {
  for_each_constrained_problem([](auto tag, const char* name) {
    add_reference("ida_ggl", "SUNDIALS IDA on the stabilized index-2 (GGL) DAE, built by geomint::sundials", name,
                  solve_ggl<typename decltype(tag)::type>);
  });
});

}  // namespace
}  // namespace geomint::cli
