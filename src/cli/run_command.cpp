// geomint run (one method on one problem, its CSV and section) and geomint ensemble (the request
// handed to ensemble_command.cpp).
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/section_output.hpp"

namespace geomint::cli {

int run_command(const arguments& a) {
  if (a.method.empty()) throw usage_error("run: --method is required");
  if (std::isnan(a.dt)) throw usage_error("run: --dt is required");
  if (std::isnan(a.t_end)) throw usage_error("run: --t-end is required");
  const problem_descriptor& d = find_problem(a.problem);
  const method_descriptor& m = find_method(a.method, a.problem);
  const parameter_values values = build_parameters(a, d);
  const auto problem = d.make(values);
  const step_plan plan = make_plan(a.dt, a.t_end, a.every, 2000);
  checked_section(d, a.section, {&m});  // before any output is written
  make_directory(a.out);
  csv_file csv(a.out + "/" + a.problem + "_" + m.properties.alias + ".csv");
  csv_preamble{version_line, a.problem, values.all()}.write(
      csv, {{"method", m.properties.id() + " (" + m.properties.alias + ")"},
            {"dt", exact_number(a.dt)},
            {"t_end", exact_number(plan.t_end)},
            {"steps", std::to_string(plan.steps)},
            {"every", std::to_string(plan.every)}});
  std::printf("%s, %s (%s), dt = %g, t-end = %g, every %ld steps -> %s\n", a.problem.c_str(),
              m.properties.alias.c_str(), m.properties.id().c_str(), a.dt, plan.t_end, plan.every, csv.path().c_str());
  std::unique_ptr<section_output> section;
  if (!a.section.empty()) section = std::make_unique<section_output>(a, d, values, m);
  print_table_header();
  const run_summary s = run_method(*problem, m, a.problem, plan, &csv, true, true, section ? &section->recorder : nullptr);
  csv.close();
  print_table_row(s);
  if (section) {
    section->csv.close();
    section->report(section_output::plot({section.get()}, {m.properties.alias},
                                         a.problem + "_" + m.properties.alias + "_section.png"));
  }
  if (interrupted) return stopped_by_signal();
  return s.ok ? exit_ok : exit_failure;
}

int ensemble_verb(const arguments& a, const mpi_session& mpi) {
  if (a.method.empty()) throw usage_error("ensemble: --method is required");
  if (std::isnan(a.dt)) throw usage_error("ensemble: --dt is required");
  if (std::isnan(a.t_end)) throw usage_error("ensemble: --t-end is required");
  if (a.samples == 0) throw usage_error("ensemble: --samples is required");
  const problem_descriptor& d = find_problem(a.problem);
  ensemble_request q;
  q.version = version_line;
  q.problem = a.problem;
  q.method = a.method;
  q.out = a.out;
  q.plan = make_plan(a.dt, a.t_end, a.every, 1000, mpi.rank() == 0);
  q.sets = a.sets;
  q.parameters = build_parameters(a, d).all();
  q.varies = a.varies;
  q.section = a.section;
  q.samples = a.samples;
  q.seed = a.seed;
  q.threads = a.threads;
  return geomint::cli::ensemble_command(q, mpi);
}
}  // namespace geomint::cli
