// A table of numbers from a CSV file, for an ensemble's inputs: one row per trajectory, columns
// named in a header line (parameters, initial values). Lines starting with '#' and blank lines
// are skipped; cells are numbers as strtod reads them, or "nan" / "inf". A bad file throws
// std::runtime_error naming the file, the line and what is wrong.
//
//   const table t = read_table("initial.csv");
//   const std::size_t x = t.column("x1");                  // throws if there is no such column
//   auto member_of = [&](std::uint64_t i) { const auto& row = t.rows[i]; ... row[x] ... };
#pragma once

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace geomint::ensemble {

struct table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::string source;  ///< the file it was read from

  /// The position of column `name`.
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return i;
    std::string valid;
    for (const auto& c : columns) valid += (valid.empty() ? "" : ", ") + c;
    throw std::runtime_error(source + ": no column '" + name + "'; columns: " + valid);
  }
};

namespace detail {
inline std::string trimmed(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
inline std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(trimmed(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}
}  // namespace detail

inline table read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  table t;
  t.source = path;
  std::string line;
  for (long number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const std::string content = detail::trimmed(line);
    if (content.empty() || content[0] == '#') continue;
    const std::vector<std::string> cells = detail::cells_of(content);
    if (t.columns.empty()) {
      for (const auto& c : cells) {
        if (c.empty()) throw std::runtime_error(where + "empty column name in the header");
        for (const auto& earlier : t.columns)
          if (earlier == c) throw std::runtime_error(where + "column '" + c + "' appears twice");
        t.columns.push_back(c);
      }
      continue;
    }
    if (cells.size() != t.columns.size())
      throw std::runtime_error(where + std::to_string(cells.size()) + " cells, the header has " +
                               std::to_string(t.columns.size()));
    std::vector<double> row;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const char* text = cells[i].c_str();
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(text, &end);
      if (cells[i].empty() || end != text + cells[i].size() || errno == ERANGE)
        throw std::runtime_error(where + "column " + t.columns[i] + ": '" + cells[i] + "' is not a number");
      row.push_back(v);
    }
    t.rows.push_back(std::move(row));
  }
  if (in.bad()) throw std::runtime_error("read error in " + path);
  if (t.columns.empty()) throw std::runtime_error(path + ": no header line (column names)");
  return t;
}

}  // namespace geomint::ensemble
