// topo/source_route.hpp: source routes of up to kMaxRouteBytes route bytes, one byte consumed per router,
// and a routing policy that steers a packet by them on any topology.
//
// The 64-bit routing word (PacketHead::header) holds at most 8 bytes of route, and a 4,096-PE Meiko CS-2
// needs 11 (2k-1 switches for k = 6 stages; Meiko, "CS-2 Communications Network Overview", 1993, §2 and
// §3; reference note 003 §4.3). A SourceRoute holds the bytes in a side array of the packet pool (one
// fixed-size record per packet slot, no heap object per packet); the routing word is then only the
// cursor: the index of the next byte to consume, 0 when the packet enters.
//
// A route byte names one output port or a contiguous range of output ports (the Elite switch's route
// byte, note 003 §6 #7, a choice of that note since the document gives no bit layout):
//   bit 7 = 0: one output, in bits 2..0 (bits 6..3 must be 0);
//   bit 7 = 1: outputs lo..hi, lo in bits 5..3, hi in bits 2..0, lo <= hi (bit 6 must be 0).
// The output number is the router's port number in the topo::Graph, so only ports 0..7 can be named.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/types.hpp"
#include "topo/routing.hpp"

namespace mppnet::topo {

inline constexpr int kMaxRouteBytes = 16;
inline constexpr int kMaxRouteBytePort = 7;  // 3 bits of output number

// The route bytes of one packet, first router's byte first. 17 bytes, trivially copyable.
struct SourceRoute {
  std::array<std::uint8_t, kMaxRouteBytes> bytes{};
  std::uint8_t length = 0;

  // REQUIRES: length < kMaxRouteBytes.
  void push_back(std::uint8_t b) {
    MPPNET_ASSERT(length < kMaxRouteBytes, "a source route holds at most kMaxRouteBytes bytes");
    bytes[length++] = b;
  }
  friend bool operator==(const SourceRoute&, const SourceRoute&) = default;
};

// The outputs a route byte names: [lo, hi]; lo == hi for a single output.
struct RouteByte {
  int lo = 0;
  int hi = 0;
  bool is_range() const { return lo != hi || range_form; }
  bool range_form = false;  // written in the range form (bit 7), even when lo == hi
  friend bool operator==(const RouteByte&, const RouteByte&) = default;
};

// The byte naming output `port`. REQUIRES: 0 <= port <= kMaxRouteBytePort.
constexpr std::uint8_t single_output(int port) {
  return static_cast<std::uint8_t>(port & 7);
}
// The byte naming outputs lo..hi. REQUIRES: 0 <= lo <= hi <= kMaxRouteBytePort.
constexpr std::uint8_t output_range(int lo, int hi) {
  return static_cast<std::uint8_t>(0x80 | (lo & 7) << 3 | (hi & 7));
}

// The outputs of `b`, or nullopt for a byte that names none: a reserved bit set, or a range whose lo
// exceeds its hi.
constexpr std::optional<RouteByte> decode_route_byte(std::uint8_t b) {
  if ((b & 0x80) == 0) {
    if ((b & 0x78) != 0) return std::nullopt;
    return RouteByte{.lo = b & 7, .hi = b & 7, .range_form = false};
  }
  if ((b & 0x40) != 0) return std::nullopt;
  const int lo = (b >> 3) & 7;
  const int hi = b & 7;
  if (lo > hi) return std::nullopt;
  return RouteByte{.lo = lo, .hi = hi, .range_form = true};
}

// Why `route` cannot be injected ("" when it can): empty, or a byte that names no output, e.g.
// "route byte 3 of 12 is 0x48: bits 6..3 of a single-output byte must be 0".
std::string source_route_problem(const SourceRoute& route);

// "5.4.1.0.1" (a range as "[0-3]"), for messages and listings.
std::string format_source_route(const SourceRoute& route);

// Steers a packet by its source route on any topology: at each router the byte at the cursor names the
// output port (or ports), and the cursor moves on by one. With kMulticast a range byte sends the packet
// to every port of the range at once (a broadcast branch, docs/design.md "Multicast"); without it a range
// offers its ports as candidates of which the router takes one.
//
// The network passes the packet's SourceRoute in PacketHead::source_route (net::Network::inject with a
// SourceRoute). A route that runs out of bytes before its packet reaches a node is the injector's bug
// (the route builder knows the topology and checks it), asserted here.
template <bool kMulticast>
class ByteSteeredRouting {
 public:
  static constexpr bool kNeedsHeader = true;
  static constexpr bool kNeedsSourceRoute = true;
  static constexpr bool kMayMulticast = kMulticast;

  // `hops(src, dest)`: routers on the route the caller would give src -> dest (reports only; routing
  // reads the bytes). `vcs`: VCs per port, all usable.
  ByteSteeredRouting(int vcs, std::function<int(NodeId, NodeId)> hops) : vcs_(vcs), hops_(std::move(hops)) {}

  RouteSet route(RouterId, PortId, VcId, PacketHead& head) const noexcept {
    const SourceRoute* r = head.source_route;
    MPPNET_ASSERT(r != nullptr, "a byte-steered packet was injected without its source route");
    MPPNET_ASSERT(head.header < r->length,
                  "a source route ran out of bytes before its packet reached a node");
    const std::uint8_t b = r->bytes[head.header];
    ++head.header;
    const RouteByte out = *decode_route_byte(b);  // checked at injection
    if (!out.is_range()) return one_port(out.lo, 0, vcs_ - 1);
    RouteSet rs;
    for (int p = out.lo; p <= out.hi; ++p) rs.ports[rs.count++] = static_cast<std::int16_t>(p);
    rs.vc_hi = static_cast<std::uint8_t>(vcs_ - 1);
    rs.multicast = kMulticast;
    return rs;
  }
  int router_hops(NodeId src, NodeId dest) const { return hops_(src, dest); }
  bool uses_input_vc() const { return false; }

 private:
  int vcs_;
  std::function<int(NodeId, NodeId)> hops_;
};

}  // namespace mppnet::topo
