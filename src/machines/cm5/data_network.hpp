// machines/cm5/data_network.hpp: the CM-5 data network, message by message, exact to the 40 MHz cycle.
//
// What the paper says the network does (Leiserson et al., "The Network Architecture of the Connection
// Machine CM-5", 1992, §3) and how this model does it:
//  - links move 4 bits a cycle each way, so a message of M nibbles holds a link for M cycles
//    (machines/cm5/message_format.hpp);
//  - a message climbs to the least common ancestor of its source and destination, choosing at each
//    chip pseudorandomly among the parent links not obstructed (idle, with room downstream), then takes
//    the unique path down; never parent to parent;
//  - every link has flow control, every chip buffers what cannot go on, and every output is granted
//    round-robin among the inputs that want it (fair: no input starves);
//  - messages "snake" through the chips: a head may leave after `route_cycles` of decoding while its tail
//    is still arriving.
// Buffers hold at least one longest message and a chip forwards a head only when the next buffer has
// room for the whole message (virtual cut-through). Under that rule a message, once started, streams at
// one nibble a cycle on every link to its destination, so its whole journey is fixed by the cycle each
// chip grants it an output: the model decides at those grants only and never steps a nibble, and is
// still exact to the cycle for that rule. Credits for a nibble return over the link's wire delay.
// Wormhole switching with buffers shorter than a message is not modelled (docs/assumptions.md).
//
// Beside routing, each chip keeps what the CM-5 uses for its reliability: message counters on every
// port (Kirchhoff's law per chip and for the whole network), the CRC check with primary and secondary
// error marking, and all-fall-down mode (data_network_faults.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "core/slot_pool.hpp"
#include "core/types.hpp"
#include "machines/cm5/fat_tree_shape.hpp"

namespace mppnet::machines::cm5 {

using MessageId = std::uint32_t;
constexpr MessageId kNoMessage = 0xffffffffu;

enum class UpChoice : std::uint8_t {
  RandomFree,     // uniformly among the parent links not obstructed (the CM-5)
  Deterministic,  // always the chip's first parent link, waiting for it (the comparison of note V20)
};

enum class CrcState : std::uint8_t { Good, Complemented };

struct DataNetworkParams {
  int nodes = 1024;
  std::vector<int> parents = {2, 2, 4};  // P(1), P(2), then repeated (note 000 §2.3.2)
  // A head's latency through a chip, from its first nibble: not in the paper; note A8 has it calibrated
  // on the paper's 3-7 us latencies (cm5.v18), and 16 is the only value that puts both ends inside.
  int route_cycles = 16;
  int board_wire_cycles = 1;  // links from the nodes up to level 2 (backplanes)
  int cable_wire_cycles = 2;  // links above level 2 (9 and 26 ft cables)
  // Each chip input (note A7; not in the paper): the power of two that holds two longest messages (51
  // nibbles), so a chip takes in one while it still holds the one ahead for its route_cycles.
  int buffer_nibbles = 128;
  int ni_receive_messages = 4;  // NI receive FIFO, per side
  UpChoice up_choice = UpChoice::RandomFree;
  std::uint64_t seed = 1;
  // Test mode: look at every chip holding a message at every cycle instead of sleeping it until it could
  // move. Results must be identical (data_network_exactness_test.cpp); only the speed differs.
  bool visit_every_cycle = false;
};

// A message as it travels. Times in network cycles.
struct Message {
  NodeId src = -1;
  NodeId dest = -1;       // where it is routed (physical)
  NodeId true_dest = -1;  // where it belongs: differs from dest once it fell (all-fall-down)
  std::int16_t nibbles = 0;
  std::int8_t words = 0;
  std::uint8_t tag = 0;
  std::uint8_t side = 0;
  std::uint8_t lca = 0;  // the level it turns at
  bool fell = false;     // routed down by all-fall-down: keeps falling wherever it is
  CrcState crc = CrcState::Good;
  Cycle created = 0;                // entered the send queue
  Cycle injected = -1;              // head left the node
  Cycle delivered = -1;             // tail reached the node's receive FIFO
  std::uint64_t label = 0;          // the sender's own
  std::uint32_t next = kNoMessage;  // send-queue or free-list link
};

class DataNetworkObserver {
 public:
  virtual ~DataNetworkObserver() = default;
  // Message `id` reached node m.dest at cycle m.delivered (its tail is in the receive FIFO). The slot is
  // released after this returns unless the message fell (then the network keeps it for resend).
  virtual void on_delivery(MessageId id, const Message& m) = 0;
  // Node v's send queue on `side` gave a message to the network: it has room for one more.
  virtual void on_queue_space(NodeId v, int side) {
    static_cast<void>(v);
    static_cast<void>(side);
  }
};

// Counts a chip keeps and the diagnostic network reads.
struct ChipErrors {
  std::int64_t primary = 0;    // a corrupted message arrived on one of its inputs
  std::int64_t secondary = 0;  // a message whose CRC an earlier chip had complemented
};

class DataNetwork {
 public:
  // REQUIRES: the params passed check_data_network (machines/cm5/config.hpp) or are tests' own.
  explicit DataNetwork(const DataNetworkParams& params);

  const FatTreeShape& shape() const { return shape_; }
  const DataNetworkParams& params() const { return params_; }
  Cycle now() const { return now_; }

  // Queues a message of `words` words (1..5) from src to dest on `side` at cycle now(). With
  // queue_limit >= 0, refuses (kNoMessage) when src's queue on that side already holds that many.
  MessageId send(NodeId src, NodeId dest, int words, int tag, int side, std::uint64_t label = 0,
                 std::int64_t queue_limit = -1);
  std::int64_t queued(NodeId v, int side) const { return queues_[slot(v, side)].length; }
  void set_observer(DataNetworkObserver* observer) { observer_ = observer; }
  // While held, node v's receive FIFO on `side` is not read: it fills and messages back up.
  void hold_receive(NodeId v, int side, bool hold);

  // Runs cycles now()+1 .. t (idle stretches cost nothing).
  void run_until(Cycle t);
  // Whether anything is queued, in flight or waiting in a held receive FIFO.
  bool busy() const { return in_network_ > 0 || queued_total_ > 0; }
  std::int64_t in_network() const { return in_network_; }
  std::int64_t queued_total() const { return queued_total_; }
  // The last cycle a message started on a link or arrived (for watchdogs).
  Cycle last_progress() const { return last_progress_; }
  const Message& message(MessageId id) const { return pool_[id]; }

  // ---- reliability (data_network_faults.cpp) ----
  // Corrupts one nibble of each of the next `messages` messages sent on a chip's output port, or on a
  // node's link into `side`.
  void corrupt_link(ChipId chip, int port, int messages = 1);
  void corrupt_injection(NodeId v, int side, int messages = 1);
  const ChipErrors& chip_errors(ChipId c) const { return chip_errors_[c]; }
  const ChipErrors& ni_errors(NodeId v, int side) const { return ni_errors_[slot(v, side)]; }
  // Kirchhoff: messages in and out of each chip port, and in and out of each node's interface.
  std::int64_t port_in(ChipId c, int port) const { return inputs_[port_index(c, port)].messages_in; }
  std::int64_t port_out(ChipId c, int port) const { return outputs_[port_index(c, port)].messages_out; }
  std::int64_t ni_sent(NodeId v, int side) const { return ni_sent_[slot(v, side)]; }
  std::int64_t ni_received(NodeId v, int side) const { return ni_received_[slot(v, side)]; }
  // Router done's count (note 000 §5.14): messages the interfaces took in to send (queued or sent)
  // minus those they handed to their nodes. Zero once every message sent has arrived; below zero when
  // one was created.
  std::int64_t kirchhoff_balance() const { return queued_total_ + sent_total_ - received_total_; }
  // A fault of the last chip before node v's interface on `side`: the next message for it is lost, or
  // delivered twice (the router-done checks of note V12).
  void lose_next_delivery(NodeId v, int side) { delivery_fault_[slot(v, side)] = 1; }
  void duplicate_next_delivery(NodeId v, int side) { delivery_fault_[slot(v, side)] = 2; }
  // Chips whose counted inputs and outputs differ while the network is quiet: empty when nothing was
  // lost or created. One line per chip.
  std::vector<std::string> kirchhoff_violations() const;
  // All-fall-down: a chip in this mode routes every message down by its fixed permutation, and marks
  // it, so every later chip does too. Chips may enter in any order (paper L357-372).
  void set_all_fall_down(ChipId c, bool on);
  // Messages that fell and landed, by node; the system resends them to their true destinations.
  const std::vector<MessageId>& fallen(NodeId v) const { return fallen_[v]; }
  std::int64_t fallen_total() const;
  // The system stops every node's injection while it empties the network (note 000 §5.11): queued
  // messages stay in the send FIFOs, saved with the user's state.
  void freeze_injection(bool frozen);
  // A failed chip, routed around (paper L288-295, note A14): no message whose source or destination lies
  // in the failed chip's subtree climbs to it, and a message's way down passes the chip index it had at
  // each level on its way up, so none passes it at all. Returns false, changing nothing, when no other
  // chip can take its place (a level-1 chip is its 4 nodes' only chip on that side: map them out).
  bool route_around(ChipId failed);
  // Resends every fallen message from where it landed to its true destination (same side, words, tag
  // and label), and leaves all-fall-down mode on every chip.
  void resume_after_fall();

 private:
  // A message waiting in a chip's input buffer, with the fields of it that routing reads: a head is
  // weighed several times for each grant, and on a large machine each read of the message itself would
  // be a cache miss.
  struct Waiting {
    MessageId msg = kNoMessage;
    NodeId dest = -1;
    Cycle ready = 0;  // its head may be granted from this cycle
    std::int16_t nibbles = 0;
    std::uint8_t lca = 0;
    bool fell = false;  // set when its head is routed (wanted_output), handed to the message at its grant
  };
  // A chip input: what a sender and an allocation read, in one record: one cache line in Release builds
  // (aligned: a large vector's storage starts 16 bytes past a page, and every record would straddle two).
  //  - The oldest waiting message, the head (valid while waiting > 0); the others wait behind it in a
  //    ring of its own (behind_).
  //  - The room: the waiting messages' nibbles and the credit schedule of the last two messages that
  //    left. Messages leave one after the other, so their credits return in turn, each over its nibbles
  //    up to its `end`; those before these two have all their credits back by the time the last one
  //    left, since a credit returns within the shortest message (checked at construction; older_end, the
  //    third last's end, is kept in Debug builds to check it).
  struct alignas(64) Input {
    Waiting head;
    Cycle last_end = -1, prev_end = -1;  // the cycle the last credit of each is back
    std::int64_t messages_in = 0;        // Kirchhoff's count
    std::int16_t first = 0;              // the ring entry of the message after the head
    std::int16_t waiting = 0;            // messages not yet granted, the head included
    std::int16_t waiting_nibbles = 0;
    std::int16_t last_nibbles = 0, prev_nibbles = 0;
    std::uint8_t wire_cycles = 0;  // of the link into it: how long its credits take back
#ifndef NDEBUG
    Cycle older_end = -1;
#endif
  };
#ifdef NDEBUG
  static_assert(sizeof(Input) == 64);
#endif
  struct Output {
    Cycle busy_until = 0;
    std::int64_t messages_out = 0;            // Kirchhoff's count
    std::uint16_t corrupt_next = 0;           // the next this many messages out are corrupted (a fault)
    std::int8_t last_grant = kChipPorts - 1;  // the round robin's pointer: the input it granted last
    std::uint8_t waits_for_room = 0;          // a head waits for room past this output
  };
  struct Queue {
    MessageId head = kNoMessage;
    MessageId tail = kNoMessage;
    std::int64_t length = 0;
  };
  // Injections come last in a cycle, after what its other events free (the order of a cycle's events is
  // by kind, then place).
  enum class EventKind : std::uint8_t { ChipReady, Deliver, ReceiveCredit, Inject };
  struct Event {
    EventKind kind;
    std::int32_t where;  // chip, or node * 2 + side
    MessageId msg;
  };

  static std::size_t slot(NodeId v, int side) {
    return static_cast<std::size_t>(v) * kSides + side;
  }
  static std::size_t port_index(ChipId c, int port) {
    return static_cast<std::size_t>(c) * kChipPorts + port;
  }
  int wire_cycles_up_from(int level) const;  // the link from a level-`level` chip (or node) up
  void schedule(Cycle t, EventKind kind, std::int32_t where, MessageId msg);
  void step(Cycle t);
  void handle(const Event& e, Cycle t);
  // Tries slot s's queue at cycle `at` (no earlier than the next cycle) unless it is tried sooner.
  void wake_injection(std::size_t s, Cycle at);
  void inject(NodeId v, int side, Cycle t);
  void allocate(ChipId c, Cycle t);
  // Free nibbles in chip c's input `port` as its sender sees them at cycle t (credits in flight are not
  // yet free). REQUIRES: t >= now().
  int space_at(ChipId c, int port, Cycle t) const;
  // Within one allocation of a chip: the room downstream of each of its outputs, once looked at (-1: not
  // yet). Several heads weigh the same parent links, and only a grant changes that room.
  using RoomSeen = std::array<int, kChipPorts>;
  bool output_free(ChipId c, int port, int nibbles, Cycle t, RoomSeen& room);
  // The first cycle after t at which output `port` could take a message of `nibbles` as far as is known
  // at t, or kNever when that waits on a downstream message not yet granted (or a full receive FIFO),
  // whose grant (or credit) wakes the chip.
  static constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
  Cycle free_from(ChipId c, int port, int nibbles, Cycle t);
  // The first cycle from `at` at which chip c's input `port` has room for `nibbles`, or kNever.
  Cycle room_from(ChipId c, int port, int nibbles, Cycle at) const;
  // The output that `head`, the head of input in_port, wants, or -1 when it climbs and every parent link
  // is obstructed.
  int wanted_output(ChipId c, int in_port, Waiting& head, Cycle t, RoomSeen& room);
  void grant(ChipId c, int in_port, int out_port, Cycle t);
  // Hands message `id` to the peer of an output (or of a node's link) whose head leaves at cycle t.
  void forward(MessageId id, const PortPeer& to, int wire_cycles, Cycle t, bool corrupt);
  void mark_pending(ChipId c);
  void wake_heads(ChipId c);  // every input's head is weighed at the chip's next allocation
  void deliver(NodeId v, int side, MessageId id, Cycle t);
  void receive_credit(NodeId v, int side, Cycle t);
  static bool take_corruption(std::uint16_t& countdown);
  int afd_port(ChipId c, int in_port) const;
  // Parent ports (bit p for port kChildPorts + p) that chip c must not send message `id` up, because of a
  // failed chip routed around.
  unsigned avoided_parents(ChipId c, MessageId id) const;
  struct Avoid {
    std::uint8_t parent = 0;  // the parent port index p
    NodeId first = 0;         // messages from or to leaves [first, last) take another
    NodeId last = 0;
  };
  std::vector<std::vector<Avoid>> avoid_;  // by (side, level, chip index in its node); empty: none

  DataNetworkParams params_;
  FatTreeShape shape_;
  Cycle now_ = 0;
  core::SlotPool<Message> pool_;
  DataNetworkObserver* observer_ = nullptr;

  int ring_ = 0;                 // entries of each input's ring: the most messages behind its head
  std::vector<Input> inputs_;    // chips * kChipPorts
  std::vector<Waiting> behind_;  // chips * kChipPorts * ring_
  std::vector<Output> outputs_;  // chips * kChipPorts
  // chips * kChildPorts: the input's oldest waiting head climbs and found every parent link obstructed; no
  // parent can take it before this cycle unless a grant downstream frees room (which clears it). A chip
  // woken for another input passes it by: most heads weighed on a busy machine were such heads.
  std::vector<Cycle> asleep_until_;
  // Per chip, its level and side: the level is read at every allocation, the side at every delivery
  // and injection wake-up, and the shape's record of a chip (16 bytes) would be a cache miss on a large
  // machine where these 2 bytes a chip stay in cache.
  struct LevelSide {
    std::uint8_t level;
    std::uint8_t side;
  };
  std::vector<LevelSide> level_side_;
  std::vector<std::uint64_t> route_key_;  // per chip: the key of its up-link draws
  std::vector<std::uint8_t> afd_mode_;
  std::vector<ChipId> pending_;  // chips with a head that may be granted
  std::vector<ChipId> still_pending_;
  std::vector<std::uint8_t> is_pending_;

  std::vector<Queue> queues_;                // nodes * kSides: the send FIFOs
  std::vector<Cycle> injection_busy_until_;  // nodes * kSides
  // nodes * kSides: the cycle of the slot's pending Inject event (kNever: none). A queue's head is tried
  // only at such events, so queued nodes cost nothing while they wait.
  std::vector<Cycle> inject_at_;
  std::vector<int> receive_used_;  // nodes * kSides: receive FIFO entries reserved or full
  std::vector<std::uint8_t> receive_held_;
  std::vector<std::vector<MessageId>> received_waiting_;  // held receive FIFOs, in arrival order

  std::vector<std::vector<Event>> wheel_;  // events by cycle % wheel size
  std::int64_t events_pending_ = 0;
  std::int64_t in_network_ = 0;  // started and not yet read out of a receive FIFO
  std::int64_t queued_total_ = 0;

  std::vector<std::uint16_t> corrupt_inject_;  // nodes * kSides
  std::vector<ChipErrors> chip_errors_;
  std::vector<ChipErrors> ni_errors_;
  std::vector<std::int64_t> ni_sent_, ni_received_;
  std::int64_t sent_total_ = 0, received_total_ = 0;
  std::vector<std::uint8_t> delivery_fault_;  // nodes * kSides: 1 lose, 2 duplicate the next delivery
  std::vector<std::vector<MessageId>> fallen_;
  bool injection_frozen_ = false;
  Cycle last_progress_ = 0;
};

}  // namespace mppnet::machines::cm5
