// A method's Poincaré section output for run and compare: <problem>_<method>_section.csv, the
// recorder filling it, and the PNG of several methods' sections side by side.
#pragma once

#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/driver.hpp"
#include "cli/output.hpp"
#include "cli/plots.hpp"
#include "cli/registry.hpp"

namespace geomint::cli {

/// A method's section points: <problem>_<method>_section.csv and the recorder filling it.
struct section_output {
  section_output(const arguments& a, const problem_descriptor& d, const parameter_values& values,
                 const method_descriptor& m)
      : a_(a),
        definition(find_section(d, a.section)),
        csv(a.out + "/" + a.problem + "_" + m.properties.alias + "_section.csv") {
    csv_preamble{version_line, a.problem, values.all()}.write(
        csv, {{"method", m.properties.id() + " (" + m.properties.alias + ")"},
              {"section", definition.name + ": " + definition.definition}});
    csv.header({"t", definition.x_name, definition.y_name});
    recorder.definition = &definition;
    recorder.csv = &csv;
  }
  /// "section NAME: K points -> CSV" on stdout, and the PNG's path once it is drawn.
  void report(const std::string& png) const {
    std::printf("section %s: %ld points -> %s%s%s\n", definition.name.c_str(), recorder.points, csv.path().c_str(),
                png.empty() ? "" : ", ", png.c_str());
  }
  /// The PNG of these sections side by side (gnuplot), one panel per method with points; its
  /// path, or "" with a note on stderr saying why there is none.
  static std::string plot(const std::vector<const section_output*>& sections, const std::vector<std::string>& methods,
                          const std::string& png) {
    std::vector<std::string> with_points;
    for (std::size_t i = 0; i < sections.size(); ++i)
      if (sections[i]->recorder.points > 0) with_points.push_back(methods[i]);
    const section_output& s = *sections.front();
    if (with_points.empty()) {
      std::fprintf(stderr, "geomint: note: no trajectory crossed section %s: no PNG\n", s.definition.name.c_str());
      return "";
    }
    std::string message;
    const auto written = write_section_plot({s.a_.out, s.a_.problem, s.definition.name, s.definition.definition,
                                             s.definition.x_name, s.definition.y_name, png, with_points},
                                            message);
    if (!message.empty()) std::fprintf(stderr, "geomint: note: %s\n", message.c_str());
    return written.empty() ? "" : written.front();
  }

  const arguments& a_;
  const section_definition& definition;
  csv_file csv;
  section_recorder recorder;
};

}  // namespace geomint::cli
