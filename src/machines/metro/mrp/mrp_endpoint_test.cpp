// machines/metro/mrp/mrp_endpoint_test.cpp: MRP-ENDPOINT against timings derived from the protocol.
//
// Timing model (note 004b §2.10): with W = 1 and P = dps - 1, a word the source puts on its link in cycle
// t reaches the destination in t + T_fwd, T_fwd = (N + 1) + N * P. A message of L words after the ROUTE
// puts its TURN on the link in cycle t0 + 1 + L; the destination answers in the cycle it reads it with
// ACK, the reply check and DROP; the source reads the DROP in t0 + (1 + L) + 2 * T_fwd + 2. A connection
// blocked at stage s (no fast reclaim) returns s STATUS/CHECKSUM pairs and its DROP reaches the source in
// T_turn + 2s + 2 (W = 1, P = 0).
#include "machines/metro/mrp/mrp_endpoint.hpp"

#include <gtest/gtest.h>

#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

// d = 1 gives a butterfly with ni = no = 1 (a final router per two nodes), where connections to one node
// contend for its one output.
MultibutterflyParams figure_44(int dilation = 2) {
  MultibutterflyParams p;
  p.radix = 2;
  p.dilation = dilation;
  p.stages = 4;
  p.node_inputs = p.node_outputs = dilation;
  if (dilation == 1) p.final_pairing = FinalPairing::Single;  // one final router per destination pair
  p.wiring = Wiring::Deterministic;
  return p;
}

struct Bench {
  Multibutterfly graph;
  MrpNetwork net;
  MrpEndpoints ends;
  std::vector<Attempt> attempts;
  std::vector<Completion> completions;

  Bench(const MultibutterflyParams& p, int dps, const EndpointParams& e, std::uint64_t seed = 1)
      : graph(build_instance(p, seed, 0)),
        net(graph, MrpParams{.dps = dps}, seed),
        ends(net, p.radix, e, seed) {
    ends.set_log(&attempts, &completions);
  }
  void run(int cycles) {
    for (int c = 0; c < cycles; ++c) {
      ends.tick();
      net.step();
    }
  }
  int run_until_idle(int limit) {
    int c = 0;
    for (; c < limit && !ends.idle(); ++c) {
      ends.tick();
      net.step();
    }
    return c;
  }
};

EndpointParams words(int message_words) {
  EndpointParams e;
  e.message_words = message_words;
  return e;
}

TEST(MrpEndpoint, ZeroLoadMessageOnTheMbtaTakes41Cycles) {
  // N = 3, dps = 2: T_fwd = 4 + 3 = 7 (70 ns). L = 24: (1 + 24) + 2 * 7 + 2 = 41.
  Bench b(mbta_network(), 2, words(24));
  ASSERT_TRUE(b.ends.send(0, 63));
  b.run_until_idle(200);
  ASSERT_EQ(b.completions.size(), 1u);
  EXPECT_EQ(b.completions[0].done - b.completions[0].created, 41);
  EXPECT_EQ(b.completions[0].attempts, 1);
  ASSERT_EQ(b.attempts.size(), 1u);
  EXPECT_EQ(b.attempts[0].outcome, Outcome::Delivered);
  EXPECT_EQ(b.attempts[0].pairs, 3);
  // Every router's CHECKSUM is the XOR of what the source sent since the ROUTE (L1437).
  EXPECT_EQ(b.attempts[0].checksum_mismatches, 0);
  const EndpointStats& s = b.ends.stats();
  EXPECT_EQ(s.delivered, 1);
  EXPECT_EQ(s.accepted, 1);
  EXPECT_EQ(s.latency_sum, 41);
  // The destination reads the ROUTE in cycle 7 and sends its DROP two cycles after reading the TURN
  // (25 + 7 = 32): cycles 7..34.
  EXPECT_EQ(s.busy_output_cycles, 28);
}

TEST(MrpEndpoint, ZeroLoadOnFigure44IsFiveWordsPlusTwoRoundTrips) {
  // N = 4, dps = 1: T_fwd = 5; L = 5 (id, sequence, 1 payload word, 2 checks): 6 + 10 + 2 = 18.
  Bench b(figure_44(), 1, words(5));
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(100);
  ASSERT_EQ(b.completions.size(), 1u);
  EXPECT_EQ(b.completions[0].done - b.completions[0].created, 18);
  EXPECT_EQ(b.attempts[0].pairs, 4);
}

TEST(MrpEndpoint, BlockedAtStageThreeReturnsThreePairsThenDropAndRetriesAtOnce) {
  // Every stage-3 port of the direction toward node 15 deselected: each attempt blocks at stage 3. The
  // TURN goes on the link in cycle 1 + L = 6, the DROP reaches the source in 6 + 2*3 + 2 = 14, and the
  // retry's ROUTE goes out in that same cycle (immediate retry, note 004b §6 item 18).
  EndpointParams e = words(5);
  e.max_attempts = 3;
  Bench b(figure_44(), 1, e);
  const int digit = (15 >> 1) & 1;  // stage 3 routes on the third address bit, most significant first
  const int s = 2, d = b.graph.copies[s];
  for (RouterId u = b.graph.stage_first[s]; u < b.graph.stage_first[s + 1]; ++u)
    for (int k = 0; k < d; ++k) b.net.deselect_backward(u, digit * d + k);
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(200);
  ASSERT_EQ(b.attempts.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(b.attempts[k].outcome, Outcome::Blocked);
    EXPECT_EQ(b.attempts[k].blocked_stage, 3);
    EXPECT_EQ(b.attempts[k].pairs, 3);
    EXPECT_EQ(b.attempts[k].end - b.attempts[k].start, 14);
    if (k > 0) {
      EXPECT_EQ(b.attempts[k].start, b.attempts[k - 1].end);
    }
  }
  ASSERT_EQ(b.completions.size(), 1u);
  EXPECT_TRUE(b.completions[0].failed);
  EXPECT_EQ(b.ends.stats().failed, 1);
  EXPECT_EQ(b.ends.stats().accepted, 0);
}

TEST(MrpEndpoint, TwoSourcesForOneOutputOneWinsTheOtherRetriesAndSucceeds) {
  // A butterfly (d = 1, ni = no = 1): node 15 has one output, and the paths from nodes 5 and 2 first
  // meet at its final router, so of two connections opened in cycle 0 one is blocked at stage 4.
  // Winner: 18 cycles (as above). Loser: its DROP arrives in 6 + 2*4 + 2 = 16; the winner's final port
  // is free from cycle 6 + 5 + 2 + 1 = 14, so the retry from cycle 16 succeeds: 16 + 18 = 34.
  Bench b(figure_44(1), 1, words(5));
  ASSERT_TRUE(b.ends.send(5, 15));
  ASSERT_TRUE(b.ends.send(2, 15));
  b.run_until_idle(200);
  ASSERT_EQ(b.completions.size(), 2u);
  EXPECT_EQ(b.completions[0].done - b.completions[0].created, 18);
  EXPECT_EQ(b.completions[0].attempts, 1);
  EXPECT_EQ(b.completions[1].done - b.completions[1].created, 34);
  EXPECT_EQ(b.completions[1].attempts, 2);
  EXPECT_EQ(b.ends.stats().blocked, 1);
  EXPECT_EQ(b.ends.stats().accepted, 2);
  ASSERT_EQ(b.attempts.size(), 3u);
  EXPECT_EQ(b.attempts[0].blocked_stage, 4);
  EXPECT_EQ(b.attempts[0].pairs, 4);
}

TEST(MrpEndpoint, FastReclaimAbortsOnBackDropAndTheMessageStillArrives) {
  // With fast reclamation the loser of the contention above returns no status: back-drop collapses it
  // (§4.9.2), the source aborts with a DROP, and retries until the output is free.
  Bench b(figure_44(1), 1, words(5));
  b.net.set_fast_reclaim(true);
  ASSERT_TRUE(b.ends.send(5, 15));
  ASSERT_TRUE(b.ends.send(2, 15));
  b.run_until_idle(400);
  ASSERT_EQ(b.completions.size(), 2u);
  EXPECT_EQ(b.ends.stats().delivered, 2);
  EXPECT_GE(b.ends.stats().blocked_fast, 1);
  EXPECT_EQ(b.ends.stats().blocked, 0);
  // The back-drop of a block at stage 4 reaches the source 2 * 4 cycles after the ROUTE (V9: stage 3
  // gives cycle 6), and the source aborts in that cycle.
  EXPECT_EQ(b.attempts[0].outcome, Outcome::BlockedFast);
  EXPECT_EQ(b.attempts[0].end - b.attempts[0].start, 8);
}

TEST(MrpEndpoint, CorruptedArrivalIsNackedAndRetried) {
  // One payload bit flipped at node 15's output: the check words fail, 15 NACKs, the source retries at
  // once and the second copy is accepted: 18 + 18 cycles.
  Bench b(figure_44(), 1, words(5));
  b.ends.corrupt_arrivals(15, 1);
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(200);
  ASSERT_EQ(b.attempts.size(), 2u);
  EXPECT_EQ(b.attempts[0].outcome, Outcome::Corrupted);
  EXPECT_EQ(b.attempts[1].outcome, Outcome::Delivered);
  EXPECT_EQ(b.completions[0].done - b.completions[0].created, 36);
  EXPECT_EQ(b.ends.stats().corrupted, 1);
  EXPECT_EQ(b.ends.stats().accepted, 1);
  EXPECT_EQ(b.ends.stats().duplicates, 0);
}

// The stage-2 ports toward node 15 (direction 1: its second address bit; copy `only_copy`, -1 both)
// flip the top data bit, a bit no later stage routes on: of every word they pass on (count -1), or of
// `count` words after the first `skip`.
void flip_stage_two_toward_15(Bench& b, int only_copy = -1, int skip = 0, int count = -1) {
  const int s = 1, d = b.graph.copies[s], digit = (15 >> 2) & 1;
  for (RouterId u = b.graph.stage_first[s]; u < b.graph.stage_first[s + 1]; ++u)
    for (int k = 0; k < d; ++k)
      if (only_copy < 0 || k == only_copy)
        b.net.set_link_flip(b.net.backward_link(u, digit * d + k), 0x80, skip, count);
}

TEST(MrpEndpoint, FlippedLinkAfterStageTwoIsNackedAndLocatedByTheRouterChecksums) {
  // Note 004b §5 V13: one payload word (after the ROUTE, id and sequence words) flipped on the link out
  // of stage 2: C1 and C2 match what the source sent, C3 and C4 (routers past the fault) do not.
  EndpointParams e = words(5);
  e.max_attempts = 1;
  Bench b(figure_44(), 1, e);
  flip_stage_two_toward_15(b, -1, 3, 1);
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(100);
  ASSERT_EQ(b.attempts.size(), 1u);
  EXPECT_EQ(b.attempts[0].outcome, Outcome::Corrupted);
  EXPECT_EQ(b.attempts[0].pairs, 4);
  EXPECT_EQ(b.attempts[0].checksum_mismatches, 2);
  EXPECT_EQ(b.attempts[0].first_mismatch_stage, 3);
  EXPECT_EQ(b.ends.stats().accepted, 0);
  EXPECT_EQ(b.ends.stats().failed, 1);
}

TEST(MrpEndpoint, OneFaultyCopyOfTwoCostsRetriesAndMaskingItEndsThem) {
  // V12: with copy 0 of the two faulty, an attempt fails with probability 1/2; deselecting that copy
  // (V11's masking) makes every first attempt succeed.
  Bench b(figure_44(), 1, words(5));
  flip_stage_two_toward_15(b, 0);
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(b.ends.send(5, 15));
    b.run_until_idle(10000);
  }
  EXPECT_EQ(b.ends.stats().delivered, 200);
  EXPECT_GT(b.ends.stats().corrupted, 60);  // 200 failures expected; 60 is far below any plausible draw
  Bench m(figure_44(), 1, words(5));
  flip_stage_two_toward_15(m, 0);
  const int s = 1, d = m.graph.copies[s], digit = (15 >> 2) & 1;
  for (RouterId u = m.graph.stage_first[s]; u < m.graph.stage_first[s + 1]; ++u)
    m.net.deselect_backward(u, digit * d + 0);
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(m.ends.send(5, 15));
    m.run_until_idle(10000);
  }
  EXPECT_EQ(m.ends.stats().attempts, 200);
  EXPECT_EQ(m.ends.stats().corrupted, 0);
}

TEST(MrpEndpoint, ABitStuckInEveryWordFailsTheChecks) {
  // A plain XOR and a sum both miss a top bit flipped in an even number of words; the rotating first
  // check word does not. Stuck in all 8 words of a 10-word message (id and sequence included), it is
  // NACKed on every attempt.
  EndpointParams e = words(10);
  e.max_attempts = 3;
  Bench b(figure_44(), 1, e);
  flip_stage_two_toward_15(b);
  ASSERT_TRUE(b.ends.send(1, 15));
  b.run_until_idle(400);
  EXPECT_EQ(b.ends.stats().corrupted, 3);
  EXPECT_EQ(b.ends.stats().accepted, 0);
}

TEST(MrpEndpoint, CorruptedAckMakesADuplicateThatTheDestinationSuppresses) {
  // The ACK is flipped after node 15 accepted the message: the source retries a delivered message
  // (L1526), the copy arrives intact and is acknowledged but not accepted again.
  Bench b(figure_44(), 1, words(5));
  b.ends.corrupt_replies(15, 1);
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(200);
  EXPECT_EQ(b.ends.stats().attempts, 2);
  EXPECT_EQ(b.ends.stats().corrupted, 1);
  EXPECT_EQ(b.ends.stats().delivered, 1);
  EXPECT_EQ(b.ends.stats().duplicates, 1);
  EXPECT_EQ(b.ends.stats().accepted, 1);
}

TEST(MrpEndpoint, WithoutSuppressionTheDuplicateIsDeliveredTwice) {
  EndpointParams e = words(5);
  e.suppress_duplicates = false;
  Bench b(figure_44(), 1, e);
  b.ends.corrupt_replies(15, 1);
  ASSERT_TRUE(b.ends.send(5, 15));
  b.run_until_idle(200);
  EXPECT_EQ(b.ends.stats().duplicates, 1);
  EXPECT_EQ(b.ends.stats().accepted, 2);
}

TEST(MrpEndpoint, SequenceWindowAcceptsOutOfOrderAndRefusesRepeats) {
  // Four messages 5 -> 15 at once (two inputs, both outputs of 15): all arrive once, in some order.
  EndpointParams e = words(5);
  Bench b(figure_44(), 1, e);
  for (int k = 0; k < 4; ++k) ASSERT_TRUE(b.ends.send(5, 15));
  b.ends.corrupt_replies(15, 2);
  b.run_until_idle(400);
  EXPECT_EQ(b.ends.stats().delivered, 4);
  EXPECT_EQ(b.ends.stats().accepted, 4);
  EXPECT_EQ(b.ends.stats().duplicates, 2);
}

TEST(MrpEndpoint, OutstandingLimitHoldsTheRestInTheQueue) {
  EndpointParams e = words(5);
  e.outstanding = 1;
  Bench b(figure_44(), 1, e);
  ASSERT_TRUE(b.ends.send(5, 15));
  ASSERT_TRUE(b.ends.send(5, 14));
  b.run_until_idle(200);
  // One at a time: the second starts in the cycle the first completes (18), so it completes at 36.
  ASSERT_EQ(b.completions.size(), 2u);
  EXPECT_EQ(b.completions[1].done, 36);
}

TEST(MrpEndpoint, QueueRefusesBeyondItsCapacity) {
  EndpointParams e = words(5);
  e.queue_capacity = 2;
  e.outstanding = 1;
  Bench b(figure_44(), 1, e);
  EXPECT_TRUE(b.ends.send(5, 15));
  EXPECT_TRUE(b.ends.send(5, 15));
  EXPECT_FALSE(b.ends.send(5, 15));
}

TEST(MrpEndpoint, ChecksRefuseTooShortMessagesAndTooManyOutstanding) {
  const WordFormat f{8, 2};
  EndpointParams e;
  e.message_words = 3;  // 16 nodes: 1 id word + sequence + 2 checks = 4
  auto p = check_endpoints(e, f, 16);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].key, "metro.mrp.message_words");
  e.message_words = 24;
  e.outstanding = 64;  // the 64-bit window holds 63 beyond the next expected
  p = check_endpoints(e, f, 16);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].key, "metro.mrp.outstanding");
  e.outstanding = 8;
  EXPECT_EQ(check_endpoints(e, WordFormat{4, 2}, 16).size(), 1u);  // 4-bit sequence words: at most 7
  EXPECT_TRUE(check_endpoints(e, f, 16).empty());
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
