// exp/open_loop.hpp: one open-loop measurement: warm up, measure with batch means, drain.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/scheduler.hpp"
#include "core/types.hpp"
#include "exp/experiment_config.hpp"
#include "net/built_network.hpp"
#include "net/clocked_network.hpp"

namespace mppnet::exp {

struct OpenLoopResult {
  std::string mode = "latency";  // run.mode
  double offered = 0;            // flits per node per cycle
  bool saturated = false;
  std::string saturation_reason;   // empty unless saturated
  double accepted = 0;             // flits ejected per node per cycle while measuring
  double accepted_ci95 = 0;        // throughput and fixed modes: batch-means 95% half-width of accepted
  double accepted_min_source = 0;  // throughput and fixed modes: the slowest source's delivered flits/cycle
  double accepted_max_source = 0;  // ... and the fastest's
  std::vector<double> accepted_per_source;  // throughput and fixed modes: each source's delivered flits/cycle
  double latency_avg = 0;                   // cycles from creation to tail delivery, measured packets
  std::int64_t latency_p50 = 0;
  std::int64_t latency_p99 = 0;
  std::int64_t latency_max = 0;
  double latency_ci95 = 0;  // half-width of the batch-means 95% interval of latency_avg
  // The mean latency of the packets delivered in the last batch before the run stopped (latency mode):
  // the figure a saturation reason quotes ("the mean latency of a ... batch"). It is not latency_avg,
  // which averages every packet its window delivered, the earlier and faster ones too.
  double last_batch_latency_avg = 0;
  double network_latency_avg = 0;  // from the head leaving the source to tail delivery
  double hops_avg = 0;             // routers passed
  double channel_utilization = 0;  // router-to-router channels: flits per channel per cycle
  std::int64_t packets_measured = 0;
  int batches = 0;
  Cycle warmup_cycles = 0;
  Cycle measure_cycles = 0;
  Cycle drain_cycles = 0;
  std::int64_t flit_hops = 0;  // over the whole run, for speed figures
  Cycle simulated_cycles = 0;  // network cycles simulated, warm-up and drain included
  std::int64_t node_cycles = 0;
  std::int64_t cycle_ps = 0;  // the router clock period, to convert latencies to time
};

struct OpenLoopOptions {
  bool shuffle_visit_order = false;                               // test mode; must not change results
  std::function<void(Cycle now, const char* phase)> on_progress;  // called every batch
};

// Thrown when the watchdog sees flits in the network and none moving; what() lists the blocked VCs.
using DeadlockError = core::DeadlockError;

// REQUIRES: check_experiment(cfg) passed.
OpenLoopResult run_open_loop(const ExperimentConfig& cfg, const OpenLoopOptions& options = {});

// Latency of one packet through an otherwise idle network (zero-load), the routers it passed, and the
// routing header its route left (Valiant's intermediate group; 0 for routings without a header).
struct SinglePacket {
  Cycle latency = 0;
  int hops = 0;
  std::uint64_t route_header = 0;
};

// An idle network that sends one packet at a time: each send runs until the packet is delivered (with
// the deadlock watchdog), then until its last credits are home, so every packet sees an idle network.
class ProbeNetwork final : public net::DeliveryHandler {
 public:
  // REQUIRES: check_experiment(cfg) passed.
  explicit ProbeNetwork(const ExperimentConfig& cfg);
  SinglePacket send(NodeId src, NodeId dest, int flits);
  const net::BuiltNetwork& built() const { return built_; }

  void on_delivery(net::PacketId id, const net::Packet& p, Picoseconds) override;

 private:
  const RunParams run_;
  net::BuiltNetwork built_;
  core::Scheduler scheduler_;
  net::ClockedNetwork endpoint_;
  SinglePacket last_;
  bool delivered_ = false;
};

SinglePacket run_single_packet(const ExperimentConfig& cfg, NodeId src, NodeId dest, int flits);

}  // namespace mppnet::exp
