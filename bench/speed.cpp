// bench/speed.cpp: the end-to-end speed harness of `make bench` (issue #2's table).
//
// Each case offers uniform traffic at a fixed load for a fixed number of cycles on one thread and reports
// simulated node-cycles per second, flit-hops per second and the process's peak resident memory. Run one
// case per process (scripts/bench.sh does) so that peak memory belongs to that case alone.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "am/simulated_machine.hpp"
#include "core/process_usage.hpp"
#include "exp/experiment_config.hpp"
#include "exp/fixed_run.hpp"
#include "exp/foundation_validation.hpp"
#include "machines/cm1/config.hpp"
#include "machines/cm1/run.hpp"
#include "machines/cm5/node_machine.hpp"
#include "machines/metro/yield.hpp"
#include "workload/apps/registry.hpp"

namespace {

using mppnet::exp::ExperimentConfig;

struct SpeedCase {
  const char* name;
  const char* target;
  ExperimentConfig cfg;
  double load;
  long long cycles;
};

ExperimentConfig packet_level(ExperimentConfig c) {
  c.router.model = mppnet::net::NetworkModelKind::Packet;
  return c;
}

std::vector<SpeedCase> cases() {
  using namespace mppnet::exp;
  return {
      {"mesh8x8_load0.1", ">= 30 M node-cycles/s", mesh_8x8_config(), 0.1, 400000},
      {"mesh8x8_load0.4", ">= 6 M node-cycles/s", mesh_8x8_config(), 0.4, 200000},
      {"tree4ary3_load0.6", ">= 6 M node-cycles/s", kary_ntree_config(4, 3), 0.6, 200000},
      {"tree4ary5_load0.1", ">= 10 M node-cycles/s", kary_ntree_config(4, 5), 0.1, 20000},
      {"tree4ary6_load0.1", ">= 8 M node-cycles/s, <= 100 MB", kary_ntree_config(4, 6), 0.1, 5000},
      {"cm5_16384_load0.1", "10,000 cycles in < 60 s", fat_tree_224_config(7), 0.1, 10000},
      // The packet-level model (issue #14) on 65,536 nodes at about half its saturation (0.6-0.7):
      // flit-hops / 4 are packet-hops.
      {"tree4ary8_packet_load0.3", ">= 5 M packet-hops/s (20 M flit-hops/s), < 2 GB",
       packet_level(kary_ntree_config(4, 8)), 0.3, 500},
  };
}

double peak_rss_mb() {
  return static_cast<double>(mppnet::core::peak_memory_bytes()) / (1024.0 * 1024.0);
}

}  // namespace

// Cases of the machine models, each timing one whole study.
struct ModelCase {
  const char* name;
  const char* target;
  void (*run)();
};

const ModelCase kModelCases[] = {
    {"cm1_65536_random_v1", "< 0.5 s (issue #4)",
     [] { mppnet::machines::cm1::run_routing(mppnet::machines::cm1::Cm1Config{}); }},
    {"cm1_fig12_sweep", "< 120 s (issue #4)",
     [] {
       mppnet::machines::cm1::vp_sweep(mppnet::machines::cm1::Cm1Config{}, {1, 2, 4, 8, 16, 32}, 10);
     }},
    {"metro_yield_256_10k", "< 10 s (issue #5)",
     [] {
       mppnet::machines::metro::YieldParams p;
       std::get<mppnet::machines::metro::MultibutterflyParams>(p.network).stages =
           4;  // 4^4 = 256 nodes, radix 4, dilation 2, deterministic wiring
       p.trials = 10000;
       mppnet::machines::metro::run_yield(p);
     }},
};

// Node programs (issue #3): the all-to-all application on the 1,024-node CM-5-schedule fat tree of
// configs/cm5_1024.toml, one 16-byte block (one active message) per ordered pair of nodes. Reports
// active messages handled per second of wall time over the whole run (program, network, handler).
// The same on the packet-level model (issue #14).
constexpr const char* kAmCase = "am_alltoall_cm5_1024";
constexpr const char* kAmPacketCase = "am_alltoall_cm5_1024_packet";
// The same program on the CM-5 machine model (configs/cm5-1024.toml's machine): its own data network,
// network interfaces, control network and software cost model. Its network counts no flit-hops.
constexpr const char* kAmCm5Case = "am_alltoall_cm5_machine_1024";

int run_am_cm5_case() {
  namespace apps = mppnet::workload::apps;
  namespace cm5 = mppnet::machines::cm5;
  cm5::Cm5Config config;
  config.machine.nodes = 1024;
  mppnet::am::AmParams am = cm5::cm5_am_params();
  am.memory_bytes = 262144;  // as configs/cm5-1024.toml
  cm5::Cm5NodeMachine host(config, am);
  apps::AppParams params;
  params.alltoall_bytes = 16;
  const auto start = std::chrono::steady_clock::now();
  const apps::AppResult r = apps::run_alltoall(host.machine(), params);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.passed) {
    std::fprintf(stderr, "%s: the application's check failed: %s\n", kAmCm5Case, r.check.c_str());
    return 1;
  }
  const auto totals = host.machine().totals();
  const double cycles = static_cast<double>(totals.network_cycles);
  std::printf("| %s | 1024 | %lld | %.3f | %.2f M | | %.1f | %.3f M AM/s (%lld AM) | report (issue #12) |\n",
              kAmCm5Case, static_cast<long long>(totals.network_cycles), seconds,
              1024 * cycles / seconds / 1e6, peak_rss_mb(),
              static_cast<double>(totals.handlers) / seconds / 1e6, static_cast<long long>(totals.handlers));
  return 0;
}

int run_am_case(const char* name) {
  namespace apps = mppnet::workload::apps;
  auto cfg = mppnet::exp::load_experiment(MPPNET_SOURCE_DIR "/configs/cm5_1024.toml", {});
  if (std::strcmp(name, kAmPacketCase) == 0) cfg = packet_level(cfg);
  apps::AppParams params;
  params.alltoall_bytes = 16;
  const mppnet::am::AmParams am;
  mppnet::am::SimulatedMachine sim(cfg.topology, cfg.router, am, static_cast<std::uint64_t>(cfg.run.seed),
                                   cfg.run.watchdog_cycles);
  const auto start = std::chrono::steady_clock::now();
  const apps::AppResult r = apps::run_alltoall(sim.machine, params);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.passed) {
    std::fprintf(stderr, "%s: the application's check failed: %s\n", name, r.check.c_str());
    return 1;
  }
  const auto totals = sim.machine.totals();
  const double cycles = static_cast<double>(totals.network_cycles);
  const int nodes = sim.machine.nodes();
  std::printf(
      "| %s | %d | %lld | %.3f | %.2f M | %.2f M | %.1f | %.3f M AM/s (%lld AM) | >= 2 M AM/s (issue #3) |\n",
      name, nodes, static_cast<long long>(totals.network_cycles), seconds, nodes * cycles / seconds / 1e6,
      static_cast<double>(sim.network.counters().flit_hops) / seconds / 1e6, peak_rss_mb(),
      static_cast<double>(totals.handlers) / seconds / 1e6, static_cast<long long>(totals.handlers));
  return 0;
}

int main(int argc, char** argv) {
  const auto all = cases();
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& c : all) std::printf("%s\n", c.name);
    for (const auto& c : kModelCases) std::printf("%s\n", c.name);
    std::printf("%s\n%s\n%s\n", kAmCase, kAmPacketCase, kAmCm5Case);
    return 0;
  }
  if (argc == 2 && (std::strcmp(argv[1], kAmCase) == 0 || std::strcmp(argv[1], kAmPacketCase) == 0))
    return run_am_case(argv[1]);
  if (argc == 2 && std::strcmp(argv[1], kAmCm5Case) == 0) return run_am_cm5_case();
  for (const auto& c : kModelCases) {
    if (argc != 2 || c.name != std::string(argv[1])) continue;
    const auto start = std::chrono::steady_clock::now();
    c.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("| %s | | | %.3f | | | %.1f | | %s |\n", c.name, seconds, peak_rss_mb(), c.target);
    return 0;
  }
  // An optional cycle count shortens a network case for profiling (callgrind runs ~50x slower).
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: mppnet_speed CASE [CYCLES] | --list\n");
    return 2;
  }
  for (const auto& c : all) {
    if (c.name != std::string(argv[1])) continue;
    const auto start = std::chrono::steady_clock::now();
    const long long cycles = argc == 3 ? std::atoll(argv[2]) : c.cycles;
    const auto counts = mppnet::exp::run_fixed_cycles(c.cfg, c.load, 0, cycles);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double node_cycles = static_cast<double>(counts.nodes) * static_cast<double>(counts.cycles);
    std::printf("| %s | %d | %lld | %.3f | %.2f M | %.2f M | %.1f | %.3f | %s |\n", c.name, counts.nodes,
                cycles, seconds, node_cycles / seconds / 1e6,
                static_cast<double>(counts.flit_hops) / seconds / 1e6, peak_rss_mb(), counts.accepted(),
                c.target);
    return 0;
  }
  std::fprintf(stderr, "mppnet_speed: no case \"%s\" (see --list)\n", argv[1]);
  return 2;
}
