// machines/cs2/cs2_run.cpp: the traffic source, the measurement and the result files of `mppnet run` on
// a CS-2 config (cs2_run.hpp).
#include "machines/cs2/cs2_run.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/exit_status.hpp"
#include "core/rng.hpp"
#include "core/scheduler.hpp"
#include "io/atomic_file.hpp"
#include "io/json_csv.hpp"
#include "io/output_directory.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/faults.hpp"
#include "machines/cs2/rearrange.hpp"
#include "net/clocked_network.hpp"
#include "workload/patterns.hpp"

namespace mppnet::machines::cs2 {

namespace {

// A packet's tag: bit 0 says it was created in the measured cycles, the bits above hold the cycle it was
// created in, so that a packet sent again after a NACK is timed from its first creation.
constexpr std::uint64_t kTimed = 1;
std::uint64_t tag_of(Cycle created, bool timed) {
  return (static_cast<std::uint64_t>(created) << 1) | (timed ? kTimed : 0);
}
Cycle created_of(std::uint64_t tag) {
  return static_cast<Cycle>(tag >> 1);
}
// A run is saturated when the measured cycles deliver less than this share of the bytes they create.
// The edges of the window cost about latency x rate bytes, under 1% at the default 10,000 cycles.
constexpr double kAcceptedFraction = 0.95;

// The destination of PE x under the config's pattern (uniform draws from rng; the permutations do not).
NodeId pattern_destination(const Cs2Config& c, NodeId x, core::RandomStream& rng) {
  const NodeId n = c.machine.pes;
  const int bits = workload::is_power_of_two(n) ? workload::address_bits(n) : 0;
  switch (c.traffic.pattern) {
    case Pattern::Uniform:
      return static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(n)));
    case Pattern::Shift:
      return static_cast<NodeId>((static_cast<std::int64_t>(x) + c.traffic.shift) % n);
    case Pattern::BitComplement:
      return workload::bit_complement(x, bits);
    case Pattern::BitReversal:
      return workload::bit_reverse(x, bits);
    case Pattern::Transpose:
      return workload::transpose(x, bits);
    case Pattern::HotSpot:
      if (c.traffic.hot_senders == 0 || is_hot_sender(c, x)) return c.traffic.hot_pe;
      {
        // The background: uniform over every PE but the hot one.
        const auto d = static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(n - 1)));
        return d >= c.traffic.hot_pe ? d + 1 : d;
      }
  }
  return x;
}

// Packets per cycle that PE x offers: load (or, for a hot sender, hot_load) of its links' bytes.
double offered_packets_per_cycle(const Cs2Config& c, NodeId x) {
  const double load = is_hot_sender(c, x) ? c.traffic.hot_load : c.traffic.load;
  return load * c.machine.layers / c.traffic.packet_bytes;
}

// The open-loop sources of every PE, one scheduler component in the link clock domain. It is added
// before the layers, so in each cycle it injects first and the layers step after it (a domain ticks its
// members in id order): a packet created at cycle t may leave its PE in the same cycle.
class TrafficSource final : public core::Component {
 public:
  TrafficSource(const Cs2Config& c, Cs2Network& net) : c_(c), net_(net) {
    rng_.reserve(static_cast<std::size_t>(net.pes()));
    for (int x = 0; x < net.pes(); ++x) {
      rng_.emplace_back(static_cast<std::uint64_t>(c.run.seed), static_cast<std::uint64_t>(x),
                        core::Stream::Arrival);
      rate_.push_back(offered_packets_per_cycle(c, x));
    }
    timed_from_.assign(static_cast<std::size_t>(net.pes()), 0);
  }

  bool tick(Cycle cycle) override {
    if (cycle >= stop_) return false;
    const bool timed = cycle >= c_.run.warmup_cycles;
    const std::uint64_t tag = tag_of(cycle, timed);
    for (NodeId x = 0; x < net_.pes(); ++x) {
      auto& rng = rng_[static_cast<std::size_t>(x)];
      if (!rng.bernoulli(rate_[static_cast<std::size_t>(x)])) continue;
      // A broadcast counts its copies, so that created and delivered bytes compare as for unicast. The
      // draws are made only when broadcasts are asked for: unicast runs see the same streams as ever.
      std::int64_t copies = 1;
      if (c_.traffic.broadcast_fraction > 0 && rng.bernoulli(c_.traffic.broadcast_fraction)) {
        const auto [a, b] = broadcast_range(net_.pes(), rng);
        copies = net_.broadcast(x, a, b, c_.traffic.packet_bytes, tag);
      } else {
        net_.send(x, destination(x, rng), c_.traffic.packet_bytes, tag);
      }
      if (!timed) continue;
      timed_ += copies;
      timed_from_[static_cast<std::size_t>(x)] += copies;
    }
    return true;
  }
  void stop_at(Cycle c) { stop_ = c; }
  std::int64_t timed() const { return timed_; }
  // Packets each PE created in the measured cycles (a broadcast: its copies).
  const std::vector<std::int64_t>& timed_from() const { return timed_from_; }

  NodeId destination(NodeId x, core::RandomStream& rng) const { return pattern_destination(c_, x, rng); }

 private:
  const Cs2Config& c_;
  Cs2Network& net_;
  std::vector<double> rate_;  // packets per cycle, by PE
  std::vector<core::RandomStream> rng_;
  Cycle stop_ = std::numeric_limits<Cycle>::max();
  std::int64_t timed_ = 0;  // packets created in the measured cycles (a broadcast: its copies)
  std::vector<std::int64_t> timed_from_;
};

// Counts what the measured cycles delivered and times the packets created in them.
class Meter {
 public:
  Meter(Picoseconds period_ps, Cycle from, Cycle to, int pes)
      : bytes_from_(static_cast<std::size_t>(pes), 0),
        bytes_to_(static_cast<std::size_t>(pes), 0),
        period_ps_(period_ps),
        from_(from),
        to_(to) {}

  void delivered(const net::Packet& p, Picoseconds time_ps) {
    const Cycle t = time_ps / period_ps_;
    if (t >= from_ && t < to_) {
      bytes_ += p.flits;
      bytes_from_[static_cast<std::size_t>(p.src)] += p.flits;
      bytes_to_[static_cast<std::size_t>(p.dest)] += p.flits;
    }
    if ((p.tag & kTimed) == 0) return;
    ++timed_delivered_;
    const Cycle latency = t - created_of(p.tag);
    latency_sum_ += static_cast<double>(latency);
    latency_max_ = std::max(latency_max_, latency);
    switches_sum_ += p.hops;
  }

  std::int64_t bytes_ = 0;
  std::int64_t timed_delivered_ = 0;
  double latency_sum_ = 0;
  Cycle latency_max_ = 0;
  std::int64_t switches_sum_ = 0;
  std::vector<std::int64_t> bytes_from_;  // delivered in the measured cycles, by source
  std::vector<std::int64_t> bytes_to_;    // and by destination

 private:
  Picoseconds period_ps_;
  Cycle from_, to_;
};

// One layer's deliveries go to the meter; with traffic.acks, a NACKed packet is sent again on its layer
// as the ack reaches its source, with its tag (and so its first creation cycle): the Elan's resend (note
// 003 §4.9; Cs2Network::resend_nacked does the same for callers that step the layers themselves).
class LayerHandler final : public net::DeliveryHandler {
 public:
  LayerHandler(Meter& meter, Cs2Network& net, int layer) : meter_(meter), net_(net), layer_(layer) {}

  void on_delivery(net::PacketId, const net::Packet& p, Picoseconds time_ps) override {
    meter_.delivered(p, time_ps);
  }
  void on_ack(const net::Ack& a, Picoseconds) override {
    if (!a.nack) return;
    net_.resend(layer_, a);
    ++resent_;
  }
  std::int64_t resent() const { return resent_; }

 private:
  Meter& meter_;
  Cs2Network& net_;
  int layer_;
  std::int64_t resent_ = 0;
};

// The least, over the PEs that created packets in the measured cycles, of the bytes delivered from
// each in those cycles over the bytes it created in them (1 when none created any).
double slowest_source_fraction(const std::vector<std::int64_t>& created_packets,
                               const std::vector<std::int64_t>& delivered_bytes, int packet_bytes) {
  double slowest = 1;
  for (std::size_t x = 0; x < created_packets.size(); ++x) {
    if (created_packets[x] == 0) continue;
    slowest = std::min(slowest, static_cast<double>(delivered_bytes[x]) /
                                    static_cast<double>(created_packets[x] * packet_bytes));
  }
  return slowest;
}

}  // namespace

bool is_hot_sender(const Cs2Config& c, NodeId x) {
  const std::int64_t h = c.traffic.hot_senders, others = c.machine.pes - 1;
  if (c.traffic.pattern != Pattern::HotSpot || h == 0 || x == c.traffic.hot_pe) return false;
  // Evenly spread over the PEs but the hot one: the j-th of them is a sender when the count of senders
  // among the first j + 1 steps up (exactly h of the pes - 1 do).
  const std::int64_t j = x < c.traffic.hot_pe ? x : x - 1;
  return (j + 1) * h / others > j * h / others;
}

std::pair<NodeId, NodeId> broadcast_range(int pes, core::RandomStream& rng) {
  if (rng.bernoulli(0.5)) return {0, pes - 1};
  const auto u = static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(pes)));
  const auto v = static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(pes)));
  return {std::min(u, v), std::max(u, v)};
}

Cs2RunResult run_traffic(const Cs2Config& c) {
  Cs2Network net(c, c.traffic.acks, c.traffic.acks ? c.elan.window : 0);
  if (c.routing.rearranged) {
    // Every PE sends to one destination: its table entry for it holds the rearranged route.
    std::vector<Flow> flows;
    core::RandomStream unused(0, 0, core::Stream::Destination);  // a permutation draws nothing
    for (NodeId x = 0; x < net.pes(); ++x) flows.push_back({x, pattern_destination(c, x, unused)});
    net.load_routes(flows, rearranged_routes(net.shape(), flows));
  }
  core::Scheduler scheduler;
  const Picoseconds period = c.elite.clock_ps;
  const core::DomainId domain = scheduler.add_domain("elite", period);
  TrafficSource source(c, net);
  scheduler.add(domain, source);
  const Cycle from = c.run.warmup_cycles, to = c.run.warmup_cycles + c.run.cycles;
  Meter meter(period, from, to, net.pes());
  std::vector<std::unique_ptr<LayerHandler>> handlers;
  std::vector<std::unique_ptr<net::ClockedNetwork>> clocked;
  for (int l = 0; l < net.layers(); ++l) {
    handlers.push_back(std::make_unique<LayerHandler>(meter, net, l));
    clocked.push_back(std::make_unique<net::ClockedNetwork>(net.layer(l), scheduler, domain));
    clocked.back()->set_delivery_handler(handlers.back().get());
  }
  // Packets are created in cycles 0 .. to-1, then the layers run until they are empty or the drain
  // limit is reached; whatever is still out then marks the run saturated.
  source.stop_at(to);
  scheduler.run_until_time((to - 1) * period);
  const Cycle limit = to - 1 + c.run.drain_cycles;
  if (!net.idle()) scheduler.run({limit * period, [&net] { return net.idle(); }, {}});
  const Cycle end = scheduler.now() / period;

  Cs2RunResult r;
  const double mb_per_byte_cycle = 1e6 / static_cast<double>(period);  // 1 byte per cycle in MB/s
  r.offered_mb_per_s = c.traffic.load * c.machine.layers * mb_per_byte_cycle;
  r.accepted_mb_per_s = static_cast<double>(meter.bytes_) /
                        (static_cast<double>(net.pes()) * static_cast<double>(c.run.cycles)) *
                        mb_per_byte_cycle;
  r.busiest_destination_mb_per_s =
      static_cast<double>(*std::max_element(meter.bytes_to_.begin(), meter.bytes_to_.end())) /
      static_cast<double>(c.run.cycles) * mb_per_byte_cycle;
  r.received_bytes = meter.bytes_to_;
  if (c.traffic.pattern == Pattern::HotSpot && c.traffic.hot_senders > 0) {
    std::int64_t sum = 0, least = std::numeric_limits<std::int64_t>::max();
    for (NodeId d = 0; d < net.pes(); ++d) {
      if (d == c.traffic.hot_pe) continue;
      sum += meter.bytes_to_[static_cast<std::size_t>(d)];
      least = std::min(least, meter.bytes_to_[static_cast<std::size_t>(d)]);
    }
    const double cycles = static_cast<double>(c.run.cycles);
    r.background_received_mb_per_s = static_cast<double>(sum) / (net.pes() - 1) / cycles * mb_per_byte_cycle;
    r.slowest_background_destination_mb_per_s = static_cast<double>(least) / cycles * mb_per_byte_cycle;
  }
  r.packets_timed = source.timed();
  r.packets_delivered = meter.timed_delivered_;
  // Below capacity the bytes delivered in the measured cycles equal the bytes created in them, up to
  // the packets in flight at the window's two edges; above it the sources' queues grow and delivery
  // falls short. Packets still out after the drain are the other sign.
  const double created_bytes = static_cast<double>(r.packets_timed) * c.traffic.packet_bytes;
  r.saturated = !net.idle() || static_cast<double>(meter.bytes_) < kAcceptedFraction * created_bytes;
  r.slowest_source_fraction =
      slowest_source_fraction(source.timed_from(), meter.bytes_from_, c.traffic.packet_bytes);
  if (meter.timed_delivered_ > 0) {
    r.latency_avg_cycles = meter.latency_sum_ / static_cast<double>(meter.timed_delivered_);
    r.latency_avg_ns = r.latency_avg_cycles * static_cast<double>(period) / 1000;
    r.latency_max_ns = static_cast<double>(meter.latency_max_) * static_cast<double>(period) / 1000;
    r.switches_avg = static_cast<double>(meter.switches_sum_) / static_cast<double>(meter.timed_delivered_);
  }
  r.packets_corrupted = net.corrupted();
  for (int l = 0; l < net.layers(); ++l) {
    r.packets_resent += handlers[static_cast<std::size_t>(l)]->resent();
    r.packets_aborted += net.layer(l).packets_aborted();
    for (const std::int64_t e : net.layer(l).input_errors()) r.crc_errors += e;
  }
  r.simulated_cycles = end + 1;
  r.node_cycles = r.simulated_cycles * net.pes();
  return r;
}

nlohmann::json to_json(const Cs2RunResult& r) {
  return {{"offered_mb_per_s_per_pe", r.offered_mb_per_s},
          {"accepted_mb_per_s_per_pe", r.accepted_mb_per_s},
          {"busiest_destination_mb_per_s", r.busiest_destination_mb_per_s},
          {"background_received_mb_per_s", r.background_received_mb_per_s},
          {"slowest_background_destination_mb_per_s", r.slowest_background_destination_mb_per_s},
          {"latency_avg_ns", r.latency_avg_ns},
          {"latency_max_ns", r.latency_max_ns},
          {"latency_avg_cycles", r.latency_avg_cycles},
          {"switches_avg", r.switches_avg},
          {"packets_timed", r.packets_timed},
          {"packets_delivered", r.packets_delivered},
          {"slowest_source_fraction", r.slowest_source_fraction},
          {"saturated", r.saturated},
          {"packets_corrupted", r.packets_corrupted},
          {"packets_aborted", r.packets_aborted},
          {"crc_errors", r.crc_errors},
          {"packets_resent", r.packets_resent},
          {"simulated_cycles", r.simulated_cycles},
          {"node_cycles", r.node_cycles}};
}

int run_command(const registry::ConfigRequest& request) {
  const Cs2Config c = load_cs2(request.file, request.sets, {"am", "app"});  // [am], [app]: for mppnet app
  refuse_unsupported_faults(c, "mppnet run", false,
                            c.traffic.acks ? nullptr : "set traffic.acks = true (the Elan's protocol)");
  const std::filesystem::path& out = request.out;
  const io::OutputDirectory output_directory(out);
  const Cs2RunResult r = run_traffic(c);
  std::fputs(
      fmt::format("{}: {} PEs, {} layer{}, {} traffic at load {} ({:.2f} MB/s per PE offered)\n"
                  "accepted {:.3f} MB/s per PE, the slowest PE {:.1f}% of what it offered; latency {:.1f} "
                  "ns mean, {:.1f} ns max over {} of {} timed packets ({:.2f} switches on average){}\n",
                  c.machine.name, c.machine.pes, c.machine.layers, c.machine.layers == 1 ? "" : "s",
                  pattern_name(c.traffic.pattern), c.traffic.load, r.offered_mb_per_s, r.accepted_mb_per_s,
                  100 * r.slowest_source_fraction, r.latency_avg_ns, r.latency_max_ns, r.packets_delivered,
                  r.packets_timed, r.switches_avg,
                  r.saturated ? "; SATURATED: accepted below offered or packets still out" : "")
          .c_str(),
      stdout);
  if (c.traffic.pattern == Pattern::HotSpot && c.traffic.hot_senders > 0)
    std::fputs(fmt::format("hot spot: {} PEs send to PE {} at load {}, which received {:.3f} MB/s; the "
                           "other PEs received {:.3f} MB/s on average, the least {:.3f} MB/s\n",
                           c.traffic.hot_senders, c.traffic.hot_pe, c.traffic.hot_load,
                           r.busiest_destination_mb_per_s, r.background_received_mb_per_s,
                           r.slowest_background_destination_mb_per_s)
                   .c_str(),
               stdout);
  if (c.traffic.acks)
    std::fputs(
        fmt::format("acks: a window of {} per PE and layer; {} packets corrupted, {} aborted, {} bad "
                    "CRCs counted, {} sent again after a NACK\n",
                    c.elan.window, r.packets_corrupted, r.packets_aborted, r.crc_errors, r.packets_resent)
            .c_str(),
        stdout);
  nlohmann::json doc = to_json(r);
  doc["mppnet_version"] = MPPNET_VERSION;
  doc["command"] = "run";
  doc["config_file"] = c.source_file;
  doc["config"] = to_json(c);
  io::write_file_atomically(out / "results.json", doc.dump(2) + "\n");
  io::write_file_atomically(out / "results.csv", io::scalar_fields_csv(doc, {"config"}));
  std::printf("results: %s/results.json, results.csv\n", out.string().c_str());
  return core::kExitSuccess;
}

}  // namespace mppnet::machines::cs2
