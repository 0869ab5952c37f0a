// machines/cs2/config.cpp: key declarations for Cs2Config, the loader and the cross-key checks.
//
// Reading, parsing, --set and origins are io::load_config's; this file adds the keys and the checks.
#include "machines/cs2/config.hpp"

#include <bit>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "machines/cs2/faults.hpp"

namespace mppnet::machines::cs2 {

namespace {

using io::fail_at;
using io::in_range;
using io::key;
using io::one_of;
using io::section;

io::KeyTable<Cs2Config> make_table() {
  return io::KeyTable<Cs2Config>{
      section("machine", &Cs2Config::machine,
              {
                  key("model", &MachineParams::model, one_of({"cs2"}),
                      "The simulation model this file configures: the Meiko CS-2 network."),
                  key("name", &MachineParams::name, io::any_value(), "Name shown in results."),
                  key("pes", &MachineParams::pes, in_range(kMinPes, kMaxPes),
                      "Processing elements; the smallest Meiko size holding them is built, PEs 0..pes-1 "
                      "populated (an incomplete network where pes is not a full size; L304-L306)."),
                  key("doubling", &MachineParams::doubling, one_of({"eight_way_top", "back_to_back"}),
                      "Odd sizes (doubled without a stage, Fig 2-3 lost): an 8-way top stage (note 003 "
                      "§2.4.3 reading B) or two networks joined back to back (reading C)."),
                  key("layers", &MachineParams::layers, in_range(1, 2),
                      "Identical independent network layers; each PE's Elan has one link into each (L92)."),
              }),
      section("elite", &Cs2Config::elite,
              {
                  key("clock_ps", &EliteParams::clock_ps, in_range(1000, 100000),
                      "Link clock period in ps: 70 MHz byte-wide links (L78, L339-L347)."),
                  key("data_cycles", &EliteParams::data_cycles, in_range(1, 64),
                      "Cycles of data latency through a switch (L386-L387)."),
                  key("ack_cycles", &EliteParams::ack_cycles, in_range(1, 64),
                      "Cycles of acknowledgement latency through a switch (L386-L387)."),
                  key("wire_cycles", &EliteParams::wire_cycles, in_range(0, 64),
                      "Cycles of wire delay per link (note 003 §6 #25)."),
                  key("buffer_bytes", &EliteParams::buffer_bytes, in_range(4, 4096),
                      "Input FIFO per link in bytes (note 003 §6 #14)."),
              }),
      section("routing", &Cs2Config::routing,
              {
                  key("policy", &RoutingParams::policy, one_of({"dest", "random"}),
                      "Up-path of a route: dest (every destination through a fixed top plane, "
                      "Omega-like, L417-L423) or random (drawn per source, destination and alternative)."),
                  key("turn", &RoutingParams::turn, one_of({"minimal", "top"}),
                      "Where routes turn down: at the lowest common ancestor, or always at the top stage."),
                  key("alternatives", &RoutingParams::alternatives, in_range(1, kAlternatives),
                      "Distinct routes per destination in a PE's table, padded to 4 (L409-L413)."),
                  key("rearranged", &RoutingParams::rearranged, io::any_value(),
                      "Load every PE's table with routes that carry the traffic's permutation with no "
                      "channel used twice (the recursive Clos decomposition; L400-L402). Needs a "
                      "permutation pattern on 4^k PEs; overrides policy, turn and alternatives."),
                  key("broadcast_tree", &RoutingParams::broadcast_tree, one_of({"canonical", "any_plane"}),
                      "The tree a broadcast climbs: canonical (up-port 0 at every stage, so all broadcasts "
                      "share plane 0 and cannot deadlock each other; note 003 §2.10) or any_plane (a top "
                      "plane drawn per packet: a negative control that can deadlock)."),
              }),
      section("elan", &Cs2Config::elan,
              {
                  key("sizing", &ElanParams::sizing, one_of({"dynamic", "fixed"}),
                      "Packet size: dynamic, L = clamp(roundup(RTT(h) - overhead, 8), min, max) for a "
                      "route of h switches, so that acks overlap fully (L61-L64, note 003 §4.9); or "
                      "fixed, elan.fixed_payload_bytes."),
                  key("window", &ElanParams::window, in_range(1, 16),
                      "Packets of a message sent and not yet acknowledged, at most: 2 is one being sent "
                      "and one awaiting its ack (note 003 §6 #17)."),
                  key("header_bytes", &ElanParams::header_bytes, in_range(0, 256),
                      "Elan header bytes per packet (type, remote address, length); fitted to the "
                      "50 MB/s of L78-L79 (docs/cs2.md), the note's guess is about 8 (§6 #12)."),
                  key("crc_bytes", &ElanParams::crc_bytes, in_range(0, 8),
                      "CRC bytes per packet (L94-L96; CRC-16, note 003 §6 #12)."),
                  key("eop_bytes", &ElanParams::eop_bytes, in_range(0, 8),
                      "End-of-packet token symbols per packet (note 003 §6 #12)."),
                  key("turnaround_cycles", &ElanParams::turnaround_cycles, in_range(0, 10000),
                      "Cycles at the destination between a packet's last byte and its ack leaving."),
                  key("min_payload_bytes", &ElanParams::min_payload_bytes, in_range(1, 4096),
                      "Smallest payload of a dynamically sized packet (Lmin, note 003 §6 #18)."),
                  key("max_payload_bytes", &ElanParams::max_payload_bytes, in_range(1, 4096),
                      "Largest payload of a dynamically sized packet (Lmax, note 003 §6 #18)."),
                  key("fixed_payload_bytes", &ElanParams::fixed_payload_bytes, in_range(1, 4096),
                      "Payload of every packet under elan.sizing = \"fixed\"."),
                  key("collectives", &ElanParams::collectives, one_of({"broadcast", "software"}),
                      "Node programs' collectives (mppnet app): broadcast runs barriers, broadcasts and "
                      "reductions' results on the switches' broadcast, a barrier as a broadcast whose "
                      "merged ack is the global AND (L366-L369, L457-L458; docs/cs2.md \"Collectives\"); "
                      "software runs am's tree of unicast messages. Machines that cannot broadcast (back "
                      "to back, rearranged tables, a failed link) use software."),
              }),
      section(
          "traffic", &Cs2Config::traffic,
          {
              key("pattern", &TrafficParams::pattern,
                  one_of({"uniform", "shift", "bit_complement", "bit_reversal", "transpose", "hot_spot"}),
                  "Destinations of `mppnet run`: uniform random, x -> x + traffic.shift mod pes, the "
                  "bit complement, bit reversal or transpose (halves swapped) of x (pes a power of 2; "
                  "for transpose of 4), or hot_spot: every PE to traffic.hot_pe."),
              key("load", &TrafficParams::load, in_range(0.0, 1.0),
                  "Offered bytes per PE per link cycle, as a fraction of its machine.layers links."),
              key("packet_bytes", &TrafficParams::packet_bytes, in_range(1, 4096),
                  "Bytes of a packet on the wire (header, payload, CRC), route bytes not counted."),
              key("shift", &TrafficParams::shift, in_range(0, kMaxPes), "Distance of the pattern \"shift\"."),
              key("hot_pe", &TrafficParams::hot_pe, in_range(0, kMaxPes),
                  "The PE every other sends to under the pattern \"hot_spot\" (below machine.pes)."),
              key("hot_senders", &TrafficParams::hot_senders, in_range(0, kMaxPes),
                  "Under \"hot_spot\": 0, every PE sends to traffic.hot_pe at traffic.load; above 0, only "
                  "this many PEs, spread evenly, send to it at traffic.hot_load, and the others send "
                  "uniformly to every PE but traffic.hot_pe at traffic.load (a background, note 003 §5 "
                  "R11)."),
              key("hot_load", &TrafficParams::hot_load, in_range(0.0, 1.0),
                  "The hot senders' offer (traffic.hot_senders above 0), as a fraction of their links."),
              key("broadcast_fraction", &TrafficParams::broadcast_fraction, in_range(0.0, 1.0),
                  "Fraction of packets that are broadcasts, half to every PE and half to a random "
                  "contiguous range, each sent as one packet per aligned box (L366-L369, note 003 §4.7); "
                  "above 0 the switches replicate, with merged acks."),
              key("acks", &TrafficParams::acks, io::any_value(),
                  "Acknowledge every packet on its layer's ack path (elite.ack_cycles per switch), keep at "
                  "most elan.window packets unacknowledged per PE and layer, and send a NACKed packet "
                  "again (the Elan's protocol, note 003 §4.9). false: open loop, no acks. Byte errors "
                  "(faults.byte_error_rate) need it."),
          }),
      section("faults", &Cs2Config::faults,
              {
                  key("link", &FaultParams::link, io::any_value(),
                      "A link with byte errors, named by its switch end: [layer, stage, network id, plane, "
                      "port] (docs/cs2.md \"Faults\"). Empty: none."),
                  key("byte_error_rate", &FaultParams::byte_error_rate, in_range(0.0, 1.0),
                      "Probability that a byte crossing faults.link is corrupted: a unicast packet of L "
                      "bytes fails its CRC with probability 1 - (1 - p)^L, is NACKed and sent again "
                      "(L94-L97); broadcasts are not corrupted."),
                  key("failed_link", &FaultParams::failed_link, io::any_value(),
                      "A failed link, [layer, stage, network id, plane, port]: the route tables of its "
                      "layer are rebuilt around it; a PE whose own link failed is reached on the other "
                      "layer. Empty: none."),
              }),
      section("run", &Cs2Config::run,
              {
                  key("seed", &RunParams::seed, io::at_least(0), "Seed of every random stream."),
                  key("warmup_cycles", &RunParams::warmup_cycles, in_range(0, 100000000),
                      "Link cycles of `mppnet run` before measuring."),
                  key("cycles", &RunParams::cycles, in_range(1, 100000000),
                      "Link cycles measured: packets created in them are timed."),
                  key("drain_cycles", &RunParams::drain_cycles, in_range(0, 1000000000),
                      "Link cycles at most after measuring for the timed packets to arrive; those "
                      "still out then mark the run saturated."),
              }),
  };
}

}  // namespace

const io::KeyTable<Cs2Config>& cs2_keys() {
  static const io::KeyTable<Cs2Config> table = make_table();
  return table;
}

std::vector<io::KeyInfo> cs2_key_list() {
  return cs2_keys().list();
}

Cs2Config load_cs2(const io::ConfigFile& file, const std::vector<std::string>& sets,
                   const std::vector<std::string>& foreign_sections) {
  Cs2Config c = io::load_config(cs2_keys(), file.doc, file.path, sets, {}, foreign_sections);
  check_cs2(c);
  return c;
}

Cs2Config load_cs2_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets) {
  return load_cs2(io::config_file_from_text(text, name), sets);
}

void check_cs2(const Cs2Config& c) {
  io::check_keys(cs2_keys(), c);
  // Credit flow control needs a buffer longer than a link's round trip (data there, credit back) plus
  // the 8 bytes one flow-control token grants (note 003 §6 #14), or a link can never run at full rate.
  const int round_trip = 2 * c.elite.wire_cycles + 8;
  if (c.elite.buffer_bytes < round_trip)
    fail_at(
        c, "elite.buffer_bytes",
        fmt::format("{} bytes cannot cover a link's round trip of 2 x elite.wire_cycles ({}) + 8 = {} bytes",
                    c.elite.buffer_bytes, c.elite.wire_cycles, round_trip));
  if (c.elan.min_payload_bytes > c.elan.max_payload_bytes)
    fail_at(c, "elan.max_payload_bytes",
            fmt::format("{} is below elan.min_payload_bytes ({})", c.elan.max_payload_bytes,
                        c.elan.min_payload_bytes));
  const bool power_of_2 = (c.machine.pes & (c.machine.pes - 1)) == 0;
  const bool power_of_4 = power_of_2 && std::countr_zero(static_cast<unsigned>(c.machine.pes)) % 2 == 0;
  const Pattern p = c.traffic.pattern;
  if ((p == Pattern::BitComplement || p == Pattern::BitReversal) && !power_of_2)
    fail_at(c, "traffic.pattern",
            fmt::format("{} needs a power of 2 PEs; machine.pes is {}", pattern_name(p), c.machine.pes));
  if (p == Pattern::Transpose && !power_of_4)
    fail_at(c, "traffic.pattern",
            fmt::format("transpose swaps two address halves of equal length: it needs a power of 4 PEs; "
                        "machine.pes is {}",
                        c.machine.pes));
  if (c.traffic.hot_pe >= c.machine.pes)
    fail_at(c, "traffic.hot_pe",
            fmt::format("{} is not a PE: machine.pes is {}", c.traffic.hot_pe, c.machine.pes));
  if (c.traffic.hot_senders > 0 && p != Pattern::HotSpot)
    fail_at(c, "traffic.hot_senders",
            fmt::format("hot senders need traffic.pattern = \"hot_spot\"; it is {}", pattern_name(p)));
  if (c.traffic.hot_senders >= c.machine.pes)
    fail_at(c, "traffic.hot_senders",
            fmt::format("{} hot senders leave no PE for the background: machine.pes is {} (0: every PE "
                        "sends to the hot PE)",
                        c.traffic.hot_senders, c.machine.pes));
  if (c.routing.rearranged && (p == Pattern::HotSpot))
    fail_at(c, "routing.rearranged", "rearranged tables carry a permutation; traffic.pattern is hot_spot");
  if (c.routing.rearranged && p == Pattern::Uniform)
    fail_at(c, "routing.rearranged", "rearranged tables carry a permutation; traffic.pattern is uniform");
  if (c.routing.rearranged && !power_of_4)
    fail_at(
        c, "routing.rearranged",
        fmt::format("rearranged tables need a complete layer of 4^k PEs; machine.pes is {}", c.machine.pes));
  // The longest route must fit the route bytes a packet carries.
  const LayerShape shape = layer_shape(c);
  if (const char* why = can_broadcast(c); wants_broadcasts(c) && why != nullptr)
    fail_at(c, "traffic.broadcast_fraction", why);
  check_faults(c, shape);
  const int longest = 2 * shape.stages() - (shape.back_to_back() ? 0 : 1);
  if (longest > topo::kMaxRouteBytes)
    fail_at(c, "machine.pes",
            fmt::format("{} PEs need routes of {} bytes; at most {} are carried", c.machine.pes, longest,
                        topo::kMaxRouteBytes));
}

nlohmann::json to_json(const Cs2Config& c) {
  return cs2_keys().to_json(c);
}

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Uniform:
      return "uniform";
    case Pattern::Shift:
      return "shift";
    case Pattern::BitComplement:
      return "bit_complement";
    case Pattern::BitReversal:
      return "bit_reversal";
    case Pattern::Transpose:
      return "transpose";
    case Pattern::HotSpot:
      return "hot_spot";
  }
  return "?";
}

const char* broadcast_tree_name(BroadcastTree t) {
  switch (t) {
    case BroadcastTree::Canonical:
      return "canonical";
    case BroadcastTree::AnyPlane:
      return "any_plane";
  }
  return "?";
}

const char* can_broadcast(const Cs2Config& c) {
  if (layer_shape(c).back_to_back())
    return "broadcasts need one tree, and machine.doubling = \"back_to_back\" joins two networks at the top";
  if (c.routing.rearranged)
    return "rearranged tables carry a permutation, which broadcasts are not; set routing.rearranged = false";
  // Broadcasts take the canonical tree whatever the tables say, so they would cross a failed link.
  if (!c.faults.failed_link.empty())
    return "broadcasts take the canonical tree, which is not rebuilt around faults.failed_link";
  return nullptr;
}

LayerShape layer_shape(const Cs2Config& c) {
  return LayerShape(c.machine.pes, c.machine.doubling);
}

}  // namespace mppnet::machines::cs2
