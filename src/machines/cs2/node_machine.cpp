// machines/cs2/node_machine.cpp: the parts of a CS-2 running node programs, built in dependency order.
#include "machines/cs2/node_machine.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "am/param_error.hpp"
#include "machines/cs2/elan_collectives.hpp"
#include "machines/cs2/faults.hpp"

namespace mppnet::machines::cs2 {

namespace {

// No node program moved a flit for this many link cycles while packets are out: nothing ever will. Far
// above an ack's round trip on the largest machine (about 12 cycles per switch, 11 switches).
constexpr std::int64_t kWatchdogCycles = 20000;

const Cs2Config& checked(const Cs2Config& c, const am::AmParams& am) {
  if (am.separate_vnets && c.machine.layers < 2)
    throw am::ParamError("am.separate_vnets",
                         fmt::format("requests and replies each take a layer of the CS-2, and machine.layers "
                                     "is {}; set am.separate_vnets = false to share one",
                                     c.machine.layers));
  return c;
}

}  // namespace

am::AmParams cs2_am_params() {
  const Cs2Config defaults;
  am::AmParams p;
  p.clock_ps = 25000;  // a 40 MHz SPARC (an assumption: the document names no processor clock)
  p.flit_bytes = 1;    // a link carries a byte per cycle (L78)
  p.header_bytes = defaults.elan.overhead_bytes();
  p.packet_payload_bytes = 64;
  // The Elan's DMA: a put or get costs the SPARC one start-up, then the Elan streams it. The document
  // bounds start-up latency only, "less than 10 µs" (L66): half of it, 5 µs at 40 MHz (docs/assumptions.md).
  p.dma = true;
  p.dma_startup_cycles = 200;
  // A program sends short messages itself: below three packets, both SPARCs' sends and handlers (37 +
  // 47 = 84 cycles a packet with am's generic costs) cost less than the start-up (docs/cs2.md §6).
  p.dma_min_bytes = 3 * p.packet_payload_bytes;
  return p;
}

io::PresetSets cs2_software_costs() {
  const am::AmParams p = cs2_am_params();
  return {{"am.clock_ps", std::to_string(p.clock_ps)},
          {"am.flit_bytes", std::to_string(p.flit_bytes)},
          {"am.header_bytes", std::to_string(p.header_bytes)},
          {"am.packet_payload_bytes", std::to_string(p.packet_payload_bytes)},
          {"am.dma", p.dma ? "true" : "false"},
          {"am.dma_startup_cycles", std::to_string(p.dma_startup_cycles)},
          {"am.dma_min_bytes", std::to_string(p.dma_min_bytes)}};
}

Cs2NodeMachine::Cs2NodeMachine(const Cs2Config& config, const am::AmParams& am)
    : config_(checked(config, am)),
      hardware_collectives_(config_.elan.collectives == CollectivesPath::Broadcast &&
                            can_broadcast(config_) == nullptr),
      network_(config_, true, config_.elan.window, hardware_collectives_),
      domain_(scheduler_.add_domain("cs2 layers", config_.elite.clock_ps)),
      endpoint_(network_, scheduler_, domain_,
                {.vnets = am.separate_vnets ? 2 : 1, .send_queue_packets = am.send_queue_packets}),
      machine_(endpoint_, scheduler_, am, kWatchdogCycles) {
  // Collectives take the reply layer, which never waits for a request's handler to send anything.
  if (hardware_collectives_)
    machine_.set_collectives(
        std::make_unique<ElanCollectives>(endpoint_, machine_, am, network_.layers() - 1, am.header_bytes));
}

std::string Cs2NodeMachine::description() const {
  std::string why;
  if (config_.elan.collectives == CollectivesPath::Broadcast && !hardware_collectives_)
    why = fmt::format("; collectives in software: {}", can_broadcast(config_));
  return fmt::format("{}, {} layer{}{}", config_.machine.name, config_.machine.layers,
                     config_.machine.layers == 1 ? "" : "s", why);
}

std::string Cs2NodeMachine::config_json() const {
  return to_json(config_).dump();
}

std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am) {
  const Cs2Config c = load_cs2(file, sets, {"am", "app"});
  refuse_unsupported_faults(c, "mppnet app", true, nullptr);  // the Elans resend NACKed packets
  return std::make_unique<Cs2NodeMachine>(c, am);
}

}  // namespace mppnet::machines::cs2
