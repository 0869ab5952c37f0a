// machines/cm1/run.cpp: running one instruction from a config and printing its figures.
#include "machines/cm1/run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "machines/cm1/config.hpp"
#include "machines/cm1/patterns.hpp"
#include "machines/cm1/timing.hpp"

namespace mppnet::machines::cm1 {

RoutingResult run_routing(const Cm1Config& c) {
  const auto dst = make_destinations(c.machine, c.traffic, c.run.seed);
  RoutingResult r;
  r.message_bits =
      message_bits(c.machine.dims, c.machine.procs_per_chip, c.traffic.vp_ratio, c.cm1.data_bits);
  r.clock_hz = c.machine.clock_hz;
  const auto bits = [&](std::int64_t petit_cycles) {
    return petit_cycles == 0
               ? 0
               : delivery_bit_times(c.cm1.pipeline, petit_cycles, r.message_bits, c.machine.dims);
  };
  switch (c.traffic.operation) {
    case Operation::Send: {
      Router router(c.machine, c.cm1, c.traffic.vp_ratio);
      r.stats = router.route(dst);
      r.total_petit_cycles = r.stats.petit_cycles;
      r.total_bit_times = bits(r.stats.petit_cycles);
      break;
    }
    case Operation::Read:
      r.read = run_read(c.machine, c.cm1, c.traffic.vp_ratio, dst);
      r.stats = r.read.request;
      r.total_petit_cycles = r.read.petit_cycles();
      // Each reply round is its own routing instruction with its own pipeline fill.
      r.total_bit_times = bits(r.stats.petit_cycles);
      for (const std::int64_t p : r.read.round_petit_cycles) r.total_bit_times += bits(p);
      break;
    case Operation::FetchAndAdd: {
      r.fetch_add = run_fetch_and_add(c.machine, c.cm1, c.traffic.vp_ratio, dst);
      const auto& f = r.fetch_add;
      r.total_petit_cycles = f.petit_cycles();
      r.total_bit_times = f.scan_bit_times;
      for (const std::int64_t p : f.phase_petit_cycles) r.total_bit_times += bits(p);
      return r;
    }
  }
  const RoutingStats& s = r.stats;
  const double chips = static_cast<double>(std::int64_t{1} << c.machine.dims);
  // Paper L258-L262: a random pattern sends half the messages across each dimension, spread over that
  // dimension's `chips` directed channels, each carrying one message per petit cycle: 8v at 64K.
  r.lower_bound = static_cast<double>(s.messages) / 2.0 / chips;
  if (s.petit_cycles == 0) return r;
  r.bit_times = delivery_bit_times(c.cm1.pipeline, s.petit_cycles, r.message_bits, c.machine.dims);
  const double slots = static_cast<double>(s.channel_slots);
  r.wire_utilisation = static_cast<double>(s.transmissions) / slots;
  r.productive_fraction = static_cast<double>(s.productive) / slots;
  r.wire_busy_bits = static_cast<double>(s.transmissions) * r.message_bits /
                     (chips * c.machine.dims * static_cast<double>(r.bit_times));
  if (s.delivered > 0) r.mean_latency_petit_cycles = static_cast<double>(s.latency_sum) / s.delivered;
  r.messages_per_bit_time = static_cast<double>(s.delivered) / static_cast<double>(r.bit_times);
  r.messages_per_second = r.messages_per_bit_time * r.clock_hz;
  return r;
}

std::vector<VpSweepPoint> vp_sweep(Cm1Config base, const std::vector<int>& vp_ratios, int seeds) {
  std::vector<VpSweepPoint> out;
  for (const int v : vp_ratios) {
    base.traffic.vp_ratio = v;
    VpSweepPoint pt;
    pt.vp_ratio = v;
    for (int s = 1; s <= seeds; ++s) {
      base.run.seed = s;
      const RoutingResult r = run_routing(base);
      const std::int64_t p = r.stats.petit_cycles;
      pt.mean_petit_cycles += static_cast<double>(p) / seeds;
      pt.wire_utilisation += r.wire_utilisation / seeds;
      pt.productive_fraction += r.productive_fraction / seeds;
      pt.min_petit_cycles = s == 1 ? p : std::min(pt.min_petit_cycles, p);
      pt.max_petit_cycles = std::max(pt.max_petit_cycles, p);
      if (s == 1) pt.lower_bound = r.lower_bound;
    }
    out.push_back(pt);
  }
  return out;
}

std::string format_vp_sweep(const std::vector<VpSweepPoint>& points) {
  std::string out = fmt::format("{:>8} {:>10} {:>10} {:>8} {:>8} {:>8} {:>10}\n", "vp_ratio", "petit",
                                "min-max", "bound", "p/bound", "wires", "productive");
  for (const auto& p : points)
    out += fmt::format("{:>8} {:>10.1f} {:>10} {:>8.1f} {:>8.3f} {:>8.3f} {:>10.3f}\n", p.vp_ratio,
                       p.mean_petit_cycles, fmt::format("{}-{}", p.min_petit_cycles, p.max_petit_cycles),
                       p.lower_bound, p.lower_bound > 0 ? p.mean_petit_cycles / p.lower_bound : 0.0,
                       p.wire_utilisation, p.productive_fraction);
  return out;
}

std::string format_result(const Cm1Config& c, const RoutingResult& r) {
  const auto& s = r.stats;
  const auto& keys = cm1_keys();
  std::string out;
  const auto row = [&](const char* name, const std::string& value) {
    out += fmt::format("{:<28}{}\n", name, value);
  };
  row("machine", fmt::format("{}: {}-cube, {} processors/chip, {} rows", c.machine.name, c.machine.dims,
                             c.machine.procs_per_chip, c.cm1.rows));
  row("pattern", fmt::format("{}, VP ratio {}, seed {}", keys.get(c, "traffic.pattern").get<std::string>(),
                             c.traffic.vp_ratio, c.run.seed));
  if (c.traffic.operation == Operation::FetchAndAdd) {
    const auto& f = r.fetch_add;
    row("operation",
        fmt::format("fetch-and-add by sort, send and scan: {} requests, {} targets", f.requests, f.targets));
    row("sort", fmt::format("{} radix passes, {} petit cycles", f.sort_passes, f.sort_petit_cycles));
    row("send / reply / return", fmt::format("{} / {} / {} petit cycles", f.send_petit_cycles,
                                             f.reply_petit_cycles, f.return_petit_cycles));
    row("scans", fmt::format("{} scans, {} bit-times (docs/cm1.md)", f.scans, f.scan_bit_times));
    row("total",
        fmt::format("{} routing instructions, {} petit cycles, {} bit-times{}", f.routing_instructions,
                    r.total_petit_cycles, r.total_bit_times, f.terminated ? "" : ", TIMED OUT"));
    return out;
  }
  row("messages", fmt::format("{} ({} delivered{})", s.messages, s.delivered,
                              s.terminated ? "" : ", TIMED OUT: livelock"));
  row("petit cycles", fmt::format("{} (lower bound {:.1f}{})", s.petit_cycles, r.lower_bound,
                                  s.splits > 0 ? fmt::format(", {} splits", s.splits) : ""));
  row("message length", fmt::format("{} bits", r.message_bits));
  row("bit-times",
      fmt::format("{} ({} pipeline)", r.bit_times, keys.get(c, "cm1.pipeline").get<std::string>()));
  row("wire utilisation",
      fmt::format("{:.3f} (productive {:.3f}, desperation {:.3f})", r.wire_utilisation, r.productive_fraction,
                  s.channel_slots ? static_cast<double>(s.desperation) / s.channel_slots : 0.0));
  row("mean latency", fmt::format("{:.2f} petit cycles", r.mean_latency_petit_cycles));
  if (c.traffic.operation == Operation::Read) {
    const auto& rd = r.read;
    row("operation", fmt::format("read: {} requesters, {} request messages reached their targets", s.messages,
                                 rd.arrivals));
    row("reply phase", fmt::format("{} replies in {} rounds, {} petit cycles, {} answered", rd.reply_messages,
                                   rd.reply_rounds, rd.reply_petit_cycles, rd.answered));
    row("total", fmt::format("{} petit cycles, {} bit-times (request + reply)", r.total_petit_cycles,
                             r.total_bit_times));
  }
  row("combined messages",
      fmt::format("{} in the router (CM-2 combining), {} OR'ed at the ejector", s.combined, s.or_combined));
  row("messages per bit-time", fmt::format("{:.1f}", r.messages_per_bit_time));
  row("messages per second",
      fmt::format("{:.3g} at {:g} MHz (clock assumed)", r.messages_per_second, r.clock_hz / 1e6));
  if (c.cm1.check_invariants) row("invariant violations", fmt::format("{}", s.invariant_violations));
  return out;
}

}  // namespace mppnet::machines::cm1
