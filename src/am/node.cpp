// am/node.cpp: the node's operations, each handing its wait to the machine.
#include "am/node.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "am/machine.hpp"

namespace mppnet::am {

FramePool& frame_pool_of(Node& node) {
  return node.machine().frames();
}

int Node::nodes() const {
  return machine_->nodes();
}

std::uint32_t Node::allocate(std::uint32_t bytes) {
  const std::uint64_t at = (heap_top_ + 7) & ~std::uint64_t{7};
  if (at + bytes > memory_.size())
    throw std::runtime_error(
        fmt::format("node {}: out of local memory: {} bytes more do not fit in "
                    "am.memory_bytes = {}",
                    id_, bytes, memory_.size()));
  heap_top_ = at + bytes;
  return static_cast<std::uint32_t>(at);
}

void Node::TimedAwaiter::await_suspend(std::coroutine_handle<> h) {
  Machine& m = node.machine();
  const Picoseconds start = std::max(node.time_, node.cpu_busy_);
  if (poll) {
    node.cpu_busy_ = start + m.cycles_ps(m.params().poll_cycles);
    m.block(
        node, h, [](void*) { return true; }, nullptr);  // handles what waits, then resumes
    return;
  }
  node.waiting_ = h;
  node.cpu_busy_ = start + m.cycles_ps(cycles);
  node.state_ = State::Timed;
  m.state_changed(node);
  m.schedule(node.cpu_busy_, {node.id_, kNoMessage, Machine::EventKind::Resume});
}

void Node::SendAwaiter::await_suspend(std::coroutine_handle<> h) {
  node.waiting_ = h;
  node.machine().start_send(node, msg, node.time_);
}

void Node::block(std::coroutine_handle<> h, bool (*check)(void*), void* obj) {
  machine_->block(*this, h, check, obj);
}

MessageId Node::make_request(NodeId dest, Handler h, const Word* w, int n, const std::byte* data, int bytes) {
  if (dest < 0 || dest >= nodes())
    throw std::out_of_range(
        fmt::format("node {}: request to node {} of a {}-node machine", id_, dest, nodes()));
  if (bytes > machine_->params().packet_payload_bytes)
    throw std::length_error(fmt::format("node {}: {} data bytes exceed am.packet_payload_bytes = {}", id_,
                                        bytes, machine_->params().packet_payload_bytes));
  MessagePool& pool = machine_->messages();
  const MessageId id = pool.allocate();
  Message& m = pool[id];
  m.handler = h;
  m.src = id_;
  m.dest = dest;
  m.nargs = static_cast<std::uint8_t>(n);
  std::copy(w, w + n, m.args);
  m.bytes = static_cast<std::uint16_t>(bytes);
  if (bytes > 0) std::memcpy(m.data, data, static_cast<std::size_t>(bytes));
  return id;
}

void Node::mark_one_way(MessageId id) {
  machine_->messages()[id].one_way = true;
}

void Incoming::reply_words(Handler h, const Word* w, int n, const std::byte* data, int bytes) {
  MPPNET_ASSERT(!msg_.is_reply, "a reply handler cannot send: the reply network must always drain");
  if (msg_.one_way)
    throw std::logic_error(
        fmt::format("node {}: the handler of a one-way message (notify) replied", node.id()));
  MPPNET_ASSERT(reply_ == kNoMessage, "a request handler replies at most once");
  Machine& machine = node.machine();
  MPPNET_ASSERT(bytes <= machine.params().packet_payload_bytes, "reply data larger than a packet");
  MessagePool& pool = machine.messages();
  reply_ = pool.allocate();
  Message& m = pool[reply_];
  m.handler = h;
  m.src = node.id();
  m.dest = msg_.src;
  m.is_reply = true;
  m.nargs = static_cast<std::uint8_t>(n);
  std::copy(w, w + n, m.args);
  m.bytes = static_cast<std::uint16_t>(bytes);
  if (bytes > 0) std::memcpy(m.data, data, static_cast<std::size_t>(bytes));
}

// Each collective's time, from the call to its result, is counted per node (NodeCounters).
void Node::count_collective(Picoseconds start) {
  ++counters_.collectives;
  counters_.collective_ps += now() - start;
}

Task<Combined> Node::collective(Collective what, std::uint64_t value, ReduceOp op, NodeId root) {
  const Picoseconds start = now();
  const Combined c = co_await machine_->collectives().run(*this, what, value, op, root);
  count_collective(start);
  co_return c;
}

Task<> Node::barrier() {
  co_await collective(Collective::Barrier, 0, ReduceOp::Or, 0);
}

Task<std::uint64_t> Node::reduce(std::uint64_t value, ReduceOp op) {
  const Combined c = co_await collective(Collective::Reduce, value, op, 0);
  co_return c.total;
}

// Only the root contributes; every other node gives the identity of Or.
Task<std::uint64_t> Node::broadcast(std::uint64_t value, NodeId root) {
  if (root < 0 || root >= nodes())
    throw std::out_of_range(fmt::format("node {}: broadcast from root {}, not a node of this {}-node machine",
                                        id_, root, nodes()));
  const Combined c = co_await collective(Collective::Broadcast, id_ == root ? value : 0, ReduceOp::Or, root);
  co_return c.total;
}

Task<> Node::broadcast_block(NodeId root, std::uint32_t addr, std::uint32_t bytes) {
  if (root < 0 || root >= nodes())
    throw std::out_of_range(fmt::format(
        "node {}: block broadcast from root {}, not a node of this {}-node machine", id_, root, nodes()));
  if (static_cast<std::uint64_t>(addr) + bytes > memory_.size())
    throw std::out_of_range(fmt::format("node {}: block broadcast of [{}, {}) outside the memory of {} bytes",
                                        id_, addr, static_cast<std::uint64_t>(addr) + bytes, memory_.size()));
  const Picoseconds start = now();
  co_await machine_->collectives().broadcast_block(*this, root, memory_.subspan(addr, bytes));
  count_collective(start);
}

Task<std::uint64_t> Node::scan(std::uint64_t value, ReduceOp op, bool inclusive) {
  const Combined c = co_await collective(Collective::Scan, value, op, 0);
  co_return inclusive ? apply(op, c.exclusive, value) : c.exclusive;
}

}  // namespace mppnet::am
