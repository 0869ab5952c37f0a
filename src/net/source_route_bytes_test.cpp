// net/source_route_bytes_test.cpp: routes of more than 8 route bytes (topo/source_route.hpp): injected
// with a SourceRoute, consumed one byte per router through the cursor in the header word, on both network
// models; a wrong byte misroutes detectably, a byte that names no output is refused, a range multicasts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "net/network.hpp"
#include "net/packet_network.hpp"
#include "topo/build.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/params_for_test.hpp"
#include "topo/source_route.hpp"

namespace mppnet::net::source_route_bytes_test {
namespace {

using topo::SourceRoute;

constexpr int kK = 8;  // an 8x8 mesh: corner to corner is 14 hops and the ejection, 15 bytes

// Dimension order as route bytes: +x or -x until the column is right, then +y or -y, then the node port.
SourceRoute xy_route(NodeId src, NodeId dest) {
  SourceRoute r;
  for (int d = 0; d < 2; ++d) {
    int at = topo::coordinate(src, d, kK);
    const int to = topo::coordinate(dest, d, kK);
    for (; at != to; at += to > at ? 1 : -1)
      r.push_back(topo::single_output(to > at ? topo::plus_port(d) : topo::minus_port(d)));
  }
  r.push_back(topo::single_output(topo::cube_node_port(2)));
  return r;
}

int mesh_hops(NodeId s, NodeId d) {
  return 1 + std::abs(topo::coordinate(s, 0, kK) - topo::coordinate(d, 0, kK)) +
         std::abs(topo::coordinate(s, 1, kK) - topo::coordinate(d, 1, kK));
}

struct Fixture {
  topo::Graph graph = topo::build(topo::testing::mesh(kK, 2));
  RouterParams params;
  topo::Routing steered =
      topo::Routing::bind(topo::ByteSteeredRouting<false>(params.vcs, mesh_hops), params.vcs);
};

// Runs until idle; returns the delivered packets' (tag, node that received it, hops, cursor).
struct Delivery {
  std::uint64_t tag;
  NodeId at;
  int hops;
  std::uint64_t cursor;
};
std::vector<Delivery> drain(NetworkModel& net) {
  std::vector<Delivery> out;
  for (int t = 0; t < 5000 && !net.idle(); ++t) {
    net.step();
    for (const PacketId id : net.delivered()) {
      out.push_back({net.packet(id).tag, net.packet(id).dest, net.packet(id).hops, net.route_header(id)});
      net.release(id);
    }
  }
  EXPECT_TRUE(net.idle());
  std::sort(out.begin(), out.end(), [](const Delivery& a, const Delivery& b) { return a.at < b.at; });
  return out;
}

TEST(SourceRouteBytes, DecodesSingleOutputsAndRanges) {
  EXPECT_EQ(topo::decode_route_byte(0x05), (topo::RouteByte{.lo = 5, .hi = 5, .range_form = false}));
  EXPECT_EQ(topo::decode_route_byte(topo::output_range(0, 3)),
            (topo::RouteByte{.lo = 0, .hi = 3, .range_form = true}));
  EXPECT_EQ(topo::output_range(0, 3), 0x83);
  EXPECT_FALSE(topo::decode_route_byte(0x48));               // bit 6 of a single output
  EXPECT_FALSE(topo::decode_route_byte(0x0d));               // bit 3 of a single output
  EXPECT_FALSE(topo::decode_route_byte(0xc3));               // bit 6 of a range
  EXPECT_FALSE(topo::decode_route_byte(0x80 | 3 << 3 | 1));  // lo 3 > hi 1
}

TEST(SourceRouteBytes, ARouteOfFifteenBytesDeliversOnBothModels) {
  Fixture f;
  const SourceRoute route = xy_route(0, 63);
  ASSERT_EQ(route.length, 15);  // more than the 8 bytes a 64-bit routing word holds
  EXPECT_EQ(topo::format_source_route(route), "0.0.0.0.0.0.0.2.2.2.2.2.2.2.4");
  Network flit(f.graph, f.steered, f.params, 1);
  PacketNetwork packet(f.graph, f.steered, f.params, 1);
  for (NetworkModel* net : {static_cast<NetworkModel*>(&flit), static_cast<NetworkModel*>(&packet)}) {
    net->inject(0, 63, 4, 7, 0, route);
    const auto got = drain(*net);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].at, 63);
    EXPECT_EQ(got[0].hops, 15);
    EXPECT_EQ(got[0].cursor, 15u) << "every byte consumed, one per router";
  }
}

TEST(SourceRouteBytes, EveryPairDeliversUnderLoadExactlyAsDimensionOrder) {
  // The same packets with dimension-order routing and with its route written as bytes: the same
  // deliveries at the same cycles, so the byte facility changes nothing but where the route is read.
  Fixture f;
  const topo::TopologyParams mesh = topo::testing::mesh(kK, 2);
  const topo::Routing dor(mesh, f.graph, f.params.vcs);
  Network a(f.graph, dor, f.params, 3);
  Network b(f.graph, f.steered, f.params, 3);
  std::uint64_t tag = 0;
  for (NodeId s = 0; s < 64; ++s)
    for (NodeId d = 0; d < 64; d += 5, ++tag) {
      a.inject(s, d, 3, tag);
      b.inject(s, d, 3, tag, 0, xy_route(s, d));
    }
  std::vector<std::pair<std::uint64_t, Cycle>> want, got;
  for (int t = 0; t < 100000 && !(a.idle() && b.idle()); ++t) {
    a.step();
    b.step();
    for (const PacketId id : a.delivered()) want.emplace_back(a.packet(id).tag, a.packet(id).delivered);
    for (const PacketId id : b.delivered()) {
      EXPECT_EQ(b.route_header(id), b.source_route(id).length);
      got.emplace_back(b.packet(id).tag, b.packet(id).delivered);
    }
    for (const PacketId id : a.delivered()) a.release(id);
    for (const PacketId id : b.delivered()) b.release(id);
  }
  EXPECT_EQ(want.size(), tag);
  EXPECT_EQ(got, want);
}

TEST(SourceRouteBytes, AWrongByteMisroutesDetectably) {
  Fixture f;
  SourceRoute route = xy_route(0, 63);
  route.bytes[7] = topo::single_output(topo::minus_port(0));  // one -x where the first +y was
  Network net(f.graph, f.steered, f.params, 1);
  net.inject(0, 63, 4, 0, 0, route);
  const auto got = drain(net);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].at, 6 + 6 * kK) << "ejected at (6, 6), not at its destination 63";
}

TEST(SourceRouteBytes, AByteThatNamesNoOutputIsRefusedAtInjection) {
  Fixture f;
  Network net(f.graph, f.steered, f.params, 1);
  SourceRoute route = xy_route(0, 63);
  route.bytes[9] = 0x48;
  try {
    net.inject(0, 63, 4, 0, 0, route);
    FAIL() << "an invalid byte was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "route byte 9 of 15 is 0x48: bits 6..3 of a single-output byte must be 0");
  }
  route.bytes[9] = 0x80 | 3 << 3 | 1;
  EXPECT_THROW(net.inject(0, 63, 4, 0, 0, route), std::invalid_argument);
  EXPECT_THROW(net.inject(0, 63, 4, 0, 0, SourceRoute{}), std::invalid_argument);  // no byte at all
  EXPECT_TRUE(net.idle()) << "nothing refused entered a queue";
}

TEST(SourceRouteBytes, ARangeByteMulticastsAndEveryBranchKeepsTheRemainingBytes) {
  // From node 9 at (1, 1): the range [0-3] reaches the four neighbours, then each branch's next byte
  // (the same on every branch) ejects it there.
  Fixture f;
  const topo::Routing multicast =
      topo::Routing::bind(topo::ByteSteeredRouting<true>(f.params.vcs, mesh_hops), f.params.vcs);
  Network net(f.graph, multicast, f.params, 1);
  SourceRoute route;
  route.push_back(topo::output_range(0, 3));
  route.push_back(topo::single_output(topo::cube_node_port(2)));
  net.inject(9, 10, 2, 0, 0, route);
  const auto got = drain(net);
  ASSERT_EQ(got.size(), 4u);
  const std::vector<NodeId> want = {1, 8, 10, 17};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].at, want[i]);
    EXPECT_EQ(got[i].hops, 2);
    EXPECT_EQ(got[i].cursor, 2u);
  }
}

}  // namespace
}  // namespace mppnet::net::source_route_bytes_test
