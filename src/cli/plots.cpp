#include "cli/plots.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cli/driver.hpp"

namespace geomint::cli {

namespace {
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
bool is_file(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}
/// A gnuplot list of words: "a b c".
std::string words(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
  return s;
}
}  // namespace

std::string find_gnuplot();

namespace {
/// Runs gnuplot on `script` in `directory` (its output in <log_prefix>_gnuplot.log); the PNGs
/// that were written, with `message` saying why if not all of them were.
std::vector<std::string> run_gnuplot(const std::string& gnuplot, const std::string& directory, const std::string& script,
                                     const std::string& log_prefix, const std::vector<std::string>& pngs,
                                     std::string& message) {
  const std::string cmd = "cd " + shell_quote(directory) + " && " + shell_quote(gnuplot) + " " + shell_quote(script) +
                          " > " + shell_quote(log_prefix + "_gnuplot.log") + " 2>&1";
  for (const auto& png : pngs) std::remove((directory + "/" + png).c_str());  // none left from an earlier run
  const int rc = std::system(cmd.c_str());
  std::vector<std::string> written;
  for (const auto& png : pngs)
    if (is_file(directory + "/" + png)) written.push_back(directory + "/" + png);
  if (rc != 0 && !written.empty()) {
    // gnuplot stops at a script's first error: the PNGs before the failing plot are complete,
    // the one it was drawing is not (an empty frame) and is removed.
    std::remove(written.back().c_str());
    written.pop_back();
  }
  if (rc != 0 || written.size() != pngs.size()) {
    message = "gnuplot failed (see " + directory + "/" + log_prefix + "_gnuplot.log); the CSV files are written";
    return written;
  }
  message.clear();
  return written;
}
}  // namespace

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string all = path;
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t end = all.find(':', start);
    const std::string dir = all.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/gnuplot";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

std::vector<std::string> write_plots(const plot_request& r, std::string& message) {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    message = "gnuplot not found (Debian: apt-get install gnuplot-nox; scripts/bootstrap installs it): no PNG "
              "plots, the CSV files are written";
    return {};
  }
  const std::string p = r.problem;
  const std::string script = p + "_plots.gp";
  std::vector<std::string> pngs{p + "_energy_error.png"};
  if (r.has_constraint) pngs.push_back(p + "_constraint_residual.png");
  else if (r.has_casimir) pngs.push_back(p + "_casimir_error.png");
  if (r.work_precision) pngs.push_back(p + "_work_precision.png");
  {
    std::ofstream gp(r.directory + "/" + script);
    if (!gp) throw io_error("cannot write " + r.directory + "/" + script);
    // Series files: t,energy_error,constraint_residual,hidden_constraint_residual,… ; zeros are
    // floored at 1e-17 so that they show on the log scale.
    gp << "# gnuplot script written by `geomint compare`; run it in this directory: gnuplot " << script << "\n"
       << "set datafile separator ','\nset key outside right top noenhanced\nset grid\nset logscale y\n"
       << "set format y '10^{%L}'\nset terminal pngcairo size 1100,650 enhanced font ',10'\n"
       << "lfloor(x) = (abs(x) > 1e-17 ? abs(x) : 1e-17)\n"
       << "methods = '" << words(r.series) << "'\n"
       << "set output '" << pngs[0] << "'\nset title '" << p << ": relative energy error |H - H_0| / max(1, |H_0|)' noenhanced\n"
       << "set xlabel 't'\nset ylabel '|energy error|'\n"
       << "plot for [m in methods] '" << p << "_series_'.m.'.csv' using 1:(lfloor($2)) with lines title m\n";
    if (r.has_constraint)
      gp << "set output '" << pngs[1] << "'\nset title '" << p
         << ": scaled constraint residual |g(q)| (log scale)' noenhanced\nset ylabel 'constraint residual'\n"
         << "plot for [m in methods] '" << p << "_series_'.m.'.csv' using 1:(lfloor($3)) with lines title m\n";
    else if (r.has_casimir)
      gp << "set output '" << pngs[1] << "'\nset title '" << p
         << ": relative error of the first Casimir (log scale)' noenhanced\nset ylabel '|Casimir error|'\n"
         << "plot for [m in methods] '" << p << "_series_'.m.'.csv' using 1:(lfloor($3)) with lines title m\n";
    if (r.work_precision)
      gp << "set output '" << pngs.back() << "'\nset title '" << p
         << ": work-precision (max energy error against CPU time; step sizes / tolerances)' noenhanced\n"
         << "set logscale x\nset format x '10^{%L}'\nset xlabel 'CPU s'\nset ylabel 'max |energy error|'\n"
         << "wp = '" << words(r.work_precision_methods) << "'\n"
         // Columns as in the summary CSV: 1 method, 3 status, 4 max_energy_error, 11 cpu_seconds.
         << "plot for [m in wp] '" << p << "_work_precision.csv' using "
         << "(strcol(1) eq m && strcol(3) eq 'ok' ? ($11 > 1e-6 ? $11 : 1e-6) : 1/0):(lfloor($4)) "
         << "with linespoints title m\n";
    if (!gp) throw io_error("write to " + r.directory + "/" + script + " failed");
  }
  return run_gnuplot(gnuplot, r.directory, script, p, pngs, message);
}

std::vector<std::string> write_section_plot(const section_plot_request& r, std::string& message) {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    message = "gnuplot not found (Debian: apt-get install gnuplot-nox): no PNG, the section CSV is written";
    return {};
  }
  const std::string base = r.png.substr(0, r.png.size() - 4);  // without .png
  const std::string script = base + ".gp";
  {
    std::ofstream gp(r.directory + "/" + script);
    if (!gp) throw io_error("cannot write " + r.directory + "/" + script);
    const std::size_t panels = r.ensemble ? 1 : r.methods.size();
    gp << "# gnuplot script written by `geomint`; run it in this directory: gnuplot " << script << "\n"
       << "set datafile separator ','\nset grid\nunset key\n"
       << "set terminal pngcairo size " << 650 * panels << ",650 enhanced font ',10'\n"
       << "set output '" << r.png << "'\n"
       << "set multiplot layout 1," << panels << " title '" << r.problem << ", section " << r.section << ": "
       << r.definition << "' noenhanced\n"
       << "set xlabel '" << r.x_name << "' noenhanced\nset ylabel '" << r.y_name << "' noenhanced\n";
    if (r.ensemble)
      gp << "set title 'coloured by trajectory' noenhanced\nset cblabel 'trajectory'\nplot '" << r.problem
         << "_ensemble_section.csv' using 3:4:1 with points pointtype 7 pointsize 0.3 palette\n";
    for (const auto& m : r.methods)
      gp << "set title '" << m << "' noenhanced\nplot '" << r.problem << "_" << m
         << "_section.csv' using 2:3 with points pointtype 7 pointsize 0.3\n";
    gp << "unset multiplot\n";
    if (!gp) throw io_error("write to " + r.directory + "/" + script + " failed");
  }
  return run_gnuplot(gnuplot, r.directory, script, base, {r.png}, message);
}

}  // namespace geomint::cli
