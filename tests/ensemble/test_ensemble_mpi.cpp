// geomint::ensemble across MPI ranks (ctest runs this under mpiexec -n 1 and -n 2): rank 0
// receives, in trajectory order, records identical bit for bit to a one-thread run (collected, or
// handed to a sink one by one, also for more trajectories than one block holds); a stop request on
// one rank stops every rank, and every finished record still reaches rank 0.
#define BOOST_TEST_MODULE geomint_ensemble_mpi
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "geomint/constrained/rattle.hpp"
#include "geomint/ensemble/ensemble.hpp"
#include "geomint/ensemble/mpi.hpp"
#include "geomint/problems/spherical_pendulum.hpp"

namespace ens = geomint::ensemble;
using geomint::problems::spherical_pendulum;
using state = spherical_pendulum::state_type;

namespace {

struct mpi_environment {
  mpi_environment() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~mpi_environment() { MPI_Finalize(); }
};
BOOST_TEST_GLOBAL_FIXTURE(mpi_environment);

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int ranks() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

ens::member<spherical_pendulum, state> pendulum_of(std::uint64_t i) {
  auto engine = ens::trajectory_engine(77, i);
  geomint::problems::spherical_pendulum_parameters p;
  p.length = ens::uniform(engine, 0.5, 2.0);
  const double theta = ens::uniform(engine, 0.1, 2.5), omega = ens::uniform(engine, 0.5, 4.0);
  const spherical_pendulum s(p);
  return {s, s.initial_state(theta, omega)};
}

template <class Execution>
ens::run_result run_pendulums(std::uint64_t count, const Execution& exec) {
  return ens::run(
      geomint::rattle<state>(), count, pendulum_of, ens::time_grid{0.0, 0.01, 300, 5},
      [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); }, exec);
}

}  // namespace

BOOST_AUTO_TEST_CASE(rank_0_gets_the_records_of_a_one_thread_run_in_order) {
  for (const std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{37}}) {
    for (const unsigned threads : {1u, 2u}) {
      const ens::run_result r = run_pendulums(count, ens::mpi_execution{MPI_COMM_WORLD, threads});
      BOOST_TEST(r.stop_code == 0);
      if (rank() != 0) {
        BOOST_TEST(r.records.empty());
        continue;
      }
      const ens::run_result serial = run_pendulums(count, ens::execution{1});
      BOOST_TEST_REQUIRE(r.records.size() == count);
      for (std::uint64_t i = 0; i < count; ++i) {
        const auto& a = r.records[i];
        const auto& b = serial.records[i];
        BOOST_TEST(a.index == i);
        BOOST_TEST(static_cast<int>(a.status) == static_cast<int>(ens::trajectory_status::ok));
        BOOST_TEST(a.steps == b.steps);
        BOOST_TEST(a.t_reached == b.t_reached);
        BOOST_TEST(a.final_state == b.final_state);  // == on doubles: bit for bit
        BOOST_TEST(a.max_error == b.max_error);
        BOOST_TEST(a.final_error == b.final_error);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_stop_on_the_last_rank_stops_every_rank) {
  // Trajectories 0 … 3 finish at once; the others run until told to stop (60 s at most: then
  // they end "ok", which the test rejects). The last rank requests the stop once it runs one of
  // them; with one rank that is rank 0 itself.
  std::atomic<bool> running_long{false};
  const ens::trajectory_work work = [&](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>& stop) {
    r.status = ens::trajectory_status::ok;
    if (i < 4) return;
    running_long = true;
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!stop.load() && std::chrono::steady_clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (stop.load()) r.status = ens::trajectory_status::interrupted;
  };
  ens::mpi_execution exec{MPI_COMM_WORLD, 2};
  const bool last = rank() == ranks() - 1;
  exec.stop_requested = [&] { return last && running_long.load() ? 9 : 0; };
  const ens::run_result r = ens::run_indexed(200, work, exec);
  BOOST_TEST(r.stop_code == 9);
  if (rank() != 0) return;
  BOOST_TEST_REQUIRE(r.records.size() == 200u);
  std::size_t interrupted = 0, not_run = 0;
  for (const auto& rec : r.records) {
    BOOST_TEST(rec.index == static_cast<std::uint64_t>(&rec - r.records.data()));
    if (rec.index >= 4) BOOST_TEST(static_cast<int>(rec.status) != static_cast<int>(ens::trajectory_status::ok));
    interrupted += rec.status == ens::trajectory_status::interrupted;
    not_run += rec.status == ens::trajectory_status::not_run;
  }
  BOOST_TEST(interrupted >= 1u);
  BOOST_TEST(interrupted <= static_cast<std::size_t>(2 * ranks()));  // at most one per worker thread
  BOOST_TEST(not_run >= 200u - 4u - 2u * static_cast<std::size_t>(ranks()));
}

BOOST_AUTO_TEST_CASE(a_sink_on_rank_0_receives_every_record_in_trajectory_order) {
  // 9000 trajectories of a cheap work: more than two blocks of max_block_size, so blocks run on
  // both ranks out of order and rank 0 must hold the records that arrive early.
  const std::uint64_t count = 2 * ens::detail::max_block_size + 808;
  const ens::trajectory_work work = [](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>&) {
    r.status = ens::trajectory_status::ok;
    r.steps = static_cast<std::int64_t>(i);
    r.max_error.assign(1, static_cast<double>(i) / 7);
  };
  std::uint64_t next = 0;
  bool in_order = true;
  ens::mpi_execution exec{MPI_COMM_WORLD, 2};
  exec.sink = [&](ens::trajectory_record&& r, int stop_code) {
    in_order = in_order && r.index == next && r.steps == static_cast<std::int64_t>(next) &&
               r.max_error == std::vector<double>{static_cast<double>(next) / 7} && stop_code == 0;
    ++next;
  };
  const ens::run_result r = ens::run_indexed(count, work, exec);
  BOOST_TEST(r.records.empty());
  BOOST_TEST(in_order);
  BOOST_TEST(next == (rank() == 0 ? count : 0u));  // the sink runs on rank 0 only

  // The pendulums through a sink: the records a one-thread run collects.
  if (rank() == 0) {
    const ens::run_result serial = run_pendulums(23, ens::execution{1});
    std::vector<ens::trajectory_record> streamed;
    ens::mpi_execution pendulums{MPI_COMM_WORLD, 2};
    pendulums.sink = [&](ens::trajectory_record&& rec, int) { streamed.push_back(std::move(rec)); };
    run_pendulums(23, pendulums);
    BOOST_TEST_REQUIRE(streamed.size() == 23u);
    for (std::size_t i = 0; i < 23; ++i) {
      BOOST_TEST(streamed[i].index == i);
      BOOST_TEST(streamed[i].final_state == serial.records[i].final_state);
      BOOST_TEST(streamed[i].max_error == serial.records[i].max_error);
    }
  } else {
    run_pendulums(23, ens::mpi_execution{MPI_COMM_WORLD, 2});
  }
}
