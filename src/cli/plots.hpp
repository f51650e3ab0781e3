// PNG plots of a comparison with gnuplot (Debian package gnuplot-nox): energy error and
// constraint residual against time (log scale), and the work–precision diagram. The gnuplot
// script is written next to the CSV files so the plots can be redrawn by hand.
#pragma once

#include <string>
#include <vector>

namespace geomint::cli {

struct plot_request {
  std::string directory;  ///< where the CSV files are and the PNGs go
  std::string problem;    ///< title and file prefix
  std::vector<std::string> series;  ///< labels l with <problem>_series_<l>.csv present
  std::vector<std::string> series_titles;  ///< their legend entries (step or tolerance); empty: the labels
  bool has_constraint = true;
  bool has_casimir = false;  ///< without constraints, column 3 is the first Casimir error
  bool work_precision = false;      ///< <problem>_work_precision.csv present
  std::vector<std::string> work_precision_methods;
  std::vector<std::string> work_precision_titles;  ///< their legend entries; empty: the labels
};

/// A Poincaré section: one panel per method, side by side, from <problem>_<method>_section.csv
/// (columns t, x, y), written to `png` (a file name in `directory`).
struct section_plot_request {
  std::string directory, problem, section, definition, x_name, y_name, png;
  std::vector<std::string> methods;
  /// Instead: one panel from <problem>_ensemble_section.csv (trajectory, t, x, y), each point
  /// coloured by its trajectory.
  bool ensemble = false;
};

/// The gnuplot executable on PATH, or "" if there is none.
std::string find_gnuplot();

/// Writes <problem>_plots.gp and runs gnuplot on it. Returns the PNG paths written, or an
/// empty list with `message` saying why (no gnuplot, or gnuplot failed).
std::vector<std::string> write_plots(const plot_request& r, std::string& message);
std::vector<std::string> write_section_plot(const section_plot_request& r, std::string& message);

}  // namespace geomint::cli
