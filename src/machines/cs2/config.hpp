// machines/cs2/config.hpp: what a Meiko CS-2 config can say, its declared keys and its loader.
//
// Defaults are the document's machine (Meiko, "CS-2 Communications Network Overview", 1993) where it
// gives a value, else reference note 003's recommended choice (§6), named in each key's doc, or a fit
// (elan.header_bytes, docs/cs2.md). Only the keys that the built parts read exist: faults come with the
// parts that read them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/error.hpp"
#include "io/config_loader.hpp"
#include "io/key_table.hpp"
#include "machines/cs2/elite_topology.hpp"
#include "machines/cs2/routes.hpp"

namespace mppnet::machines::cs2 {

struct MachineParams {
  std::string model = "cs2";  // the simulation model this file configures (registry::model_of)
  std::string name = "CS-2";  // shown in results
  int pes = 64;               // processing elements; the smallest size that holds them is built
  Doubling doubling = Doubling::EightWayTop;  // odd sizes: note 003 §2.4.3 readings B and C
  int layers = 2;                             // independent identical layers, one Elan link into each (L92)
};

struct EliteParams {
  int clock_ps = 14286;   // 70 MHz link clock (L78, L339-L347)
  int data_cycles = 7;    // data latency through a switch (L386-L387)
  int ack_cycles = 5;     // acknowledgement latency through a switch (L386-L387)
  int wire_cycles = 1;    // per link (note §6 #25)
  int buffer_bytes = 32;  // input FIFO per link (note §6 #14)
};

struct RoutingParams {
  Policy policy = Policy::Dest;  // up-paths: DEST (L417-L423) or RANDOM
  Turn turn = Turn::Minimal;     // turn at the lowest common ancestor, or always at the top (note §6 #8)
  int alternatives = 4;          // distinct routes per destination in a PE's table (L409-L413)
  // Tables loaded with the routes of rearrange.hpp for the traffic's permutation, one per source: no
  // channel carries two flows (L400-L402, note §4.6). REQUIRES a permutation pattern on 4^k PEs.
  bool rearranged = false;
  // The tree a broadcast climbs: plane 0 (canonical, note 003 §2.10) or a plane drawn per packet.
  BroadcastTree broadcast_tree = BroadcastTree::Canonical;
};

// The Elan's send protocol (elan.hpp; note 003 §4.9): a message is cut into packets of L payload bytes
// plus a fixed overhead, with `window` packets unacknowledged at most.
enum class Sizing { Dynamic, Fixed };
// How node programs' collectives run: on the layers' broadcast with merged acks (elan_collectives.hpp)
// or as am's software tree of unicast messages.
enum class CollectivesPath { Broadcast, Software };

struct ElanParams {
  Sizing sizing = Sizing::Dynamic;  // L from the route's ack round trip (L61-L64), or fixed_payload_bytes
  int window = 2;                   // one packet being sent, one awaiting its ack (note §6 #17)
  // Overhead bytes of every packet on the wire, route bytes apart. header_bytes is fitted to R4's
  // 50 MB/s (docs/cs2.md); the note's guess is about 8 (§6 #12).
  int header_bytes = 10;
  int crc_bytes = 2;             // CRC-16 (note §6 #12)
  int eop_bytes = 1;             // the end-of-packet token
  int turnaround_cycles = 0;     // at the destination, between its last byte and the ack leaving
  int min_payload_bytes = 32;    // Lmin (note §6 #18)
  int max_payload_bytes = 256;   // Lmax (note §6 #18)
  int fixed_payload_bytes = 32;  // L under sizing = "fixed"
  CollectivesPath collectives = CollectivesPath::Broadcast;  // node programs' collectives (mppnet app)

  int overhead_bytes() const { return header_bytes + crc_bytes + eop_bytes; }
};

// The traffic of `mppnet run` (cs2_run.hpp): every PE offers packets of one size to one pattern.
enum class Pattern { Uniform, Shift, BitComplement, BitReversal, Transpose, HotSpot };

struct TrafficParams {
  Pattern pattern = Pattern::Uniform;
  // Offered bytes per PE per cycle, as a fraction of the PE's links (machine.layers bytes per cycle).
  double load = 0.2;
  int packet_bytes = 32;  // bytes per packet on the wire, route bytes not counted
  int shift = 1;          // pattern "shift": PE x sends to (x + shift) mod pes
  int hot_pe = 0;         // pattern "hot_spot": every PE sends to this one (note 003 §5 R11)
  // Pattern "hot_spot" with a background (R11's third claim): above 0, only this many PEs send to hot_pe,
  // at hot_load, spread evenly over the machine (hot_sender()); the others, hot_pe among them, send
  // uniformly to every PE but hot_pe at load. 0: every PE sends to hot_pe at load.
  int hot_senders = 0;
  double hot_load = 0.5;
  // Of the packets a PE creates, the fraction that are broadcasts (half to the whole machine, half to a
  // random contiguous range of PEs; note 003 §4.7); the rest follow the pattern. Above 0 the layers
  // replicate (topo::ByteSteeredRouting<true>).
  double broadcast_fraction = 0;
  // Every packet is acknowledged on its layer's ack path, a PE keeps at most elan.window packets
  // unacknowledged per layer, and a NACKed packet is sent again (the Elan's protocol, note 003 §4.9).
  // Off: open loop, no acks. Byte errors need it: only an acknowledged sender resends.
  bool acks = false;
};

// Faults (docs/cs2.md "Faults", note 003 §5 R13). A link is named as Meiko names its switch end:
// [layer, stage, network identifier, plane, port] (naming.hpp; port 0-3 down, 4-7 up; 0-7 down at an
// 8-way top); a switch's port to a PE names the PE's link. Empty: none.
struct FaultParams {
  std::vector<int> link;         // the link with byte errors
  double byte_error_rate = 0;    // probability that one byte crossing `link` is corrupted
  std::vector<int> failed_link;  // a link out of service: the route tables avoid it
};

struct RunParams {
  std::int64_t seed = 1;
  std::int64_t warmup_cycles = 2000;  // link cycles before measuring
  std::int64_t cycles = 10000;        // link cycles measured
  std::int64_t drain_cycles = 50000;  // at most this long after measuring for the measured packets
};

struct Cs2Config {
  MachineParams machine;
  EliteParams elite;
  RoutingParams routing;
  ElanParams elan;
  TrafficParams traffic;
  FaultParams faults;
  RunParams run;

  std::map<std::string, core::SourceLocation> origin;  // where each key was set, for errors after loading
  std::string source_file;
};

const io::KeyTable<Cs2Config>& cs2_keys();
std::vector<io::KeyInfo> cs2_key_list();

// Reads the file, applies each "key=value" of `sets` in order, then check_cs2. Throws core::ConfigError
// "file:line: key: reason" (exit status 2 in app/) for syntax, unknown keys, types, ranges and the
// cross-key checks. `foreign_sections` are read by others (`mppnet app` reads [am] and [app]).
Cs2Config load_cs2(const io::ConfigFile& file, const std::vector<std::string>& sets,
                   const std::vector<std::string>& foreign_sections = {});
Cs2Config load_cs2_text(const std::string& text, const std::string& name,
                        const std::vector<std::string>& sets);

// Every key on its own, then across keys: the buffer must cover a link's flow-control round trip (note
// §6 #14: at least 2 x wire cycles + 8 bytes), the longest route must fit topo::kMaxRouteBytes, and
// elan.min_payload_bytes <= elan.max_payload_bytes; broadcasts need one tree (not back to back) and
// exclude rearranged tables.
void check_cs2(const Cs2Config& c);

nlohmann::json to_json(const Cs2Config& c);

const char* pattern_name(Pattern p);
const char* broadcast_tree_name(BroadcastTree t);

// Whether the config's traffic has broadcasts, so that the layers must replicate.
inline bool wants_broadcasts(const Cs2Config& c) {
  return c.traffic.broadcast_fraction > 0;
}

// Why the layers of `c` cannot carry broadcasts, or nullptr when they can: a broadcast box is a subtree
// of one tree (not two networks back to back), rearranged tables carry a permutation only, and the
// canonical tree is not rebuilt around a failed link.
const char* can_broadcast(const Cs2Config& c);

// The layer shape a config describes.
LayerShape layer_shape(const Cs2Config& c);

}  // namespace mppnet::machines::cs2
