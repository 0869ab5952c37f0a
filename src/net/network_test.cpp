// net/network_test.cpp: the generic network against derivations: zero-load latency, conservation of flits
// and credits, no deadlock at overload, determinism under any visit order.
#include "net/network.hpp"

#include "net/built_network.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "core/rng.hpp"
#include "core/sanitized_build.hpp"
#include "topo/build.hpp"
#include "topo/params_for_test.hpp"
#include "topo/routing.hpp"

namespace mppnet::net::network_test {
namespace {

struct Case {
  std::string name;
  topo::TopologyParams topo;
  RouterParams router;
};

using topo::testing::mesh;
using topo::testing::torus;
topo::TopologyParams cube(int n) {
  return topo::testing::hypercube(n);
}
topo::TopologyParams tree(int k, int n) {
  return topo::testing::k_ary_n_tree(k, n);
}
topo::TopologyParams cm5(int n, topo::UpRouting up = topo::UpRouting::RandomFree) {
  return topo::topology_of(
      topo::FatTreeParams{.n = n, .children = 4, .parents = {2, 2, 4}, .leaf_links = 2, .up_routing = up});
}
topo::TopologyParams dragonfly72(topo::DragonflyRouting routing) {
  return topo::testing::dragonfly(2, 4, 2, routing);
}

// A network with the graph and routing it points into.
struct Rig : BuiltNetwork {
  explicit Rig(const Case& c, std::uint64_t seed = 1) : BuiltNetwork(c.topo, c.router, seed) {}
  Network& net = flit();
};

std::vector<Case> all_cases() {
  RouterParams base;
  RouterParams slow = base;
  slow.pipeline_cycles = 3;
  slow.channel_latency = 2;
  RouterParams out_first = base;
  out_first.allocator = AllocatorKind::OutputFirst;
  RouterParams speedup = base;
  speedup.speedup = 2;
  RouterParams vct = base;
  vct.switching = Switching::VirtualCutThrough;
  // Iterated switch allocation (iSLIP-style), both allocator kinds.
  RouterParams islip2 = base;
  islip2.allocator_iterations = 2;
  RouterParams islip4 = base;
  islip4.allocator_iterations = 4;
  RouterParams out_first_islip2 = out_first;
  out_first_islip2.allocator_iterations = 2;
  RouterParams out_first_islip4 = out_first;
  out_first_islip4.allocator_iterations = 4;
  // An arbiter per output VC in the VC allocator (BookSim's), on the bitmask and the general router.
  RouterParams per_output = base;
  per_output.vc_arbiter = VcArbiter::PerOutputVc;
  RouterParams out_first_per_output = out_first;
  out_first_per_output.vc_arbiter = VcArbiter::PerOutputVc;
  // Two virtual networks (requests and replies): packets alternate between them.
  RouterParams two_vnets = base;
  two_vnets.vnets = 2;
  // The VC allocators and VC choices of net/vc_alloc.hpp (all on the general router).
  auto vc = [](RouterParams p, VcAllocatorKind kind, VcChoice choice) {
    p.vc_allocator = kind;
    p.vc_choice = choice;
    return p;
  };
  using K = VcAllocatorKind;
  using C = VcChoice;
  return {
      {"mesh4x4", mesh(4, 2), base},
      {"mesh4x4_per_output_vc", mesh(4, 2), per_output},
      {"tree4ary3_per_output_vc", tree(4, 3), per_output},
      {"cm5_64_outfirst_per_output_vc", cm5(3), out_first_per_output},
      {"mesh4x4_slow", mesh(4, 2), slow},
      {"torus5x5", torus(5, 2), base},
      // A routing that may multicast (path multicast; unicast traffic here): the bitmask router still.
      {"cylinder5x5_path_multicast", topo::testing::cylinder(5, 2, {1}, true), base},
      {"torus4x4x4_outfirst", torus(4, 3), out_first},
      {"hypercube6", cube(6), base},
      {"hypercube6_speedup", cube(6), speedup},
      {"tree4ary3", tree(4, 3), base},
      {"tree2ary4_vct", tree(2, 4), vct},
      {"cm5_64", cm5(3), base},
      {"cm5_64_slow", cm5(3), slow},
      {"mesh4x4_islip2", mesh(4, 2), islip2},
      {"torus4x4x4_islip4", torus(4, 3), islip4},
      {"tree4ary3_islip2", tree(4, 3), islip2},
      {"tree4ary3_outfirst_islip4", tree(4, 3), out_first_islip4},
      {"cm5_64_islip4", cm5(3), islip4},
      {"hypercube6_outfirst_islip2", cube(6), out_first_islip2},
      {"torus4x4_two_vnets", torus(4, 2), two_vnets},
      {"cm5_64_two_vnets", cm5(3), two_vnets},
      {"tree4ary3_random_up", topo::testing::k_ary_n_tree(4, 3, topo::UpRouting::Random), base},
      {"tree4ary3_adaptive_up", topo::testing::k_ary_n_tree(4, 3, topo::UpRouting::Adaptive), base},
      {"cm5_64_adaptive_up_outfirst", cm5(3, topo::UpRouting::Adaptive), out_first},
      {"cm5_64_adaptive_up_two_vnets", cm5(3, topo::UpRouting::Adaptive), two_vnets},
      {"dragonfly72_minimal", dragonfly72(topo::DragonflyRouting::Minimal), base},
      {"dragonfly72_valiant", dragonfly72(topo::DragonflyRouting::Valiant), base},
      {"mesh4x4_vc_random", mesh(4, 2), vc(base, K::InputFirst, C::Random)},
      {"mesh4x4_vc_round_robin", mesh(4, 2), vc(base, K::InputFirst, C::RoundRobin)},
      {"mesh4x4_wavefront", mesh(4, 2), vc(base, K::Wavefront, C::LowestFree)},
      {"mesh4x4_vc_output_first_random", mesh(4, 2), vc(base, K::OutputFirst, C::Random)},
      {"torus4x4_wavefront_round_robin", torus(4, 2), vc(base, K::Wavefront, C::RoundRobin)},
      {"torus5x5_vc_output_first_round_robin", torus(5, 2), vc(base, K::OutputFirst, C::RoundRobin)},
      {"torus4x4x4_wavefront_random", torus(4, 3), vc(out_first, K::Wavefront, C::Random)},
      {"hypercube6_speedup_vc_random", cube(6), vc(speedup, K::Auto, C::Random)},
      {"tree4ary3_wavefront", tree(4, 3), vc(base, K::Wavefront, C::LowestFree)},
      {"tree2ary4_vct_wavefront_random", tree(2, 4), vc(vct, K::Wavefront, C::Random)},
      {"tree4ary3_vc_output_first_round_robin", tree(4, 3), vc(islip2, K::OutputFirst, C::RoundRobin)},
      {"cm5_64_wavefront_round_robin", cm5(3), vc(base, K::Wavefront, C::RoundRobin)},
      {"cm5_64_adaptive_up_wavefront", cm5(3, topo::UpRouting::Adaptive), vc(base, K::Wavefront, C::Random)},
      {"cm5_64_adaptive_up_vc_random", cm5(3, topo::UpRouting::Adaptive), vc(base, K::InputFirst, C::Random)},
      {"torus4x4_two_vnets_wavefront_random", torus(4, 2), vc(two_vnets, K::Wavefront, C::Random)},
      {"cm5_64_two_vnets_vc_round_robin", cm5(3), vc(two_vnets, K::OutputFirst, C::RoundRobin)},
      {"dragonfly72_valiant_wavefront", dragonfly72(topo::DragonflyRouting::Valiant),
       vc(base, K::Wavefront, C::RoundRobin)},
  };
}

// Zero-load latency of an S-flit packet over R routers, each channel L cycles and each router P:
// the head crosses the injection channel (L), then each router and the channel after it (P + L),
// and the tail trails the head by S - 1 cycles. Store-and-forward waits for the tail at every router.
Cycle zero_load(int routers, const RouterParams& r, int flits) {
  const int saf_wait = r.switching == Switching::StoreAndForward ? flits - 1 : 0;
  return r.channel_latency + routers * (r.pipeline_cycles + r.channel_latency + saf_wait) + (flits - 1);
}

TEST(Network, ZeroLoadLatencyIsExactForEveryPairOnEveryTopology) {
  for (const Case& c : all_cases()) {
    // A Valiant route's length depends on its random intermediate group: dragonfly_network_test.cpp.
    if (c.topo.kind == topo::kDragonflyTopology.name &&
        topo::dragonfly_params(c.topo).routing == topo::DragonflyRouting::Valiant)
      continue;
    for (int flits : {1, 5}) {
      Rig rig(c);
      const int n = rig.graph.num_nodes;
      for (NodeId s = 0; s < n; ++s) {
        for (NodeId d = 0; d < n; d += 1 + n / 16) {
          const PacketId id = rig.net.inject(s, d, flits, 0, (s + d) % c.router.vnets);
          const Cycle start = rig.net.now();
          while (rig.net.delivered().empty()) rig.net.step();
          const Packet& p = rig.net.packet(id);
          const int routers = rig.routing.router_hops(s, d);
          ASSERT_EQ(p.hops, routers) << c.name << " " << s << "->" << d;
          ASSERT_EQ(p.delivered - start, zero_load(routers, c.router, flits))
              << c.name << " " << s << "->" << d;
          rig.net.release(id);
          rig.net.step();  // let the last credits return
          for (int i = 0; i < c.router.channel_latency + 1; ++i) rig.net.step();
        }
      }
    }
  }
}

TEST(Network, StoreAndForwardWaitsForTheTailAtEveryRouter) {
  Case c{"mesh_saf", mesh(4, 2), {}};
  c.router.switching = Switching::StoreAndForward;
  Rig rig(c);
  const PacketId id = rig.net.inject(0, 15, 4);  // corner to corner: 7 routers
  while (rig.net.delivered().empty()) rig.net.step();
  // L + R (P + L + S - 1) + S - 1 = 1 + 7 * (1 + 1 + 3) + 3 = 39
  EXPECT_EQ(rig.net.packet(id).delivered, 39);
}

// Offers `rate` flits/node/cycle of uniform 4-flit traffic for `cycles`, then drains. Returns a digest of
// every delivery (packet order number, destination, cycle) so runs can be compared.
struct LoadOutcome {
  std::uint64_t digest = 0;
  std::int64_t injected_packets = 0;
  std::int64_t delivered_packets = 0;
  bool drained = false;
};

LoadOutcome offer_load(Rig& rig, double rate, Cycle cycles, std::uint64_t seed, Cycle drain_limit = 200000) {
  LoadOutcome out;
  const int n = rig.graph.num_nodes;
  std::vector<core::RandomStream> rng;
  for (int v = 0; v < n; ++v) rng.emplace_back(seed, v, core::Stream::Arrival);
  std::set<std::uint64_t> seen;
  auto collect = [&] {
    for (PacketId id : rig.net.delivered()) {
      const Packet& p = rig.net.packet(id);
      EXPECT_TRUE(seen.insert(p.tag).second) << "packet delivered twice";
      out.digest = core::splitmix64(out.digest ^ (p.tag * 1000003 + static_cast<std::uint64_t>(p.delivered)));
      ++out.delivered_packets;
      rig.net.release(id);
    }
  };
  for (Cycle t = 0; t < cycles; ++t) {
    for (NodeId v = 0; v < n; ++v) {
      if (!rng[v].bernoulli(rate / 4)) continue;
      NodeId d = static_cast<NodeId>(rng[v].below(static_cast<std::uint32_t>(n)));
      const int vnet = static_cast<int>(out.injected_packets % rig.net.params().vnets);
      rig.net.inject(v, d, 4, static_cast<std::uint64_t>(out.injected_packets++), vnet);
    }
    rig.net.step();
    collect();
    EXPECT_LT(rig.net.now() - rig.net.last_progress(), 2000) << rig.net.describe_blocked();
  }
  for (Cycle t = 0; t < drain_limit && !rig.net.idle(); ++t) {
    rig.net.step();
    collect();
  }
  for (int t = 0; t < 16; ++t) rig.net.step();  // credits in flight come home
  out.drained = rig.net.idle();
  return out;
}

TEST(Network, EveryFlitIsDeliveredOnceAndEveryCreditComesBack) {
  for (const Case& c : all_cases()) {
    Rig rig(c, 3);
    const LoadOutcome out = offer_load(rig, 0.3, 3000, 11);
    ASSERT_TRUE(out.drained) << c.name;
    EXPECT_EQ(out.delivered_packets, out.injected_packets) << c.name;
    EXPECT_EQ(rig.net.counters().flits_injected, rig.net.counters().flits_ejected) << c.name;
    EXPECT_EQ(rig.net.counters().flits_injected, 4 * out.injected_packets) << c.name;
    EXPECT_EQ(rig.net.credit_deficit(), 0) << c.name;
  }
}

TEST(Network, NoDeadlockFarBeyondSaturation) {
  // Offered load 1.0 flits/node/cycle is about twice the saturation of every network here; the routing
  // is deadlock-free (DOR, dateline torus, e-cube, up/down fat tree), so every packet must get out. The
  // sanitized build offers the load for 1,000 cycles: at twice saturation the backlog still grows by
  // hundreds of flits per node, so the network runs full for the whole drain.
  const Cycle offered = core::kSanitizedBuild ? 1000 : 4000;
  for (const Case& c : all_cases()) {
    Rig rig(c, 5);
    const LoadOutcome out = offer_load(rig, 1.0, offered, 17, 2'000'000);
    ASSERT_TRUE(out.drained) << c.name << "\n" << rig.net.describe_blocked();
    EXPECT_EQ(out.delivered_packets, out.injected_packets) << c.name;
    EXPECT_EQ(rig.net.credit_deficit(), 0) << c.name;
  }
}

TEST(Network, SameSeedSameDeliveriesInAnyVisitOrder) {
  const Cycle offered = core::kSanitizedBuild ? 500 : 2000;
  for (const Case& c : all_cases()) {
    Rig a(c, 9), b(c, 9), shuffled(c, 9), general(c, 9);
    shuffled.net.shuffle_visit_order(true);
    general.net.use_general_router();  // the bitmask router must decide exactly as the general one
    const LoadOutcome ra = offer_load(a, 0.5, offered, 23);
    const LoadOutcome rb = offer_load(b, 0.5, offered, 23);
    const LoadOutcome rs = offer_load(shuffled, 0.5, offered, 23);
    const LoadOutcome rg = offer_load(general, 0.5, offered, 23);
    EXPECT_EQ(ra.digest, rb.digest) << c.name;
    EXPECT_EQ(ra.digest, rs.digest) << c.name;
    EXPECT_EQ(ra.digest, rg.digest) << c.name;
    EXPECT_EQ(a.net.now(), shuffled.net.now()) << c.name;
  }
}

// A network whose buffers outgrow L2 visits its routers from a prefetching list (network.cpp,
// evaluate_routers): the same decisions as the shuffled order and as the general allocators.
TEST(Network, LargeNetworksDecideAlikeInAnyVisitOrder) {
  const Case c{"tree4ary5", tree(4, 5), RouterParams{}};
  Rig a(c, 9), shuffled(c, 9), general(c, 9);
  shuffled.net.shuffle_visit_order(true);
  general.net.use_general_router();
  const LoadOutcome ra = offer_load(a, 0.5, 600, 23);
  const LoadOutcome rs = offer_load(shuffled, 0.5, 600, 23);
  const LoadOutcome rg = offer_load(general, 0.5, 600, 23);
  EXPECT_GT(ra.delivered_packets, 50000);
  EXPECT_EQ(ra.digest, rs.digest);
  EXPECT_EQ(ra.digest, rg.digest);
}

TEST(Network, TheDefaultRouterUsesBitmasksWhereTheyApply) {
  EXPECT_TRUE(Rig({"mesh", mesh(4, 2), {}}).net.uses_fast_router());
  RouterParams out_first;
  out_first.allocator = AllocatorKind::OutputFirst;
  EXPECT_FALSE(Rig({"mesh", mesh(4, 2), out_first}).net.uses_fast_router());
  // The bitmask router reproduces input-first VC allocation of the lowest free VC only.
  RouterParams explicit_input_first;
  explicit_input_first.vc_allocator = VcAllocatorKind::InputFirst;
  EXPECT_TRUE(Rig({"mesh", mesh(4, 2), explicit_input_first}).net.uses_fast_router());
  // It replicates as well: a routing that may multicast keeps it (net/fast_multicast.cpp).
  EXPECT_TRUE(Rig({"cylinder", topo::testing::cylinder(4, 2, {1}, true), {}}).net.uses_fast_router());
  for (const VcAllocatorKind kind : {VcAllocatorKind::OutputFirst, VcAllocatorKind::Wavefront}) {
    RouterParams p;
    p.vc_allocator = kind;
    EXPECT_FALSE(Rig({"mesh", mesh(4, 2), p}).net.uses_fast_router());
  }
  for (const VcChoice choice : {VcChoice::RoundRobin, VcChoice::Random}) {
    RouterParams p;
    p.vc_choice = choice;
    EXPECT_FALSE(Rig({"mesh", mesh(4, 2), p}).net.uses_fast_router());
  }
  RouterParams many_vcs;
  many_vcs.vcs = 16;  // 5 ports x 16 VCs > 64 input VCs
  EXPECT_FALSE(Rig({"mesh", mesh(4, 2), many_vcs}).net.uses_fast_router());
}

TEST(Network, EjectionBandwidthLimitsDeliveryRate) {
  // A node that drains 0.25 flits per cycle takes 4 cycles per flit: one 8-flit packet over one router
  // (node 0 to itself on a 2x2 mesh) finishes 4 * 7 = 28 cycles after its head arrives instead of 7.
  Case c{"mesh2x2", mesh(2, 2), {}};
  c.router.eject_flits_per_cycle = 0.25;
  Rig rig(c);
  const PacketId id = rig.net.inject(0, 0, 8);
  while (rig.net.delivered().empty()) rig.net.step();
  // Head reaches the node at L + (P + L) = 3; the node drains a flit every 4th cycle from then on
  // (tokens start full), so the 8th flit drains at 3 + 7 * 4 = 31.
  EXPECT_EQ(rig.net.packet(id).delivered, 31);
}

TEST(Network, EjectionFasterThanOneFlitPerCycleReturnsEveryCredit) {
  // Both nodes of a 1-cube hold their ejection until their buffers (4 VCs x 8 flits) are full, then
  // drain at 3 flits per cycle: a full token bucket drains three flits per link in the first cycle, and
  // three credits go back in one cycle on one link (the credit wheel once had room for one).
  Case c{"hypercube1", cube(1), {}};
  c.router.eject_flits_per_cycle = 3.0;
  Rig rig(c);
  for (NodeId v = 0; v < 2; ++v) rig.net.hold_ejection(v, 0, true);
  for (int k = 0; k < 40; ++k) {
    rig.net.inject(0, 1, 4);
    rig.net.inject(1, 0, 4);
  }
  for (int t = 0; t < 200; ++t) rig.net.step();
  EXPECT_EQ(rig.net.counters().flits_ejected, 0);
  for (NodeId v = 0; v < 2; ++v) rig.net.hold_ejection(v, 0, false);
  rig.net.step();
  EXPECT_EQ(rig.net.counters().flits_ejected, 6);
  for (int t = 0; t < 1000 && !rig.net.idle(); ++t) {
    rig.net.step();
    for (const PacketId id : rig.net.delivered()) rig.net.release(id);
  }
  EXPECT_EQ(rig.net.counters().packets_delivered, 80);
  for (int t = 0; t < 16; ++t) rig.net.step();  // credits in flight come home
  EXPECT_EQ(rig.net.credit_deficit(), 0);
}

}  // namespace
}  // namespace mppnet::net::network_test
