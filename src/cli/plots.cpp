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
/// A gnuplot single-quoted string ('' stands for a quote inside).
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}
/// A gnuplot double-quoted string broken into lines of at most `width` characters at spaces
/// (a title that fits the image).
std::string wrapped(const std::string& s, std::size_t width) {
  std::string out = "\"", line;
  auto flush = [&] {
    if (out.size() > 1) out += "\\n";
    out += line;
    line.clear();
  };
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find(' ', start);
    if (end == std::string::npos) end = s.size();
    const std::string word = s.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) flush();
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty()) flush();
  std::string escaped;
  for (char c : out.substr(1)) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
  return "\"" + escaped + "\"";
}
/// `plot` of one curve per series: file(label) with `using`, titled by its legend entry.
std::string plot_each(const std::vector<std::string>& labels, const std::vector<std::string>& titles,
                      const std::string& file_prefix, const std::string& using_style) {
  std::string s = "plot ";
  for (std::size_t i = 0; i < labels.size(); ++i)
    s += (i ? ", \\\n     " : "") + quoted(file_prefix + labels[i] + ".csv") + " using " + using_style + " title " +
         quoted(i < titles.size() ? titles[i] : labels[i]);
  return s + "\n";
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
       << "set output '" << pngs[0] << "'\nset title " << wrapped(p + ": relative energy error |H - H_0| / max(1, |H_0|)", 90)
       << " noenhanced\nset xlabel 't'\nset ylabel '|energy error|'\n"
       << plot_each(r.series, r.series_titles, p + "_series_", "1:(lfloor($2)) with lines");
    if (r.has_constraint)
      gp << "set output '" << pngs[1] << "'\nset title " << wrapped(p + ": scaled constraint residual |g(q)|", 90)
         << " noenhanced\nset ylabel 'constraint residual'\n"
         << plot_each(r.series, r.series_titles, p + "_series_", "1:(lfloor($3)) with lines");
    else if (r.has_casimir)
      gp << "set output '" << pngs[1] << "'\nset title " << wrapped(p + ": relative error of the first Casimir", 90)
         << " noenhanced\nset ylabel '|Casimir error|'\n"
         << plot_each(r.series, r.series_titles, p + "_series_", "1:(lfloor($3)) with lines");
    if (r.work_precision) {
      gp << "set output '" << pngs.back() << "'\nset title "
         << wrapped(p + ": work-precision, max energy error against CPU time", 90) << " noenhanced\n"
         << "set logscale x\nset format x '10^{%L}'\nset xlabel 'CPU s'\nset ylabel 'max |energy error|'\nplot ";
      // Columns as in the summary CSV: 1 method, 3 status, 4 max_energy_error, 11 cpu_seconds.
      const auto& m = r.work_precision_methods;
      for (std::size_t i = 0; i < m.size(); ++i)
        gp << (i ? ", \\\n     " : "") << quoted(p + "_work_precision.csv") << " using (strcol(1) eq " << quoted(m[i])
           << " && strcol(3) eq 'ok' ? ($11 > 1e-6 ? $11 : 1e-6) : 1/0):(lfloor($4)) with linespoints title "
           << quoted(i < r.work_precision_titles.size() ? r.work_precision_titles[i] : m[i]);
      gp << "\n";
    }
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
       // The title over all panels, wrapped to their width (about 90 characters of the 10-point
       // font per 650-pixel panel).
       << "set multiplot layout 1," << panels << " title "
       << wrapped(r.problem + ", section " + r.section + ": " + r.definition, 90 * panels) << " noenhanced\n"
       << "set tmargin 5\n"
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
