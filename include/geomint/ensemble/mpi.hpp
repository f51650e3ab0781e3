// Running the trajectories of an ensemble on the ranks of an MPI communicator, each rank with its
// own worker threads (threads.hpp's pool). Needs MPI (mpi.h; CMake: geomint::ensemble_mpi).
//
//   run_result r = run_indexed(count, work, mpi_execution{MPI_COMM_WORLD, threads});
//
// Every rank of the communicator calls it with the same count. Rank 0 hands out blocks of
// trajectory indices: a rank asks for the next block while it still has `threads` trajectories
// queued, so a rank that finishes early takes more; blocks shrink as the work runs out (about
// remaining / (4 × ranks), at least `threads`, at most max_block_size: a sink on rank 0 then
// holds at most a few blocks of records that finished ahead of an earlier one). Rank 0 computes too. Records travel to rank 0 as
// they finish (at every block request and at least every 0.25 s), so rank 0 counts progress
// across all ranks and holds every finished trajectory if the run is stopped; it returns them
// in trajectory order, the other ranks an empty vector. A record depends only on its index
// (see threads.hpp), so the results are identical bit for bit for any rank and thread count.
//
// A stop request on any rank (stop_requested returning nonzero) stops every rank: rank 0 tells
// the others, no trajectory starts, running ones end at their next step, and their records and
// every finished one reach rank 0 before run_indexed returns (within milliseconds: under
// mpirun, which sends SIGTERM to every rank on Ctrl-C and SIGKILL one second later, the caller
// has time to write its output).
//
// Threads: the calling thread makes every MPI call (MPI_THREAD_FUNNELED suffices) and must be
// the thread that initialized MPI; the workers make none. MPI must be initialized by the caller.
#pragma once

// The C API only: never OpenMPI's or MPICH's deprecated C++ bindings (another library to link).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <list>
#include <stdexcept>
#include <vector>

#include "geomint/ensemble/threads.hpp"

namespace geomint::ensemble {

struct mpi_execution {
  MPI_Comm comm = MPI_COMM_WORLD;
  unsigned threads = 1;  ///< worker threads on each rank (the caller's value on each)
  /// Called on rank 0 (calling thread) with (finished, total) across all ranks.
  std::function<void(std::uint64_t finished, std::uint64_t total)> progress;
  /// Polled on every rank (calling thread), as in execution: nonzero stops all ranks.
  std::function<int()> stop_requested;
  /// If set (rank 0), receives the records in trajectory order instead of run_result::records.
  record_sink sink;

  mpi_execution() = default;
  /// `mpi_execution{MPI_COMM_WORLD, 2}`: two workers on each rank, the other members as named.
  mpi_execution(MPI_Comm comm_, unsigned threads_, std::function<void(std::uint64_t, std::uint64_t)> progress_ = {},
                std::function<int()> stop_requested_ = {}, record_sink sink_ = {})
      : comm(comm_), threads(threads_), progress(std::move(progress_)), stop_requested(std::move(stop_requested_)),
        sink(std::move(sink_)) {}
};

namespace detail {

enum mpi_tag : int { tag_results = 1, tag_block = 2, tag_stop = 3, tag_final = 4 };
enum results_flag : std::uint32_t { wants_block = 1, rank_done = 2 };

/// The largest block of trajectories handed out at once (unless a rank's threads need more).
constexpr std::uint64_t max_block_size = 4096;

/// The head of a results message (worker → rank 0); the records' bytes follow.
struct results_head {
  std::uint32_t flags = 0;
  std::int32_t stop_code = 0;
  std::uint32_t threads = 0;
  std::uint32_t records = 0;
};

inline std::vector<char> results_message(const results_head& head, const std::vector<trajectory_record>& records) {
  std::vector<char> out;
  put(out, head);
  for (const auto& r : records) to_bytes(r, out);
  return out;
}

/// MPI_Isend with the buffer kept alive until the send completes.
class pending_sends {
 public:
  void send(std::vector<char> bytes, int dest, int tag, MPI_Comm comm) {
    sends_.emplace_back();
    sends_.back().bytes = std::move(bytes);
    auto& s = sends_.back();
    MPI_Isend(s.bytes.data(), static_cast<int>(s.bytes.size()), MPI_BYTE, dest, tag, comm, &s.request);
    collect();
  }
  void collect() {
    for (auto it = sends_.begin(); it != sends_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? sends_.erase(it) : std::next(it);
    }
  }
  void wait_all() {
    for (auto& s : sends_) MPI_Wait(&s.request, MPI_STATUS_IGNORE);
    sends_.clear();
  }

 private:
  struct send_buffer {
    std::vector<char> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::list<send_buffer> sends_;  // list: MPI holds the address of each buffer
};

template <class T>
std::vector<char> bytes_of(const T& v) {
  std::vector<char> out;
  put(out, v);
  return out;
}

struct block {
  std::uint64_t begin = 0, end = 0;
};

/// Rank 0: hands out blocks, runs its own share, gathers every record.
inline run_result mpi_coordinate(std::uint64_t count, const trajectory_work& work, const mpi_execution& exec,
                                 MPI_Comm comm, int ranks) {
  run_result result;
  ordered_records records(count, exec.sink, result);
  trajectory_pool pool(exec.threads, work);
  pending_sends sends;
  std::vector<bool> done(static_cast<std::size_t>(ranks), false);
  done[0] = true;
  int active = ranks - 1;
  std::uint64_t next = 0;
  bool stopping = false;

  auto next_block = [&](std::uint64_t at_least) {
    block b;
    if (stopping || next >= count) return b;
    const std::uint64_t remaining = count - next;
    const std::uint64_t share = std::min(max_block_size, remaining / (4u * ranks));
    const std::uint64_t size = std::min(remaining, std::max<std::uint64_t>(at_least, share));
    b = {next, next + size};
    next += size;
    return b;
  };
  auto stop_all = [&](int code) {
    stopping = true;
    result.stop_code = code;
    pool.stop();
    for (int r = 1; r < ranks; ++r)
      if (!done[static_cast<std::size_t>(r)]) sends.send(bytes_of(std::int32_t{code}), r, tag_stop, comm);
  };

  std::vector<char> buffer;
  while (true) {
    for (auto& r : pool.wait_for_records(std::chrono::milliseconds(1))) records.add(std::move(r));
    if (!stopping && exec.stop_requested)
      if (const int code = exec.stop_requested()) stop_all(code);
    int flag = 0;
    MPI_Status status;
    while (MPI_Iprobe(MPI_ANY_SOURCE, tag_results, comm, &flag, &status), flag) {
      int size = 0;
      MPI_Get_count(&status, MPI_BYTE, &size);
      buffer.resize(static_cast<std::size_t>(size));
      MPI_Recv(buffer.data(), size, MPI_BYTE, status.MPI_SOURCE, tag_results, comm, MPI_STATUS_IGNORE);
      byte_reader in(buffer.data(), buffer.size());
      const auto head = in.get<results_head>();
      if (head.stop_code != 0 && !stopping) stop_all(head.stop_code);  // before its interrupted records
      for (std::uint32_t k = 0; k < head.records; ++k) records.add(from_bytes(in));
      if (head.flags & wants_block) sends.send(bytes_of(next_block(std::max(1u, head.threads))), status.MPI_SOURCE, tag_block, comm);
      if (head.flags & rank_done) {
        done[static_cast<std::size_t>(status.MPI_SOURCE)] = true;
        --active;
        sends.send({}, status.MPI_SOURCE, tag_final, comm);
      }
    }
    if (!stopping) {
      while (next < count && pool.queued() < exec.threads) {
        const block b = next_block(exec.threads);
        pool.add(b.begin, b.end);
      }
      if (next >= count) pool.close();
    }
    sends.collect();
    if (exec.progress) exec.progress(records.finished(), count);
    if (active == 0 && pool.done()) break;
  }
  sends.wait_all();
  records.finish();
  return result;
}

/// Ranks 1 … R − 1: ask rank 0 for blocks, run them, send the records back.
inline run_result mpi_work(const trajectory_work& work, const mpi_execution& exec, MPI_Comm comm) {
  run_result result;
  trajectory_pool pool(exec.threads, work);
  std::vector<trajectory_record> outbox;
  bool requested = false, no_more = false, stopping = false, report_stop = false;
  block incoming;
  MPI_Request block_request = MPI_REQUEST_NULL;
  using clock = std::chrono::steady_clock;
  auto last_sent = clock::now();

  auto send_results = [&](std::uint32_t flags) {
    results_head head;
    head.flags = flags;
    head.stop_code = report_stop ? result.stop_code : 0;
    head.threads = exec.threads;
    head.records = static_cast<std::uint32_t>(outbox.size());
    std::vector<char> bytes = results_message(head, outbox);
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, tag_results, comm);
    outbox.clear();
    report_stop = false;
    last_sent = clock::now();
  };
  auto stop = [&](int code) {
    stopping = true;
    result.stop_code = code;
    pool.stop();
  };

  while (true) {
    for (auto& r : pool.wait_for_records(std::chrono::milliseconds(1))) outbox.push_back(std::move(r));
    int flag = 0;
    MPI_Iprobe(0, tag_stop, comm, &flag, MPI_STATUS_IGNORE);
    if (flag) {
      std::int32_t code = 0;
      MPI_Recv(&code, sizeof code, MPI_BYTE, 0, tag_stop, comm, MPI_STATUS_IGNORE);
      if (!stopping) stop(code);
    }
    if (!stopping && exec.stop_requested)
      if (const int code = exec.stop_requested()) {
        stop(code);
        report_stop = true;  // rank 0 stops the others
      }
    if (requested) {
      MPI_Test(&block_request, &flag, MPI_STATUS_IGNORE);
      if (flag) {
        requested = false;
        if (incoming.begin < incoming.end && !stopping) pool.add(incoming.begin, incoming.end);
        else {
          no_more = true;
          pool.close();
        }
      }
    }
    if (!requested && !no_more && !stopping && pool.queued() < exec.threads) {
      send_results(wants_block);
      MPI_Irecv(&incoming, sizeof incoming, MPI_BYTE, 0, tag_block, comm, &block_request);
      requested = true;
    } else if (report_stop || (!outbox.empty() && clock::now() - last_sent > std::chrono::milliseconds(250))) {
      send_results(0);
    }
    if ((no_more || stopping) && !requested && pool.done()) break;
  }
  for (auto& r : pool.wait_for_records(std::chrono::milliseconds(0))) outbox.push_back(std::move(r));
  send_results(rank_done);
  // Rank 0 answers rank_done with tag_final, after any tag_stop it sent us (messages between
  // two ranks arrive in order): drain to it, so that no message is left unreceived.
  while (true) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, comm, &status);
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    std::vector<char> bytes(static_cast<std::size_t>(size));
    MPI_Recv(bytes.data(), size, MPI_BYTE, 0, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == tag_final) break;
  }
  return result;
}

}  // namespace detail

/// Runs work(i, record, stop) for i = 0 … count − 1 on the ranks of exec.comm (see the top of
/// this file). Collective over exec.comm. Rank 0 returns the records in trajectory order (or
/// hands them to exec.sink); every rank returns the stop code.
inline run_result run_indexed(std::uint64_t count, const trajectory_work& work, const mpi_execution& exec) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw std::logic_error("geomint::ensemble: MPI is not initialized");
  int is_main = 0, level = MPI_THREAD_SINGLE;
  MPI_Is_thread_main(&is_main);
  MPI_Query_thread(&level);
  if (!is_main || level < MPI_THREAD_FUNNELED)
    throw std::logic_error("geomint::ensemble: run_indexed must be called on the thread that initialized MPI, "
                           "with MPI_THREAD_FUNNELED or more (MPI_Init_thread)");
  MPI_Comm comm;
  MPI_Comm_dup(exec.comm, &comm);  // our messages never meet the caller's
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  run_result r = rank == 0 ? detail::mpi_coordinate(count, work, exec, comm, ranks) : detail::mpi_work(work, exec, comm);
  MPI_Comm_free(&comm);
  return r;
}

}  // namespace geomint::ensemble
