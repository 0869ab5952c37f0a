// machines/cm5/data_network_test.cpp: timing, bandwidth and fairness of the data network, against
// derivations from the paper's link rate and the model's stated timing.
#include "machines/cm5/data_network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "machines/cm5/completion.hpp"
#include "machines/cm5/message_format.hpp"
#include "machines/cm5/message_sets.hpp"
#include "machines/cm5/streams.hpp"

namespace mppnet::machines::cm5::data_network_test {
namespace {

struct Recorder final : DataNetworkObserver {
  std::vector<Message> got;
  void on_delivery(MessageId, const Message& m) override { got.push_back(m); }
};

DataNetworkParams machine(int nodes) {
  DataNetworkParams p;
  p.nodes = nodes;
  return p;
}

TEST(MessageFormat, LengthsFollowNoteA3ToA5) {
  // Route: 1 + 4 + 2L bits in whole nibbles; then length, tag, 8 nibbles a word, CRC-16.
  EXPECT_EQ(message_nibbles(5, 1), 2 + 1 + 1 + 40 + 4);
  EXPECT_EQ(message_nibbles(5, 5), 4 + 1 + 1 + 40 + 4);
  EXPECT_EQ(message_nibbles(1, 7), 5 + 1 + 1 + 8 + 4);
}

TEST(DataNetwork, AnUnloadedMessageTakesTheDerivedNumberOfCycles) {
  // 1024 nodes, node 0 to node 1023: the LCA is at level 5, so the message passes 9 chips (levels
  // 1..5..1) and 10 links: node-1, 1-2 and back are backplane links (1 cycle each), the six between
  // levels 2..5 are cables (2 cycles). Sent at cycle 0, its head leaves the node at cycle 1; each chip
  // holds the head for its route_cycles; the tail follows the head by 50 - 1 cycles (5 words at LCA 5 =
  // 50 nibbles).
  const DataNetworkParams p = machine(1024);
  DataNetwork net(p);
  Recorder rec;
  net.set_observer(&rec);
  net.send(0, 1023, 5, 0, 0);
  net.run_until(500);
  ASSERT_EQ(rec.got.size(), 1u);
  EXPECT_EQ(rec.got[0].injected, 1);
  EXPECT_EQ(rec.got[0].delivered, 1 + 4 * 1 + 6 * 2 + 9 * p.route_cycles + (50 - 1));
  EXPECT_EQ(rec.got[0].nibbles, 50);
}

TEST(DataNetwork, ANodeStreamsAtTheFullLinkRateOnBothSides) {
  // Paper L205 (note V15): 2 links of 20 MB/s each way. 200 messages per side to a neighbour under the
  // same level-1 chip (48 nibbles each) leave back to back: the k-th head leaves at 1 + 48k, and the
  // last tail arrives 1 + route_cycles + 1 + 47 cycles after its head left.
  const DataNetworkParams p = machine(64);
  DataNetwork net(p);
  Recorder rec;
  net.set_observer(&rec);
  for (int k = 0; k < 200; ++k) {
    net.send(0, 1, 5, 0, 0);
    net.send(0, 2, 5, 0, 1);
  }
  net.run_until(20000);
  ASSERT_EQ(rec.got.size(), 400u);
  Cycle last = 0;
  for (const Message& m : rec.got) last = std::max(last, m.delivered);
  EXPECT_EQ(last, 1 + 199 * 48 + 1 + p.route_cycles + 1 + 47);
}

TEST(DataNetwork, SixteenNodesSendAtMostTheirEightUplinksWorthAndNearlyThat) {
  // Note V13 (paper L206-207): the 16 nodes of a level-2 subtree sending out of it are limited by its
  // 8 uplinks (both sides): 8 nibbles a cycle = 160 MB/s raw. The upper edge is exact (no more can
  // leave); the lower edge allows the cycles lost when two heads pick the same free parent at once.
  DataNetwork net(machine(64));
  const Pattern out_of_subtree = [](NodeId src, core::RandomStream& r) -> NodeId {
    return src < 16 ? 16 + static_cast<NodeId>(r.below(48)) : -1;
  };
  const StreamResult got =
      run_streams(net, out_of_subtree, {.warmup_cycles = 2000, .measure_cycles = 20000}, 7);
  EXPECT_LE(got.raw_mb_per_s(), 160.0 * (1 + 1.0 / 400));  // a message straddling the window's edge
  EXPECT_GE(got.raw_mb_per_s(), 160.0 * 0.97);
}

TEST(DataNetwork, EveryMessageArrivesOnceAndEveryChipBalancesItsCounters) {
  DataNetwork net(machine(256));
  Recorder rec;
  net.set_observer(&rec);
  core::RandomStream r(3, 0, core::Stream::Destination);
  std::map<std::uint64_t, NodeId> sent;
  for (std::uint64_t label = 0; label < 5000; ++label) {
    const auto src = static_cast<NodeId>(r.below(256));
    const auto dest = static_cast<NodeId>(r.below(256));
    net.send(src, dest, 1 + static_cast<int>(r.below(5)), static_cast<int>(label % 16),
             static_cast<int>(r.below(2)), label);
    sent[label] = dest;
  }
  net.run_until(1'000'000);
  EXPECT_FALSE(net.busy());
  ASSERT_EQ(rec.got.size(), sent.size());
  for (const Message& m : rec.got) EXPECT_EQ(m.dest, sent.at(m.label));
  EXPECT_TRUE(net.kirchhoff_violations().empty());
  std::int64_t in = 0, out = 0;
  for (NodeId v = 0; v < 256; ++v) {
    for (int side = 0; side < kSides; ++side) {
      in += net.ni_sent(v, side);
      out += net.ni_received(v, side);
    }
  }
  EXPECT_EQ(in, 5000);
  EXPECT_EQ(out, 5000);
}

TEST(DataNetwork, TheSameSeedGivesTheSameRunAndAnotherSeedADifferentOne) {
  const auto run = [](std::uint64_t seed) {
    DataNetworkParams p = machine(256);
    p.seed = seed;
    DataNetwork net(p);
    Recorder rec;
    net.set_observer(&rec);
    core::RandomStream r(5, 0, core::Stream::Destination);
    for (int k = 0; k < 3000; ++k)
      net.send(static_cast<NodeId>(r.below(256)), static_cast<NodeId>(r.below(256)), 5, 0, 0, k);
    net.run_until(1'000'000);
    std::vector<Cycle> times;
    for (const Message& m : rec.got) times.push_back(m.delivered * 100000 + static_cast<Cycle>(m.label));
    return times;
  };
  EXPECT_EQ(run(1), run(1));
  EXPECT_NE(run(1), run(2));
}

TEST(DataNetwork, AHotOutputServesItsSevenInputsInTurn) {
  // Note V21 (paper L245-246: arbitration is fair, no link starves): 3 neighbours under node 0's
  // level-1 chip and 4 nodes of another subtree all stream to node 0 on the left side. The chip's
  // output to node 0 is granted round-robin among its 5 busy inputs: the 3 neighbours' ports and the
  // 2 parent ports the far nodes' messages come down (the random up-choice uses both). A round of 5
  // grants takes 3 * 48 + 2 * 49 = 242 cycles (LCA 1 and LCA 3 messages), so each input gets
  // 40000 / 242 = 165 messages, to
  // within one message at each end of the window; the far nodes share their 2 * 165.
  DataNetwork net(machine(64));
  const Pattern to_zero = [](NodeId src, core::RandomStream&) -> NodeId {
    return (src >= 1 && src <= 3) || (src >= 16 && src < 20) ? 0 : -1;
  };
  const StreamResult got =
      run_streams(net, to_zero, {.warmup_cycles = 2000, .measure_cycles = 40000, .both_sides = false}, 1);
  EXPECT_EQ(got.senders, 7);
  const double rounds = 40000.0 / (3 * message_nibbles(5, 1) + 2 * message_nibbles(5, 3));
  for (NodeId v : {1, 2, 3}) EXPECT_NEAR(got.delivered_from[v], rounds, 2) << "neighbour " << v;
  std::int64_t far = 0;
  for (NodeId v = 16; v < 20; ++v) {
    EXPECT_GT(got.delivered_from[v], rounds / 2 * 0.8) << "far node " << v;
    far += got.delivered_from[v];
  }
  EXPECT_NEAR(static_cast<double>(far), 2 * rounds, 3);
  // The output to node 0 is never idle while messages wait: 1 nibble a cycle.
  EXPECT_GE(got.raw_mb_per_s(), 20.0 * 0.97);
}

// A buffer's room comes from the credit schedule of its last two leaving messages. Against the
// completion times the model gave when it walked every entry of the ring for every room query (recorded
// before the change: a refactor's safety net), with 1-word messages (16 nibbles, the shortest there
// are, at level-1 turns; a few more higher up) and wires up to the longest allowed, 16 cycles, where a
// credit takes as long to return as the shortest message takes to leave.
TEST(DataNetwork, RoomFromTheLastTwoLeavingMessagesAgreesWithAWalkOfTheWholeBuffer) {
  const auto completion = [](int board, int cable, int nodes, const MessageSet& set) {
    DataNetworkParams p = machine(nodes);
    p.board_wire_cycles = board;
    p.cable_wire_cycles = cable;
    DataNetwork net(p);
    return completion_cycles(net, set, 1);
  };
  const MessageSet random = repeat(random_permutation(256, 7), 8);
  EXPECT_EQ(completion(1, 2, 256, random), 692);
  EXPECT_EQ(completion(16, 16, 256, random), 761);
  EXPECT_EQ(completion(1, 16, 256, random), 703);
  EXPECT_EQ(completion(16, 16, 64, all_to_all(64)), 2382);
}

}  // namespace
}  // namespace mppnet::machines::cm5::data_network_test
