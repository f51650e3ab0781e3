// Running the trajectories of an ensemble on threads of this process.
//
//   run_result r = run_indexed(count, work, execution{threads});
//
// calls work(i, record, stop) once for every i in 0 … count − 1 on `threads` worker threads (a
// std::thread pool) and returns the records (r.records) in trajectory order. Scheduling is dynamic: a
// worker that finishes takes the next trajectory not yet started, so trajectories of different
// cost (Newton iterations vary, failures end early) keep every thread busy. A trajectory's
// record depends only on i and what `work` computes from it — never on the thread, the thread
// count or the order — so the results are identical bit for bit for any thread count, provided
// `work` shares no mutable state between trajectories (give each its own stepper copy, system
// and observer).
//
// With a sink (execution::sink) the records are not collected: each is handed to the sink on
// the calling thread as soon as it and every earlier trajectory's record are final, so that an
// ensemble of 10⁸ trajectories writes its output as it runs and holds only the records that
// finished ahead of a slower earlier one.
//
// An exception escaping `work` marks that trajectory failed with its message; the others run on.
// The calling thread does not compute: it reports progress and polls the stop request (every
// 0.1 s at most), and the workers block SIGINT/SIGTERM and every other asynchronous signal, so
// signal handlers run on the calling thread. After a stop request no trajectory starts, running
// ones end at their next step (status interrupted), and the rest keep status not_run.
//
// The trajectory_pool below is also what each MPI rank runs (mpi.hpp): trajectories are handed
// to it in ranges, its workers take them one at a time.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "geomint/ensemble/record.hpp"

namespace geomint::ensemble {

/// Receives every record in trajectory order (see above), with the code that stopped the run
/// (0 while it has not been stopped; an interrupted record always comes with its code).
using record_sink = std::function<void(trajectory_record&& record, int stop_code)>;

/// How an ensemble runs on this process.
struct execution {
  unsigned threads = 1;  ///< worker threads, ≥ 1 (default_thread_count(): one per usable core)
  /// Called on the calling thread with (finished, total) as trajectories finish (also at the
  /// end); finished counts ok and failed ones.
  std::function<void(std::uint64_t finished, std::uint64_t total)> progress;
  /// Polled on the calling thread: 0 goes on, any other value (the number of the signal a
  /// handler recorded, say) stops the ensemble and is reported as run_result::stop_code.
  std::function<int()> stop_requested;
  /// If set, receives the records in trajectory order instead of run_result::records.
  record_sink sink;

  execution() = default;
  /// `execution{4}`: four workers, the other members as named (or unset).
  execution(unsigned threads_, std::function<void(std::uint64_t, std::uint64_t)> progress_ = {},
            std::function<int()> stop_requested_ = {}, record_sink sink_ = {})
      : threads(threads_), progress(std::move(progress_)), stop_requested(std::move(stop_requested_)),
        sink(std::move(sink_)) {}
};

/// What run_indexed returns.
struct run_result {
  std::vector<trajectory_record> records;  ///< in trajectory order, one per trajectory (none with a sink)
  int stop_code = 0;                       ///< what stop_requested returned when it stopped the run, or 0
};

/// The cores this process may run on (its CPU affinity mask: what taskset or a batch
/// scheduler's cgroup allows), at least 1.
inline unsigned default_thread_count() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// work(index, record, stop): fills the record of trajectory `index` (index already set),
/// ending early (status interrupted) when stop becomes true.
using trajectory_work = std::function<void(std::uint64_t index, trajectory_record& record, const std::atomic<bool>& stop)>;

namespace detail {

/// Worker threads taking trajectory indices, one at a time, from the ranges handed to them.
class trajectory_pool {
 public:
  trajectory_pool(unsigned threads, trajectory_work work) : work_(std::move(work)) {
    if (threads < 1) throw std::invalid_argument("geomint::ensemble: threads must be >= 1");
    // Workers inherit the signal mask of the thread creating them: block the asynchronous
    // signals for the creation, so that handlers run on the calling thread only.
    sigset_t all, previous;
    sigfillset(&all);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT}) sigdelset(&all, s);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    try {
      for (unsigned k = 0; k < threads; ++k) workers_.emplace_back([this] { serve(); });
    } catch (...) {
      pthread_sigmask(SIG_SETMASK, &previous, nullptr);
      shut_down();
      throw;
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  ~trajectory_pool() { shut_down(); }
  trajectory_pool(const trajectory_pool&) = delete;
  trajectory_pool& operator=(const trajectory_pool&) = delete;

  /// Hands the trajectories begin … end − 1 to the workers.
  void add(std::uint64_t begin, std::uint64_t end) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (begin < end) ranges_.emplace_back(begin, end);
    work_ready_.notify_all();
  }
  /// No more ranges will come: workers leave when the queue is empty.
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    work_ready_.notify_all();
  }
  /// Running trajectories end at their next step; no queued one starts (they stay not_run).
  void stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
    closed_ = true;
    ranges_.clear();
    work_ready_.notify_all();
  }
  /// Trajectories handed over but not yet started.
  std::uint64_t queued() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queued_locked();
  }
  /// Waits until a record is finished, the pool is done, or `timeout` passes; returns the
  /// finished records (in the order they finished).
  std::vector<trajectory_record> wait_for_records(std::chrono::microseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    news_.wait_for(lock, timeout, [this] { return !finished_.empty() || (closed_ && idle_locked()); });
    std::vector<trajectory_record> out;
    out.swap(finished_);
    if (out.size() >= max_waiting_records) work_ready_.notify_all();  // workers held back may go on
    return out;
  }
  /// Finished records not yet taken by wait_for_records, beyond which workers start no new
  /// trajectory: trajectories cheaper than what the caller does with a record (a CSV row, a
  /// send) then cannot pile up records faster than they are consumed.
  static constexpr std::size_t max_waiting_records = 4096;
  /// Nothing queued and nothing running, and either closed or stopped: every worker has left
  /// or is about to, and every record has been handed out by wait_for_records or is in it.
  bool done() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_ && idle_locked() && finished_.empty();
  }
  /// Nothing queued and nothing running (more may still be added).
  bool idle() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return idle_locked();
  }

 private:
  std::uint64_t queued_locked() const {
    std::uint64_t n = 0;
    for (const auto& [b, e] : ranges_) n += e - b;
    return n;
  }
  bool idle_locked() const { return ranges_.empty() && running_ == 0; }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      work_ready_.wait(lock, [this] { return ranges_.empty() ? closed_ : finished_.size() < max_waiting_records; });
      if (ranges_.empty()) return;  // closed (or stopped) and nothing left
      const std::uint64_t i = ranges_.front().first++;
      if (ranges_.front().first == ranges_.front().second) ranges_.pop_front();
      ++running_;
      lock.unlock();
      trajectory_record r;
      r.index = i;
      try {
        work_(i, r, stop_);
      } catch (const std::exception& e) {
        r.status = trajectory_status::failed;
        r.reason = e.what();
      } catch (...) {
        r.status = trajectory_status::failed;
        r.reason = "unknown exception";
      }
      lock.lock();
      --running_;
      finished_.push_back(std::move(r));
      news_.notify_all();
    }
  }

  void shut_down() {
    stop();
    for (auto& t : workers_)
      if (t.joinable()) t.join();
  }

  trajectory_work work_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, news_;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> ranges_;
  std::vector<trajectory_record> finished_;
  unsigned running_ = 0;
  bool closed_ = false;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

/// The records of trajectories 0 … count − 1 as they arrive, in any order: stored in
/// result.records (each not_run until its own arrives), or handed to a sink in trajectory order.
class ordered_records {
 public:
  ordered_records(std::uint64_t count, record_sink sink, run_result& result)
      : count_(count), sink_(std::move(sink)), result_(result) {
    if (sink_) return;
    result.records.resize(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) result.records[static_cast<std::size_t>(i)].index = i;
  }
  void add(trajectory_record&& r) {
    if (r.index >= count_) throw std::runtime_error("geomint::ensemble: a record of no trajectory");
    finished_ += r.finished() ? 1 : 0;
    if (!sink_) {
      result_.records[static_cast<std::size_t>(r.index)] = std::move(r);
      return;
    }
    if (r.index != next_) {  // ahead of an earlier one: held
      held_.emplace(r.index, std::move(r));
      return;
    }
    sink_(std::move(r), result_.stop_code);
    ++next_;
    for (auto it = held_.begin(); it != held_.end() && it->first == next_; it = held_.erase(it), ++next_)
      sink_(std::move(it->second), result_.stop_code);
  }
  /// The run is over: with a sink, the records still held and a not_run one for every
  /// trajectory that never ran, in order.
  void finish() {
    if (!sink_) return;
    for (; next_ < count_; ++next_) {
      const auto it = held_.find(next_);
      trajectory_record r;
      r.index = next_;
      if (it != held_.end()) {
        r = std::move(it->second);
        held_.erase(it);
      }
      sink_(std::move(r), result_.stop_code);
    }
  }
  std::uint64_t finished() const { return finished_; }

 private:
  std::uint64_t count_, next_ = 0, finished_ = 0;
  record_sink sink_;
  run_result& result_;
  std::map<std::uint64_t, trajectory_record> held_;
};

}  // namespace detail

/// Runs work(i, record, stop) for i = 0 … count − 1 on exec.threads threads (see the top of this
/// file).
inline run_result run_indexed(std::uint64_t count, const trajectory_work& work, const execution& exec = {}) {
  run_result result;
  detail::ordered_records records(count, exec.sink, result);
  detail::trajectory_pool pool(exec.threads, work);
  pool.add(0, count);
  pool.close();
  while (!pool.done()) {
    for (auto& r : pool.wait_for_records(std::chrono::milliseconds(100))) records.add(std::move(r));
    if (result.stop_code == 0 && exec.stop_requested && (result.stop_code = exec.stop_requested()) != 0) pool.stop();
    if (exec.progress) exec.progress(records.finished(), count);
  }
  records.finish();
  return result;
}

}  // namespace geomint::ensemble
