// machines/cm5/config.cpp: the declared keys of a CM-5 config and the checks across them.
#include "machines/cm5/config.hpp"

#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {

namespace {

using io::in_range;
using io::key;
using io::section;

const std::vector<std::string> kUpChoiceNames = {"random_free", "deterministic"};
const std::vector<std::string> kSideNames = {"left", "right", "both"};

// The CM-5 was built from 32 to 16,384 nodes (paper L16-17); 32 is the smallest machine and the unit
// it grew by (docs/assumptions.md).
io::Check machine_size() {
  io::Check c = in_range(32, 16384);
  c.test = [](const io::Value& v) -> std::string {
    const auto n = std::get<std::int64_t>(v);
    return n % 32 == 0 ? "" : fmt::format("a CM-5 has a multiple of 32 nodes (got {})", n);
  };
  c.text = "32 to 16384, a multiple of 32";
  return c;
}

io::Check parent_links() {
  return io::satisfies(
      [](const io::Value& v) -> std::string {
        const auto& list = std::get<std::vector<std::int64_t>>(v);
        if (list.empty() || list.size() > 16) return "needs 1 to 16 values (P at levels 1, 2, ...)";
        for (const auto p : list) {
          if (p < 1 || p > kMaxParentPorts) return fmt::format("{} parent links: a chip has 1 to 4", p);
        }
        return "";
      },
      "parent links per chip at levels 1, 2, ..., each 1 to 4; the last repeats");
}

io::KeyTable<Cm5Config> make_table() {
  return io::KeyTable<Cm5Config>{
      section("machine", &Cm5Config::machine,
              {
                  key("model", &MachineSection::model, io::one_of({"cm5"}),
                      "The simulation model this file configures: the CM-5 data network."),
                  key("name", &MachineSection::name, io::any_value(), "Name shown in the result table."),
                  key("nodes", &MachineSection::nodes, machine_size(),
                      "Processing nodes; a size that is not a power of 4 has a partly populated top."),
              }),
      section("data_network", &Cm5Config::data_network,
              {
                  key("parents", &DataNetworkParams::parents, parent_links(),
                      "Parent links per router chip by level (CM-5: 2, 2, then 4; paper L204-208)."),
                  key("route_cycles", &DataNetworkParams::route_cycles, in_range(1, 64),
                      "Cycles a chip holds a head before it may leave (not in the paper; calibrated on "
                      "its 3-7 us latencies, docs/assumptions.md)."),
                  key("board_wire_cycles", &DataNetworkParams::board_wire_cycles, in_range(1, 16),
                      "Wire delay of the backplane links, nodes to level 2."),
                  key("cable_wire_cycles", &DataNetworkParams::cable_wire_cycles, in_range(1, 16),
                      "Wire delay of the cables above level 2 (9 and 26 ft; paper L256-258)."),
                  key("buffer_nibbles", &DataNetworkParams::buffer_nibbles, in_range(16, 4096),
                      "Input buffer of each chip port, in 4-bit link cycles; at least one longest message "
                      "(default: the power of two that holds two)."),
                  key("ni_receive_messages", &DataNetworkParams::ni_receive_messages, in_range(1, 64),
                      "Messages each network interface's receive FIFO holds per side."),
                  key("up_choice", &DataNetworkParams::up_choice, io::one_of(kUpChoiceNames),
                      "Parent link choice: random_free (the CM-5) or deterministic (always the first)."),
              }),
      section(
          "interface", &Cm5Config::interface,
          {
              key("requests", &InterfaceParams::requests, io::one_of(kSideNames),
                  "Side(s) node programs' requests use (left: the paper's deadlock-free rule, L323-337)."),
              key("replies", &InterfaceParams::replies, io::one_of(kSideNames),
                  "Side(s) replies use (right, or both: still deadlock-free while requests keep to one)."),
              key("one_way", &InterfaceParams::one_way, io::one_of(kSideNames),
                  "Side(s) one-way messages use (am's notify: no reply, so both sides are safe)."),
              key("interrupt_mask", &InterfaceParams::interrupt_mask, in_range(0, 65535),
                  "Bit t set: a message of tag t interrupts (0 requests, 1 replies, 2 one-way); clear: "
                  "found by polling (paper L268-271). Applies where am.interrupts is true."),
          }),
      section("control_network", &Cm5Config::control_network,
              {
                  key("slot_cycles", &ControlSection::slot_cycles, in_range(1, 1000),
                      "40 MHz cycles per packet slot: 65 bits on 5 wires is 13 (paper L580-582; "
                      "docs/assumptions.md)."),
                  key("level_delay_cycles", &ControlSection::level_delay_cycles, in_range(0, 1000),
                      "Cycles per binary-tree level: 13, a whole packet with its CRC before a node acts; "
                      "2-3 for a bit-serial node (not in the paper; docs/cm5.md)."),
                  key("queue_packets", &ControlSection::queue_packets, in_range(1, 1024),
                      "Packets each tree node input holds per class before flow control stops its child."),
                  key("ni_fifo_packets", &ControlSection::ni_fifo_packets, in_range(kMaxCombineWords, 4096),
                      "Packets each interface's outgoing control FIFO holds per class."),
                  key("collectives", &ControlSection::collectives, io::one_of({"hardware", "software"}),
                      "Node programs' barrier, broadcast, reduce and scan: on the control network "
                      "(hardware) or as active messages over the data network (software)."),
              }),
      section("faults", &Cm5Config::faults,
              {
                  key("failed_chip", &FaultsSection::failed_chip, io::any_value(),
                      "A failed router chip, [side, level, node, index]: routed around (level 2 and "
                      "above; paper L288-295). Empty: none."),
                  key("map_out_nodes", &FaultsSection::map_out_nodes, io::any_value(),
                      "Nodes mapped out of node programs' relative addresses (e.g. the 4 under a failed "
                      "level-1 chip)."),
              }),
      section("traffic", &Cm5Config::traffic,
              {
                  key("pattern", &TrafficSection::pattern,
                      io::one_of({"locality", "uniform", "bit_complement", "bit_reversal", "transpose"}),
                      "What mppnet run offers: locality, the paper's bandwidth by distance with every node "
                      "backlogged; or a pattern open loop at traffic.load (uniform random other node, bit "
                      "complement, bit reversal, or transpose: halves of the address swapped; bit patterns "
                      "need a power of 2 nodes, transpose a power of 4), reporting latency from creation."),
                  key("load", &TrafficSection::load, in_range(0.0, 1.0),
                      "Open-loop patterns: offered link cycles per node per cycle, as a fraction of its two "
                      "links (20 MB/s raw each), so 1 offers 40 MB/s raw per node."),
              }),
      section("run", &Cm5Config::run,
              {
                  key("seed", &RunSection::seed, io::at_least(0), "Seed of every random stream."),
                  key("words", &RunSection::words, in_range(1, kMaxWords),
                      "Data words per message (the interface sends 1 to 5; paper L266-267)."),
                  key("warmup_cycles", &RunSection::warmup_cycles, in_range(0, 100000000),
                      "40 MHz network cycles before each measurement window."),
                  key("measure_cycles", &RunSection::measure_cycles, in_range(100, 100000000),
                      "40 MHz network cycles of each measurement window."),
              }),
  };
}

const io::KeyTable<Cm5Config>& cm5_keys() {
  static const io::KeyTable<Cm5Config> table = make_table();
  return table;
}

void check_faults(const Cm5Config& c, const FatTreeShape& shape) {
  const auto& f = c.faults.failed_chip;
  if (!f.empty()) {
    if (f.size() != 4)
      io::fail_at(c, "faults.failed_chip", "give [side, level, node, index] (4 numbers) or nothing");
    const int side = f[0], level = f[1], node = f[2], index = f[3];
    if (side < 0 || side >= kSides || level < 1 || level > shape.height() || node < 0 ||
        node >= shape.level_nodes(level) || index < 0 || index >= shape.chips_per_node(level))
      io::fail_at(
          c, "faults.failed_chip",
          fmt::format("no chip [{}, {}, {}, {}] in a {}-node machine (side 0-1, level 1-{}; docs/cm5.md)",
                      side, level, node, index, c.machine.nodes, shape.height()));
    if (level == 1)
      io::fail_at(c, "faults.failed_chip",
                  fmt::format("a level-1 chip is its 4 nodes' only chip on its side and cannot be routed "
                              "around: map out nodes {} to {} with faults.map_out_nodes",
                              node * 4, node * 4 + 3));
  }
  for (const int v : c.faults.map_out_nodes) {
    if (v < 0 || v >= c.machine.nodes)
      io::fail_at(c, "faults.map_out_nodes",
                  fmt::format("node {} is not in a {}-node machine", v, c.machine.nodes));
  }
  const std::set<int> out(c.faults.map_out_nodes.begin(), c.faults.map_out_nodes.end());
  if (static_cast<int>(out.size()) >= c.machine.nodes)
    io::fail_at(c, "faults.map_out_nodes", "every node is mapped out: nothing is left to run on");
}

void check_cm5(const Cm5Config& c) {
  io::check_keys(cm5_keys(), c);
  const FatTreeShape shape(c.machine.nodes, c.data_network.parents);
  check_faults(c, shape);
  const auto power_of = [](int n, int base) {
    while (n > 1 && n % base == 0) n /= base;
    return n == 1;
  };
  const TrafficPattern p = c.traffic.pattern;
  if ((p == TrafficPattern::BitComplement || p == TrafficPattern::BitReversal) &&
      !power_of(c.machine.nodes, 2))
    io::fail_at(c, "traffic.pattern",
                fmt::format("bit patterns need a power of 2 nodes; machine.nodes is {}", c.machine.nodes));
  if (p == TrafficPattern::Transpose && !power_of(c.machine.nodes, 4))
    io::fail_at(c, "traffic.pattern",
                fmt::format("transpose swaps two halves of equal width and needs a power of 4 nodes; "
                            "machine.nodes is {}",
                            c.machine.nodes));
  const int longest = message_nibbles(kMaxWords, shape.height());
  if (c.data_network.buffer_nibbles < longest)
    io::fail_at(
        c, "data_network.buffer_nibbles",
        fmt::format("{} nibbles is shorter than the longest message of a {}-node machine ({} nibbles); "
                    "the model forwards whole messages (virtual cut-through) and does not model "
                    "wormhole switching",
                    c.data_network.buffer_nibbles, c.machine.nodes, longest));
}

}  // namespace

std::vector<io::KeyInfo> cm5_key_list() {
  return cm5_keys().list();
}

Cm5Config load_cm5(const io::ConfigFile& file, const std::vector<std::string>& sets,
                   const std::vector<std::string>& foreign_sections) {
  Cm5Config c = io::load_config(cm5_keys(), file.doc, file.path, sets, {}, foreign_sections);
  check_cm5(c);
  return c;
}

Cm5Config load_cm5_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets) {
  return load_cm5(io::config_file_from_text(text, name), sets);
}

DataNetworkParams network_params(const Cm5Config& c) {
  DataNetworkParams p = c.data_network;
  p.nodes = c.machine.nodes;
  p.seed = static_cast<std::uint64_t>(c.run.seed);
  return p;
}

nlohmann::json to_json(const Cm5Config& c) {
  return cm5_keys().to_json(c);
}

ControlNetworkParams control_params(const Cm5Config& c) {
  return {.leaves = c.machine.nodes,
          .slot_cycles = c.control_network.slot_cycles,
          .level_delay_cycles = c.control_network.level_delay_cycles,
          .queue_packets = c.control_network.queue_packets,
          .ni_fifo_packets = c.control_network.ni_fifo_packets};
}

ChipId failed_chip(const Cm5Config& c) {
  const auto& f = c.faults.failed_chip;
  if (f.size() != 4) return kNoChip;
  return FatTreeShape(c.machine.nodes, c.data_network.parents).chip(f[0], f[1], f[2], f[3]);
}

std::unique_ptr<DataNetwork> build_network(const Cm5Config& c) {
  auto network = std::make_unique<DataNetwork>(network_params(c));
  const ChipId failed = failed_chip(c);
  if (failed != kNoChip && !network->route_around(failed))
    io::fail_at(c, "faults.failed_chip", "no other chip of its node can take its messages");
  return network;
}

}  // namespace mppnet::machines::cm5
