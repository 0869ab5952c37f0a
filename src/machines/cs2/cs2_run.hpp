// machines/cs2/cs2_run.hpp: `mppnet run` on a CS-2 config: open-loop traffic of one pattern at an offered
// load on the layers of cs2_network.hpp, stepped by the core::Scheduler in the Elite's 70 MHz link clock
// domain, with throughput per PE in MB/s and latency in ns.
//
// Every PE creates a packet of traffic.packet_bytes bytes at a cycle with probability load x layers /
// packet_bytes (a Bernoulli process from its own stream), to a destination of the pattern, and queues
// it without bound (open loop). Warm-up, then run.cycles measured: packets created then are timed
// from creation to the last byte drained, bytes delivered then count as throughput; then at most
// run.drain_cycles for the timed packets to arrive. The run is saturated when packets are still out
// then, or when the measured cycles delivered less than 95% of the bytes they created.
//
// With traffic.broadcast_fraction, that fraction of the packets created are broadcasts instead (half to
// every PE, half to a random range; broadcast_range()), sent as one packet per aligned box; a broadcast
// counts as its copies, both created and delivered.
//
// With traffic.acks the layers return an ack for every packet, a PE keeps at most elan.window packets
// unacknowledged per layer (the rest wait in its queue, and their wait counts in their latency), and a
// NACKed packet is sent again: byte errors on faults.link are then simulated as in the cs2.r13 cases.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "machines/cs2/config.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cs2 {

struct Cs2RunResult {
  double offered_mb_per_s = 0;   // per PE
  double accepted_mb_per_s = 0;  // per PE: bytes delivered in the measured cycles
  // The most any one PE received in the measured cycles, over all its layers (a hot spot's PE: R11).
  double busiest_destination_mb_per_s = 0;
  // With a background beside the hot spot (traffic.hot_senders): the mean and the least, over every PE
  // but the hot one, of the bytes it received in the measured cycles (R11's down-channels; 0 otherwise).
  double background_received_mb_per_s = 0;
  double slowest_background_destination_mb_per_s = 0;
  std::vector<std::int64_t> received_bytes;  // in the measured cycles, by destination PE
  double latency_avg_ns = 0;                 // timed packets, creation to last byte
  double latency_max_ns = 0;
  double latency_avg_cycles = 0;
  double switches_avg = 0;  // switches passed by the timed packets
  std::int64_t packets_timed = 0;
  std::int64_t packets_delivered = 0;  // of the timed ones
  // The least, over PEs, of the bytes each delivered in the measured cycles over the bytes it created in
  // them: 1 (to the window's edges) when every flow gets what it offers, far less for a flow that
  // shares a channel with others (note 003 §5 R8, R10).
  double slowest_source_fraction = 1;
  bool saturated = false;  // delivered < 95% of created, or packets out after the drain
  // Byte errors (traffic.acks with faults.byte_error_rate): packets corrupted when sent, aborted at
  // their destinations, bad CRCs counted at the inputs, and packets sent again after a NACK. A resent
  // packet is timed from its first creation.
  std::int64_t packets_corrupted = 0;
  std::int64_t packets_aborted = 0;
  std::int64_t crc_errors = 0;
  std::int64_t packets_resent = 0;
  std::int64_t simulated_cycles = 0;
  std::int64_t node_cycles = 0;  // PEs x cycles, for speed figures
};

// REQUIRES: check_cs2(c) passed.
Cs2RunResult run_traffic(const Cs2Config& c);

// Whether PE x is one of traffic.hot_senders under the pattern "hot_spot" (false when that is 0: then
// every PE sends to the hot one at traffic.load).
bool is_hot_sender(const Cs2Config& c, NodeId x);

// The PEs of a random broadcast among `pes`: all of them with probability 1/2, else [min(u, v), max(u, v)]
// for u, v uniform.
std::pair<NodeId, NodeId> broadcast_range(int pes, core::RandomStream& rng);

nlohmann::json to_json(const Cs2RunResult& r);

// The model's `run`: loads the config (exit 2 on bad keys), runs, prints a summary and writes
// results.json and results.csv atomically to the output directory. Returns the exit status.
int run_command(const registry::ConfigRequest& request);

}  // namespace mppnet::machines::cs2
