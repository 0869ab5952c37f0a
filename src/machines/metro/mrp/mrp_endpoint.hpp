// machines/metro/mrp/mrp_endpoint.hpp: MRP-ENDPOINT, the sources and destinations of every node (§4.7).
//
// A source takes messages from its node's queue, keeps up to `outstanding` of them until they are
// acknowledged, and sends each over a network input chosen at random among its free ones (§4.7.1,
// L1465): ROUTE, the message's data words, two check words seeded with the destination (L1467-1469),
// TURN. It then reads the return stream (§4.7.2, L1475-1485): N STATUS/CHECKSUM pairs and the reply, or
// s pairs and DROP when blocked at stage s, or back-drop when fast path reclamation collapsed the path.
// Only an ACK with a good reply check confirms delivery (L1471); every other outcome is a failed attempt,
// retried at once on a freshly drawn input (the thesis leaves back-off open, L1503-1507, and note 004b §6
// item 18 and note 004c §9 item 9 recommend immediate retry), up to `max_attempts`.
//
// A destination reads the stream on each of its network outputs, checks the words against its own node
// number, and replies ACK or NACK, a reply check seeded with the source, and DROP, in the cycle it reads
// the TURN (turnaround 0, note 004b §6 item 16). Retry makes delivery at-least-once (L1524-1538): with
// `suppress_duplicates`, a sequence number per (source, destination) pair lets the destination accept
// each message once and still acknowledge its copies.
//
// The words of a message (w bits each), after the ROUTE:
//   source id (id_words words, low word first) · sequence number (1 word, mod 2^w) · payload ·
//   rotating XOR (mix() below) · sum mod 2^w
// message_words counts them all, so FLAT24's "24-byte message" is message_words = 24 on byte-wide links.
// The payload is a hash of (source, sequence, position): nothing per word is stored.
//
// State is flat arrays per node, per network input and per network output; a cycle allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "machines/metro/mrp/mrp_network.hpp"

namespace mppnet::machines::metro::mrp {

struct EndpointParams {
  int message_words = 24;           // data words after the ROUTE: header, payload and the 2 check words
  int outstanding = 4;              // messages a node holds unacknowledged at once (Appendix A: 4)
  int max_attempts = 0;             // attempts before a message is reported failed; 0 = no limit
  int queue_capacity = 64;          // messages a node's queue holds before send() refuses
  bool suppress_duplicates = true;  // the destination accepts each (source, sequence) once
};

// Why an attempt ended.
enum class Outcome : std::uint8_t {
  Delivered,    // ACK with a good reply check
  Blocked,      // a STATUS said blocked, or the path closed before N pairs (then DROP)
  BlockedFast,  // back-drop reached the source (fast path reclamation): no status
  Corrupted,    // NACK, or a reply that fails its check
  Protocol,     // an illegal word, a reply too long or short, a TURN from the destination, a timeout
};

struct Attempt {
  NodeId source = 0, destination = 0;
  std::uint32_t sequence = 0;
  int input = 0;           // the network input used, 0..ni-1
  std::int64_t start = 0;  // the cycle the ROUTE went on the link
  std::int64_t end = 0;    // the cycle the source read the closing word (or sent its abort DROP)
  Outcome outcome = Outcome::Delivered;
  int blocked_stage = 0;        // Blocked: the stage (1-based); 0 when unknown
  int pairs = 0;                // STATUS/CHECKSUM pairs read
  int checksum_mismatches = 0;  // router CHECKSUMs that differ from the source's own LRC of what it sent
  int first_mismatch_stage =
      0;  // the nearest router whose CHECKSUM differs (0: none): a fault lies before it
  // The path as the STATUS words give it (L1437): which of its equivalent backward ports router k took, in
  // bits 4(k-1)..4k-1, for the routers that returned a STATUS (scan/localise.hpp reads it).
  std::uint64_t copies = 0;
};

struct Completion {
  NodeId source = 0, destination = 0;
  std::int64_t created = 0, done = 0;  // done: the cycle the source read the DROP closing the ACK
  int attempts = 0;
  bool failed = false;  // max_attempts reached
};

struct EndpointStats {
  std::int64_t created = 0, delivered = 0, failed = 0;
  std::int64_t attempts = 0, blocked = 0, blocked_fast = 0, corrupted = 0, protocol = 0;
  std::int64_t accepted = 0;    // messages destinations accepted (duplicates not counted)
  std::int64_t duplicates = 0;  // copies of an accepted message that arrived again intact
  std::int64_t checksum_mismatches = 0;
  std::int64_t latency_sum = 0, latency_max = 0;  // created -> done, over delivered messages
  std::int64_t latency_min = -1;                  // -1 until one is delivered
  std::int64_t busy_output_cycles = 0;  // network-output cycles spent on connections that were ACKed
};

class MrpEndpoints {
 public:
  // `radix` is the network's r (route words). Node x draws inputs from (seed, x, stream kInputChoice).
  // REQUIRES: check_endpoints(...) is empty for these parameters.
  MrpEndpoints(MrpNetwork& net, int radix, const EndpointParams& p, std::uint64_t seed);

  // Queues a message from x to y in the current cycle; false when x's queue is full.
  bool send(NodeId x, NodeId y);
  // Reads what arrived this cycle and drives this cycle's words. Call before MrpNetwork::step().
  void tick();

  // Nothing queued, outstanding or on a link.
  bool idle() const { return busy_ == 0; }
  int held(NodeId x) const { return queued_[x] + slots_used_[x]; }  // queued + outstanding
  const EndpointStats& stats() const { return stats_; }
  // Words of a message's header: the source id and the sequence number.
  int header_words() const { return id_words_ + 1; }

  // Records every attempt and completion (tests, validation).
  void set_log(std::vector<Attempt>* attempts, std::vector<Completion>* completions) {
    attempt_log_ = attempts;
    completion_log_ = completions;
  }
  // Fault hooks at a node's network outputs: the next n connections that reach y have one payload bit
  // flipped as read (so y NACKs), or have y's ACK word flipped after y accepted the message (so the
  // source retries a delivered message: the duplicate of L1526).
  void corrupt_arrivals(NodeId y, int n) { corrupt_in_[y] += n; }
  void corrupt_replies(NodeId y, int n) { corrupt_reply_[y] += n; }

  // Source-side masking of a known fault (§4.9.1 at the node's end): node x never again sends on its
  // network input q, as when the router it leads to is known to be faulty. Set before the run starts.
  void mask_input(NodeId x, int q) { in_[x * ni_ + q].free_from = kNever; }

  // The ACK and NACK codes: alternating bits and their complement, w bits apart, so a NACK is unlikely to
  // turn into an ACK (L1491).
  std::uint32_t ack() const { return ack_; }
  std::uint32_t nack() const { return ack_ ^ format_.all_ones(); }

  static constexpr std::uint32_t kInputChoice = 101;  // random stream id of a node's input choice
  // An input free from this cycle on is never taken: the one place inputs are chosen compares against it.
  static constexpr std::int64_t kNever = INT64_MAX;

 private:
  enum class In : std::uint8_t { Free, Send, Await };
  enum class Out : std::uint8_t { Idle, Receive, Reply };

  // Input q and output o of node x (the per-port arrays' index x * ni + q, x * no + o).
  void tick_input(NodeId x, int q);
  void tick_output(NodeId y, int o);
  void start(NodeId x, int q, int slot);
  void finish(int i, Outcome outcome, bool abort);
  void refill(NodeId x);
  std::uint32_t word_of(NodeId x, int slot_index, int position) const;  // data word `position` (1-based)
  std::uint32_t fold(std::uint32_t v) const;
  // The first check word: the running value rotated left one bit, then XORed with the word. A plain XOR
  // (or a sum) cancels a bit stuck in an even number of words; the rotation spreads such a bit over
  // different positions (note 004b §6 item 6 leaves the message checksum's function open).
  // (rotate_right by w - 1, written out: it runs for every word sent and read, and the general form divides)
  std::uint32_t mix(std::uint32_t check, std::uint32_t word) const {
    const int by = format_.width - 1;
    const std::uint32_t rotated = by == 0 ? check : ((check >> by) | (check << 1)) & format_.all_ones();
    return rotated ^ word;
  }
  bool accept(NodeId y, NodeId x, std::uint32_t seq_word);

  MrpNetwork& net_;
  WordFormat format_;
  EndpointParams p_;
  int radix_, nodes_, ni_, no_, stages_, id_words_;
  std::uint32_t ack_;
  std::int64_t timeout_;
  EndpointStats stats_;
  std::int64_t busy_ = 0;  // queued + outstanding messages over all nodes

  // Per node.
  std::vector<core::RandomStream> rng_;
  std::vector<int> queue_head_, queued_, slots_used_, ready_head_, ready_count_;
  std::vector<NodeId> queue_dest_;  // node x's ring from x * queue_capacity
  std::vector<std::int64_t> queue_created_;
  std::vector<int> ready_;  // node x's ring of slot indices from x * outstanding
  std::vector<int> corrupt_in_, corrupt_reply_;

  // Per outstanding slot (node x's from x * outstanding).
  std::vector<NodeId> slot_dest_;
  std::vector<std::uint32_t> slot_seq_;
  std::vector<std::int64_t> slot_created_;
  std::vector<int> slot_attempts_;
  std::vector<std::uint8_t> slot_used_;

  // Per (source, destination) pair: the next sequence number to send; per (destination, source): the
  // next one expected and the window of those accepted beyond it (bit k: expected + k).
  std::vector<std::uint32_t> next_seq_, expected_;
  std::vector<std::uint64_t> window_;

  // Per network input (x * ni + q).
  // Each a record, as a source's cycle reads most of its fields (a separate array per field cost an
  // address and a cache line each).
  struct Input {
    std::uint8_t expect_checksum = 0;
    int slot = 0, position = 0, pairs = 0, reply_count = 0, blocked = 0, mismatches = 0, first_mismatch = 0;
    std::uint64_t copies = 0;  // STATUS port fields so far (Attempt::copies)
    std::uint32_t lrc = 0, sum = 0, router_lrc = 0, reply[2] = {0, 0};
    std::int64_t start = 0, turn = 0, free_from = 0;
  };
  std::vector<Input> in_;

  // Per network output (y * no + o).
  struct Output {
    std::uint8_t flip = 0, ok = 0;
    int count = 0, reply_position = 0;
    NodeId source = 0;
    std::uint32_t lrc = 0, sum = 0, check[2] = {0, 0}, seq = 0, reply[2] = {0, 0};
    std::int64_t since = 0;
  };
  std::vector<Output> out_;
  // The states apart from the records, dense: tick() tests every input's and output's each cycle, and
  // through the records that walk missed the cache at every port.
  std::vector<In> in_state_;
  std::vector<Out> out_state_;

  std::vector<Attempt>* attempt_log_ = nullptr;
  std::vector<Completion>* completion_log_ = nullptr;
};

// Every reason these parameters cannot run on `net` (keys metro.mrp.*); empty when they can.
std::vector<core::Problem> check_endpoints(const EndpointParams& p, const WordFormat& format, int nodes);

}  // namespace mppnet::machines::metro::mrp
