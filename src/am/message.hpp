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
  std::uint16_t bytes = 0;  // data bytes
  Word args[kMaxArgs] = {};
  MessageId next = kNoMessage;  // receive-queue or free-list link
  std::byte data[kMaxPacketPayload];
};

class MessagePool {
 public:
  MessageId allocate() {
    if (free_ == kNoMessage) grow();
    const MessageId id = free_;
    free_ = slots_[id].next;
    Message& m = slots_[id];
    m.next = kNoMessage;
    m.nargs = 0;
    m.bytes = 0;
    m.is_reply = false;
    ++live_;
    return id;
  }
  void release(MessageId id) {
    MPPNET_ASSERT(id < slots_.size(), "release of a message id the pool never gave out");
    slots_[id].next = free_;
    free_ = id;
    --live_;
  }
  Message& operator[](MessageId id) { return slots_[id]; }
  const Message& operator[](MessageId id) const { return slots_[id]; }
  std::size_t live() const { return live_; }
  void reserve(std::size_t n) {
    while (slots_.size() < n) grow();
  }

 private:
  void grow() {
    const std::size_t old = slots_.size();
    const std::size_t grown = old == 0 ? 1024 : old * 2;
    slots_.resize(grown);
    for (std::size_t i = grown; i-- > old;) {
      slots_[i].next = free_;
      free_ = static_cast<MessageId>(i);
    }
  }
  std::vector<Message> slots_;
  MessageId free_ = kNoMessage;
  std::size_t live_ = 0;
};

}  // namespace mppnet::am
