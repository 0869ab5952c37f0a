// machines/cm5/config.hpp: the keys of a CM-5 data-network config (machine.model = "cm5") and its loader.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/error.hpp"
#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "machines/cm5/control_network.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/network_interface.hpp"

namespace mppnet::machines::cm5 {

struct MachineSection {
  std::string model = "cm5";
  std::string name = "CM-5";
  int nodes = 1024;  // processing nodes: 32 to 16,384 in steps of 32
};

// What `mppnet run` offers: the paper's bandwidth-by-locality table (every node backlogged, locality.hpp)
// or one synthetic pattern open loop at traffic.load (streams.hpp, run_open_loop).
enum class TrafficPattern { Locality, Uniform, BitComplement, BitReversal, Transpose };

struct TrafficSection {
  TrafficPattern pattern = TrafficPattern::Locality;
  double load = 0.2;  // offered link cycles per node per cycle, as a fraction of its two links
};

struct RunSection {
  std::int64_t seed = 1;
  int words = 5;                      // data words per message (1..5)
  std::int64_t warmup_cycles = 2000;  // 40 MHz network cycles before each measurement
  std::int64_t measure_cycles = 10000;
};

// Failed parts (paper L288-295): a chip routed around, nodes mapped out of the address space.
struct FaultsSection {
  std::vector<int> failed_chip;    // empty, or [side, level, node, chip index in the node]
  std::vector<int> map_out_nodes;  // physical nodes taken out of node programs' relative addresses
};

// The control network (note 000 §2.4; docs/assumptions.md): its timing, and whether node programs'
// collectives use it or stay in software over the data network.
enum class CollectivesPath : std::uint8_t { Hardware, Software };
struct ControlSection {
  int slot_cycles = 13;         // 65-bit packets on 5 wires (note A15)
  int level_delay_cycles = 13;  // a whole packet, CRC last, before a node acts on it (note A16)
  int queue_packets = 4;
  int ni_fifo_packets = 16;
  CollectivesPath collectives = CollectivesPath::Hardware;
};

struct Cm5Config {
  MachineSection machine;
  DataNetworkParams data_network;  // nodes and seed come from machine.nodes and run.seed
  InterfaceParams interface;       // send_fifo_messages comes from am.send_queue_packets
  ControlSection control_network;
  FaultsSection faults;
  TrafficSection traffic;
  RunSection run;

  std::map<std::string, core::SourceLocation> origin;
  std::string source_file;
};

std::vector<io::KeyInfo> cm5_key_list();
// Loads, applies `sets` in order, and checks. Throws core::ConfigError "file:line: key: reason".
// Sections named in `foreign_sections` ([am], [app] of `mppnet app`) belong to another reader.
Cm5Config load_cm5(const io::ConfigFile& file, const std::vector<std::string>& sets,
                   const std::vector<std::string>& foreign_sections = {});
Cm5Config load_cm5_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets);
// The data network's parameters with the machine's size and the run's seed.
DataNetworkParams network_params(const Cm5Config& c);
// The control network of the whole machine (one partition).
ControlNetworkParams control_params(const Cm5Config& c);
// A data network of `c` with its failed chip (if any) routed around.
std::unique_ptr<DataNetwork> build_network(const Cm5Config& c);
// The failed chip of `c`, or kNoChip.
ChipId failed_chip(const Cm5Config& c);
nlohmann::json to_json(const Cm5Config& c);

}  // namespace mppnet::machines::cm5
