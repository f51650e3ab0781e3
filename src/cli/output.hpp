// Output helpers shared by the verbs: the output directory and the comment lines opening every
// CSV file.
#pragma once

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cli/driver.hpp"
#include "cli/registry.hpp"

namespace geomint::cli {

/// Creates `dir` and its parents if missing (io_error if it cannot).
inline void make_directory(const std::string& dir) {
  std::string partial;
  std::size_t start = 0;
  while (start <= dir.size()) {
    const std::size_t slash = dir.find('/', start);
    partial += dir.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!partial.empty() && mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST)
      throw io_error("cannot create directory " + partial + ": " + std::strerror(errno));
    if (slash == std::string::npos) break;
    partial += '/';
    start = slash + 1;
  }
}

/// The comment lines opening every CSV file: what wrote it and with which data, enough to redo
/// the run (parameters written exactly).
struct csv_preamble {
  std::string version;  ///< "geomint 0.1.0"
  std::string problem;
  std::vector<parameter> parameters;
  void write(csv_file& f, const std::vector<std::pair<std::string, std::string>>& fields) const {
    f.comment(version);
    f.comment("problem: " + problem);
    std::string p;
    for (const auto& x : parameters) p += (p.empty() ? "" : " ") + x.name + "=" + exact_number(x.value);
    f.comment("parameters: " + (p.empty() ? std::string("(none)") : p));
    for (const auto& [key, value] : fields) f.comment(key + ": " + value);
  }
};

}  // namespace geomint::cli
