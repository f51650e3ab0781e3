// geomint compare: several methods and the adaptive references on one problem; the table, the
// summary, series and work-precision CSVs, the sections and the plots.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/plots.hpp"
#include "cli/section_output.hpp"

namespace geomint::cli {
namespace {

/// The methods of --methods, each once (an alias and its id are the same method).
std::vector<const method_descriptor*> find_methods(const arguments& a) {
  std::vector<const method_descriptor*> ms;
  for (const auto& id : a.methods) {
    const method_descriptor* m = &find_method(id, a.problem);
    if (std::find(ms.begin(), ms.end(), m) != ms.end())
      std::fprintf(stderr, "geomint: note: --methods names %s more than once; it runs once\n", m->properties.alias.c_str());
    else ms.push_back(m);
  }
  return ms;
}

/// The references a compare runs, with their tolerance. An option for a reference the problem
/// does not have is an error (or, for `off`, a note).
std::vector<std::pair<const reference_descriptor*, double>> find_references(const arguments& a,
                                                                              const problem_descriptor& d) {
  struct choice {
    const char* option;
    const char* id;
    double value;
  };
  std::vector<std::pair<const reference_descriptor*, double>> refs;
  for (const choice& c : {choice{"--ida", "ida_ggl", a.ida}, choice{"--dopri5", "odeint_dopri5", a.dopri5}}) {
    const reference_descriptor* r = find_reference(c.id);
    const bool applies = r && r->problems.count(a.problem);
    if (!applies && !std::isnan(c.value)) {
      std::string which;
      if (r)
        for (const auto& [name, f] : r->problems) which += (which.empty() ? "" : ", ") + name;
      const std::string why = std::string(c.option) + " does not apply: problem '" + a.problem + "' (" + d.kind +
                              ") has no " + c.id + " reference" +
                              (which.empty() ? std::string(" in this build") : "; it has one for: " + which);
      if (c.value != 0) throw usage_error(why);
      std::fprintf(stderr, "geomint: note: %s\n", why.c_str());
    }
    const double tol = std::isnan(c.value) ? 1e-8 : c.value;
    if (applies && tol > 0) refs.emplace_back(r, tol);
  }
  return refs;
}
}  // namespace

int compare_command(const arguments& a) {
  if (a.methods.empty()) throw usage_error("compare: --methods A,B,... is required");
  const problem_descriptor& d = find_problem(a.problem);
  const std::vector<const method_descriptor*> ms = find_methods(a);
  const auto refs = find_references(a, d);
  const parameter_values values = build_parameters(a, d);
  const auto problem = d.make(values);
  const double dt = std::isnan(a.dt) ? 0.01 : a.dt;
  const step_plan plan = make_plan(dt, std::isnan(a.t_end) ? 100.0 : a.t_end, 0, 1000);
  const double t_end = plan.t_end;  // the end of every run below (make_plan)
  std::vector<double> sample_times;
  for (long k = plan.every; k < plan.steps; k += plan.every) sample_times.push_back(static_cast<double>(k) * dt);
  if (plan.steps > 0) sample_times.push_back(static_cast<double>(plan.steps) * dt);
  checked_section(d, a.section, ms);  // before any output is written

  make_directory(a.out);
  const std::string prefix = a.out + "/" + a.problem;
  const csv_preamble preamble{version_line, a.problem, values.all()};
  const std::pair<std::string, std::string> t_end_field{"t_end", exact_number(t_end)};
  std::printf("%s: dt = %g, t-end = %g (%ld steps), samples every %ld steps; output in %s/\n", a.problem.c_str(), dt,
              t_end, plan.steps, plan.every, a.out.c_str());
  print_table_header();
  std::vector<run_summary> rows;
  std::vector<std::string> labels, titles;  // titles: the legend entries, with the step or tolerance
  std::vector<std::unique_ptr<section_output>> sections;
  for (const method_descriptor* m : ms) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + m->properties.alias + ".csv");
    preamble.write(csv, {{"method", m->properties.id() + " (" + m->properties.alias + ")"},
                         {"dt", exact_number(dt)},
                         t_end_field});
    if (!a.section.empty()) sections.push_back(std::make_unique<section_output>(a, d, values, *m));
    rows.push_back(run_method(*problem, *m, a.problem, plan, &csv, false, true,
                              a.section.empty() ? nullptr : &sections.back()->recorder));
    csv.close();
    if (!a.section.empty()) sections.back()->csv.close();
    print_table_row(rows.back());
    labels.push_back(m->properties.alias);
    titles.push_back(m->properties.alias + ", h = " + format_number(dt));
  }
  if (!sections.empty()) {
    std::vector<const section_output*> all;
    for (const auto& sec : sections) all.push_back(sec.get());
    const std::vector<std::string> with_sections(labels.begin(), labels.begin() + static_cast<long>(sections.size()));
    const std::string png = section_output::plot(all, with_sections, a.problem + "_section.png");
    for (const auto& sec : sections) sec->report("");
    if (!png.empty()) std::printf("section %s: all methods -> %s\n", sections.front()->definition.name.c_str(), png.c_str());
  }
  for (const auto& [r, tol] : refs) {
    if (interrupted) break;
    csv_file csv(prefix + "_series_" + r->id + ".csv");
    preamble.write(csv, {{"reference", r->id}, {"tolerance", exact_number(tol) + " (rtol = atol)"}, t_end_field});
    rows.push_back(run_reference(*problem, *r, a.problem, t_end, tol, sample_times, &csv, true));
    csv.close();
    print_table_row(rows.back());
    labels.push_back(r->id);
    titles.push_back(r->id + ", rtol = atol = " + format_number(tol));
  }
  {
    csv_file summary(prefix + "_summary.csv");
    preamble.write(summary, {{"dt", exact_number(dt)}, t_end_field});
    summary.header(summary_columns());
    for (const auto& r : rows) summary.text_row(summary_cells(r));
    summary.close();
  }
  bool failed = false;
  for (const auto& r : rows) failed |= !r.ok && !r.interrupted;

  std::vector<std::string> wp_methods, wp_titles;
  if (a.work_precision && !interrupted) {
    std::printf("\nwork-precision (max energy error against CPU time):\n");
    print_table_header();
    csv_file wp(prefix + "_work_precision.csv");
    preamble.write(wp, {{"dt", exact_number(dt) + " (methods at dt x 4, 2, 1, 1/2, 1/4, each landing on t-end: "
                                                  "t-end / round(t-end / (dt x f)) where dt x f does not divide "
                                                  "it; a factor giving no step or the step count of another is left out)"},
                        {"tolerances", "references at rtol = atol = 1e-4, 1e-6, 1e-8, 1e-10"},
                        t_end_field});
    wp.header(summary_columns());
    for (std::size_t i = 0; i < ms.size() && !interrupted; ++i) {
      std::vector<long> step_counts{plan.steps};
      for (double f : {4.0, 2.0, 1.0, 0.5, 0.25}) {
        if (interrupted) break;
        double h = dt * f;
        if (f != 1.0) {
          // A step that lands on t-end, as the dt run's does; a short --t-end may have room for
          // no step of 4 dt, or for as many as another factor gives.
          const double n = std::round(t_end / h);
          if (n < 1 || std::find(step_counts.begin(), step_counts.end(), static_cast<long>(n)) != step_counts.end())
            continue;
          step_counts.push_back(static_cast<long>(n));
          if (std::fabs(n * h - t_end) > 1e-9 * std::fmax(1.0, t_end)) h = t_end / n;
        }
        run_summary s = f == 1.0 ? rows[i] : run_method(*problem, *ms[i], a.problem, make_plan(h, t_end, 0, 200, false),
                                                        nullptr, false, true);
        wp.text_row(summary_cells(s));
        print_table_row(s, f != 1.0);  // the dt run's failure was reported above
      }
      wp_methods.push_back(ms[i]->properties.alias);
      wp_titles.push_back(ms[i]->properties.alias + ", h = " + format_number(4 * dt) + " ... " + format_number(dt / 4));
    }
    for (const auto& [r, tol] : refs) {
      for (double t : {1e-4, 1e-6, 1e-8, 1e-10}) {
        if (interrupted) break;
        run_summary s = run_reference(*problem, *r, a.problem, t_end, t, sample_times, nullptr, true);
        wp.text_row(summary_cells(s));
        print_table_row(s);
      }
      wp_methods.push_back(r->id);
      wp_titles.push_back(r->id + ", rtol = 1e-4 ... 1e-10");
    }
    wp.close();
  }

  plot_request pr;
  pr.directory = a.out;
  pr.problem = a.problem;
  pr.series = labels;
  pr.series_titles = titles;
  pr.has_constraint = !rows.empty() && rows.front().has_constraint;
  pr.has_casimir = !rows.empty() && rows.front().has_casimir;
  pr.work_precision = !wp_methods.empty();
  pr.work_precision_methods = wp_methods;
  pr.work_precision_titles = wp_titles;
  std::string message;
  const auto pngs = labels.empty() ? std::vector<std::string>{} : write_plots(pr, message);
  std::printf("\nwritten: %s_summary.csv, %s_series_*.csv%s\n", prefix.c_str(), prefix.c_str(),
              pr.work_precision ? (", " + prefix + "_work_precision.csv").c_str() : "");
  for (const auto& png : pngs) std::printf("plot: %s\n", png.c_str());
  std::fflush(stdout);
  if (!message.empty()) std::fprintf(stderr, "geomint: note: %s\n", message.c_str());
  if (interrupted) return stopped_by_signal();
  return failed ? exit_failure : exit_ok;
}
}  // namespace geomint::cli
