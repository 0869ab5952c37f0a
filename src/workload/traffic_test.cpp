// workload/traffic_test.cpp: destinations, packet lengths and determinism of Traffic.
#include "workload/traffic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <vector>

#include "workload/patterns.hpp"

namespace mppnet::workload::traffic_test {
namespace {

constexpr std::uint64_t kSeed = 20240611;

// ---- Destinations ----

TEST(TrafficDestination, UniformNeverPicksTheSourceAndIsFlat) {
  // 16 nodes: each of the 15 others has p = 1/15. Over n = 200,000 draws the count of one
  // destination has mean n/15 = 13,333.3 and sd sqrt(n * 1/15 * 14/15) = 111.6; 5 sd = 558.
  const int n = 200000;
  Traffic t({.pattern = PatternKind::Uniform}, 16, kSeed);
  for (NodeId s : {0, 3, 15}) {
    std::vector<int> hits(16, 0);
    for (int i = 0; i < n; ++i) ++hits[static_cast<std::size_t>(t.destination(s))];
    EXPECT_EQ(hits[static_cast<std::size_t>(s)], 0) << "source " << s;
    for (NodeId d = 0; d < 16; ++d) {
      if (d == s) continue;
      EXPECT_NEAR(hits[static_cast<std::size_t>(d)], n / 15.0, 558.0) << s << " -> " << d;
    }
  }
}

TEST(TrafficDestination, UniformOnOneNodeSendsToItself) {
  Traffic t({.pattern = PatternKind::Uniform}, 1, kSeed);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(t.destination(0), 0);
}

TEST(TrafficDestination, UniformWithSelfIsFlatOverEveryNodeTheSourceIncluded) {
  // traffic.self: 16 nodes, each (the source too) with p = 1/16. Over n = 200,000 draws a count has mean
  // 12,500 and sd sqrt(n * 1/16 * 15/16) = 108.3; 5 sd = 541.
  const int n = 200000;
  Traffic t({.pattern = PatternKind::Uniform, .self = true}, 16, kSeed);
  for (NodeId s : {0, 3, 15}) {
    std::vector<int> hits(16, 0);
    for (int i = 0; i < n; ++i) ++hits[static_cast<std::size_t>(t.destination(s))];
    for (NodeId d = 0; d < 16; ++d)
      EXPECT_NEAR(hits[static_cast<std::size_t>(d)], n / 16.0, 541.0) << s << " -> " << d;
  }
}

TEST(TrafficDestination, HotSpotWithSelfMayPickTheSourceInItsUniformPart) {
  // hot spot 0 with fraction 0.5 on 8 nodes, from source 5: p(5) = 0.5 / 8 with self, 0 without.
  // Over 80,000 draws: mean 5,000, sd sqrt(80000 * 1/16 * 15/16) = 68.5; 5 sd = 342.
  const TrafficParams with{.pattern = PatternKind::HotSpot, .self = true, .hotspot_fraction = 0.5};
  TrafficParams without = with;
  without.self = false;
  Traffic a(with, 8, kSeed), b(without, 8, kSeed);
  int self_a = 0, self_b = 0;
  for (int i = 0; i < 80000; ++i) {
    self_a += a.destination(5) == 5;
    self_b += b.destination(5) == 5;
  }
  EXPECT_NEAR(self_a, 5000, 342);
  EXPECT_EQ(self_b, 0);
}

TEST(TrafficDestination, RandomPermutationWithSelfIsUniformOverAllPermutations) {
  // 3 elements, self = true: all 3! = 6 permutations, each p = 1/6 (the identity too). Over 6,000 seeds
  // each appears 1,000 times on average, sd sqrt(6000 * 1/6 * 5/6) = 28.9; 5 sd = 144.
  std::map<std::vector<NodeId>, int> seen;
  for (std::uint64_t seed = 0; seed < 6000; ++seed) {
    Traffic t({.pattern = PatternKind::RandomPermutation, .self = true}, 3, seed);
    std::vector<NodeId> perm;
    for (NodeId v = 0; v < 3; ++v) perm.push_back(t.destination(v));
    ++seen[perm];
  }
  EXPECT_EQ(seen.size(), 6u);
  for (const auto& [perm, count] : seen) EXPECT_NEAR(count, 1000, 144);
}

// The rule we chose (traffic.cpp): the permutation is a uniformly random derangement, so it is a
// bijection without fixed points, and each node always sends to the same destination.
TEST(TrafficDestination, RandomPermutationIsAFixedDerangement) {
  for (int nodes : {2, 3, 16, 1000}) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      Traffic t({.pattern = PatternKind::RandomPermutation}, nodes, seed);
      std::vector<int> hits(static_cast<std::size_t>(nodes), 0);
      for (NodeId v = 0; v < nodes; ++v) {
        const NodeId d = t.destination(v);
        ASSERT_NE(d, v) << nodes << " nodes, seed " << seed;
        ASSERT_EQ(t.destination(v), d);  // fixed for the run
        ++hits[static_cast<std::size_t>(d)];
      }
      for (int h : hits) ASSERT_EQ(h, 1) << nodes << " nodes, seed " << seed;
    }
  }
  Traffic one({.pattern = PatternKind::RandomPermutation}, 1, kSeed);
  EXPECT_EQ(one.destination(0), 0);  // no derangement of 1 element exists
}

TEST(TrafficDestination, RandomPermutationIsUniformOverDerangements) {
  // 4 elements have !4 = 9 derangements, each of probability 1/9. Over 9,000 seeds each appears
  // 1,000 times on average with sd sqrt(9000 * 1/9 * 8/9) = 29.8; 5 sd = 149.
  std::map<std::vector<NodeId>, int> seen;
  for (std::uint64_t seed = 0; seed < 9000; ++seed) {
    Traffic t({.pattern = PatternKind::RandomPermutation}, 4, seed);
    std::vector<NodeId> perm;
    for (NodeId v = 0; v < 4; ++v) perm.push_back(t.destination(v));
    ++seen[perm];
  }
  EXPECT_EQ(seen.size(), 9u);
  for (const auto& [perm, count] : seen) EXPECT_NEAR(count, 1000, 149);
}

TEST(TrafficDestination, BitPatternsFollowThePureFunctions) {
  // 16 nodes, b = 4. Hand-computed: bit_reverse 1 -> 8, transpose 0111 -> 1101, shuffle 1001 -> 0011.
  Traffic reverse({.pattern = PatternKind::BitReverse}, 16, kSeed);
  Traffic tr({.pattern = PatternKind::Transpose}, 16, kSeed);
  Traffic sh({.pattern = PatternKind::Shuffle}, 16, kSeed);
  Traffic co({.pattern = PatternKind::BitComplement}, 16, kSeed);
  EXPECT_EQ(reverse.destination(1), 8);
  EXPECT_EQ(reverse.destination(6), 6);  // a palindrome sends to itself, by definition
  EXPECT_EQ(tr.destination(0b0111), 0b1101);
  EXPECT_EQ(sh.destination(0b1001), 0b0011);
  EXPECT_EQ(co.destination(5), 10);
  for (NodeId v = 0; v < 16; ++v) {
    EXPECT_EQ(reverse.destination(v), bit_reverse(v, 4));
    EXPECT_EQ(tr.destination(v), transpose(v, 4));
    EXPECT_EQ(sh.destination(v), shuffle(v, 4));
    EXPECT_EQ(co.destination(v), bit_complement(v, 4));
  }
}

TEST(TrafficDestination, TornadoAndNeighborOnAnyNodeCount) {
  Traffic tor({.pattern = PatternKind::Tornado}, 8, kSeed);
  Traffic nb({.pattern = PatternKind::Neighbor}, 8, kSeed);
  EXPECT_EQ(tor.destination(0), 3);  // ceil(8/2) - 1 = 3
  EXPECT_EQ(nb.destination(7), 0);
  Traffic tor10({.pattern = PatternKind::Tornado}, 10, kSeed);
  EXPECT_EQ(tor10.destination(9), 3);  // ceil(10/2) - 1 = 4: 9 + 4 = 13 mod 10
}

TEST(TrafficDestination, HotSpotFractionMatches) {
  // 64 nodes, hot spots {5, 9}, fraction 0.3, source 0 (not a hot spot). A hot spot is hit
  // directly with 0.3/2 and through the uniform part with 0.7/63, so
  // P(5) = P(9) = 0.15 + 0.7/63 = 0.161111, and any other node != 0 has 0.7/63 = 0.011111.
  // n = 200,000: hot count mean 32,222 and sd sqrt(n * 0.161 * 0.839) = 164.4 (5 sd = 822);
  // other count mean 2,222 and sd sqrt(n * 0.0111 * 0.9889) = 46.9 (5 sd = 234).
  const int n = 200000;
  Traffic t({.pattern = PatternKind::HotSpot, .hotspot_fraction = 0.3, .hotspot_nodes = {5, 9}}, 64, kSeed);
  std::vector<int> hits(64, 0);
  for (int i = 0; i < n; ++i) ++hits[static_cast<std::size_t>(t.destination(0))];
  EXPECT_EQ(hits[0], 0);
  for (NodeId d = 1; d < 64; ++d) {
    const bool hot = d == 5 || d == 9;
    EXPECT_NEAR(hits[static_cast<std::size_t>(d)], n * (hot ? 0.15 + 0.7 / 63 : 0.7 / 63), hot ? 822 : 234)
        << "destination " << d;
  }
}

TEST(TrafficDestination, HotSpotWithFractionOneOnlyHitsHotSpotsEvenFromOne) {
  // Fraction 1: always a hot spot, chosen uniformly, including the source itself when it is one
  // (a self-send, by the pattern's definition).
  Traffic t({.pattern = PatternKind::HotSpot, .hotspot_fraction = 1.0, .hotspot_nodes = {2, 7}}, 16, kSeed);
  std::set<NodeId> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(t.destination(2));
  EXPECT_EQ(seen, (std::set<NodeId>{2, 7}));
}

// ---- Packet lengths ----

TEST(TrafficPacketFlits, FixedLengthWhenNoSizesGiven) {
  Traffic t({.packet_flits = 5}, 4, kSeed);
  EXPECT_EQ(t.mean_packet_flits(), 5.0);
  EXPECT_EQ(t.max_packet_flits(), 5);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(t.packet_flits(1), 5);
}

TEST(TrafficPacketFlits, EmpiricalDistributionMatchesWeights) {
  // Sizes 1, 4, 16 with weights 1, 2, 1: probabilities 1/4, 1/2, 1/4; mean (1 + 8 + 16) / 4 = 6.25
  // exactly. Over n = 200,000 draws: sd sqrt(n/4 * 3/4) = 193.6 for the quarters (5 sd = 968) and
  // sqrt(n/4) = 223.6 for the half (5 sd = 1,118).
  const int n = 200000;
  Traffic t({.packet_sizes = {1, 4, 16}, .packet_weights = {1, 2, 1}}, 4, kSeed);
  EXPECT_EQ(t.mean_packet_flits(), 6.25);
  EXPECT_EQ(t.max_packet_flits(), 16);
  std::map<int, int> hits;
  for (int i = 0; i < n; ++i) ++hits[t.packet_flits(2)];
  EXPECT_EQ(hits.size(), 3u);
  EXPECT_NEAR(hits[1], n / 4.0, 968);
  EXPECT_NEAR(hits[4], n / 2.0, 1118);
  EXPECT_NEAR(hits[16], n / 4.0, 968);
}

TEST(TrafficPacketFlits, EmptyWeightsMeanEqualWeights) {
  // Sizes 2 and 3, equal weights: mean 2.5 exactly; each half of n = 100,000 draws has
  // sd sqrt(n/4) = 158; 5 sd = 791.
  const int n = 100000;
  Traffic t({.packet_sizes = {2, 3}}, 4, kSeed);
  EXPECT_EQ(t.mean_packet_flits(), 2.5);
  EXPECT_EQ(t.max_packet_flits(), 3);
  int twos = 0;
  for (int i = 0; i < n; ++i) twos += t.packet_flits(0) == 2;
  EXPECT_NEAR(twos, n / 2.0, 791);
}

TEST(TrafficPacketFlits, ZeroWeightSizeIsNeverDrawnNorTheMaximum) {
  Traffic t({.packet_sizes = {64, 3, 128}, .packet_weights = {0, 1, 0}}, 4, kSeed);
  EXPECT_EQ(t.mean_packet_flits(), 3.0);
  EXPECT_EQ(t.max_packet_flits(), 3);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(t.packet_flits(0), 3);
}

// ---- Determinism and independence ----

struct Packet {
  Cycle arrival;
  NodeId destination;
  int flits;
  bool operator==(const Packet&) const = default;
};

void PrintTo(const Packet& p, std::ostream* os) {
  *os << "{t=" << p.arrival << " d=" << p.destination << " flits=" << p.flits << "}";
}

// Node v's first n packets. When `others` is set, every other node draws a packet (and sometimes
// two) between v's packets, to show that v's sequence does not depend on them.
std::vector<Packet> packets(Traffic& t, NodeId v, int n, bool others) {
  std::vector<Packet> out;
  std::vector<Cycle> last(static_cast<std::size_t>(t.nodes()), 0);
  for (NodeId u = 0; u < t.nodes() && others; ++u) {
    if (u != v) last[static_cast<std::size_t>(u)] = t.first_arrival(u, 0);
  }
  Cycle at = t.first_arrival(v, 0);
  for (int i = 0; i < n; ++i) {
    out.push_back({at, t.destination(v), t.packet_flits(v)});
    at = t.next_arrival(v, at);
    for (NodeId u = 0; u < t.nodes() && others; ++u) {
      if (u == v) continue;
      for (int k = 0; k < 1 + (i + u) % 2; ++k) {
        auto& l = last[static_cast<std::size_t>(u)];
        l = t.next_arrival(u, l);
        t.destination(u);
        t.packet_flits(u);
      }
    }
  }
  return out;
}

const TrafficParams kMixed{.pattern = PatternKind::HotSpot,
                           .rate = 0.3,
                           .injection = InjectionKind::OnOff,
                           .packet_sizes = {1, 5, 9},
                           .burst_packets = 4.0,
                           .burst_rate = 0.9,
                           .hotspot_fraction = 0.2,
                           .hotspot_nodes = {3}};

TEST(TrafficDeterminism, SameSeedAndNodeGiveTheSameSequenceWhateverOthersDraw) {
  for (const TrafficParams& p : {TrafficParams{.rate = 0.2, .packet_sizes = {1, 2, 3}}, kMixed}) {
    Traffic alone(p, 16, kSeed);
    Traffic busy(p, 16, kSeed);
    EXPECT_EQ(packets(alone, 6, 300, false), packets(busy, 6, 300, true)) << name(p.injection);
  }
}

TEST(TrafficDeterminism, DifferentSeedsGiveDifferentSequences) {
  Traffic a(kMixed, 16, 1);
  Traffic b(kMixed, 16, 2);
  const auto pa = packets(a, 6, 300, false);
  const auto pb = packets(b, 6, 300, false);
  // Compare each stream on its own: with 300 packets, equality by chance is out of the question.
  auto differs = [&](auto field) {
    for (std::size_t i = 0; i < pa.size(); ++i) {
      if (field(pa[i]) != field(pb[i])) return true;
    }
    return false;
  };
  EXPECT_TRUE(differs([](const Packet& p) { return p.arrival; }));
  EXPECT_TRUE(differs([](const Packet& p) { return p.destination; }));
  EXPECT_TRUE(differs([](const Packet& p) { return p.flits; }));
}

TEST(TrafficDeterminism, DifferentNodesGetDifferentSequences) {
  Traffic t(kMixed, 16, kSeed);
  EXPECT_NE(packets(t, 6, 300, false), packets(t, 7, 300, false));
}

}  // namespace
}  // namespace mppnet::workload::traffic_test
