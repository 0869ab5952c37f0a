// net/packet.hpp: flits, packets and the preallocated packet pool.
//
// A flit is 16 bytes copied by value through fixed rings (packet, destination, packet length, routers
// passed, VC, head/tail); everything else about a packet lives once in its pool slot. The pool grows by doubling only when more packets
// are alive than ever before, so the steady state allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

namespace mppnet::net {

using PacketId = std::uint32_t;
constexpr PacketId kNoPacket = 0xffffffffu;

// What a router needs to route and switch a flit travels with it (destination, packet length, routers
// passed), so the hot path never reads the packet pool, which is cold in cache on large networks.
struct Flit {
  PacketId packet = kNoPacket;
  NodeId dest = -1;
  std::uint16_t flits = 0;  // length of its packet
  std::uint16_t hops = 0;   // routers passed so far (kept up to date on the head)
  std::uint8_t vc = 0;
  bool head = false;
  bool tail = false;
};
static_assert(sizeof(Flit) == 16);

struct Packet {
  NodeId src = -1;
  NodeId dest = -1;
  std::int32_t flits = 0;
  std::int32_t hops = 0;      // routers passed
  Cycle created = 0;          // entered the source queue
  Cycle injected = -1;        // head left the source
  Cycle delivered = -1;       // tail reached the destination
  std::uint64_t tag = 0;      // the caller's own label (measurement window, message id, ...)
  PacketId next = kNoPacket;  // source-queue or free-list link
};

class PacketPool {
 public:
  PacketId allocate() {
    if (free_head_ == kNoPacket) grow();
    PacketId id = free_head_;
    free_head_ = slots_[id].next;
    slots_[id] = Packet{};
    ++live_;
    return id;
  }
  void release(PacketId id) {
    MPPNET_ASSERT(id < slots_.size(), "release of a packet id the pool never gave out");
    slots_[id].next = free_head_;
    free_head_ = id;
    --live_;
  }
  Packet& operator[](PacketId id) { return slots_[id]; }
  const Packet& operator[](PacketId id) const { return slots_[id]; }
  std::size_t live() const { return live_; }
  std::size_t capacity() const { return slots_.size(); }

 private:
  void grow() {
    std::size_t old = slots_.size();
    std::size_t grown = old == 0 ? 1024 : old * 2;
    slots_.resize(grown);
    for (std::size_t i = grown; i-- > old;) {
      slots_[i].next = free_head_;
      free_head_ = static_cast<PacketId>(i);
    }
  }
  std::vector<Packet> slots_;
  PacketId free_head_ = kNoPacket;
  std::size_t live_ = 0;
};

}  // namespace mppnet::net
