// machines/cm5/control_network.hpp: the CM-5 control network of one partition, packet slot by packet slot.
//
// What the paper says (Leiserson et al., "The Network Architecture of the Connection Machine CM-5", 1992,
// L466-645; note 000 §2.4, §5.12-5.16) and how this model does it:
//  - a binary tree with the partition's nodes at its leaves, in data-network address order; every link
//    carries one 65-bit packet per slot (13 cycles of 40 MHz on 5 wires, note A15);
//  - single-source packets (broadcasts) climb to the root unbuffered, with priority over everything, and
//    are replicated on the way down; two of them meeting in one slot at one node is an error;
//  - multiple-source packets (reductions, scans, router done, the synchronous OR) wait at each node for
//    their sibling's packet, are combined, climb, turn at the root and come down combined again with
//    what each node set aside. Later packets queue behind waiting ones, in one order per class, which is
//    what lets combines be pipelined; queues are finite and a full one stops its child (flow control);
//  - a node that abstains from a class counts as the identity (note §5.12), a mapped-out leaf abstains
//    from everything for good (L628-633).
// Time: a node handles a packet `level_delay_cycles` after the level below it did, in the same slot of its
// own (the slots of the levels are skewed by that delay). So a packet that waits nowhere keeps its slot
// number from the leaf to the root and back, and the slot s it leaves its NI in fixes when it arrives:
// s * slot_cycles + 2 * height * level_delay_cycles. The model steps slots, and within a slot the levels
// bottom up; nothing conflicts on the way down (each link gets at most one packet a slot from its single
// parent), so a packet's way down is computed when it turns at the root.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "core/slot_pool.hpp"
#include "core/types.hpp"
#include "machines/cm5/control_combine.hpp"

namespace mppnet::machines::cm5 {

struct ControlNetworkParams {
  int leaves = 32;              // the partition's processing nodes
  int slot_cycles = 13;         // 65-bit packets on 5 wires (note A15)
  int level_delay_cycles = 13;  // per binary-tree level (note A16; docs/assumptions.md)
  int queue_packets = 4;        // each node input, per class, before flow control stops the child
  int ni_fifo_packets = 16;     // each NI outgoing FIFO, per class
  int broadcast_window = 0;     // packets a broadcaster may have in flight; 0: 2 * height (note A23)
};

// The classes of multiple-source packets, each with its own NI FIFOs and abstain setting (note A20).
enum class OpClass : std::uint8_t { Combine, RouterDone, SyncOr };
constexpr int kOpClasses = 3;
enum class BroadcastKind : std::uint8_t { User, Supervisor, Interrupt, Utility };
constexpr int kBroadcastKinds = 4;
int max_broadcast_words(BroadcastKind kind);
const char* broadcast_kind_name(BroadcastKind kind);

struct CombinePush {
  CombineKind kind = CombineKind::Reduce;
  Combiner op = Combiner::AddSigned;
  std::array<std::uint32_t, kMaxCombineWords> words{};  // most significant first
  int count = 1;
  bool segment_start = false;
};

struct ControlResult {
  std::array<std::uint32_t, kMaxCombineWords> words{};  // most significant first
  int count = 0;
  bool overflow = false;
  Cycle time = 0;  // when it reached the NI
};

struct BroadcastMessage {
  BroadcastKind kind = BroadcastKind::User;
  int source = 0;
  std::array<std::uint32_t, 8> words{};
  int count = 0;
  Cycle time = 0;
};

// Errors the network detects, OR-combined and sent to every NI (L561-568, note A28).
struct ControlErrors {
  std::int64_t combine_mismatch = 0;                  // two children's packets of different operations (V7)
  std::int64_t broadcast_collision = 0;               // two broadcasts in one node in one slot (V8)
  std::int64_t messages_created = 0;                  // router done saw more received than sent (V12)
  Cycle visible = std::numeric_limits<Cycle>::max();  // when the first reached every NI
};

class ControlObserver {
 public:
  virtual ~ControlObserver() = default;
  // Something reaches leaf `leaf` (-1: every leaf) at `time`, which may lie ahead of the slot being
  // stepped (a packet's way down is known when it turns). For waking whoever waits for it.
  virtual void on_delivery(int leaf, Cycle time) = 0;
};

class ControlNetwork {
 public:
  // REQUIRES: leaves >= 2, slot_cycles >= 1, level_delay_cycles >= 0, queue_packets >= 1,
  // ni_fifo_packets >= kMaxCombineWords (a widest operand fits); otherwise throws std::invalid_argument.
  explicit ControlNetwork(const ControlNetworkParams& params);

  int leaves() const { return leaves_; }
  int height() const { return height_; }
  const ControlNetworkParams& params() const { return params_; }
  // From the slot a packet leaves its NI to its arrival at every NI, when it waits nowhere.
  Cycle latency_cycles() const { return 2 * static_cast<Cycle>(height_) * params_.level_delay_cycles; }
  void set_observer(ControlObserver* observer) { observer_ = observer; }

  // ---- Configuration (between operations).
  void set_abstain(int leaf, OpClass k, bool on);
  bool abstains(int leaf, OpClass k) const;
  // The leaf abstains from every class and receives no broadcast, for good (V31).
  void map_out(int leaf);
  bool mapped_out(int leaf) const { return mapped_out_[leaf]; }

  // ---- NI outgoing FIFOs. Each returns false when the FIFO lacks room (software retries), and throws
  // std::invalid_argument for a call the partition cannot do (an abstaining or mapped-out leaf, a
  // broadcast longer than its kind allows, an operand of 0 or more than kMaxCombineWords words).
  bool push_combine(int leaf, const CombinePush& push);
  bool push_sync_or(int leaf, bool bit);
  // The promise that this leaf sends no more data-network messages in this phase (note §5.14).
  bool push_router_done(int leaf);
  bool push_broadcast(int leaf, BroadcastKind kind, std::span<const std::uint32_t> words);

  // ---- NI incoming FIFOs: the oldest result that has arrived by `now`, if any.
  std::optional<ControlResult> pop(int leaf, OpClass k, Cycle now);
  std::optional<BroadcastMessage> pop_broadcast(int leaf, Cycle now);
  // Whether pop / pop_broadcast would return something (a program's wait condition).
  bool has_result(int leaf, OpClass k, Cycle now) const;
  bool has_broadcast(int leaf, Cycle now) const;
  // The broadcast `ahead` places after the next one leaf `leaf` would pop, if it has been sent (its time
  // is the end of time until its last word is); nullptr otherwise.
  const BroadcastMessage* broadcast_ahead(int leaf, int ahead) const;

  // ---- The two asynchronous ORs (0 user, 1 privileged): inputs change at any time, and the OR of all
  // inputs reaches every NI 2 * height levels after the next slot, without waiting for anyone (V32).
  void set_async_or(int leaf, int copy, bool bit, Cycle now);
  bool async_or(int copy, Cycle now) const;
  // When the output of `copy` last went from 0 to 1 at or before `now` (-1: never).
  Cycle async_or_raised(int copy, Cycle now) const;
  // An interface may take an interrupt on the output's 0 -> 1 (L548): enabled from `now` on, and the
  // interrupts it has taken by `now`.
  void enable_async_or_interrupt(int leaf, int copy, bool on, Cycle now);
  int async_or_interrupts(int leaf, int copy, Cycle now) const;

  // ---- Router done (note §5.14): the partition's messages entered minus removed, which the network
  // watches once every leaf has pushed router done. `check_created` is for every data-network arrival:
  // fewer sent than received means a message was created.
  void set_in_flight(std::function<std::int64_t()> in_flight) { in_flight_ = std::move(in_flight); }
  void check_created(Cycle now);

  // ---- Context switch (L622-627): flush aborts every operation not yet delivered; NIs keep what was
  // pushed until its result arrives, and resume pushes it again. Pushes between the two are refused.
  void flush(Cycle now);
  void resume();

  const ControlErrors& errors() const { return errors_; }
  bool error_visible(Cycle now) const { return now >= errors_.visible; }

  // ---- Running. step(s) runs slot s, whose packets leave their NIs at s * slot_cycles; slots must be
  // stepped in increasing order, and pushes made before step(s) may leave in slot s.
  void step(std::int64_t slot);
  bool busy() const;
  // Steps every slot up to time t that has work (for drivers without a scheduler). Pushes after it
  // leave in the first slot after t.
  void run_until(Cycle t);
  Cycle slot_time(std::int64_t slot) const { return slot * params_.slot_cycles; }
  std::int64_t next_slot() const { return next_slot_; }

 private:
  static constexpr std::uint32_t kNone = core::SlotPool<int>::kNone;
  struct Packet {
    std::uint32_t next = kNone;
    WordOp w;
    OpClass k = OpClass::Combine;
    bool segment = false;
    std::int64_t value = 0;
  };
  struct Queue {
    std::uint32_t head = kNone, tail = kNone;
    std::int32_t size = 0;
  };
  // One operation of one class at one interface, from its push until software pops its result: what
  // was pushed (kept so that resume can issue it again after a flush, L622-627), in 20 bytes, and, in
  // LeafOps::results, what came back.
  struct PushRec {
    std::array<std::uint32_t, kMaxCombineWords> words{};
    CombineKind kind = CombineKind::Reduce;
    Combiner op = Combiner::Or;
    std::uint8_t count = 1;
    bool segment_start = false;
  };
  // Per class, every leaf's operations in a ring, with counters that only grow:
  // popped <= arrived <= injected <= pushed; [injected, pushed) is the NI's outgoing FIFO. Stored by
  // ring position, then leaf: SPMD programs move all leaves through the same positions together, so a
  // slot walks each array in order instead of jumping from one leaf's ring to the next.
  struct LeafOps {
    std::uint32_t capacity = 0;          // a power of 2, the same for every leaf
    std::vector<PushRec> pushes;         // [position * leaves + leaf]
    std::vector<ControlResult> results;  // the same; time = when its last word arrived
    std::vector<std::uint32_t> popped, arrived, injected, pushed;
    std::vector<std::uint8_t> inject_word;   // next word of operation `injected` to leave
    std::vector<std::int32_t> queued_words;  // words in the outgoing FIFO
  };
  struct LeafState {
    std::vector<std::uint32_t> broadcast_out;  // words waiting, with broadcast_meta
    std::vector<std::uint8_t> broadcast_meta;  // kind << 4 | last
    int broadcast_out_head = 0;
    std::vector<Cycle> broadcast_returns;  // when each packet in flight comes back
    std::size_t broadcast_cursor = 0;      // next message of broadcasts_ to read
  };

  int depth_of(int node) const;
  void push(Queue& q, std::uint32_t id);
  std::uint32_t pop_front(Queue& q);
  bool push_op(int leaf, OpClass k, const CombinePush& push);
  void grow(LeafOps& lo);
  std::size_t at(const LeafOps& lo, int leaf, std::uint32_t i) const {
    return (i & (lo.capacity - 1)) * static_cast<std::size_t>(leaves_) + static_cast<std::size_t>(leaf);
  }
  void activate(int node);
  void send_broadcasts(std::int64_t slot);
  bool leaf_pending(int leaf, int c) const;
  Summary take_leaf(int leaf, int c, WordOp& w);
  bool process(int node, std::int64_t slot);
  bool send_up(int node, std::uint32_t id, std::int64_t slot);
  void turn_down(std::int64_t slot);
  void deliver(std::uint32_t id, Cycle time);
  void descend(int node, const Packet& p, Summary value, Cycle time);
  Summary take_saved(std::size_t c, int node, const WordOp& w);
  void arrive(int leaf, const Packet& p, Summary value, Cycle time);
  void watch_router_done(std::int64_t slot);
  void raise(std::int64_t& counter, Cycle time);
  bool child_abstains(int node, int side, int c) const {
    return node_[node].abstaining >> (2 * c + side) & 1;
  }
  void update_abstaining(int child);
  int leaf_node(int leaf) const { return first_leaf_ + leaf; }

  ControlNetworkParams params_;
  int leaves_ = 0;
  int height_ = 0;
  int first_leaf_ = 0;  // heap index of leaf 0; node 1 is the root, node n has children 2n, 2n + 1
  ControlObserver* observer_ = nullptr;

  core::SlotPool<Packet> packets_;
  // Per heap node: its inputs per class and child (a leaf's are unused: its interface holds its
  // operations), what it set aside per class for the way down, its residues, and a combined packet
  // waiting for its up link. One record per node: a slot's visit reads one place.
  struct TreeNode {
    std::array<std::array<Queue, 2>, kOpClasses> in;
    std::array<Queue, kOpClasses> saved;
    std::uint32_t hold = kNone;
    std::array<Residue, kOpClasses> residue_up{}, residue_down{};
    std::uint8_t rr = 0;          // round-robin over classes
    std::uint8_t active = 0;      // in its depth's list
    std::uint8_t abstaining = 0;  // bit 2 * class + side: that child's subtree takes no part
  };
  std::vector<TreeNode> node_;
  std::array<std::vector<std::int32_t>, kOpClasses> participants_;  // leaves not abstaining, per subtree
  std::vector<std::int64_t> ss_slot_;  // the slot a broadcast last passed up through the node
  std::vector<std::uint8_t> active_;   // in its depth's list
  std::vector<std::vector<std::int32_t>> active_by_depth_;  // [height] holds the leaves
  std::vector<bool> mapped_out_;
  std::vector<LeafState> leaf_;
  std::array<LeafOps, kOpClasses> leaf_ops_;
  Queue root_down_;                           // combined packets waiting for the root's down link
  std::vector<BroadcastMessage> broadcasts_;  // every broadcast, in order (each leaf reads with a cursor)
  std::vector<int> broadcasting_;             // leaves with broadcast words waiting

  // Router done.
  std::function<std::int64_t()> in_flight_;
  int router_done_waiting_ = 0;  // barriers that reached the root, not yet answered
  Packet router_done_packet_;

  // Asynchronous ORs: per copy, inputs set, and the output's changes (time, value).
  std::array<int, 2> async_inputs_{};
  std::array<std::vector<std::uint8_t>, 2> async_bits_;
  std::array<std::vector<std::pair<Cycle, bool>>, 2> async_changes_;
  std::array<std::vector<Cycle>, 2> async_interrupt_from_;  // per leaf: enabled since (kNever: not)

  ControlErrors errors_;
  bool flushed_ = false;
  std::int64_t next_slot_ = 0;
  Cycle time_ = 0;
};

}  // namespace mppnet::machines::cm5
