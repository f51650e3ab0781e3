#include "cli/driver.hpp"

#include <boost/math/tools/roots.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "geomint/core/step_error.hpp"

namespace geomint::cli {

namespace {
double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// ---------------------------------------------------------------------------------------------
std::string exact_number(double v) {
  if (!std::isfinite(v)) return "nan";
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' || c == '\r' ? ' ' : c);
  return q + "\"";
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

csv_file::csv_file(const std::string& path) : path_(path), out_(path) {
  if (!out_) throw io_error("cannot write " + path + ": " + std::strerror(errno));
}
void csv_file::check() {
  if (!out_) throw io_error("write to " + path_ + " failed: " + std::strerror(errno));
}
void csv_file::comment(const std::string& text) {
  std::string line = text;
  std::replace(line.begin(), line.end(), '\n', ' ');
  out_ << "# " << line << '\n';
  check();
}
void csv_file::header(const std::vector<std::string>& columns) { text_row(columns); }
void csv_file::text_row(const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) out_ << (i ? "," : "") << cells[i];
  out_ << '\n';
  check();
}
void csv_file::row(const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) out_ << (i ? "," : "") << exact_number(values[i]);
  out_ << '\n';
  check();
}
void csv_file::close() {
  if (!out_.is_open()) return;
  out_.flush();
  check();
  out_.close();
  check();
}

// ---------------------------------------------------------------------------------------------
progress_bar::progress_bar(std::string label)
    : label_(std::move(label)), start_(wall_seconds()), tty_(isatty(STDERR_FILENO) == 1) {}

void progress_bar::update(double fraction) {
  if (!tty_) return;
  const double now = wall_seconds();
  if (now - start_ < 2.0 || now - last_draw_ < 0.1) return;
  last_draw_ = now;
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int width = 30, filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r%-28.28s [%s%s] %3.0f%%  %.0f s  (Ctrl-C stops)", label_.c_str(),
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), 100 * fraction, now - start_);
  std::fflush(stderr);
  drawn_ = true;
}

void progress_bar::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%*s\r", 90, "");
  std::fflush(stderr);
  drawn_ = false;
}

// ---------------------------------------------------------------------------------------------
sampler::sampler(const problem_instance& problem, run_summary& summary, csv_file* csv, bool with_state)
    : problem_(problem), summary_(summary), csv_(csv), with_state_(with_state), invariants_(problem.invariants()) {
  for (const auto& inv : invariants_) {
    summary_.has_constraint |= inv.kind == invariant_kind::constraint;
    summary_.has_hidden_constraint |= inv.kind == invariant_kind::hidden_constraint;
    summary_.has_momentum |= inv.kind == invariant_kind::momentum;
    summary_.has_casimir |= inv.kind == invariant_kind::casimir;
  }
  if (csv_) csv_->header(columns());
}

std::vector<std::string> sampler::columns() const {
  std::vector<std::string> c{"t"};
  if (with_state_)
    for (const auto& s : problem_.state_names()) c.push_back(s);
  for (const auto& inv : invariants_) c.push_back(is_conserved(inv.kind) ? inv.name + "_error" : inv.name + "_residual");
  return c;
}

void sampler::sample(double t, const std::vector<double>& state) {
  problem_.evaluate_invariants(state, values_);
  if (summary_.samples++ == 0) initial_ = values_;
  row_.clear();
  row_.push_back(t);
  if (with_state_) row_.insert(row_.end(), state.begin(), state.end());
  for (std::size_t i = 0; i < invariants_.size(); ++i) {
    double v = values_[i];
    if (is_conserved(invariants_[i].kind)) v = (v - initial_[i]) / std::fmax(1.0, std::fabs(initial_[i]));
    row_.push_back(v);
    const double a = std::isfinite(v) ? std::fabs(v) : HUGE_VAL;
    switch (invariants_[i].kind) {
      case invariant_kind::energy: summary_.max_energy_error = std::fmax(summary_.max_energy_error, a); break;
      case invariant_kind::momentum: summary_.max_momentum_error = std::fmax(summary_.max_momentum_error, a); break;
      case invariant_kind::casimir: summary_.max_casimir_error = std::fmax(summary_.max_casimir_error, a); break;
      case invariant_kind::constraint:
        summary_.final_constraint = a;
        summary_.max_constraint = std::fmax(summary_.max_constraint, a);
        break;
      case invariant_kind::hidden_constraint: summary_.final_hidden_constraint = a; break;
    }
  }
  summary_.t_reached = t;
  if (csv_) csv_->row(row_);
}

// ---------------------------------------------------------------------------------------------
namespace {
/// The last line of a series CSV: how the run ended.
void write_status(csv_file* csv, const run_summary& s) {
  if (!csv) return;
  std::string line = "status: " + s.status() + " at t = " + exact_number(s.t_reached);
  if (s.interrupted) line += " (" + signal_name(s.interrupted) + ")";
  if (!s.ok && !s.error.empty()) line += ": " + s.error;
  csv->comment(line);
}
}  // namespace

bool locate_section_crossing(runner& r, const section_definition& def, double t0, double t1, double& g0,
                             std::vector<double>& state, double& t_cross) {
  r.state(state);
  const double g1 = def.g(state);
  const bool rises = g0 < 0 && g1 >= 0, falls = g0 > 0 && g1 <= 0;
  const double start = g0;
  g0 = g1;
  if (!((rises && def.direction >= 0) || (falls && def.direction <= 0))) return false;
  t_cross = t1;
  if (g1 != 0) {
    auto g = [&](double s) {
      r.interpolate(s, state);
      return def.g(state);
    };
    const double width = 1e-13 * std::fabs(t1 - t0);
    std::uintmax_t iterations = 100;
    const auto bracket = boost::math::tools::toms748_solve(
        g, t0, t1, start, g1, [width](double a, double b) { return std::fabs(b - a) <= width; }, iterations);
    t_cross = 0.5 * (bracket.first + bracket.second);
    r.interpolate(t_cross, state);
  }
  return true;
}

namespace {
/// Writes the crossing of the section in the step [t0, t1], if there is one, as (t, x, y).
void record_crossing(runner& r, section_recorder& section, double t0, double t1, double& g0,
                     std::vector<double>& state) {
  double t = 0;
  if (!locate_section_crossing(r, *section.definition, t0, t1, g0, state, t)) return;
  section.csv->row({t, section.definition->x(state), section.definition->y(state)});
  ++section.points;
}
}  // namespace

run_summary run_method(const problem_instance& problem, const method_descriptor& method, const std::string& problem_name,
                       const step_plan& plan, csv_file* csv, bool with_state, bool show_progress,
                       section_recorder* section) {
  run_summary s;
  s.method = method.properties.alias;
  s.setting = "dt=" + format_number(plan.dt);
  sampler out(problem, s, csv, with_state);
  std::unique_ptr<runner> r = method.problems.at(problem_name)(problem);
  std::vector<double> state;
  r->state(state);
  out.sample(0.0, state);
  progress_bar bar(s.method + " " + s.setting);
  long k = 0, sampled = 0;
  double c0 = 0, g_section = section ? section->definition->g(state) : 0;
  std::vector<double> section_state;
  try {
    while (k < plan.steps && !interrupted) {
      const long block_end = std::min(plan.steps, k + plan.every);
      c0 = cpu_seconds();
      for (; k < block_end && !interrupted; ++k) {
        r->step(static_cast<double>(k) * plan.dt, plan.dt);
        if (section)
          record_crossing(*r, *section, static_cast<double>(k) * plan.dt, static_cast<double>(k + 1) * plan.dt,
                          g_section, section_state);
      }
      s.cpu_seconds += cpu_seconds() - c0;
      s.steps = k;
      r->state(state);
      out.sample(static_cast<double>(k) * plan.dt, state);
      sampled = k;
      if (show_progress) bar.update(static_cast<double>(k) / static_cast<double>(plan.steps));
    }
  } catch (const geomint::step_error& e) {
    s.cpu_seconds += cpu_seconds() - c0;
    s.steps = k;
    s.ok = false;
    s.error = e.what();
    if (k > sampled) {  // the state before the failing step, the last good one
      r->state(state);
      out.sample(static_cast<double>(k) * plan.dt, state);
    }
  }
  bar.finish();
  s.interrupted = interrupted;
  write_status(csv, s);
  return s;
}

run_summary run_reference(const problem_instance& problem, const reference_descriptor& reference,
                          const std::string& problem_name, double t_end, double tolerance,
                          const std::vector<double>& sample_times, csv_file* csv, bool show_progress) {
  run_summary s;
  s.method = reference.id;
  s.setting = "rtol=" + format_number(tolerance);
  sampler out(problem, s, csv, false);
  out.sample(0.0, problem.initial_state());
  progress_bar bar(s.method + " " + s.setting);
  reference_request req;
  req.t_end = t_end;
  req.tolerance = tolerance;
  req.sample_times = sample_times;
  req.sample = [&](double t, const std::vector<double>& state) { out.sample(t, state); };
  req.progress = [&](double t) {
    if (show_progress) bar.update(t / t_end);
    return interrupted == 0;
  };
  const reference_result r = reference.problems.at(problem_name)(problem, req);
  bar.finish();
  s.steps = r.steps;
  s.cpu_seconds = r.cpu_seconds;
  s.ok = r.ok;
  s.error = r.error;
  s.interrupted = interrupted;  // r.stopped implies it
  write_status(csv, s);
  return s;
}

// ---------------------------------------------------------------------------------------------
namespace {
std::string sci(double v, bool present = true) {
  if (!present) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.2e", v);
  return b;
}
/// A summary value for the CSV: empty when not applicable or not measured.
std::string cell(double v, bool present = true) { return present ? exact_number(v) : ""; }
}  // namespace

void print_table_header() {
  std::printf("%-26s %-12s %-11s %10s %10s %10s %10s %10s %10s %9s %10s\n", "method", "setting", "status",
              "max|dE|", "final g", "final Gv", "max|dJ|", "max|dC|", "steps", "CPU s", "steps/s");
  std::fflush(stdout);
}

void print_table_row(const run_summary& r, bool with_reason) {
  const double rate = r.cpu_seconds > 0 ? static_cast<double>(r.steps) / r.cpu_seconds : 0;
  const bool m = r.measured();
  std::printf("%-26s %-12s %-11s %10s %10s %10s %10s %10s %10ld %9.3f %10s\n", r.method.c_str(), r.setting.c_str(),
              r.status().c_str(), sci(r.max_energy_error, m).c_str(), sci(r.final_constraint, m && r.has_constraint).c_str(),
              sci(r.final_hidden_constraint, m && r.has_hidden_constraint).c_str(),
              sci(r.max_momentum_error, m && r.has_momentum).c_str(), sci(r.max_casimir_error, m && r.has_casimir).c_str(),
              r.steps, r.cpu_seconds, sci(rate, rate > 0).c_str());
  std::fflush(stdout);
  if (with_reason && !r.ok && !r.error.empty())
    std::fprintf(stderr, "geomint: %s (%s) failed at t = %g: %s\n", r.method.c_str(), r.setting.c_str(), r.t_reached,
                 r.error.c_str());
}

std::vector<std::string> summary_columns() {
  return {"method", "setting", "status", "max_energy_error", "final_constraint_residual",
          "final_hidden_constraint_residual", "max_constraint_residual", "max_momentum_error", "max_casimir_error",
          "steps", "cpu_seconds", "steps_per_second", "t_reached", "reason"};
}

std::vector<std::string> summary_cells(const run_summary& r) {
  const bool m = r.measured();
  const double rate = r.cpu_seconds > 0 ? static_cast<double>(r.steps) / r.cpu_seconds : 0;
  std::string reason = r.error;
  if (r.interrupted) reason = "interrupted by " + signal_name(r.interrupted);
  return {r.method, r.setting, r.status(), cell(r.max_energy_error, m), cell(r.final_constraint, m && r.has_constraint),
          cell(r.final_hidden_constraint, m && r.has_hidden_constraint), cell(r.max_constraint, m && r.has_constraint),
          cell(r.max_momentum_error, m && r.has_momentum), cell(r.max_casimir_error, m && r.has_casimir),
          std::to_string(r.steps), cell(r.cpu_seconds), cell(rate, rate > 0), cell(r.t_reached), csv_cell(reason)};
}

}  // namespace geomint::cli
