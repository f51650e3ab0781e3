// Ensembles: trajectories per second on 1 and 2 threads and, with MPI, on 1 and 2
// ranks (this program run again under mpiexec), and the ensemble layer's overhead against a
// plain loop over the same trajectories.
//
// Workload: 192 double spherical pendulums (Marsden–Wendlandt §7 data with the horizontal
// positions and velocities drawn per trajectory around it, on the rods), Lobatto IIIA–IIIB
// with 3 stages, h = 0.01, 2000 steps, energy and residuals observed every 20 steps. Candidates run interleaved,
// repetition by repetition; verdicts use the fastest repetition of each (wall time).
//
//   bench_ensemble                     everything (the MPI figures if built with MPI)
//   bench_ensemble --mpi-child         one MPI measurement; run by the above under mpiexec
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "geomint/constrained/lobatto_iiia_iiib.hpp"
#include "geomint/ensemble/ensemble.hpp"
#include "geomint/problems/double_spherical_pendulum.hpp"
#ifdef GEOMINT_BENCH_MPI
#include "geomint/ensemble/mpi.hpp"
#endif

namespace ens = geomint::ensemble;
using geomint::problems::double_spherical_pendulum;
using state = double_spherical_pendulum::state_type;
using stepper = geomint::lobatto_iiia_iiib<3, state>;

namespace {

/// CPU seconds of this process (all its threads).
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// side_by_side, also timing each call's process CPU time: wall[c] and cpu[c], min and median.
/// CPU time is what the ensemble layer adds to the trajectories, whatever else the machine runs;
/// wall time is what the threads gain, only measurable on otherwise idle cores.
void time_both(const std::vector<std::function<void()>>& candidates, int repetitions, std::vector<bench::timing>& wall,
               std::vector<bench::timing>& cpu) {
  std::vector<std::vector<double>> w(candidates.size()), c(candidates.size());
  for (int r = 0; r < repetitions; ++r)
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const double c0 = process_cpu_seconds();
      const auto w0 = std::chrono::steady_clock::now();
      candidates[k]();
      w[k].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
      c[k].push_back(process_cpu_seconds() - c0);
    }
  const auto summary = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return bench::timing{v.front(), v[v.size() / 2]};
  };
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    wall.push_back(summary(w[k]));
    cpu.push_back(summary(c[k]));
  }
}

/// The 1-minute load average (/proc/loadavg), or NaN: how busy the machine was.
double load_average() {
  double l = NAN;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = NAN;
    std::fclose(f);
  }
  return l;
}

constexpr std::uint64_t trajectories = 192;
const ens::time_grid grid{0.0, 0.01, 2000, 20};

ens::member<double_spherical_pendulum, state> member_of(std::uint64_t i) {
  auto e = ens::trajectory_engine(16, i);
  const double_spherical_pendulum s;
  const auto u = [&](double centre, double spread) { return ens::uniform(e, centre - spread, centre + spread); };
  // Mass 1 within l1 = 4 of the pivot, mass 2 within l2 = 3 of mass 1 (|x2 − x1| ≤ 2.765 + 0.125).
  const double x1 = u(2.820, 0.5), y1 = u(0.025, 0.5), x2 = x1 + u(2.265, 0.5), y2 = u(0.105, 0.5);
  return {s, s.state_from(x1, y1, x2, y2, u(3.381, 1), u(2.506, 1), u(2.497, 1), u(10.495, 1))};
}

auto observer_for(std::uint64_t, const double_spherical_pendulum& s) { return ens::constrained_invariants(s); }

template <class Execution>
ens::run_result run_ensemble(const Execution& exec) {
  return ens::run(stepper(), trajectories, member_of, grid, observer_for, exec);
}

/// The same trajectories by hand: what a user writes without the ensemble layer.
std::vector<ens::trajectory_record> plain_loop() {
  std::vector<ens::trajectory_record> out(trajectories);
  for (std::uint64_t i = 0; i < trajectories; ++i) {
    const auto m = member_of(i);
    stepper s;
    state x = m.initial;
    auto observe = ens::constrained_invariants(m.system);
    ens::trajectory_record& r = out[i];
    r.index = i;
    observe(x, 0.0, r);
    for (std::int64_t k = 0; k < grid.steps; ++k) {
      s.do_step(m.system, x, grid.time(k), grid.dt);
      if ((k + 1) % grid.every == 0 || k + 1 == grid.steps) observe(x, grid.time(k + 1), r);
    }
    r.steps = grid.steps;
    ens::pack_state(x, r.final_state);
  }
  return out;
}

bool same_results(const std::vector<ens::trajectory_record>& a, const std::vector<ens::trajectory_record>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].final_state != b[i].final_state || a[i].max_error != b[i].max_error) return false;
  return true;
}

#ifdef GEOMINT_BENCH_MPI
/// Under mpiexec: one timed run on all ranks (1 thread each), between barriers; rank 0 prints
/// "wall <seconds> <checksum>".
int mpi_child() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  const ens::run_result r = run_ensemble(ens::mpi_execution{MPI_COMM_WORLD, 1});
  MPI_Barrier(MPI_COMM_WORLD);
  const double wall = MPI_Wtime() - t0;
  if (rank == 0) {
    double checksum = 0;
    for (const auto& rec : r.records) checksum += rec.final_state.at(0) + rec.max_error.at(0);
    std::printf("wall %.17g %.17g\n", wall, checksum);
  }
  MPI_Finalize();
  return 0;
}

/// Wall seconds of one run on `ranks` ranks (this program under mpiexec), or NaN; the checksum
/// of the results through `checksum`.
double mpi_run(int ranks, double& checksum) {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);  // Open MPI refuses root (CI containers) without these
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
  const std::string cmd = std::string(GEOMINT_BENCH_MPIEXEC) + " -n " + std::to_string(ranks) + " " +
                          GEOMINT_BENCH_MPIEXEC_FLAGS + " /proc/" + std::to_string(getpid()) + "/exe --mpi-child 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return NAN;
  double wall = NAN;
  char line[512];
  while (std::fgets(line, sizeof line, p))
    if (std::sscanf(line, "wall %lf %lf", &wall, &checksum) != 2) std::fputs(line, stderr);
  return pclose(p) == 0 ? wall : NAN;
}
#endif

}  // namespace

int main(int argc, char** argv) {
#ifdef GEOMINT_BENCH_MPI
  if (argc > 1 && std::strcmp(argv[1], "--mpi-child") == 0) return mpi_child();
#else
  (void)argc, (void)argv;
#endif
  const int repetitions = 5;
  std::printf("ensemble of %llu double spherical pendulums, lobatto3, h = %g, %lld steps (observed every %lld); "
              "%d repetitions, interleaved; wall time\n",
              static_cast<unsigned long long>(trajectories), grid.dt, static_cast<long long>(grid.steps),
              static_cast<long long>(grid.every), repetitions);
  std::printf("cores usable: %u; load average (1 min) at the start: %.2f\n", ens::default_thread_count(), load_average());

  const auto reference = plain_loop();
  double reference_checksum = 0;
  for (const auto& r : reference) reference_checksum += r.final_state.at(0) + r.max_error.at(0);
  bool identical = true;
  std::vector<std::function<void()>> candidates{
      [&] { bench::keep(plain_loop()); },
      [&] { identical &= same_results(run_ensemble(ens::execution{1}).records, reference); },
      [&] { identical &= same_results(run_ensemble(ens::execution{2}).records, reference); }};
  std::vector<bench::timing> t, cpu;
  time_both(candidates, repetitions, t, cpu);

  const auto rate = [](double seconds) { return static_cast<double>(trajectories) / seconds; };
  std::printf("%-34s %12s %12s %14s\n", "", "traj/s (min)", "traj/s (med)", "CPU ms/traj");
  const char* names[] = {"plain loop, 1 thread", "ensemble, 1 thread", "ensemble, 2 threads"};
  for (int k = 0; k < 3; ++k)
    std::printf("%-34s %12.1f %12.1f %14.3f\n", names[k], rate(t[k].min), rate(t[k].median),
                1e3 * cpu[k].min / static_cast<double>(trajectories));

#ifdef GEOMINT_BENCH_MPI
  std::vector<double> one_rank, two_ranks;
  for (int r = 0; r < repetitions; ++r) {
    for (int ranks : {1, 2}) {
      double checksum = NAN;
      const double wall = mpi_run(ranks, checksum);
      identical &= checksum == reference_checksum;
      if (std::isfinite(wall)) (ranks == 1 ? one_rank : two_ranks).push_back(wall);
    }
  }
  const auto summary = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? bench::timing{NAN, NAN} : bench::timing{v.front(), v[v.size() / 2]};
  };
  const bench::timing r1 = summary(one_rank), r2 = summary(two_ranks);
  std::printf("%-34s %12.1f %12.1f\n", "ensemble, 1 MPI rank x 1 thread", rate(r1.min), rate(r1.median));
  std::printf("%-34s %12.1f %12.1f\n", "ensemble, 2 MPI ranks x 1 thread", rate(r2.min), rate(r2.median));
#endif
  std::printf("results identical to the plain loop in every configuration: %s\n", identical ? "yes" : "NO");

  std::printf("load average (1 min) at the end: %.2f\n", load_average());
  std::printf("\n%-58s %8s %8s\n", "", "min", "median");
  bench::print_ratio("ensemble 1 thread / plain loop (CPU time)", cpu[1], cpu[0], 1.05);
  bench::print_ratio("ensemble 1 thread / plain loop (wall time)", t[1], t[0], 1.05);
  bench::print_ratio("ensemble 2 threads / 1 thread (CPU time: work added)", cpu[2], cpu[1]);
  // Speed-up as a time ratio: t(2) / t(1) <= 1 / 1.8.
  bench::print_ratio("ensemble 2 threads / 1 thread (time; 1/1.8 = 0.556)", t[2], t[1], 1 / 1.8);
  std::printf("speed-up 1 -> 2 threads: %.2fx (fastest repetitions), %.2fx (medians); target >= 1.8x\n",
              t[1].min / t[2].min, t[1].median / t[2].median);
#ifdef GEOMINT_BENCH_MPI
  bench::print_ratio("2 ranks / 1 rank (time; 1/1.8 = 0.556)", r2, r1, 1 / 1.8);
  std::printf("speed-up 1 -> 2 ranks: %.2fx (fastest repetitions), %.2fx (medians); target >= 1.8x\n",
              r1.min / r2.min, r1.median / r2.median);
#else
  std::printf("MPI: not measured (built without MPI: GEOMINT_WITH_MPI is OFF)\n");
#endif
  return identical ? 0 : 1;
}
