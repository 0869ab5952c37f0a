// am/dma.cpp: the network interface's DMA engine (am.dma; docs/am.md, "DMA").
//
// A program starts a bulk transfer by paying am.dma_startup_cycles (Node::dma); from then on the engine
// sends its packets without the processor: each as soon as the node's send queue has room, at no cost,
// the data read from memory as the packet leaves. Transfers queue on the engine in the order they were
// started (a put or get returns after its start-up; store and send wait until the engine is idle). At the
// destination the interface runs the packet's bulk handler itself on arrival (it writes memory, or reads it
// for a get) and its reply, the put's ack or the get's data, is sent and handled by the interfaces as well:
// no dispatch, receive or copy cycles, no interruption of either program. A DMA request that finds no room
// for its reply waits in the receive queue like any other request and is handled, still without processor
// cycles, when the queue drains.
#include <algorithm>
#include <cstring>
#include <exception>

#include "am/machine.hpp"

namespace mppnet::am {

void Machine::start_dma(Node& n, const DmaJob& job) {
  dma_queue_[n.id()].push_back(job);  // allocates only while the queue is longer than ever before
  n.dma_busy_ = true;
  pump_dma(n);
  if (n.dma_busy_ && !n.dma_listed_) {
    n.dma_listed_ = true;
    dma_active_.push_back(n.id());
  }
}

void Machine::pump_dma(Node& n) {
  if (!n.dma_busy_) return;
  std::vector<DmaJob>& queue = dma_queue_[n.id()];
  std::size_t& head = dma_head_[n.id()];
  const int vnet = request_vnet();
  const auto chunk = static_cast<std::uint32_t>(params_.packet_payload_bytes);
  for (; head < queue.size(); ++head) {
    DmaJob& j = queue[head];
    while (j.off < j.bytes && send_room(n.id(), vnet)) {
      const std::uint32_t len = std::min(chunk, j.bytes - j.off);
      const MessageId id = messages_.allocate();
      Message& m = messages_[id];
      m.handler = j.handler;
      m.src = n.id();
      m.dest = j.peer;
      m.dma = true;
      m.args[0] = j.remote + j.off;
      if (j.get) {  // get_request: remote address, bytes, local address
        m.nargs = 3;
        m.args[1] = len;
        m.args[2] = j.local + j.off;
      } else {  // put_data, store_data, send_data: remote address, and the data
        m.nargs = 1;
        m.bytes = static_cast<std::uint16_t>(len);
        std::memcpy(m.data, n.memory_.data() + j.local + j.off, len);
      }
      j.off += len;
      ++pending_inject_[static_cast<std::size_t>(n.id()) * vnets_ + vnet];
      schedule(now(), {n.id(), id, EventKind::Inject});
    }
    if (j.off < j.bytes) return;  // no room: the rest after a network cycle
  }
  queue.clear();  // keeps its capacity
  head = 0;
  n.dma_busy_ = false;
  wake_if_ready(n);
}

// After every network cycle: the engines still waiting for room (the queue may have moved).
void Machine::pump_dmas() {
  for (const NodeId v : dma_active_) pump_dma(*nodes_[v]);
  std::erase_if(dma_active_, [this](NodeId v) {
    Node& n = *nodes_[v];
    n.dma_listed_ = n.dma_busy_;
    return !n.dma_busy_;
  });
}

void Machine::run_dma_handler(MessageId msg, Picoseconds t) {
  const Message m = messages_[msg];  // a copy: the reply may grow the pool and move the slot
  messages_.release(msg);
  Node& n = *nodes_[m.dest];
  Incoming in(n, m, t);
  call_handler(m, in);
  const MessageId reply = in.reply_message();
  if (reply != kNoMessage) {
    messages_[reply].dma = true;
    inject_reply(n, reply, t);
  }
}

}  // namespace mppnet::am
