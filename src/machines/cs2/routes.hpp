// machines/cs2/routes.hpp: the route bytes of a CS-2 layer: unicast routes (note 003 §4.3), the four
// alternatives a PE's route table holds per destination (§4.4, §6 #10), the DEST and RANDOM up-path
// policies, and the decomposition of a broadcast range into aligned boxes (§4.7).
//
// A route is one byte per switch passed (Meiko, "CS-2 Communications Network Overview", 1993, §3:
// "one byte of the route is consumed by each switch", L383-L386), in topo/source_route.hpp's encoding.
// A unicast from x to d climbs from the bottom switch to the lowest common ancestor stage j on up-ports
// 4+u_1 .. 4+u_{j-1}, then descends on the digits of d: 2j-1 bytes. Which up-ports are taken is the
// policy's choice:
//   DEST (the document's "simple routing function", L417-L423): u_s = digit(d, s-1), so every
//     destination is reached through a fixed top plane and the down half carries one destination per
//     channel (note §4.5);
//   RANDOM: u_s drawn from a hash of (seed, x, d, alternative).
// Across the halves of a back-to-back network (reading C) the climb ends at the top with one more byte,
// 4+v over the joining link v (DEST: v = digit(d, k-1)), then descends in the other half: 2k bytes.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "machines/cs2/elite_topology.hpp"
#include "topo/source_route.hpp"

namespace mppnet::machines::cs2 {

enum class Policy { Dest, Random };
// Which top plane a broadcast climbs to: always plane 0 (up-port 0 at every stage, the canonical tree
// of note 003 §2.10, on which broadcasts cannot deadlock each other), or a plane drawn per packet (the
// negative control: broadcasts rooted at different switches over the same lower switches can).
enum class BroadcastTree { Canonical, AnyPlane };
// Where a route turns back down: at the lowest common ancestor (minimal), or always at the top stage
// (the "to-top" mode in which the document states the Omega property, note §6 #8).
enum class Turn { Minimal, Top };

inline constexpr int kAlternatives = 4;  // routes per destination in a PE's table (L407-L415)

// The stage at which x and d first share a subtree (1 when they share a bottom switch, x == d included;
// note §6 #31). For the two halves of a back-to-back network: stages() + 1.
int lca_stage(const LayerShape& shape, std::int64_t x, std::int64_t d);

// Up-ports of the climb (one per up byte) for x -> d under `turn`: j-1 of them, or k for a route across
// the halves of a back-to-back network (the last is the joining link).
int up_choices(const LayerShape& shape, std::int64_t x, std::int64_t d, Turn turn);

// The route bytes x -> d with up-ports `ups` (each 0..3). REQUIRES: ups.size() == up_choices(...).
topo::SourceRoute unicast_route(const LayerShape& shape, std::int64_t x, std::int64_t d,
                                std::span<const int> ups, Turn turn);

// The up-ports DEST chooses: digit(d, s-1) for the s-th climb (and digit(d, k-1) across the halves).
std::vector<int> dest_ups(const LayerShape& shape, std::int64_t x, std::int64_t d, Turn turn);

// The route under `policy`, alternative `alt` (0..3): DEST's alternative 0 is the DEST route and
// alternatives 1..3 take the other three values of the highest up-port (note §6 #10); RANDOM draws every
// up-port from (seed, x, d, alt). Routes with no up-port (x, d on one bottom switch) are the same for
// every alternative, as the document allows ("all four routes may be identical", L412-L413).
topo::SourceRoute policy_route(const LayerShape& shape, std::int64_t x, std::int64_t d, Policy policy,
                               Turn turn, int alt, std::uint64_t seed);

// A PE's route-table entry for d: `alternatives` routes (1..4), padded to 4 by repeating (note §4.4).
std::array<topo::SourceRoute, kAlternatives> table_entry(const LayerShape& shape, std::int64_t x,
                                                         std::int64_t d, Policy policy, Turn turn,
                                                         int alternatives, std::uint64_t seed);

// The switch at which x's route to d with up-ports `ups` turns back down (the top switch across halves).
SwitchId turn_switch(const LayerShape& shape, std::int64_t x, std::span<const int> ups, int j);

// An aligned box of a broadcast range (note §4.7): the PEs whose digits above `pos` equal first's, whose
// digit `pos` is in [lo, hi], and whose digits below `pos` are free (the whole network: pos = k - 1 with
// every top digit).
struct BroadcastBox {
  std::int64_t first = 0;  // lowest PE of the box
  std::int64_t count = 0;  // PEs in it
  int pos = 0;
  int lo = 0;
  int hi = 0;
};

// At most 2k - 1 boxes for k stages, and a route of 2k - 1 bytes must fit a packet.
inline constexpr int kMaxBroadcastBoxes = topo::kMaxRouteBytes;

// The boxes of one range, held in place: a broadcast is cut into them without touching the heap.
class BroadcastBoxes {
 public:
  void push_back(const BroadcastBox& b) { boxes_[static_cast<std::size_t>(count_++)] = b; }
  std::size_t size() const { return static_cast<std::size_t>(count_); }
  const BroadcastBox& operator[](std::size_t i) const { return boxes_[i]; }
  const BroadcastBox* begin() const { return boxes_.data(); }
  const BroadcastBox* end() const { return boxes_.data() + count_; }

 private:
  std::array<BroadcastBox, kMaxBroadcastBoxes> boxes_{};
  int count_ = 0;
};

// The contiguous range [a, b] as aligned boxes, lowest first: at most 2k-1 of them (note §2.9). Boxes are
// formed on the complete network's addresses; REQUIRES: 0 <= a <= b < capacity() (reading B or even).
BroadcastBoxes decompose_range(const LayerShape& shape, std::int64_t a, std::int64_t b);

// The route bytes of one broadcast packet from src to `box` on the canonical tree (note §4.7, §2.10): climb
// on up-port 0 (to plane 0, so that broadcasts share one tree and cannot deadlock each other) to the
// lowest stage from which the whole box is reached, descend on box's fixed digits, take the range [lo, hi]
// at its digit, then every output below: 2 j - 1 bytes for turn stage j. REQUIRES: a box of
// decompose_range() on this shape.
topo::SourceRoute broadcast_route(const LayerShape& shape, std::int64_t src, const BroadcastBox& box);

// broadcast_route() with its climb on the up-ports `ups` (each 0..3, one per up byte, box-stage climbs
// of the canonical route) instead of up-port 0: the same boxes reached through another top plane.
// REQUIRES: ups.size() >= the canonical route's up bytes.
topo::SourceRoute broadcast_route_via(const LayerShape& shape, std::int64_t src, const BroadcastBox& box,
                                      std::span<const int> ups);

const char* policy_name(Policy p);
const char* turn_name(Turn t);

}  // namespace mppnet::machines::cs2
