// Statistics output in IDAPrintAllStats' two formats (GeomintPrintAllStats,
// GeomintLiePrintAllStats, GeomintPrintIDAStats):
//   SUN_OUTPUTFORMAT_TABLE  one "name<padding to 29 columns>= value" line per entry
//   SUN_OUTPUTFORMAT_CSV    one line "name,value,name,value,...", ended by a newline
// Reals as "%.16g", as SUNDIALS prints them in double precision.
#pragma once

#include <sundials/sundials_types.h>

#include <cstdio>

namespace geomint::sundials::detail {

inline bool valid_output_format(int fmt) { return fmt == SUN_OUTPUTFORMAT_TABLE || fmt == SUN_OUTPUTFORMAT_CSV; }

class stats_printer {
 public:
  stats_printer(std::FILE* out, int fmt) : out_(out), csv_(fmt == SUN_OUTPUTFORMAT_CSV) {}
  stats_printer(const stats_printer&) = delete;
  stats_printer& operator=(const stats_printer&) = delete;
  ~stats_printer() {
    if (csv_) std::fputc('\n', out_);
  }

  /// table_name in the table, csv_name (IDA names some entries differently there) in the CSV.
  void entry(const char* table_name, const char* csv_name, long value) {
    if (csv_) std::fprintf(out_, "%s%s,%ld", separator(), csv_name, value);
    else std::fprintf(out_, "%-29s= %ld\n", table_name, value);
  }
  void entry(const char* table_name, const char* csv_name, double value) {
    if (csv_) std::fprintf(out_, "%s%s,%.16g", separator(), csv_name, value);
    else std::fprintf(out_, "%-29s= %.16g\n", table_name, value);
  }
  void entry(const char* name, long value) { entry(name, name, value); }
  void entry(const char* name, double value) { entry(name, name, value); }
  /// An entry of the CSV line only (IDA writes "0" there for ratios it leaves out of the table).
  void csv_only(const char* name, const char* text) {
    if (csv_) std::fprintf(out_, "%s%s,%s", separator(), name, text);
  }

 private:
  const char* separator() {
    const char* s = first_ ? "" : ",";
    first_ = false;
    return s;
  }

  std::FILE* out_;
  bool csv_;
  bool first_ = true;
};

}  // namespace geomint::sundials::detail
