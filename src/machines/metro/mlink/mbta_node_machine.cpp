// machines/metro/mlink/mbta_node_machine.cpp: the parts of an MBTA running node programs, built in order.
#include "machines/metro/mlink/mbta_node_machine.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "am/param_error.hpp"

namespace mppnet::machines::metro::mlink {

namespace {

// No operation completed for this many router cycles while some are queued: none ever will. Far above
// the longest ROP's connection (about 550 cycles) times the retries a busy output costs.
constexpr std::int64_t kWatchdogCycles = 200000;

const MetroConfig& checked(const MetroConfig& c, const am::AmParams& am) {
  check_mbta(c, am);
  return c;
}

MlinkParams interface_params(const MetroConfig& c, const am::AmParams& am) {
  MlinkParams p = c.mlink;
  p.queue_capacity = am.send_queue_packets;
  return p;
}

}  // namespace

am::AmParams mbta_am_params() {
  am::AmParams p;
  p.clock_ps = 40000;  // the i960CA at 25 MHz (L2981)
  p.flit_bytes = 1;    // a byte-wide network port (§11.2)
  // MLINK adds the ROP's opcode, len, address (the handler's) and checks itself; a frame names no source,
  // so the runtime's header is the sender's node number: one byte up to 256 nodes.
  p.header_bytes = 1;
  p.packet_payload_bytes = 64;
  return p;
}

io::PresetSets mbta_software_costs() {
  const am::AmParams p = mbta_am_params();
  return {{"am.clock_ps", std::to_string(p.clock_ps)},
          {"am.flit_bytes", std::to_string(p.flit_bytes)},
          {"am.header_bytes", std::to_string(p.header_bytes)},
          {"am.packet_payload_bytes", std::to_string(p.packet_payload_bytes)}};
}

void check_mbta(const MetroConfig& c, const am::AmParams& am) {
  check_mrp_run(c);
  const mrp::WordFormat format{
      c.mrp.width, mrp::field_bits_for(c.metro.multibutterfly.radix, c.metro.multibutterfly.dilation)};
  const int nodes = [&] {
    int n = 1;
    for (int s = 0; s < c.metro.multibutterfly.stages; ++s) n *= c.metro.multibutterfly.radix;
    return n;
  }();
  MlinkParams p = c.mlink;
  p.queue_capacity = std::max(1, am.send_queue_packets);
  for (const auto& problem : check(p, format, nodes)) io::fail_at(c, problem.key, problem.reason);
  if (c.mrp.faulty_packages > 0)
    io::fail_at(c, "faults.packages",
                "package faults are not modelled under node programs (mppnet run has them)");
  if (am.dma)
    throw am::ParamError("am.dma",
                         "the MBTA runs node programs without am's DMA engine (MLINK's READ and WRITE "
                         "are not am's put and get here): set am.dma = false");
  const std::int64_t bytes = static_cast<std::int64_t>(am.header_bytes) + am.packet_payload_bytes;
  if (bytes > kMaxDataBytes)
    throw am::ParamError("am.header_bytes", fmt::format("a packet of {} bytes exceeds MLINK's largest ROP "
                                                        "({} bytes: 255 double-words)",
                                                        bytes, kMaxDataBytes));
}

MbtaNodeMachine::MbtaNodeMachine(const MetroConfig& config, const am::AmParams& am)
    : config_(checked(config, am)),
      graph_(build_instance(config_.metro.multibutterfly, static_cast<std::uint64_t>(config_.run.seed), 0)),
      network_(graph_, mrp::router_params(config_.mrp), static_cast<std::uint64_t>(config_.run.seed)),
      domain_(scheduler_.add_domain("mbta routers", config_.mrp.period_ps)),
      endpoint_(network_, graph_.params.radix, interface_params(config_, am),
                static_cast<std::uint64_t>(config_.run.seed), scheduler_, domain_,
                {.vnets = am.separate_vnets ? 2 : 1,
                 .send_queue_packets = am.send_queue_packets,
                 .flit_bytes = am.flit_bytes}),
      machine_(endpoint_, scheduler_, am, kWatchdogCycles) {
  network_.set_fast_reclaim(config_.mrp.fast_reclaim);
}

std::string MbtaNodeMachine::description() const {
  return fmt::format("MBTA, {} nodes, {} stages, MLINK over MRP", graph_.nodes, graph_.stages());
}

std::string MbtaNodeMachine::config_json() const {
  return to_json(config_).dump();
}

std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am) {
  const MetroConfig c = load_metro(file, sets, {"am", "app"});
  return std::make_unique<MbtaNodeMachine>(c, am);
}

}  // namespace mppnet::machines::metro::mlink
