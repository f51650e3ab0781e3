// geomint::ensemble on threads: records identical bit for bit for any thread count and equal to
// a plain loop's, failures and stop requests recorded per trajectory, dynamic scheduling, the
// step hook where section points plug in, records as bytes, per-trajectory random numbers, and
// tables from CSV files.
#define BOOST_TEST_MODULE geomint_ensemble
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <Eigen/Cholesky>

#include "geomint/constrained/rattle.hpp"
#include "geomint/ensemble/ensemble.hpp"
#include "geomint/ensemble/events.hpp"
#include "geomint/ensemble/table.hpp"
#include "geomint/problems/spherical_pendulum.hpp"

namespace ens = geomint::ensemble;
using geomint::problems::spherical_pendulum;
using geomint::problems::spherical_pendulum_parameters;
using state = spherical_pendulum::state_type;
using pendulum_member = ens::member<spherical_pendulum, state>;

namespace {

/// Trajectory i of the test ensemble: the rod length, the polar angle and the azimuthal speed
/// drawn from (seed 2024, i).
pendulum_member pendulum_of(std::uint64_t i) {
  auto engine = ens::trajectory_engine(2024, i);
  spherical_pendulum_parameters p;
  p.length = ens::uniform(engine, 0.5, 2.0);
  const double theta = ens::uniform(engine, 0.1, 2.5), omega = ens::uniform(engine, 0.5, 4.0);
  const spherical_pendulum s(p);
  return {s, s.initial_state(theta, omega)};
}

const ens::time_grid grid{0.0, 0.01, 500, 7};  // 500 steps, observed every 7 and at the end

ens::run_result run_pendulums(unsigned threads, std::uint64_t count = 48) {
  return ens::run(
      geomint::rattle<state>(), count, pendulum_of, grid,
      [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); }, ens::execution{threads});
}

/// Bit-for-bit equality of two records (== on doubles: the same numbers, not close ones).
void require_same(const ens::trajectory_record& a, const ens::trajectory_record& b) {
  BOOST_TEST(a.index == b.index);
  BOOST_TEST(static_cast<int>(a.status) == static_cast<int>(b.status));
  BOOST_TEST(a.reason == b.reason);
  BOOST_TEST(a.steps == b.steps);
  BOOST_TEST(a.t_reached == b.t_reached);
  BOOST_TEST(a.final_state == b.final_state);
  BOOST_TEST(a.max_error == b.max_error);
  BOOST_TEST(a.final_error == b.final_error);
  BOOST_TEST(a.crossings == b.crossings);
}

}  // namespace

BOOST_AUTO_TEST_CASE(records_are_identical_for_1_2_and_4_threads_and_equal_a_plain_loop) {
  const ens::run_result one = run_pendulums(1), two = run_pendulums(2), four = run_pendulums(4);
  BOOST_TEST_REQUIRE(one.records.size() == 48u);
  BOOST_TEST(one.stop_code == 0);
  // The plain loop the ensemble replaces: a fresh stepper per trajectory, the same grid.
  for (std::uint64_t i = 0; i < 48; ++i) {
    const pendulum_member m = pendulum_of(i);
    geomint::rattle<state> stepper;
    state x = m.initial;
    auto observe = ens::constrained_invariants(m.system);
    ens::trajectory_record plain;
    plain.index = i;
    observe(x, 0.0, plain);
    for (std::int64_t k = 0; k < grid.steps; ++k) {
      stepper.do_step(m.system, x, grid.time(k), grid.dt);
      if ((k + 1) % grid.every == 0 || k + 1 == grid.steps) observe(x, grid.time(k + 1), plain);
    }
    plain.status = ens::trajectory_status::ok;
    plain.steps = grid.steps;
    plain.t_reached = grid.time(grid.steps);
    ens::pack_state(x, plain.final_state);
    const auto& r = one.records[i];
    require_same(r, plain);
    require_same(two.records[i], r);
    require_same(four.records[i], r);
  }
  // The summary says what it claims: RATTLE at h = 0.01 over 5 s keeps the energy to ~C h²
  // (bounded, nonzero) and both constraints to round-off (scaled residuals, 1e-12 ≫ ε).
  for (const auto& r : one.records) {
    BOOST_TEST_REQUIRE(r.max_error.size() == 3u);
    BOOST_TEST(r.max_error[0] > 0.0);
    BOOST_TEST(r.max_error[0] < 1e-2);
    BOOST_TEST(r.final_error[1] < 1e-12);
    BOOST_TEST(r.final_error[2] < 1e-12);
    BOOST_TEST(r.cpu_seconds >= 0.0);
  }
}

namespace {
/// An external linear solver (Eigen's LDLᵀ behind the interface), counting its factorizations,
/// which a shared one would have several threads run on one object at once.
class ldlt_solver final : public geomint::external_linear_solver {
 public:
  explicit ldlt_solver(std::atomic<int>* made) { ++*made; }
  bool factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) override {
    ldlt_.compute(a);
    return ldlt_.info() == Eigen::Success;
  }
  bool factorize(const Eigen::SparseMatrix<double, Eigen::ColMajor, int>& a) override {
    return factorize(Eigen::MatrixXd(a));
  }
  void solve_in_place(Eigen::Ref<Eigen::VectorXd> x) override { x = ldlt_.solve(x); }

 private:
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
};
}  // namespace

// constrained_options::linear_solver is not owned, so the trajectories' copies of the prototype
// would share it: refused on more than one thread. A linear_solver_factory gives every copy its
// own (ThreadSanitizer finds no race: tsan_build.cmake runs this test), with the same records on
// 1 and 4 threads.
BOOST_AUTO_TEST_CASE(an_external_linear_solver_is_never_shared_between_threads) {
  std::atomic<int> made{0};
  ldlt_solver shared(&made);
  geomint::constrained_options with_shared;
  with_shared.linear_solver = &shared;
  auto run_with = [&](const geomint::constrained_options& options, unsigned threads) {
    return ens::run(
        geomint::rattle<state>(options), 16, pendulum_of, grid,
        [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); },
        ens::execution{threads});
  };
  BOOST_CHECK_THROW(run_with(with_shared, 4), std::invalid_argument);
  const ens::run_result one = run_with(with_shared, 1);  // one thread may share it

  geomint::constrained_options with_factory;
  with_factory.linear_solver_factory = [&made] { return std::make_unique<ldlt_solver>(&made); };
  made = 0;
  const ens::run_result four = run_with(with_factory, 4);
  BOOST_TEST(made.load() == 16);  // one per trajectory's stepper
  BOOST_TEST_REQUIRE(four.records.size() == one.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    BOOST_TEST(static_cast<int>(four.records[i].status) == static_cast<int>(ens::trajectory_status::ok));
    require_same(four.records[i], one.records[i]);
  }
}

BOOST_AUTO_TEST_CASE(members_from_a_vector_give_the_same_records) {
  std::vector<pendulum_member> members;
  for (std::uint64_t i = 0; i < 12; ++i) members.push_back(pendulum_of(i));
  const auto from_vector = ens::run(
      geomint::rattle<state>(), members.size(), ens::from_vector(members), grid,
      [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); }, ens::execution{3});
  const auto generated = run_pendulums(1, 12);
  for (std::size_t i = 0; i < 12; ++i) require_same(from_vector.records[i], generated.records[i]);
}

BOOST_AUTO_TEST_CASE(a_failing_trajectory_is_recorded_and_the_others_complete) {
  // At h = 0.2 the pendulum at ω = 3 rad/s steps fine; at ω = 40 rad/s (8 rad per step) the
  // position constraint has no solution along RATTLE's update and Newton gives up. Trajectory 5
  // is the fast one.
  const ens::time_grid coarse{0.0, 0.2, 50, 1};
  const auto member_of = [](std::uint64_t i) {
    const spherical_pendulum s;
    return pendulum_member{s, s.initial_state(1.0, i == 5 ? 40.0 : 3.0)};
  };
  for (unsigned threads : {1u, 3u}) {
    const auto r = ens::run(
        geomint::rattle<state>(), 9, member_of, coarse,
        [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); },
        ens::execution{threads});
    for (const auto& rec : r.records) {
      if (rec.index == 5) {
        BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::failed));
        BOOST_TEST(rec.reason.find("step failed") != std::string::npos, rec.reason);
        BOOST_TEST(rec.steps < 50);
        BOOST_TEST(rec.t_reached == coarse.time(rec.steps));
        BOOST_TEST(rec.final_state.size() == 6u);  // the last good state
      } else {
        BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::ok));
        BOOST_TEST(rec.steps == 50);
        BOOST_TEST(rec.reason.empty());
      }
    }
  }
}

namespace {
/// A trajectory that fails at step `fail_at` (step_error, state untouched) and counts otherwise.
struct counting_trajectory {
  std::int64_t fail_at;
  std::vector<double> x{0.0};
  void step(double t, double dt) {
    if (static_cast<std::int64_t>(x[0]) == fail_at)
      throw geomint::step_error(geomint::failure_reason::newton_diverged, t, dt, 3, 1.0, "test");
    x[0] += 1;
  }
  const std::vector<double>& state() const { return x; }
};
}  // namespace

BOOST_AUTO_TEST_CASE(integrate_keeps_the_last_good_state_and_observes_it_last) {
  counting_trajectory t{7};
  std::vector<double> seen;
  auto observer = [&](const std::vector<double>& x, double, ens::trajectory_record&) { seen.push_back(x[0]); };
  ens::trajectory_record r;
  std::atomic<bool> stop{false};
  ens::integrate(t, ens::time_grid{1.0, 0.5, 20, 3}, observer, r, stop);
  BOOST_TEST(static_cast<int>(r.status) == static_cast<int>(ens::trajectory_status::failed));
  BOOST_TEST(r.steps == 7);
  BOOST_TEST(r.t_reached == 4.5);
  BOOST_TEST(r.final_state == std::vector<double>{7.0});
  BOOST_TEST(seen == (std::vector<double>{0, 3, 6, 7}), "observed at steps 0, 3, 6 and the last good one");
  BOOST_TEST(r.reason.find("newton_diverged") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_exception_escaping_the_work_fails_only_its_trajectory) {
  const ens::trajectory_work work = [](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>&) {
    if (i == 3) throw std::runtime_error("bad data for 3");
    r.status = ens::trajectory_status::ok;
    r.steps = static_cast<std::int64_t>(i);
  };
  const auto r = ens::run_indexed(10, work, ens::execution{2});
  for (const auto& rec : r.records) {
    BOOST_TEST(static_cast<int>(rec.status) ==
               static_cast<int>(rec.index == 3 ? ens::trajectory_status::failed : ens::trajectory_status::ok));
    if (rec.index == 3) BOOST_TEST(rec.reason == "bad data for 3");
    else BOOST_TEST(rec.steps == static_cast<std::int64_t>(rec.index));
  }
}

BOOST_AUTO_TEST_CASE(scheduling_is_dynamic) {
  // Trajectory 0 cannot finish before the 63 others have: with 2 threads the second one must
  // take all of them while the first is busy. A static split (0 … 31 | 32 … 63) would never
  // get there; the 60 s limit turns that into a failure instead of a hang.
  std::atomic<int> others{0};
  bool gave_up = false;
  const ens::trajectory_work work = [&](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>&) {
    if (i == 0) {
      const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (others.load() < 63 && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      gave_up = others.load() < 63;
    } else {
      ++others;
    }
    r.status = ens::trajectory_status::ok;
  };
  const auto r = ens::run_indexed(64, work, ens::execution{2});
  BOOST_TEST(!gave_up);
  for (const auto& rec : r.records) BOOST_TEST(rec.finished());
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_running_trajectories_and_leaves_the_rest_not_run) {
  // Trajectories 0 … 3 finish at once; trajectory 4 and later run until told to stop; the stop
  // is requested once trajectory 4 has started.
  std::atomic<bool> four_started{false};
  const ens::trajectory_work work = [&](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>& stop) {
    r.status = ens::trajectory_status::ok;
    if (i < 4) return;
    if (i == 4) four_started = true;
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!stop.load() && std::chrono::steady_clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (stop.load()) r.status = ens::trajectory_status::interrupted;
  };
  ens::execution exec{2};
  exec.stop_requested = [&] { return four_started.load() ? 15 : 0; };
  std::uint64_t last_finished = 0;
  exec.progress = [&](std::uint64_t finished, std::uint64_t total) {
    BOOST_TEST(total == 100u);
    BOOST_TEST(finished >= last_finished);
    last_finished = finished;
  };
  const auto r = ens::run_indexed(100, work, exec);
  BOOST_TEST(r.stop_code == 15);
  std::size_t not_run = 0;
  for (const auto& rec : r.records) {
    if (rec.index < 4) BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::ok));
    else if (rec.index == 4)
      BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::interrupted));
    else
      BOOST_TEST((rec.status == ens::trajectory_status::interrupted || rec.status == ens::trajectory_status::not_run));
    not_run += rec.status == ens::trajectory_status::not_run;
  }
  BOOST_TEST(not_run >= 94u);  // at most one more trajectory (5) had started on the second thread
  BOOST_TEST(last_finished == 4u);
}

// A sink gets the records one by one in trajectory order as they become final (so a large
// ensemble's output is written as it runs): the same records as run_result::records, for any
// thread count, with trajectories that finish out of order held back until the earlier ones
// arrive; after a stop, the stop code with every interrupted record and not_run for the rest.
BOOST_AUTO_TEST_CASE(a_sink_receives_the_records_in_trajectory_order) {
  const ens::run_result collected = run_pendulums(1);
  for (unsigned threads : {1u, 2u, 4u}) {
    std::vector<ens::trajectory_record> streamed;
    ens::execution exec{threads};
    exec.sink = [&](ens::trajectory_record&& r, int stop_code) {
      BOOST_TEST(stop_code == 0);
      streamed.push_back(std::move(r));
    };
    const ens::run_result r = ens::run(
        geomint::rattle<state>(), 48, pendulum_of, grid,
        [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); }, exec);
    BOOST_TEST(r.records.empty());  // handed to the sink instead
    BOOST_TEST_REQUIRE(streamed.size() == 48u);
    for (std::size_t i = 0; i < 48; ++i) require_same(streamed[i], collected.records[i]);
  }

  // Trajectory 0 finishes last (it waits for 1 … 9): the others are held, then come in order.
  std::atomic<int> others{0};
  const ens::trajectory_work slow_first = [&](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>&) {
    if (i == 0)
      while (others.load() < 9) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    else
      ++others;
    r.status = ens::trajectory_status::ok;
    r.steps = static_cast<std::int64_t>(i);
  };
  std::vector<std::uint64_t> order;
  ens::execution two{2};
  two.sink = [&](ens::trajectory_record&& r, int) {
    BOOST_TEST(r.steps == static_cast<std::int64_t>(r.index));
    order.push_back(r.index);
  };
  ens::run_indexed(10, slow_first, two);
  BOOST_TEST(order == (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), boost::test_tools::per_element());

  // A stop: trajectory 2 runs until stopped, the stop is requested once it has started.
  std::atomic<bool> two_started{false};
  const ens::trajectory_work stopping = [&](std::uint64_t i, ens::trajectory_record& r, const std::atomic<bool>& stop) {
    r.status = ens::trajectory_status::ok;
    if (i < 2) return;
    if (i == 2) two_started = true;
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    r.status = ens::trajectory_status::interrupted;
  };
  std::vector<ens::trajectory_record> rest;
  ens::execution stop_exec{1};
  stop_exec.stop_requested = [&] { return two_started.load() ? 2 : 0; };
  stop_exec.sink = [&](ens::trajectory_record&& r, int stop_code) {
    if (r.status == ens::trajectory_status::interrupted) BOOST_TEST(stop_code == 2);
    rest.push_back(std::move(r));
  };
  BOOST_TEST(ens::run_indexed(20, stopping, stop_exec).stop_code == 2);
  BOOST_TEST_REQUIRE(rest.size() == 20u);
  for (std::size_t i = 0; i < 20; ++i) {
    BOOST_TEST(rest[i].index == i);
    const auto expected = i < 2 ? ens::trajectory_status::ok : i == 2 ? ens::trajectory_status::interrupted
                                                                      : ens::trajectory_status::not_run;
    BOOST_TEST(static_cast<int>(rest[i].status) == static_cast<int>(expected), "trajectory " << i);
  }
}

namespace {
/// A hook that records a crossing at every 10th step: the time and the state there.
struct every_tenth_step {
  std::int64_t steps = 0;
  template <class Trajectory>
  void operator()(const Trajectory& t, double time, ens::trajectory_record& r) {
    if (++steps % 10 != 0) return;
    ens::crossing c;
    c.t = time;
    ens::pack_state(t.state(), c.state);
    r.crossings.push_back(std::move(c));
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(the_step_hook_sees_every_step_and_its_crossings_reach_the_record) {
  auto run_with_hook = [](unsigned threads) {
    return ens::run(
        geomint::rattle<state>(), 6, pendulum_of, grid,
        [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); },
        ens::execution{threads}, [](std::uint64_t) { return every_tenth_step{}; });
  };
  const auto one = run_with_hook(1), two = run_with_hook(2);
  const auto plain = run_pendulums(1, 6);
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& r = one.records[i];
    BOOST_TEST_REQUIRE(r.crossings.size() == 50u);  // 500 steps
    BOOST_TEST(r.crossings[0].t == grid.time(10));
    BOOST_TEST(r.crossings.back().t == grid.time(500));
    BOOST_TEST(r.crossings.back().state == r.final_state);
    require_same(two.records[i], r);
    BOOST_TEST(r.final_state == plain.records[i].final_state);  // the hook changes nothing else
  }
}

BOOST_AUTO_TEST_CASE(records_round_trip_through_bytes) {
  ens::trajectory_record a;
  a.index = 123456789012ull;
  a.status = ens::trajectory_status::failed;
  a.reason = "geomint: step failed (newton_diverged), with \"quotes\", commas\nand a newline";
  a.t_reached = 0.30000000000000004;
  a.steps = 3;
  a.cpu_seconds = 1.5e-7;
  a.final_state = {1.0, -0.0, 5e-324, std::nextafter(1.0, 2.0)};
  a.max_error = {HUGE_VAL, 1e-300};
  a.final_error = {};
  a.crossings = {{2, 0.25, {1, 2, 3}}, {-1, 0.75, {}}};
  ens::trajectory_record b;
  b.index = 7;
  std::vector<char> bytes;
  ens::to_bytes(a, bytes);
  ens::to_bytes(b, bytes);
  ens::detail::byte_reader in(bytes.data(), bytes.size());
  const ens::trajectory_record a2 = ens::from_bytes(in), b2 = ens::from_bytes(in);
  BOOST_TEST(in.done());
  require_same(a2, a);
  BOOST_TEST(a2.cpu_seconds == a.cpu_seconds);
  BOOST_TEST(std::signbit(a2.final_state[1]));
  require_same(b2, b);
  ens::detail::byte_reader truncated(bytes.data(), bytes.size() / 3);
  BOOST_CHECK_THROW(ens::from_bytes(truncated), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(trajectory_engines_depend_on_the_seed_and_the_index_only) {
  auto e1 = ens::trajectory_engine(42, 7), e2 = ens::trajectory_engine(42, 7);
  for (int k = 0; k < 100; ++k) BOOST_TEST(e1() == e2());
  // std::seed_seq and std::mt19937_64 are fixed by the C++ standard: this number is the same with
  // every standard library (checked against an independent implementation of both from the
  // standard's text). A change here changes every ensemble ever sampled with a seed.
  BOOST_TEST(ens::trajectory_engine(0, 0)() == 0x88600d1cd817181cull);
  std::set<std::uint64_t> first;
  for (std::uint64_t seed : {0ull, 1ull, 1ull << 32}) {
    for (std::uint64_t i : {0ull, 1ull, 2ull, 1ull << 32}) first.insert(ens::trajectory_engine(seed, i)());
  }
  BOOST_TEST(first.size() == 12u, "different (seed, index) pairs give different streams");
  auto e = ens::trajectory_engine(3, 3);
  std::set<double> integers;
  for (int k = 0; k < 2000; ++k) {
    const double u = ens::uniform(e, -2.0, 5.0);
    BOOST_TEST((u >= -2.0 && u < 5.0));
    const double n = ens::uniform_integer(e, 2, 6);
    BOOST_TEST(n == std::floor(n));
    integers.insert(n);
  }
  BOOST_TEST(integers == (std::set<double>{2, 3, 4, 5, 6}));
  BOOST_TEST(ens::uniform(e, 1.5, 1.5) == 1.5);
}

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  const std::string p = std::string(GEOMINT_TEST_WORKDIR) + "/" + name;
  std::ofstream(p) << text;
  return p;
}
}  // namespace

BOOST_AUTO_TEST_CASE(tables_read_csv_files_and_name_what_is_wrong) {
  const ens::table t =
      ens::read_table(write_file("good.csv", "# initial data\ntheta, omega\n0.5,2\n\n1e-1, -3.25\n# done\n"));
  BOOST_TEST(t.columns == (std::vector<std::string>{"theta", "omega"}));
  BOOST_TEST_REQUIRE(t.rows.size() == 2u);
  BOOST_TEST(t.rows[1][0] == 0.1);
  BOOST_TEST(t.rows[1][1] == -3.25);
  BOOST_TEST(t.column("omega") == 1u);
  const auto message = [](const std::string& file, const std::string& text) {
    try {
      ens::read_table(write_file(file, text));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message("short.csv", "a,b\n1,2\n3\n").find("short.csv:3: 1 cells, the header has 2") != std::string::npos);
  BOOST_TEST(message("word.csv", "a,b\n1,x\n").find("word.csv:2: column b: 'x' is not a number") != std::string::npos);
  BOOST_TEST(message("twice.csv", "a,a\n").find("column 'a' appears twice") != std::string::npos);
  BOOST_TEST(message("empty.csv", "# nothing\n").find("no header line") != std::string::npos);
  BOOST_TEST(message("missing/none.csv", "").find("cannot read") != std::string::npos);
  BOOST_CHECK_THROW(t.column("phi"), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(bad_grids_and_thread_counts_are_rejected) {
  const auto observer_for = [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); };
  BOOST_CHECK_THROW(ens::run(geomint::rattle<state>(), 2, pendulum_of, ens::time_grid{0, 0.0, 10, 1}, observer_for),
                    std::invalid_argument);
  BOOST_CHECK_THROW(ens::run(geomint::rattle<state>(), 2, pendulum_of, ens::time_grid{0, 0.1, 10, 0}, observer_for),
                    std::invalid_argument);
  BOOST_CHECK_THROW(ens::run(geomint::rattle<state>(), 2, pendulum_of, grid, observer_for, ens::execution{0}),
                    std::invalid_argument);
}

// ---- events (ensemble/events.hpp): section points on the dense-output layer ---------------------
namespace {
/// The prototype locator: the bob crossing the plane x = 0 upwards in x (a Poincaré section).
geomint::event_locator<state> section_events() {
  geomint::event_locator<state> events;
  events.add("x = 0 rising", [](double, const state& x) { return x.first(0); }, geomint::crossing::rising);
  return events;
}

/// The test ensemble with every trajectory on a copy of `events`.
ens::run_result run_with(const geomint::event_locator<state>& events, std::uint64_t count, unsigned threads) {
  return ens::run_with_events(
      geomint::rattle<state>(), count, pendulum_of, grid,
      [](std::uint64_t, const spherical_pendulum& s) { return ens::constrained_invariants(s); },
      [&events](std::uint64_t, const spherical_pendulum&) { return events; }, ens::execution{threads});
}

ens::run_result run_with_section(unsigned threads, std::uint64_t count) { return run_with(section_events(), count, threads); }
}  // namespace

BOOST_AUTO_TEST_CASE(events_give_section_points_identical_for_1_2_and_4_threads_and_a_plain_loop) {
  const std::uint64_t count = 12;
  const auto one = run_with_section(1, count), two = run_with_section(2, count), four = run_with_section(4, count);
  const auto without = run_pendulums(1, count);
  std::size_t points = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto& r = one.records[i];
    require_same(two.records[i], r);
    require_same(four.records[i], r);
    // The grid is untouched: the same steps, states and errors as without events.
    BOOST_TEST(r.final_state == without.records[i].final_state);
    BOOST_TEST(r.max_error == without.records[i].max_error);
    // The single-trajectory path: dense_output + event_locator in a plain loop.
    const pendulum_member m = pendulum_of(i);
    geomint::dense_output<geomint::rattle<state>> dense;
    auto events = section_events();
    dense.initialize(m.initial, grid.t0, grid.dt);
    std::vector<ens::crossing> plain;
    for (std::int64_t k = 0; k < grid.steps; ++k) {
      dense.do_step(m.system);
      for (const auto& hit : events.locate(dense)) {
        ens::crossing c;
        c.event = hit.index;
        c.t = hit.t;
        ens::pack_state(hit.state, c.state);
        plain.push_back(c);
      }
    }
    BOOST_TEST(r.crossings == plain);
    for (const auto& c : r.crossings) {
      BOOST_TEST(c.event == 0);
      BOOST_TEST(std::fabs(c.state[0]) < 1e-9, c.state[0]);  // on the section (root of x on the interpolant)
      BOOST_TEST(c.state[3] > 0.0);                            // rising: ẋ = p_x/m > 0
    }
    points += r.crossings.size();
  }
  BOOST_TEST(points > 0u, "the pendulums swing through x = 0 within 5 s");
}

BOOST_AUTO_TEST_CASE(a_stop_event_ends_its_trajectory_at_the_event) {
  geomint::event_locator<state> events;
  events.add("t = 1.234", [](double t, const state&) { return t - 1.234; }, geomint::crossing::rising,
             geomint::event_action::stop);
  const auto r = run_with(events, 3, 2);
  for (const auto& rec : r.records) {
    BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::ok));
    BOOST_TEST(rec.steps == 124);  // the step from 1.23 to 1.24 holds the event
    BOOST_TEST(rec.t_reached == 1.234, boost::test_tools::tolerance(1e-12));
    BOOST_TEST_REQUIRE(rec.crossings.size() == 1u);
    BOOST_TEST(rec.crossings[0].state == rec.final_state);
  }
}

// An event function that fails (NaN) at the end of step 101: that step stands, the record ends
// there (steps, t_reached and final_state of step 101, the grid state) and says why. Before,
// the step was not counted while its state was kept: 100 steps, t = 1.0, the state of t = 1.01.
BOOST_AUTO_TEST_CASE(an_event_failing_after_a_step_ends_the_record_at_that_step) {
  geomint::event_locator<state> events;
  events.add("NaN after t = 1", [](double t, const state& x) { return t > 1.005 ? std::nan("") : x.first(0); });
  const auto r = run_with(events, 2, 1);
  for (const auto& rec : r.records) {
    BOOST_TEST(static_cast<int>(rec.status) == static_cast<int>(ens::trajectory_status::failed));
    BOOST_TEST(rec.reason.find("'NaN after t = 1' returned NaN") != std::string::npos, rec.reason);
    BOOST_TEST(rec.steps == 101);
    BOOST_TEST(rec.t_reached == grid.time(101));
    const pendulum_member m = pendulum_of(rec.index);
    geomint::rattle<state> stepper;
    state x = m.initial;
    for (std::int64_t k = 0; k < 101; ++k) stepper.do_step(m.system, x, grid.time(k), grid.dt);
    std::vector<double> packed;
    ens::pack_state(x, packed);
    BOOST_TEST(rec.final_state == packed);
  }
}
