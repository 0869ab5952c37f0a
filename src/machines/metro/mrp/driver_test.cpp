// machines/metro/mrp/driver_test.cpp: many connections at once on Fig 4.4's network: contention blocks
// some, and every connection, blocked or not, ends with a well-formed return stream and frees its ports.
#include "machines/metro/mrp/driver.hpp"

#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>

#include "machines/metro/params_for_test.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

struct RoundOutcome {
  int blocked = 0, delivered = 0;
};

// Every node opens a connection from its input 0 in cycle 0 to its image under a random permutation:
// ROUTE, `data` words, TURN; each destination replies Y1 and DROP.
RoundOutcome permutation_round(std::uint64_t seed, int data, int dps = 1, bool fast_reclaim = false) {
  const Multibutterfly graph = build_instance(params(2, 2, 4, Wiring::Deterministic), seed, 0);
  MrpParams mp;
  mp.dps = dps;
  MrpNetwork net(graph, mp, seed);
  net.set_fast_reclaim(fast_reclaim);
  const WordFormat& f = net.format();
  std::vector<NodeId> dest(net.nodes());
  std::iota(dest.begin(), dest.end(), 0);
  core::RandomStream rng(seed, 0, core::Stream::Destination);
  for (int k = net.nodes() - 1; k > 0; --k) std::swap(dest[k], dest[rng.below(k + 1)]);
  MrpDriver driver(net);
  std::vector<int> sources;
  for (NodeId x = 0; x < net.nodes(); ++x) {
    std::vector<Word> request = {route_to(f, 2, net.stages(), dest[x])};
    for (const Word& w : data_words(f, Tag::Data, data)) request.push_back(w);
    request.push_back(f.turn());
    std::vector<Word> reply = data_words(f, Tag::Reply, 1);
    reply.push_back(f.drop());
    sources.push_back(driver.connect(x, 0, dest[x], 0, {request}, {reply}));
  }
  driver.run(200);
  RoundOutcome out;
  for (int k : sources) {
    const ScriptedEnd& s = driver.end(k);
    EXPECT_TRUE(s.closed()) << "seed " << seed << " source " << k;
    if (s.backdropped()) {  // collapsed by fast reclamation: nothing comes back
      EXPECT_TRUE(fast_reclaim);
      EXPECT_TRUE(s.received().empty());
      ++out.blocked;
      continue;
    }
    const ReturnStream r = parse_return(f, s.received(), 0, net.stages());
    EXPECT_TRUE(r.well_formed) << "seed " << seed;
    if (r.blocked_stage > 0) {
      ++out.blocked;
      EXPECT_EQ(static_cast<int>(r.status.size()), r.blocked_stage);
    } else {
      ++out.delivered;
      EXPECT_EQ(r.reply.size(), 1U);
    }
  }
  // Every connection has closed: no port is held and no forward port is in a connection state.
  for (RouterId u = 0; u < net.routers(); ++u) {
    for (int p = 0; p < net.backward_ports(u); ++p) EXPECT_FALSE(net.backward_busy(u, p));
    for (int p = 0; p < net.forward_ports(u); ++p) EXPECT_EQ(net.state(u, p), PortState::Idle);
  }
  return out;
}

TEST(MrpDriver, PermutationRoundsBlockSomeDeliverOthersAndLeaveEveryPortFree) {
  // 16 simultaneous connections through d = 2 routers: some meet full directions. Blocking must occur in
  // some round (else contention was never exercised) and most connections must get through.
  RoundOutcome total;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const RoundOutcome o = permutation_round(seed, 6);
    total.blocked += o.blocked;
    total.delivered += o.delivered;
  }
  EXPECT_EQ(total.blocked + total.delivered, 20 * 16);
  EXPECT_GT(total.blocked, 0);
  EXPECT_GT(total.delivered, total.blocked);
}

TEST(MrpDriver, PipelinedRoutersKeepEveryConnectionWellFormedUnderContention) {
  for (const int dps : {2, 3}) {
    RoundOutcome total;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const RoundOutcome o = permutation_round(seed, 6, dps);
      total.blocked += o.blocked;
      total.delivered += o.delivered;
    }
    EXPECT_EQ(total.blocked + total.delivered, 10 * 16) << "dps " << dps;
    EXPECT_GT(total.blocked, 0) << "dps " << dps;
  }
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp

namespace mppnet::machines::metro::mrp {
namespace {

TEST(MrpDriver, FastReclaimCollapsesBlockedConnectionsAndFreesEveryPort) {
  for (const int dps : {1, 2}) {
    RoundOutcome total;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const RoundOutcome o = permutation_round(seed, 6, dps, true);
      total.blocked += o.blocked;
      total.delivered += o.delivered;
    }
    EXPECT_EQ(total.blocked + total.delivered, 10 * 16) << "dps " << dps;
    EXPECT_GT(total.blocked, 0) << "dps " << dps;
  }
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
