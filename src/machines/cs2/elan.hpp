// machines/cs2/elan.hpp: the Elan's send protocol: a message cut into packets, a window of
// unacknowledged packets, and packets sized to the route so that acks overlap the sending.
//
// The document says only that "the low level communication protocols allow overlapped message
// acknowledgments, and the message packet size is dynamically adjusted so that it is always sufficient
// for full overlapping to occur" (Meiko, CS-2 Communications Network Overview, 1993, L61-L64). The
// protocol here is reference note 003's reading of it (§2.8, §4.9, §6 #17-#18):
//  - a message of M payload bytes goes as packets of L payload bytes plus elan.overhead_bytes() (header,
//    CRC, end-of-packet token) on one route (alternative 0 of the table entry) on one layer;
//  - at most elan.window packets are sent and not yet acknowledged (2: one being sent, one awaiting its
//    ack); the next packet enters the PE's link queue when an ack brings the count below the window;
//  - under dynamic sizing L(h) = clamp(roundup(RTT(h) - overhead, 8), Lmin, Lmax), where RTT(h) is the
//    ack round trip of a route through h switches (round_trip_cycles), so that a packet takes at least
//    as long to send as its predecessor's ack takes to come back.
// Not modelled: NACKs and retransmission (no faults yet), the choice among alternatives and layers
// per message, start-up costs, DMA and the receiving side's memory.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_network.hpp"

namespace mppnet::machines::cs2 {

// Cycles from a packet's first byte leaving its PE to its ack arriving there, for a one-byte packet on
// an idle layer through `switches` switches: 12h + 2(h+1)w + c_dst with the default timing (note §2.8,
// §5 R5), (data + ack) cycles per switch and a wire each way per link. c_dst = 1 +
// elan.turnaround_cycles: the model's destination latches the last byte in one cycle (the 1 of
// zero_load_cycles) before the ack leaves.
std::int64_t round_trip_cycles(const Cs2Config& c, int switches);

// Payload bytes per packet of a message on a route through `switches` switches (elan.sizing).
int payload_bytes(const Cs2Config& c, int switches);

// The note's steady-state throughput of a window-2 sender as a fraction of the link rate, for packets
// of `wire_bytes` bytes on the wire (payload and overhead): min(1, 2 L' / (L' + RTT(h))) (note §5 R6).
double window2_link_fraction(const Cs2Config& c, int wire_bytes, int switches);

// What one message did.
struct MessageRecord {
  NodeId src = -1;
  NodeId dest = -1;
  int layer = 0;
  int switches = 0;            // h of its route
  int payload_per_packet = 0;  // L
  std::int64_t bytes = 0;      // M
  std::int64_t bytes_unsent = 0;
  std::int64_t bytes_acked = 0;
  int outstanding = 0;      // packets sent and not yet acknowledged
  int max_outstanding = 0;  // the most there ever were
  Cycle started = 0;
  std::vector<Cycle> delivered;  // per packet, the cycle its last byte was drained (-1 until then)
  std::vector<Cycle> acked;      // per packet, the cycle its ack arrived (-1 until then)
  bool done() const { return bytes_acked == bytes; }
  int packets() const { return static_cast<int>(delivered.size()); }
};

// The Elans of every PE of a network built with acks (Cs2Network(c, true)), each sending at most one
// message at a time. Stepping it steps the network.
class Elan {
 public:
  // REQUIRES: `net` was built with acks and outlives the Elan.
  explicit Elan(Cs2Network& net) : Elan(net, net.config().elan) {}
  // With its own sizing, window and overhead instead of the network's [elan] keys (one network serves a
  // sweep); the ack turnaround stays the network's.
  Elan(Cs2Network& net, const ElanParams& elan);

  // Starts a message of `bytes` payload bytes from src to dest on `layer`. Returns its index.
  // REQUIRES: bytes >= 1; src has no message in progress.
  int send_message(NodeId src, NodeId dest, std::int64_t bytes, int layer = 0);

  // One link cycle: every sender fills its window, the layers step, acks and deliveries are taken.
  void step();
  // Steps until every message is acknowledged; returns false if `max_cycles` pass first.
  bool run(std::int64_t max_cycles);

  const MessageRecord& message(int i) const { return messages_[static_cast<std::size_t>(i)]; }
  Cycle now() const { return net_.layer(0).now(); }

 private:
  void fill_window(MessageRecord& m, int index);

  Cs2Network& net_;
  Cs2Config config_;  // the network's, with the Elan's own [elan] keys
  std::vector<MessageRecord> messages_;
  std::vector<int> active_;                 // per PE: its message in progress, or -1
  std::vector<int> in_progress_;            // the messages in progress, in the order they were started
  std::vector<std::int64_t> sent_packets_;  // per message: packets sent so far
};

// Payload MB/s of message `m` in its steady state: the payload of the packets delivered between its
// packet first and packet last (both full-sized, an even count apart so that a window-2 sender's
// two-packet period is whole) over the cycles between their deliveries. REQUIRES: m.packets() >= 8.
double steady_payload_mb_per_s(const MessageRecord& m, const Cs2Config& c);
// The same as bytes on the wire per cycle (payload and overhead): the link's utilisation, 0..1.
double steady_link_fraction(const MessageRecord& m, const Cs2Config& c);

}  // namespace mppnet::machines::cs2
