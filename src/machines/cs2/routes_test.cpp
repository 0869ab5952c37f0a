// machines/cs2/routes_test.cpp: unicast route bytes, the table's alternatives, broadcast boxes.
#include "machines/cs2/routes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/distances.hpp"

namespace mppnet::machines::cs2 {
namespace {

topo::SourceRoute bytes(std::initializer_list<int> list) {
  topo::SourceRoute r;
  for (int b : list) r.push_back(static_cast<std::uint8_t>(b));
  return r;
}

TEST(Cs2Routes, TheNotesExamplesOnSixtyFourPes) {
  // Note §5 R2: 0 -> 17 is [5, 4, 1, 0, 1] under DEST, 16 -> 17 is [1]; a PE to itself takes 1 switch.
  const LayerShape s(64, Doubling::EightWayTop);
  EXPECT_EQ(policy_route(s, 0, 17, Policy::Dest, Turn::Minimal, 0, 0), bytes({5, 4, 1, 0, 1}));
  EXPECT_EQ(policy_route(s, 16, 17, Policy::Dest, Turn::Minimal, 0, 0), bytes({1}));
  EXPECT_EQ(policy_route(s, 9, 9, Policy::Dest, Turn::Minimal, 0, 0), bytes({1}));
  EXPECT_EQ(policy_route(s, 16, 17, Policy::Dest, Turn::Top, 0, 0), bytes({5, 4, 1, 0, 1}));
}

TEST(Cs2Routes, EveryRouteReachesItsDestinationInTheFewestSwitches) {
  // Followed on the graph, every minimal route under each policy and alternative ends at its destination
  // and passes as many switches as the breadth-first distance; to-top routes pass 2k - 1 (2k across the
  // halves back to back).
  for (const auto& [n, d] : {std::pair{64, Doubling::EightWayTop}, std::pair{32, Doubling::EightWayTop},
                             std::pair{32, Doubling::BackToBack}, std::pair{8, Doubling::BackToBack},
                             std::pair{50, Doubling::EightWayTop}}) {
    const LayerShape s(n, d);
    const topo::Graph g = build_layer(s);
    for (NodeId x = 0; x < n; ++x) {
      const std::vector<int> far = switches_from(g, x);
      for (NodeId y = 0; y < n; ++y)
        for (const Policy p : {Policy::Dest, Policy::Random})
          for (int a = 0; a < kAlternatives; ++a) {
            const topo::SourceRoute r = policy_route(s, x, y, p, Turn::Minimal, a, 7);
            ASSERT_EQ(follow_route(g, x, r, [](int) {}), y) << n << " " << x << "->" << y;
            EXPECT_EQ(r.length, far[y]);
            const topo::SourceRoute top = policy_route(s, x, y, p, Turn::Top, a, 7);
            ASSERT_EQ(follow_route(g, x, top, [](int) {}), y);
            const bool across = s.back_to_back() && s.half(x) != s.half(y);
            EXPECT_EQ(top.length, 2 * s.stages() - (across ? 0 : 1));
          }
    }
  }
}

TEST(Cs2Routes, DestAlternativesTakeTheOtherThreeHighestUpPorts) {
  const LayerShape s(64, Doubling::EightWayTop);
  const auto entry = table_entry(s, 0, 17, Policy::Dest, Turn::Minimal, 4, 0);
  EXPECT_EQ(entry[0], bytes({5, 4, 1, 0, 1}));
  EXPECT_EQ(entry[1], bytes({5, 5, 1, 0, 1}));
  EXPECT_EQ(entry[3], bytes({5, 7, 1, 0, 1}));
  const auto two = table_entry(s, 0, 17, Policy::Dest, Turn::Minimal, 2, 0);
  EXPECT_EQ(two[2], two[0]) << "padded to 4 by repeating";
  EXPECT_EQ(two[3], two[1]);
}

TEST(Cs2Routes, RandomRoutesDependOnTheSeedAloneAndSpreadOverPlanes) {
  const LayerShape s(256, Doubling::EightWayTop);
  std::set<std::string> seen;
  for (int a = 0; a < 4; ++a) {
    EXPECT_EQ(policy_route(s, 3, 200, Policy::Random, Turn::Minimal, a, 11),
              policy_route(s, 3, 200, Policy::Random, Turn::Minimal, a, 11));
    seen.insert(topo::format_source_route(policy_route(s, 3, 200, Policy::Random, Turn::Minimal, a, 11)));
  }
  EXPECT_GT(seen.size(), 1u);
  EXPECT_NE(policy_route(s, 3, 200, Policy::Random, Turn::Minimal, 0, 11),
            policy_route(s, 3, 200, Policy::Random, Turn::Minimal, 0, 12));
}

TEST(Cs2Routes, ARangeSplitsIntoAtMostTwoKMinusOneAlignedBoxes) {
  // Note §2.9: any contiguous range in at most 2k - 1 boxes; boxes tile the range exactly.
  for (const int n : {64, 128, 256}) {
    const LayerShape s(n, Doubling::EightWayTop);
    for (std::int64_t a = 0; a < n; a += 3)
      for (std::int64_t b = a; b < n; b += 5) {
        const auto boxes = decompose_range(s, a, b);
        EXPECT_LE(static_cast<int>(boxes.size()), 2 * s.stages() - 1) << a << ".." << b;
        std::int64_t next = a;
        for (const BroadcastBox& box : boxes) {
          EXPECT_EQ(box.first, next);
          next += box.count;
        }
        EXPECT_EQ(next, b + 1);
      }
  }
  const auto whole = decompose_range(LayerShape(64, Doubling::EightWayTop), 0, 63);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0].pos, 2);
  EXPECT_EQ(whole[0].hi, 3);
  const auto two = decompose_range(LayerShape(64, Doubling::EightWayTop), 4, 15);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].pos, 1);
  EXPECT_EQ(two[0].lo, 1);
  EXPECT_EQ(two[0].hi, 3);
}

// The PEs a broadcast route reaches, following every output of a range byte; empty if it breaks.
void reach(const topo::Graph& g, RouterId r, const topo::SourceRoute& route, int i, std::vector<NodeId>& out,
           bool& broken) {
  if (i >= route.length) {
    broken = true;
    return;
  }
  const auto b = topo::decode_route_byte(route.bytes[i]);
  for (int p = b->lo; p <= b->hi; ++p) {
    const topo::PortLink& l = g.link(r, p);
    if (l.kind == topo::PeerKind::Node) {
      out.push_back(l.peer);
      broken |= i + 1 != route.length;
    } else if (l.kind == topo::PeerKind::Router) {
      reach(g, l.peer, route, i + 1, out, broken);
    } else {
      broken = true;
    }
  }
}

TEST(Cs2Routes, EveryBroadcastBoxIsReachedExactlyOnceOnTheCanonicalTree) {
  for (const int n : {64, 128}) {
    const LayerShape s(n, Doubling::EightWayTop);
    const topo::Graph g = build_layer(s);
    for (std::int64_t a = 0; a < n; a += 7)
      for (std::int64_t b = a; b < n; b += 11)
        for (const BroadcastBox& box : decompose_range(s, a, b))
          for (const NodeId src : {0, 5, n - 1}) {
            const topo::SourceRoute r = broadcast_route(s, src, box);
            std::vector<NodeId> got;
            bool broken = false;
            reach(g, g.node_links[src].router, r, 0, got, broken);
            ASSERT_FALSE(broken) << topo::format_source_route(r);
            std::sort(got.begin(), got.end());
            ASSERT_EQ(static_cast<std::int64_t>(got.size()), box.count);
            for (std::int64_t i = 0; i < box.count; ++i) EXPECT_EQ(got[i], box.first + i);
            EXPECT_EQ(r.length % 2, 1);
            EXPECT_LE(r.length, 2 * s.stages() - 1);
          }
  }
  // The note's full-machine broadcast: [4]*(k-1), the whole top range, then [0-3] below.
  const LayerShape s(64, Doubling::EightWayTop);
  EXPECT_EQ(topo::format_source_route(broadcast_route(s, 9, decompose_range(s, 0, 63)[0])),
            "4.4.[0-3].[0-3].[0-3]");
}

// Another plane changes only the climb: the up bytes name the drawn up-ports, and the bytes from the
// turn down are the canonical route's (every switch at a stage above the box reaches the same PEs).
TEST(Cs2Routes, ABroadcastViaAnotherPlaneChangesOnlyTheClimb) {
  const LayerShape shape(256, Doubling::EightWayTop);
  for (const BroadcastBox& box : decompose_range(shape, 17, 200)) {
    const topo::SourceRoute canonical = broadcast_route(shape, 250, box);
    const int ups[] = {3, 1, 2, 0};
    const topo::SourceRoute via = broadcast_route_via(shape, 250, box, ups);
    ASSERT_EQ(via.length, canonical.length);
    int up_bytes = 0;  // the canonical climb: up-port 0 (byte 4) until the turn; down bytes name 0..3
    while (up_bytes < canonical.length &&
           canonical.bytes[static_cast<std::size_t>(up_bytes)] == topo::single_output(4))
      ++up_bytes;
    for (int i = 0; i < canonical.length; ++i) {
      const auto b = static_cast<std::size_t>(i);
      if (i < up_bytes)
        EXPECT_EQ(via.bytes[b], topo::single_output(4 + ups[i]));
      else
        EXPECT_EQ(via.bytes[b], canonical.bytes[b]);
    }
  }
  // With every up-port 0 it is the canonical route.
  const int zeros[4] = {};
  const BroadcastBox whole = decompose_range(shape, 0, 255)[0];
  EXPECT_EQ(broadcast_route_via(shape, 9, whole, zeros), broadcast_route(shape, 9, whole));
}

}  // namespace
}  // namespace mppnet::machines::cs2
