// machines/metro/mrp/scenarios_test.cpp: whole connections over Fig 4.4's network, against the link
// traces and return streams of note 004b §5 (V1-V4), which the note derives from the thesis's prose
// (§4.5.3, §4.7.2, §4.8.2: Figs 4.5-4.10, whose bodies are lost).
#include "machines/metro/mrp/scenarios.hpp"

#include <set>

#include <gtest/gtest.h>

#include "machines/metro/mrp/driver.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

std::uint32_t xor_of(const std::vector<Word>& words) {
  std::uint32_t x = 0;
  for (const Word& w : words) x ^= w.data;
  return x;
}

TEST(MrpScenario, V1TraceIsTheNotesOnEverySeed) {
  // The path differs from seed to seed (random choice at stages 1-3); the words on it do not.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const ConnectionRun run = run_v1_open_and_turn(seed);
    EXPECT_EQ(run.trace.links.size(), 5U);  // L0..L4: 4 routers
    EXPECT_EQ(trace_mismatches(note_trace_v1(), run.trace), 0) << "seed " << seed;
  }
}

TEST(MrpScenario, V1SourceReadsFourPairsThenTheReplyAtTurnPlusTwiceTheOneWayLatency) {
  const ConnectionRun run = run_v1_open_and_turn(1);
  const ReturnStream r = parse_return(run.format, run.at_source, 0, kExampleStages);
  EXPECT_TRUE(r.well_formed);
  EXPECT_TRUE(r.ended_by_drop);
  ASSERT_EQ(r.status.size(), 4U);
  EXPECT_EQ(r.blocked_stage, 0);
  // Every router's checksum covers R, D1, D2 in its own frame; the reverse links undo the permutation,
  // so the source reads the XOR of what it sent (note 004b §6 item 6).
  for (const Word& c : r.checksum) EXPECT_EQ(c.data, xor_of(run.sent));
  // TURN on L0 in cycle 3, one-way latency N + 1 = 5: the first reply word is read in 3 + 2*5 = 13.
  EXPECT_EQ(r.first_reply_cycle, 13);
  // The last wire completes the turn of the bits, so the destination reads D1 as the source wrote it ...
  ASSERT_GE(run.at_destination.size(), 3U);
  EXPECT_EQ(run.at_destination[1].word.data, run.sent[1].data);
  // ... and the source reads the reply as the destination wrote it.
  const auto sent_reply = data_words(run.format, Tag::Reply, 2);
  ASSERT_EQ(r.reply.size(), 2U);
  EXPECT_EQ(r.reply[0].data, sent_reply[0].data);
  EXPECT_EQ(r.reply[1].data, sent_reply[1].data);
}

TEST(MrpScenario, V2BlocksAtStageThreeAndTheDropResetsTheLinksBack) {
  const ConnectionRun run = run_v2_blocked_turn(1);
  EXPECT_EQ(trace_mismatches(note_trace_v2(), run.trace), 0);
  EXPECT_EQ(run.trace.links.size(), 3U);  // L3 and L4 never carry the ROUTE
  const ReturnStream r = parse_return(run.format, run.at_source, 0, kExampleStages);
  EXPECT_TRUE(r.well_formed);
  EXPECT_EQ(r.blocked_stage, 3);
  EXPECT_EQ(r.status.size(), 3U);  // (STATUS CHECKSUM)^s DROP with s = 3 (L1478)
  EXPECT_TRUE(r.reply.empty());
  EXPECT_TRUE(run.at_destination.empty());
  // The blocked router's checksum covers the words it discarded as well.
  for (const Word& c : r.checksum) EXPECT_EQ(c.data, xor_of(run.sent));
}

TEST(MrpScenario, V3DropResetsEachLinkOneCycleAfterTheLast) {
  const ConnectionRun run = run_v3_drop(1);
  EXPECT_EQ(trace_mismatches(note_trace_v3(), run.trace), 0);
  ASSERT_EQ(run.at_destination.size(), 4U);  // R D1 D2 Z
  EXPECT_EQ(run.at_destination.back().word.tag, Tag::Drop);
  EXPECT_EQ(run.at_destination.back().cycle, 8);  // on L4 in cycle 3 + 4, read one cycle later
  EXPECT_TRUE(run.at_source.empty());             // a DROP asks for nothing back
}

TEST(MrpScenario, V3DropOfABlockedConnectionEndsAtTheBlockingRouter) {
  const ConnectionRun run = run_v3_drop(1, 3);
  auto expected = note_trace_v3();
  expected.resize(3);  // L0..L2: the Z stops at router 3
  EXPECT_EQ(trace_mismatches(expected, run.trace), 0);
  EXPECT_TRUE(run.at_destination.empty());
}

TEST(MrpScenario, V4ReverseTurnFillsWithDataIdleAndTheNextForwardTurnReturnsStatusAgain) {
  const ConnectionRun run = run_v4_reverse_turn(1);
  // After its TURN the destination reads 2 DATA-IDLE per router, 2N = 8, and then D3 (Fig 4.10).
  const std::size_t from = after_turn(run.format, run.at_destination, 1);
  int data_idle = 0;
  std::size_t k = from;
  for (; k < run.at_destination.size() && run.format.classify(run.at_destination[k].word) == Kind::H; ++k)
    ++data_idle;
  EXPECT_EQ(data_idle, 2 * kExampleStages);
  ASSERT_LT(k, run.at_destination.size());
  EXPECT_EQ(run.at_destination[k].word.tag, Tag::Data);
  EXPECT_EQ(run.at_destination[k].word.index, 3);
  // The source's second TURN brings N pairs again, with checksums over everything since the ROUTE
  // (reset per ROUTE, not per turn: note 004b §6 item 6), then Y3 and the DROP.
  const ReturnStream r =
      parse_return(run.format, run.at_source, after_turn(run.format, run.at_source, 1), kExampleStages);
  EXPECT_TRUE(r.well_formed);
  ASSERT_EQ(r.status.size(), 4U);
  for (const Word& c : r.checksum) EXPECT_EQ(c.data, xor_of(run.sent));
  ASSERT_EQ(r.reply.size(), 1U);
  EXPECT_EQ(r.reply[0].index, 3);
}

TEST(MrpScenario, V11ADeselectedPortIsNeverReportedWhileItsTwinIsUsedEveryTime) {
  // Without deselection both stage-2 copies are reported over 100 seeds (each 1/2: missing one has
  // probability 2^-99); with copy 1 deselected in every stage-2 router, STATUS 2 always names copy 0.
  std::set<int> free_choice, masked;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const ConnectionRun a = run_v1_open_and_turn(seed), b = run_v11_deselected(seed, 2, 1);
    const ReturnStream ra = parse_return(a.format, a.at_source, 0, kExampleStages);
    const ReturnStream rb = parse_return(b.format, b.at_source, 0, kExampleStages);
    ASSERT_EQ(ra.ports.size(), 4U);
    ASSERT_EQ(rb.ports.size(), 4U);
    EXPECT_TRUE(rb.well_formed);
    free_choice.insert(ra.ports[1]);
    masked.insert(rb.ports[1]);
  }
  EXPECT_EQ(free_choice, (std::set<int>{0, 1}));
  EXPECT_EQ(masked, (std::set<int>{0}));
}

TEST(MrpScenario, V6PipelinedRoutersFillFourWordsPerTurnAndTakeSevenCyclesOneWay) {
  const ConnectionRun run = run_v6_pipelined(1);
  ASSERT_EQ(run.trace.links.size(), 4U);  // L0..L3: 3 routers
  PathTrace l0 = run.trace;
  l0.rows.resize(1);
  l0.off_path_words = 0;
  EXPECT_EQ(trace_mismatches(note_trace_v6_l0(), l0), 0);
  EXPECT_EQ(run.trace.off_path_words, 0);
  // One-way latency: 4 wires of 1 cycle and 3 routers of 1 extra pipeline cycle = 7 (70 ns at 100 MHz).
  ASSERT_FALSE(run.at_destination.empty());
  EXPECT_EQ(run.at_destination.front().word.tag, Tag::Route);
  EXPECT_EQ(run.at_destination.front().cycle, 7);
  // TURN on L0 in cycle 2, reply read 2 * 7 cycles later.
  const ReturnStream r = parse_return(run.format, run.at_source, 0, 3);
  EXPECT_TRUE(r.well_formed);
  EXPECT_EQ(r.first_reply_cycle, 16);
  for (const Word& c : r.checksum) EXPECT_EQ(c.data, xor_of(run.sent));
}

TEST(MrpScenario, PipelinedReverseTurnFillsTwiceDpsPerRouterWithoutAGap) {
  // dps = 2 on the MBTA network: each router fills F' = 2 * dps = 4 DATA-IDLE words after a reverse turn
  // (note 004b §2.10), and they reach the destination back to back: 4 * 3 = 12, then D2. A gap would read
  // as a DROP and close the connection.
  MultibutterflyParams p;
  p.radix = 4;
  p.dilation = 2;
  p.stages = 3;
  MrpParams mp;
  mp.dps = 2;
  const Multibutterfly graph = build_instance(p, 1, 0);
  MrpNetwork net(graph, mp, 1);
  const WordFormat& f = net.format();
  MrpDriver driver(net);
  std::vector<Word> first = {route_to(f, 4, 3, 63), data_words(f, Tag::Data, 1)[0], f.turn()};
  std::vector<Word> second = {data_words(f, Tag::Data, 1, 2)[0], f.turn()};
  std::vector<Word> reply1 = {data_words(f, Tag::Reply, 1)[0], f.turn()};
  std::vector<Word> reply2 = {data_words(f, Tag::Reply, 1, 2)[0], f.drop()};
  const int k = driver.connect(0, 0, 63, 0, {first, second}, {reply1, reply2});
  driver.run(80);
  ASSERT_NE(driver.destination_of(k), nullptr);
  const auto& got = driver.destination_of(k)->received();
  std::size_t at = after_turn(f, got, 1);
  int data_idle = 0;
  for (; at < got.size() && f.classify(got[at].word) == Kind::H; ++at) ++data_idle;
  EXPECT_EQ(data_idle, 12);
  ASSERT_LT(at, got.size());
  EXPECT_EQ(got[at].word.index, 2);
  const ReturnStream r =
      parse_return(f, driver.end(k).received(), after_turn(f, driver.end(k).received(), 1), 3);
  EXPECT_TRUE(r.well_formed);
  EXPECT_EQ(r.status.size(), 3U);
  ASSERT_EQ(r.reply.size(), 1U);
  EXPECT_EQ(r.reply[0].index, 2);
  EXPECT_TRUE(driver.end(k).closed());
}

TEST(MrpScenario, V9FastReclaimCollapsesFromTheBlockBackToTheSource) {
  const ConnectionRun run = run_v9_fast_reclaim(1);
  EXPECT_EQ(trace_mismatches(note_trace_v9(), run.trace), 0);
  EXPECT_TRUE(run.backdropped);
  EXPECT_TRUE(run.at_source.empty());  // no STATUS comes back from a collapsed connection
  EXPECT_EQ(run.ports_busy, 0);        // every drained port saw its DROP
  // Without fast reclamation the same block holds the path until the TURN and answers it (V2).
  const ConnectionRun slow = run_v2_blocked_turn(1);
  EXPECT_FALSE(slow.backdropped);
  EXPECT_EQ(slow.ports_busy, 0);
}

TEST(MrpScenario, SameSeedSameLinksAndWordsOtherSeedsOtherPaths) {
  std::set<std::vector<LinkId>> paths;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const ConnectionRun a = run_v1_open_and_turn(seed), b = run_v1_open_and_turn(seed);
    ASSERT_EQ(a.raw.size(), b.raw.size());
    for (std::size_t k = 0; k < a.raw.size(); ++k) {
      EXPECT_EQ(a.raw[k].cycle, b.raw[k].cycle);
      EXPECT_EQ(a.raw[k].link, b.raw[k].link);
      EXPECT_EQ(a.raw[k].down.data, b.raw[k].down.data);
      EXPECT_EQ(a.raw[k].up.data, b.raw[k].up.data);
    }
    paths.insert(a.trace.links);
  }
  // 2 * 2 * 2 equivalent choices at stages 1-3: 20 seeds that all took one path would mean no random choice.
  EXPECT_GT(paths.size(), 1U);
}

TEST(MrpScenario, RouteWordCarriesOneDirectionPerStageMostSignificantFirst) {
  const WordFormat f{8, 2};
  // Node 6 = 0110 in base 2: stage 1 reads 0, stage 2 reads 1, stage 3 reads 1, stage 4 reads 0.
  const Word r = route_to(f, 2, 4, 6);
  EXPECT_EQ(f.field(r), 0U);
  EXPECT_EQ(f.field(f.downstream(r)), 1U);
  EXPECT_EQ(f.field(f.downstream(f.downstream(r))), 1U);
  EXPECT_EQ(f.field(f.downstream(f.downstream(f.downstream(r)))), 0U);
}

}  // namespace
}  // namespace mppnet::machines::metro::mrp
