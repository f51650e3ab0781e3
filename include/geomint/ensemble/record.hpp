// What one trajectory of an ensemble produced: its status (and why it failed), how far it got,
// the summary its observer wrote (largest and last invariant errors), its last good state, the
// section points an event locator found, and its CPU time. Records travel between MPI ranks as
// bytes (to_bytes / from_bytes): a record read back is equal to the one written, bit for bit.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace geomint::ensemble {

enum class trajectory_status : std::int32_t {
  not_run,      ///< never started (the ensemble was stopped first)
  ok,           ///< reached the end of the grid
  failed,       ///< a step failed (geomint::step_error) or the trajectory's data were invalid
  interrupted,  ///< stopped part-way by a stop request (SIGINT, SIGTERM)
};

/// "ok", "FAILED", "interrupted", "not_run" (the words of the command's CSV files).
inline const char* to_string(trajectory_status s) {
  switch (s) {
    case trajectory_status::not_run: return "not_run";
    case trajectory_status::ok: return "ok";
    case trajectory_status::failed: return "FAILED";
    case trajectory_status::interrupted: return "interrupted";
  }
  return "unknown";
}

/// A point where the trajectory crossed a section (an event): which event (its index in the
/// event_locator, or what a step hook chose), its time and its packed state.
struct crossing {
  std::int32_t event = 0;
  double t = 0;
  std::vector<double> state;
  bool operator==(const crossing& o) const { return event == o.event && t == o.t && state == o.state; }
};

struct trajectory_record {
  std::uint64_t index = 0;  ///< the trajectory's number in the ensemble, 0 … M − 1
  trajectory_status status = trajectory_status::not_run;
  std::string reason;      ///< why it failed (the step_error's message), empty otherwise
  double t_reached = 0;    ///< time of the last good state
  std::int64_t steps = 0;  ///< successful steps
  double cpu_seconds = 0;  ///< CPU time of the thread that ran it, from start to end
  std::vector<double> final_state;  ///< the last good state, packed (q then p; y)
  /// Per observed quantity, in the observer's order: the largest |error| over the samples and
  /// the error at the last sample (invariant_observer: relative errors of conserved quantities,
  /// residuals as they are). The observer decides what they hold.
  std::vector<double> max_error, final_error;
  std::vector<crossing> crossings;  ///< section points in time order (filled by a step hook)

  bool finished() const { return status == trajectory_status::ok || status == trajectory_status::failed; }
};

// ---- bytes: how records cross MPI ---------------------------------------------------------------
namespace detail {
template <class T>
void put(std::vector<char>& out, const T& v) {
  const char* p = reinterpret_cast<const char*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}
inline void put_doubles(std::vector<char>& out, const std::vector<double>& v) {
  put(out, static_cast<std::uint64_t>(v.size()));
  const char* p = reinterpret_cast<const char*>(v.data());
  out.insert(out.end(), p, p + v.size() * sizeof(double));
}

class byte_reader {
 public:
  byte_reader(const char* data, std::size_t size) : p_(data), end_(data + size) {}
  template <class T>
  T get() {
    T v;
    need(sizeof(T));
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  std::vector<double> doubles() {
    const auto n = get<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(end_ - p_) / sizeof(double)) fail();
    std::vector<double> v(static_cast<std::size_t>(n));
    if (!v.empty()) std::memcpy(v.data(), p_, v.size() * sizeof(double));  // an empty vector's data() may be null
    p_ += v.size() * sizeof(double);
    return v;
  }
  std::string text() {
    const auto n = get<std::uint64_t>();
    need(static_cast<std::size_t>(n));
    std::string s(p_, static_cast<std::size_t>(n));
    p_ += n;
    return s;
  }
  bool done() const { return p_ == end_; }

 private:
  void need(std::size_t n) const {
    if (static_cast<std::size_t>(end_ - p_) < n) fail();
  }
  [[noreturn]] static void fail() { throw std::runtime_error("geomint::ensemble: truncated trajectory record"); }
  const char* p_;
  const char* end_;
};
}  // namespace detail

/// Appends the record's bytes to out (native byte order: ranks of one job share an architecture).
inline void to_bytes(const trajectory_record& r, std::vector<char>& out) {
  detail::put(out, r.index);
  detail::put(out, static_cast<std::int32_t>(r.status));
  detail::put(out, static_cast<std::uint64_t>(r.reason.size()));
  out.insert(out.end(), r.reason.begin(), r.reason.end());
  detail::put(out, r.t_reached);
  detail::put(out, r.steps);
  detail::put(out, r.cpu_seconds);
  detail::put_doubles(out, r.final_state);
  detail::put_doubles(out, r.max_error);
  detail::put_doubles(out, r.final_error);
  detail::put(out, static_cast<std::uint64_t>(r.crossings.size()));
  for (const crossing& c : r.crossings) {
    detail::put(out, c.event);
    detail::put(out, c.t);
    detail::put_doubles(out, c.state);
  }
}

/// Reads one record written by to_bytes (std::runtime_error if the bytes end too early).
inline trajectory_record from_bytes(detail::byte_reader& in) {
  trajectory_record r;
  r.index = in.get<std::uint64_t>();
  const auto status = in.get<std::int32_t>();
  if (status < 0 || status > static_cast<std::int32_t>(trajectory_status::interrupted))
    throw std::runtime_error("geomint::ensemble: bad trajectory status in a record");
  r.status = static_cast<trajectory_status>(status);
  r.reason = in.text();
  r.t_reached = in.get<double>();
  r.steps = in.get<std::int64_t>();
  r.cpu_seconds = in.get<double>();
  r.final_state = in.doubles();
  r.max_error = in.doubles();
  r.final_error = in.doubles();
  const auto n = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < n; ++i) {
    crossing c;
    c.event = in.get<std::int32_t>();
    c.t = in.get<double>();
    c.state = in.doubles();
    r.crossings.push_back(std::move(c));
  }
  return r;
}

}  // namespace geomint::ensemble
