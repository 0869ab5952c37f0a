// net/packet.hpp: flits, packets and the preallocated packet pool.
//
// A flit is 8 bytes copied by value through fixed rings (packet, destination, VC, head/tail); everything
// else about a packet lives once in its pool slot. The pool grows by doubling only when more packets
// are alive than ever before, so the steady state allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/slot_pool.hpp"
#include "core/types.hpp"
#include "topo/source_route.hpp"

namespace mppnet::net {

using PacketId = std::uint32_t;
constexpr PacketId kNoPacket = 0xffffffffu;

// What a router needs to route and switch a flit travels with it, so the wormhole hot path never reads
// the packet pool, which is cold in cache on large networks. Eight bytes keep a VC's 8-flit ring in one
// cache line. The packet's length is read from the pool only by cut-through and store-and-forward.
struct Flit {
  PacketId packet = kNoPacket;
  std::uint32_t dest : 22 = 0;  // destination node (topo::kMaxNodes = 2^22)
  std::uint32_t vc : 8 = 0;
  std::uint32_t head : 1 = 0;
  std::uint32_t tail : 1 = 0;
};
static_assert(sizeof(Flit) == 8);

struct Packet {
  NodeId src = -1;
  NodeId dest = -1;
  std::int32_t flits = 0;
  std::int32_t hops = 0;      // routers passed
  Cycle created = 0;          // entered the source queue
  Cycle injected = -1;        // head left the source
  Cycle delivered = -1;       // tail reached the destination
  std::uint64_t tag = 0;      // the caller's own label (measurement window, message id, ...)
  std::int32_t vnet = 0;      // virtual network (RouterParams::vnets)
  PacketId next = kNoPacket;  // source-queue or free-list link
  // The merged ack this packet's copies share (net/ack_path.hpp), or -1: set when a multicast first
  // branches with acks enabled, and copied into every copy with the record.
  std::int32_t ack_group = -1;
  // The input that saw this packet's bad CRC (Network::mark_corrupt), or -1: a corrupted packet is
  // aborted at its destination, never delivered.
  std::int32_t corrupt_at = -1;
};

class PacketPool {
 public:
  PacketId allocate() {
    const PacketId id = slots_.allocate();
    slots_[id] = Packet{};
    if (id >= hops_.size()) {
      hops_.resize(slots_.capacity());
      if (keep_route_headers_) route_header_.resize(slots_.capacity());
      if (keep_source_routes_) source_route_.resize(slots_.capacity());
    }
    hops_[id] = 0;
    if (keep_route_headers_) route_header_[id] = 0;
    return id;
  }
  // Keep a routing header word per packet (topo::PacketHead::header), for routings that use one; others
  // pay nothing. REQUIRES: no packet allocated yet.
  void keep_route_headers() {
    MPPNET_ASSERT(live() == 0, "route headers are switched on before the first packet");
    keep_route_headers_ = true;
    route_header_.resize(hops_.size());
  }
  // Keep a SourceRoute per packet (topo/source_route.hpp), for routings that steer by route bytes; others
  // pay nothing. A fixed 17-byte record per slot, grown with the pool: no allocation per packet.
  // REQUIRES: no packet allocated yet.
  void keep_source_routes() {
    MPPNET_ASSERT(live() == 0, "source routes are switched on before the first packet");
    keep_source_routes_ = true;
    source_route_.resize(hops_.size());
  }
  void release(PacketId id) { slots_.release(id); }
  Packet& operator[](PacketId id) { return slots_[id]; }
  const Packet& operator[](PacketId id) const { return slots_[id]; }
  // Routers passed so far, apart from the packet's slot: 2 bytes a packet stay in cache where a whole
  // slot would not, and every router the head crosses adds one.
  std::uint16_t& hops(PacketId id) { return hops_[id]; }
  // The routing header word, in a side array like hops_, so routing it never reads the cold slot.
  // REQUIRES: keep_route_headers() was called.
  std::uint64_t& route_header(PacketId id) { return route_header_[id]; }
  std::uint64_t route_header(PacketId id) const { return route_header_[id]; }
  bool keeps_route_headers() const { return keep_route_headers_; }
  // The packet's route bytes. REQUIRES: keep_source_routes() was called.
  topo::SourceRoute& source_route(PacketId id) { return source_route_[id]; }
  const topo::SourceRoute& source_route(PacketId id) const { return source_route_[id]; }
  bool keeps_source_routes() const { return keep_source_routes_; }
  std::size_t live() const { return slots_.live(); }
  std::size_t capacity() const { return slots_.capacity(); }

 private:
  core::SlotPool<Packet> slots_;
  std::vector<std::uint16_t> hops_;
  std::vector<std::uint64_t> route_header_;
  bool keep_route_headers_ = false;
  std::vector<topo::SourceRoute> source_route_;
  bool keep_source_routes_ = false;
};

}  // namespace mppnet::net
