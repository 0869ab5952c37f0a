// machines/cm5/node_machine.cpp: the parts of a CM-5 running node programs, built in dependency order.
#include "machines/cm5/node_machine.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "machines/cm5/control_collectives.hpp"

namespace mppnet::machines::cm5 {

namespace {

constexpr Picoseconds kNetworkCyclePs = 25000;  // 40 MHz (paper L260-262)
// Cycles of one load or store between the SPARC and its network interface: the one calibrated number of
// the cost model (docs/cm5.md, "Node programs").
constexpr int kInterfaceAccessCycles = 3;

}  // namespace

am::AmParams cm5_am_params() {
  const int c = kInterfaceAccessCycles;
  am::AmParams p;
  p.clock_ps = 31250;  // 32 MHz SPARC (paper L18)
  // A send: the destination and the tag with the length are stores, each word a store, then the
  // send-OK status a load (note A30: 7 stores and 1 load for 5 words). A receive: a status load, then
  // the words. Dispatch: the poll that finds the message.
  p.send_cycles = 3 * c;
  p.copy_cycles_per_word = c;
  p.receive_cycles = c;
  p.poll_cycles = c;
  p.dispatch_cycles = c;
  p.flit_bytes = 4;
  p.header_bytes = 4;
  p.packet_payload_bytes = 16;
  return p;
}

io::PresetSets cm5_software_costs() {
  const am::AmParams p = cm5_am_params();
  return {{"am.clock_ps", std::to_string(p.clock_ps)},
          {"am.send_cycles", std::to_string(p.send_cycles)},
          {"am.copy_cycles_per_word", std::to_string(p.copy_cycles_per_word)},
          {"am.receive_cycles", std::to_string(p.receive_cycles)},
          {"am.poll_cycles", std::to_string(p.poll_cycles)},
          {"am.dispatch_cycles", std::to_string(p.dispatch_cycles)},
          {"am.flit_bytes", std::to_string(p.flit_bytes)},
          {"am.header_bytes", std::to_string(p.header_bytes)},
          {"am.packet_payload_bytes", std::to_string(p.packet_payload_bytes)}};
}

Cm5NodeMachine::Cm5NodeMachine(const Cm5Config& config, const am::AmParams& am)
    : config_(config),
      network_(build_network(config)),
      domain_(scheduler_.add_domain("cm5 data network", kNetworkCyclePs)),
      interfaces_(*network_, scheduler_, domain_,
                  AddressMap(0, config.machine.nodes, config.faults.map_out_nodes), am.separate_vnets ? 3 : 1,
                  {.send_fifo_messages =
                       NetworkInterfaces::kMaxPartsPerPacket * static_cast<int>(am.send_queue_packets),
                   .requests = config.interface.requests,
                   .replies = config.interface.replies,
                   .one_way = config.interface.one_way,
                   .interrupt_mask = config.interface.interrupt_mask,
                   .report_room = config.interface.report_room}),
      machine_(interfaces_, scheduler_, am, 20000) {
  // The interface's tag mask: the tag of a node program's message is its virtual network.
  for (int vnet = 0; vnet < interfaces_.vnets(); ++vnet) {
    machine_.set_interrupts(vnet, am.interrupts && (config.interface.interrupt_mask >> vnet & 1));
  }
  if (config.control_network.collectives == CollectivesPath::Hardware) {
    const AddressMap map(0, config.machine.nodes, config.faults.map_out_nodes);
    std::vector<int> leaf_of_node(static_cast<std::size_t>(map.size()));
    for (int v = 0; v < map.size(); ++v) leaf_of_node[v] = map.physical(v);
    machine_.set_collectives(std::make_unique<ControlCollectives>(
        control_params(config), std::move(leaf_of_node), scheduler_, machine_, am));
  }
}

std::string Cm5NodeMachine::description() const {
  return fmt::format("{} data network", config_.machine.name);
}

std::string Cm5NodeMachine::config_json() const {
  return to_json(config_).dump();
}

std::unique_ptr<registry::NodeMachine> build_node_machine(const io::ConfigFile& file,
                                                          const std::vector<std::string>& sets,
                                                          const am::AmParams& am) {
  return std::make_unique<Cm5NodeMachine>(load_cm5(file, sets, {"am", "app"}), am);
}

}  // namespace mppnet::machines::cm5
