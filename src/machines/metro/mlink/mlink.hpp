// machines/metro/mlink/mlink.hpp: MLINK, the MBTA's network interface, on every node of an MRP network
// (DeHon 1993, Ch. 11, L2999-3067; note 004c §3.3-3.5).
//
// What MLINK does in hardware (§11.1), and how it is modelled:
//  - it sends an operation the processor launched: the ROUTE word, the frame of mlink_frame.hpp, TURN,
//    then reads the routers' (STATUS · CHECKSUM)^N and MLINK's reply (§4.7.2, L1475-1485);
//  - it retries a failed connection without the processor, up to a trial limit the processor sets
//    (`max_trials`, 0: no limit); the node's two network inputs are chosen at random for each trial;
//  - a node sends one connection at a time: "only one network input may be feeding data into the
//    network at a time" (§10.2, L2985), so the processor source-queues the others (§11.1, L3009). The
//    queue has two classes, and the next trial always takes the head of the higher class that has one:
//    a request that a full queue refused (NACK) then never stands in front of the node's replies;
//  - its network outputs handle READ, WRITE, RESET and NOOP without the processor: a WRITE streams
//    into memory a double-word at a time once its header check matched (§4.7.4); a READ answers with
//    DATA-IDLE until `read_access_cycles` after the TURN (the wait for the interface's bus slot and
//    MLINK's pipeline, L3063), then 8·len data bytes at the link's rate (one double-word per 80 ns slot
//    is one byte per 10 ns cycle, §10.2) and their check; an ROP is handed to the processor's incoming
//    queue (MlinkHost::rop), and a full queue answers NACK, so the source tries again;
//  - the answer comes in the cycle the TURN is read (turnaround 0, note 004b §6 item 16).
// Which operation a connection carries is simulation metadata only through Word::index of the opcode
// word (the source's node number, at most 256 nodes on byte-wide routers without SWALLOW): the bits on
// the wire are the frame's, and the destination learns the source's operation from it, as a packet's tag
// travels with a packet in net/.
//
// State is flat arrays per node, input and output, sized at construction; a cycle allocates nothing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/rng.hpp"
#include "machines/metro/mlink/mlink_frame.hpp"
#include "machines/metro/mrp/mrp_network.hpp"

namespace mppnet::machines::metro::mlink {

struct MlinkParams {
  int max_trials = 0;          // connection trials before an operation is reported failed; 0 = no limit
  int read_access_cycles = 8;  // a READ's TURN read -> its first data byte on the link (one 80 ns bus slot)
  int queue_capacity = 8;      // operations a node's source queue holds per class
};

// Every reason `p` cannot run on a network of `format` with `nodes` nodes (keys metro.mlink.*).
std::vector<core::Problem> check(const MlinkParams& p, const mrp::WordFormat& format, int nodes);

// An operation a processor launches.
struct Operation {
  Op op = Op::Noop;
  NodeId dest = 0;
  int len = 0;              // double-words (READ, WRITE, ROP)
  std::uint32_t addr = 0;   // at the destination (READ, WRITE), the function's address (ROP)
  std::uint32_t local = 0;  // READ: where the data go in the source's memory
  std::uint64_t tag = 0;    // the launcher's label, handed back with the result and to the ROP's queue
  int priority = 0;         // 0 or 1: the source queue's class, 1 first
};

struct OperationResult {
  Status status = Status::Ok;  // the destination's last answer (Ok when delivered)
  bool delivered = false;      // false: max_trials failed trials
  int trials = 0;
  std::int64_t launched = 0, done = 0;  // cycles: queued, and the closing DROP read
};

// What MLINK reaches of its node: memory, the processor's incoming queue, and the processor itself.
class MlinkHost {
 public:
  virtual ~MlinkHost() = default;
  // Node v's memory, `bytes` long (READ and WRITE move raw bytes, no coherence: §11.3).
  virtual std::span<std::uint8_t> memory(NodeId v) = 0;
  // An ROP from `src` reached v with its address and data in `cycle`: false when v's incoming queue is
  // full (nothing is queued; MLINK answers NACK).
  virtual bool rop(NodeId v, NodeId src, std::uint32_t addr, std::span<const std::uint8_t> data,
                   std::uint64_t tag, std::int64_t cycle) = 0;
  // A RESET reached v: MLINK releases its processor to boot (§11.3).
  virtual void reset(NodeId v, std::int64_t cycle) {
    static_cast<void>(v);
    static_cast<void>(cycle);
  }
  // v's operation `tag` finished (a READ's data are already in v's memory).
  virtual void done(NodeId v, std::uint64_t tag, const OperationResult& r) = 0;
};

struct MlinkStats {
  std::int64_t launched = 0, delivered = 0, failed = 0, trials = 0;
  std::int64_t blocked = 0, back_dropped = 0, nacked = 0, protocol = 0;
  std::int64_t bytes_written = 0, bytes_read = 0, rops = 0, resets = 0;
};

class Mlink {
 public:
  // `radix` is the network's r (the ROUTE word). Node x draws its inputs from (seed, x, kInputChoice).
  // REQUIRES: check(p, net.format(), net.nodes()) is empty; net and host outlive it.
  Mlink(mrp::MrpNetwork& net, int radix, const MlinkParams& p, MlinkHost& host, std::uint64_t seed);

  // Queues `op` on node x (WRITE and ROP: `data` holds its 8·len bytes) in the current cycle. Throws
  // FrameError for an operation MLINK cannot send (mlink_frame.hpp check()); false when x's queue of
  // that class is full.
  bool launch(NodeId x, const Operation& op, std::span<const std::uint8_t> data = {});
  // Operations x's queue of class `priority` can still take.
  int room(NodeId x, int priority) const;
  // Reads what arrived this cycle and drives this cycle's words. Call before MrpNetwork::step().
  void tick();
  // Nothing queued, in flight or being answered.
  bool idle() const { return busy_ == 0 && answering_ == 0; }
  const MlinkStats& stats() const { return stats_; }
  // One line per node with an operation in flight or queued, for watchdogs.
  std::string describe_busy() const;

  static constexpr std::uint32_t kInputChoice = 102;  // the random stream of a node's input choice

 private:
  enum class Send : std::uint8_t { Idle, Frame, Await };
  enum class Answer : std::uint8_t { Idle, Receive, Reply };

  struct Queued {
    Operation op;
    std::int64_t launched = 0;
    int trials = 0;
  };
  // A node's source side: its queues and the connection it drives.
  struct Source {
    int head[2] = {0, 0}, count[2] = {0, 0};
    Send state = Send::Idle;
    int input = 0, position = 0, frame_bytes = 0;
    int pairs = 0, reply_count = 0, blocked = 0;
    bool expect_checksum = false, current = false;
    Queued cur;
    std::int64_t free_from[2] = {0, 0}, turn = 0;
    std::uint8_t reply[kStatusBytes + 1] = {0, 0, 0};
  };
  // A network output's destination side.
  struct Output {
    Answer state = Answer::Idle;
    NodeId source = 0;
    FrameReader reader{0};
    Status status = Status::Ok;
    std::int64_t turn = 0;
    int position = 0, idle_words = 0;
    Check check;
  };

  void start_trial(NodeId x);
  void tick_source(NodeId x);
  void read_return(NodeId x, mrp::Word w);
  void finish_trial(NodeId x, bool delivered, Status status, bool abort);
  void tick_output(NodeId y, int o);
  void answer(NodeId y, int o);
  void reply_word(NodeId y, int o);
  Queued& slot(NodeId x, int cls, int k) {
    return queue_[(static_cast<std::size_t>(x) * 2 + cls) * p_.queue_capacity + k];
  }
  // Node x's current operation's data; a READ's reply check lands after its data.
  static constexpr int kReadSlot = kMaxDataBytes + kCheckBytes;
  std::uint8_t* cur_data(NodeId x) { return &cur_data_[static_cast<std::size_t>(x) * kReadSlot]; }
  std::uint8_t* data_of(NodeId x, int cls, int k) {
    return &queue_data_[((static_cast<std::size_t>(x) * 2 + cls) * p_.queue_capacity + k) * kMaxDataBytes];
  }

  mrp::MrpNetwork& net_;
  mrp::WordFormat format_;
  MlinkParams p_;
  MlinkHost& host_;
  int radix_, nodes_, ni_, no_, stages_;
  std::int64_t timeout_;
  std::int64_t busy_ = 0;       // operations queued or in flight
  std::int64_t answering_ = 0;  // outputs receiving or replying
  MlinkStats stats_;

  std::vector<core::RandomStream> rng_;
  std::vector<Source> src_;
  std::vector<Queued> queue_;             // node x, class c: a ring of queue_capacity from (2x + c)·cap
  std::vector<std::uint8_t> queue_data_;  // each queued operation's data, kMaxDataBytes a slot
  std::vector<std::uint8_t> frame_;       // node x's frame being sent, from x·kMaxFrameBytes
  std::vector<std::uint8_t> cur_data_;    // node x's current operation's data (READ: as they arrive)
  std::vector<Output> out_;               // y·no + o
  std::vector<std::uint8_t> rop_buffer_;  // per output: an ROP's data until its TURN, kMaxDataBytes each
};

}  // namespace mppnet::machines::metro::mlink
