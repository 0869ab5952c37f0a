// am/message.hpp: active messages in flight, kept in a preallocated pool keyed by the packet's tag.
//
// The network carries only lengths (net::Packet has no payload); what a packet says lives here, from the
// moment a program or handler builds it until its handler has run at the destination. The pool grows by
// doubling only when more messages are alive than ever before, so the steady state allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/slot_pool.hpp"
#include "core/types.hpp"

namespace mppnet::am {

using Word = std::uint32_t;
constexpr int kMaxArgs = 4;            // argument words of an active message (CMAML's am_request_4)
constexpr int kMaxPacketPayload = 64;  // data bytes a packet can carry (am.packet_payload_bytes <= this)
using MessageId = std::uint32_t;
constexpr MessageId kNoMessage = 0xffffffffu;

class Incoming;
// A handler runs to completion on arrival at the destination node; it may reply once (if the message
// is a request) but never waits.
using Handler = void (*)(Incoming&);

struct Message {
  Handler handler = nullptr;
  NodeId src = 0;
  NodeId dest = 0;
  std::uint8_t nargs = 0;
  bool is_reply = false;
  bool one_way = false;     // its handler never replies (Node::notify): handled without reserving reply room
  bool dma = false;         // sent and handled by the interfaces' DMA engines, without the processors
  std::uint16_t bytes = 0;  // data bytes
  Word args[kMaxArgs] = {};
  MessageId next = kNoMessage;  // receive-queue or free-list link
  std::byte data[kMaxPacketPayload];
};

// Messages are reset on allocation except their payload buffer, which a sender fills as far as it needs.
class MessagePool {
 public:
  MessageId allocate() {
    const MessageId id = slots_.allocate();
    Message& m = slots_[id];
    m.nargs = 0;
    m.bytes = 0;
    m.is_reply = false;
    m.one_way = false;
    m.dma = false;
    return id;
  }
  void release(MessageId id) { slots_.release(id); }
  Message& operator[](MessageId id) { return slots_[id]; }
  const Message& operator[](MessageId id) const { return slots_[id]; }
  std::size_t live() const { return slots_.live(); }
  void reserve(std::size_t n) { slots_.reserve(n); }

 private:
  core::SlotPool<Message> slots_;
};

}  // namespace mppnet::am
