// net/fast_multicast_test.cpp: the bitmask router replicates exactly as the general router does: the same
// deliveries (ids, cycles, hops), the same merged acks and the same counters, under mixed unicast and
// broadcast traffic at high load on a fat tree whose broadcasts climb a canonical tree, as the Meiko
// CS-2's do (net/multicast_test.cpp checks the XY broadcast tree of a mesh the same way).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "core/sanitized_build.hpp"
#include "net/network.hpp"
#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::fast_multicast_test {
namespace {

constexpr std::uint64_t kToAll = 1, kToLower = 2, kToUpper = 3;  // a broadcast's routing word at entry
constexpr std::uint64_t kDown = 1u << 16;                        // set once a broadcast turns down at the top
constexpr int kK = 4, kLevels = 3;  // a 4-ary 3-tree: 64 nodes, 48 routers of 8 ports

// Unicast packets take the fat tree's own up/down routing. A broadcast
// (routing word kToAll, kToLower or kToUpper) climbs on every router's first parent port to the top, as
// the CS-2's canonical tree does, then goes down: at the top to all children or to the lower or upper
// half (2 branches: two such broadcasts from different inputs can cross together), below it to all. Children
// are ports 0..k-1 and parents k..2k-1 (topo/fat_tree.hpp). The branches only ever go down, so the lockstep
// adds no cycle to up/down routing's channel dependencies.
struct CanonicalTreeBroadcast {
  static constexpr bool kNeedsHeader = true;
  static constexpr bool kMayMulticast = true;
  topo::Routing unicast;
  int vcs;

  topo::PortSelection port_selection() const { return unicast.port_selection(); }
  topo::RouteSet route(RouterId router, PortId in_port, VcId in_vc, topo::PacketHead& head) const noexcept {
    if (head.header == 0) return unicast.route(router, in_port, in_vc, head.dest);
    const std::uint64_t ups = head.header >> 8 & 0xff;
    if ((head.header & kDown) == 0 && ups + 1 < kLevels) {
      head.header += 1u << 8;
      return topo::one_port(kK, 0, vcs - 1);
    }
    const std::uint64_t to = (head.header & kDown) != 0 ? kToAll : head.header & 0xff;
    head.header |= kDown;
    topo::RouteSet rs;
    for (int c = to == kToUpper ? kK / 2 : 0; c < (to == kToLower ? kK / 2 : kK); ++c)
      rs.ports[rs.count++] = static_cast<std::int16_t>(c);
    rs.vc_hi = static_cast<std::uint8_t>(vcs - 1);
    rs.multicast = true;
    return rs;
  }
  int router_hops(NodeId src, NodeId dest) const { return unicast.router_hops(src, dest); }
  bool uses_input_vc() const { return false; }
};

struct Rig {
  topo::Graph graph;
  topo::Routing tree;
  topo::Routing routing;
  Network net;
  Rig(topo::UpRouting up, const RouterParams& r, std::uint64_t seed)
      : graph(topo::build(topo::testing::k_ary_n_tree(kK, kLevels, up))),
        tree(topo::testing::k_ary_n_tree(kK, kLevels, up), graph, r.vcs_per_vnet()),
        routing(topo::Routing::bind(CanonicalTreeBroadcast{tree, r.vcs_per_vnet()}, r.vcs_per_vnet())),
        net(graph, routing, r, seed) {}
};

// Everything a run shows: each delivery (id, tag, node, cycle, hops), each ack (packet, source, arrival,
// copies, NACK), in order, then the counters.
using Trace = std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>>;

// Uniform 4-flit unicast traffic at `rate` flits/node/cycle and, at every node, a broadcast (to all, to
// the lower or to the upper half, by turns) with probability `broadcast` per cycle, on `vnets` virtual
// networks by turns; drained.
Trace run(Network& net, double rate, double broadcast, Cycle cycles, std::uint64_t seed) {
  Trace out;
  const int nodes = net.graph().num_nodes;
  const int vnets = net.params().vnets;
  std::vector<core::RandomStream> rng;
  for (int v = 0; v < nodes; ++v) rng.emplace_back(seed, v, core::Stream::Arrival);
  std::uint64_t next = 0;
  for (Cycle t = 0; t < 200000 && (t < cycles || !net.idle()); ++t) {
    for (NodeId v = 0; t < cycles && v < nodes; ++v) {
      const int vnet = static_cast<int>(next % static_cast<std::uint64_t>(vnets));
      if (rng[v].bernoulli(rate / 4))
        net.inject(v, static_cast<NodeId>(rng[v].below(static_cast<std::uint32_t>(nodes))), 4, next++, vnet);
      if (rng[v].bernoulli(broadcast)) {
        const std::uint64_t tag = next++;
        net.inject(v, v, 3, tag, vnet, kToAll + tag % 3);
      }
    }
    net.step();
    for (const PacketId id : net.delivered()) {
      const Packet& p = net.packet(id);
      out.emplace_back(id, static_cast<std::int64_t>(p.tag), p.dest, p.delivered, p.hops);
      net.release(id);
    }
    for (const Ack& a : net.acknowledged()) out.emplace_back(-a.packet, a.src, a.arrives, a.copies, a.nack);
  }
  EXPECT_TRUE(net.idle()) << net.describe_blocked();
  const NetworkCounters& c = net.counters();
  out.emplace_back(c.flits_injected, c.flits_ejected, c.flit_hops, c.flits_replicated, c.packets_delivered);
  return out;
}

struct Config {
  std::string name;
  topo::UpRouting up;
  RouterParams router;
  bool acks = false;
};

std::vector<Config> configs() {
  RouterParams base;
  base.vcs = 2;
  base.buffer_flits = 4;
  RouterParams elite;  // the CS-2's Elite: one VC, each output VC its own round-robin arbiter
  elite.vcs = 1;
  elite.buffer_flits = 8;
  elite.vc_arbiter = VcArbiter::PerOutputVc;
  RouterParams vnets = base;
  vnets.vcs = 4;
  vnets.vnets = 2;
  RouterParams deep = base;
  deep.pipeline_cycles = 3;
  deep.channel_latency = 2;
  return {{"random_free", topo::UpRouting::RandomFree, base},
          {"elite_per_output_vc", topo::UpRouting::RandomFree, elite},
          {"elite_with_acks", topo::UpRouting::RandomFree, elite, true},
          {"adaptive", topo::UpRouting::Adaptive, base},
          {"deterministic_per_output_vc", topo::UpRouting::Deterministic,
           [&] {
             RouterParams p = base;
             p.vc_arbiter = VcArbiter::PerOutputVc;
             return p;
           }()},
          {"two_vnets", topo::UpRouting::RandomFree, vnets},
          {"deep_pipeline", topo::UpRouting::RandomFree, deep}};
}

TEST(FastMulticast, TheBitmaskRouterReplicatesExactlyAsTheGeneralRouter) {
  const Cycle cycles = core::kSanitizedBuild ? 400 : 2000;
  for (const Config& c : configs()) {
    for (const std::uint64_t seed : {1, 2, 3}) {
      // High unicast load with frequent broadcasts: multicasts wait beside unicasts for VCs and meet at
      // the switch every cycle, and the network runs near saturation.
      for (const auto& [rate, broadcast] : {std::pair{0.5, 0.002}, std::pair{0.25, 0.01}}) {
        const std::string name = c.name + " seed " + std::to_string(seed) + " rate " + std::to_string(rate);
        Rig fast(c.up, c.router, seed), general(c.up, c.router, seed);
        if (c.acks) {
          fast.net.enable_acks({.enabled = true, .router_cycles = 5, .channel_cycles = 1});
          general.net.enable_acks({.enabled = true, .router_cycles = 5, .channel_cycles = 1});
        }
        general.net.use_general_router();
        ASSERT_TRUE(fast.net.uses_fast_router()) << name;
        const Trace want = run(general.net, rate, broadcast, cycles, seed);
        const Trace got = run(fast.net, rate, broadcast, cycles, seed);
        // Five replicated flits a cycle (10,000 in the Release run, 2,000 in the shorter sanitized one).
        ASSERT_GT(general.net.counters().flits_replicated, 5 * cycles)
            << name << ": broadcasts were replicated";
        ASSERT_EQ(got.size(), want.size()) << name;
        for (std::size_t k = 0; k < want.size(); ++k) ASSERT_EQ(got[k], want[k]) << name << ", entry " << k;
      }
    }
  }
}

}  // namespace
}  // namespace mppnet::net::fast_multicast_test
