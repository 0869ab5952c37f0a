// am/node.hpp: what a node program sees: its number, the machine size, local memory, and operations
// that suspend it until they complete in simulated time.
//
//   am::Task<> program(am::Node& node) {
//     co_await node.request(peer, on_ping, 1, 2);   // an active message, at most kMaxArgs words
//     co_await node.wait_until([&] { return got_reply; });
//     co_await node.compute(1000);                    // processor cycles
//     co_await node.barrier();
//   }
//
// Every Task coroutine takes the Node& (its frame comes from the machine's pool). Awaiters are plain
// objects living in the suspended frame; nothing here allocates per operation. Every operation is
// [[nodiscard]]: an operation that is not co_awaited does nothing (a request is never sent).
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "am/collectives.hpp"
#include "am/message.hpp"
#include "am/task.hpp"
#include "core/types.hpp"

namespace mppnet::am {

class Machine;
class Node;

// What a DMA engine's packets do at the destination (am.dma).
enum class DmaKind : std::uint8_t { Put, Get, Store, Send };

// A message being handled: its sender, arguments and data, and the means to reply.
class Incoming {
 public:
  Node& node;
  Incoming(Node& n, const Message& m, Picoseconds start) : node(n), msg_(m), start_(start) {}
  NodeId src() const { return msg_.src; }
  Word arg(int i) const { return msg_.args[i]; }
  int nargs() const { return msg_.nargs; }
  std::span<const std::byte> data() const { return {msg_.data, msg_.bytes}; }
  bool is_reply() const { return msg_.is_reply; }
  // When the handler started running (simulated).
  Picoseconds now() const { return start_; }
  // Charges processor cycles to this handler (work beyond the cost model's per-message charges).
  void charge(std::int64_t cycles) { extra_cycles_ += cycles; }
  // Replies to the sender on the reply network. REQUIRES: a request handler, at most one reply.
  template <class... W>
  void reply(Handler h, W... words) {
    static_assert(sizeof...(W) <= kMaxArgs, "an active message carries at most kMaxArgs words");
    const Word w[] = {static_cast<Word>(words)..., 0};
    reply_words(h, w, sizeof...(W), nullptr, 0);
  }
  // A reply that carries data bytes as well (bulk get). REQUIRES: bytes <= am.packet_payload_bytes.
  void reply_data(Handler h, std::span<const Word> words, const std::byte* data, int bytes) {
    reply_words(h, words.data(), static_cast<int>(words.size()), data, bytes);
  }

  // For the machine.
  std::int64_t extra_cycles() const { return extra_cycles_; }
  MessageId reply_message() const { return reply_; }

 private:
  void reply_words(Handler h, const Word* w, int n, const std::byte* data, int bytes);
  const Message& msg_;
  Picoseconds start_;
  std::int64_t extra_cycles_ = 0;
  MessageId reply_ = kNoMessage;
};

// Per-node counters for results.
struct NodeCounters {
  std::int64_t requests_sent = 0;
  std::int64_t replies_sent = 0;
  std::int64_t packets_sent = 0;
  std::int64_t flits_sent = 0;
  std::int64_t payload_bytes_sent = 0;  // argument words and data bytes
  std::int64_t handlers_run = 0;
  std::int64_t collectives = 0;   // barriers, broadcasts, reductions and scans done
  Picoseconds collective_ps = 0;  // time in them, from each call to its result
};

class Node {
 public:
  Node(Machine& m, NodeId id, std::span<std::byte> memory) : machine_(&m), id_(id), memory_(memory) {}

  NodeId id() const { return id_; }
  int nodes() const;
  // The program's current simulated time.
  Picoseconds now() const { return time_; }
  Machine& machine() { return *machine_; }
  const Machine& machine() const { return *machine_; }

  // ---- Local memory: addresses are byte offsets into this node's memory.
  std::span<std::byte> memory() { return memory_; }
  // A bump allocation of `bytes` (aligned to 8); throws when memory is exhausted.
  std::uint32_t allocate(std::uint32_t bytes);
  template <class T>
  T load(std::uint32_t addr) const {
    T v;
    std::memcpy(&v, memory_.data() + addr, sizeof(T));
    return v;
  }
  template <class T>
  void store_local(std::uint32_t addr, const T& v) {
    std::memcpy(memory_.data() + addr, &v, sizeof(T));
  }
  // The application's per-node state (handlers reach it through in.node).
  void* user = nullptr;
  template <class T>
  T& state() {
    return *static_cast<T*>(user);
  }

  // ---- Awaitable operations.
  struct [[nodiscard]] TimedAwaiter {  // compute() and poll(): the program waits for its processor
    Node& node;
    std::int64_t cycles;
    bool poll;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h);
    void await_resume() const noexcept {}
  };
  [[nodiscard]] TimedAwaiter compute(std::int64_t cycles) { return {*this, cycles, false}; }
  // Handles every message waiting in this node's receive queues now (polling mode); costs am.poll_cycles.
  [[nodiscard]] TimedAwaiter poll() { return {*this, 0, true}; }

  // One packet: waits for room in the send queue, then for the send's cost.
  struct [[nodiscard]] SendAwaiter {
    Node& node;
    MessageId msg;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h);
    void await_resume() const noexcept {}
  };
  template <class... W>
  [[nodiscard]] SendAwaiter request(NodeId dest, Handler h, W... words) {
    static_assert(sizeof...(W) <= kMaxArgs, "an active message carries at most kMaxArgs words");
    const Word w[] = {static_cast<Word>(words)..., 0};
    return {*this, make_request(dest, h, w, sizeof...(W), nullptr, 0)};
  }
  // A one-way active message: its handler must not reply, so a node handles it without reserving room
  // for a reply, and it can never wait on the reply network (the message passing of the CM-5's
  // libraries). It travels on the endpoint's one-way network when there is one (3 virtual networks,
  // e.g. the CM-5's both sides), else with the requests.
  template <class... W>
  [[nodiscard]] SendAwaiter notify(NodeId dest, Handler h, W... words) {
    static_assert(sizeof...(W) <= kMaxArgs, "an active message carries at most kMaxArgs words");
    const Word w[] = {static_cast<Word>(words)..., 0};
    const MessageId id = make_request(dest, h, w, sizeof...(W), nullptr, 0);
    mark_one_way(id);
    return {*this, id};
  }
  // A request carrying data bytes. REQUIRES: bytes <= am.packet_payload_bytes.
  [[nodiscard]] SendAwaiter request_data(NodeId dest, Handler h, std::span<const Word> words,
                                         const std::byte* data, int bytes) {
    return {*this, make_request(dest, h, words.data(), static_cast<int>(words.size()), data, bytes)};
  }

  // Waits until pred() holds, handling arriving messages meanwhile (polling or interrupts alike).
  template <class Pred>
  struct [[nodiscard]] WaitAwaiter {
    Node& node;
    Pred pred;
    bool await_ready() { return pred(); }
    void await_suspend(std::coroutine_handle<> h) {
      node.block(
          h, [](void* p) { return static_cast<WaitAwaiter*>(p)->pred(); }, this);
    }
    void await_resume() const noexcept {}
  };
  template <class Pred>
  [[nodiscard]] WaitAwaiter<Pred> wait_until(Pred pred) {
    return {*this, std::move(pred)};
  }

  // ---- Bulk transfer (Split-C style): split into packets of am.packet_payload_bytes. With am.dma each
  // costs the program am.dma_startup_cycles and the interface's DMA engine sends the packets: put and
  // get return at once (neither range may be touched until sync()), store and send once the engine has
  // sent the last packet (docs/am.md, "DMA"); otherwise every packet costs the program a send.
  // put: writes local [local, local + bytes) to dest's memory at remote; sync() waits for its acks.
  [[nodiscard]] Task<> put(NodeId dest, std::uint32_t local, std::uint32_t remote, std::uint32_t bytes);
  // get: reads src's memory [remote, remote + bytes) into local; sync() waits for the data.
  [[nodiscard]] Task<> get(NodeId src, std::uint32_t remote, std::uint32_t local, std::uint32_t bytes);
  // store: a one-way put; the destination learns of it through store_sync().
  [[nodiscard]] Task<> store(NodeId dest, std::uint32_t local, std::uint32_t remote, std::uint32_t bytes);
  [[nodiscard]] auto sync() {
    return wait_until([this] { return outstanding_ == 0; });
  }
  // Waits until `bytes` bytes of stores have arrived here since the last store_sync, and consumes them.
  [[nodiscard]] Task<> store_sync(std::int64_t bytes);

  // ---- Blocking tagged messages (CMMD style): send returns once the data has left; receive once it is
  // in memory. src = kAnySource matches any sender.
  static constexpr NodeId kAnySource = -1;
  [[nodiscard]] Task<> send(NodeId dest, std::uint32_t tag, std::uint32_t local, std::uint32_t bytes);
  [[nodiscard]] Task<> receive(NodeId src, std::uint32_t tag, std::uint32_t local, std::uint32_t bytes);

  // ---- Collectives (machine.collectives(): software tree by default).
  [[nodiscard]] Task<> barrier();
  [[nodiscard]] Task<std::uint64_t> reduce(std::uint64_t value, ReduceOp op);  // every node gets the result
  // REQUIRES: 0 <= root < nodes(); otherwise throws std::out_of_range.
  [[nodiscard]] Task<std::uint64_t> broadcast(std::uint64_t value, NodeId root);
  // Copies root's memory [addr, addr + bytes) into the same range of every node: one collective, which
  // collective hardware may do in messages wider than a word. REQUIRES: a valid root and range (otherwise
  // throws std::out_of_range).
  [[nodiscard]] Task<> broadcast_block(NodeId root, std::uint32_t addr, std::uint32_t bytes);
  [[nodiscard]] Task<std::uint64_t> scan(std::uint64_t value, ReduceOp op, bool inclusive);

  const NodeCounters& counters() const { return counters_; }

 private:
  friend class Machine;
  friend class Incoming;
  friend class TreeCollectives;
  friend struct BulkHandlers;
  friend struct TreeHandlers;

  enum class State : std::uint8_t { Timed, Blocked, Running, Done };

  [[nodiscard]] Task<Combined> collective(Collective what, std::uint64_t value, ReduceOp op, NodeId root);
  void count_collective(Picoseconds start);

  MessageId make_request(NodeId dest, Handler h, const Word* w, int n, const std::byte* data, int bytes);
  // A bulk transfer by the DMA engine: the start-up, then (store, send) waits until the engine is idle.
  [[nodiscard]] Task<> dma(DmaKind kind, NodeId peer, std::uint32_t local, std::uint32_t remote,
                           std::uint32_t bytes);
  void mark_one_way(MessageId id);
  void block(std::coroutine_handle<> h, bool (*check)(void*), void* obj);

  Machine* machine_;
  NodeId id_;
  std::span<std::byte> memory_;
  std::uint64_t heap_top_ = 0;  // 64-bit: an allocation may end at 2^32, the largest am.memory_bytes

  // Scheduling state (owned by the machine).
  State state_ = State::Timed;
  Picoseconds time_ = 0;          // the program's time when last resumed
  Picoseconds cpu_busy_ = 0;      // the processor is committed up to here
  Picoseconds handler_busy_ = 0;  // the last handler ends here
  Picoseconds stolen_ = 0;        // handler time that interrupted a timed wait, not yet added to it
  std::coroutine_handle<> waiting_;
  bool (*check_)(void*) = nullptr;  // Blocked: the condition
  void* check_obj_ = nullptr;
  MessageId blocked_send_ = kNoMessage;  // Blocked on room in the send queue for this message
  bool watched_ = false;                 // waits for send room: re-checked after a cycle
  bool room_reported_ = false;           // its interface reported room in this cycle (Machine::on_space)
  bool keeps_watch_order_ = false;       // being re-checked: a renewed watch keeps its place
  std::uint64_t watch_order_ = 0;        // while watched: when this wait began (re-checks go in this order)
  Picoseconds finish_ = 0;

  // Bulk and tagged-message state.
  std::int64_t outstanding_ = 0;   // put acks and get data still to come
  std::int64_t stored_bytes_ = 0;  // store data arrived and not yet consumed by store_sync
  std::int64_t recv_arrived_ = 0;  // data of the current receive
  struct Rts {
    NodeId src;
    std::uint32_t tag;
    std::uint32_t bytes;
  };
  std::vector<Rts> rts_;  // senders waiting for a clear-to-send
  bool cts_ = false;
  std::uint32_t cts_addr_ = 0;
  bool dma_busy_ = false;    // the DMA engine has packets of this program's transfers still to send
  bool dma_listed_ = false;  // the node is in Machine::dma_active_

  // Software collectives: values from children in the up-sweep, the prefix from the parent.
  std::uint64_t coll_up_[32] = {};
  std::uint32_t coll_up_mask_ = 0;
  std::uint64_t coll_down_ = 0;
  std::uint64_t coll_total_ = 0;
  bool coll_down_arrived_ = false;

  NodeCounters counters_;
};

}  // namespace mppnet::am
