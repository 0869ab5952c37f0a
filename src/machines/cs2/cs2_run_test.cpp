// machines/cs2/cs2_run_test.cpp: `mppnet run` on a CS-2 config: determinism, light and heavy loads, keys.
#include "machines/cs2/cs2_run.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error_testing.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/faults.hpp"

namespace mppnet::machines::cs2::cs2_run_test {
namespace {

Cs2Config config(const std::vector<std::string>& sets) {
  return load_cs2_text("[machine]\nmodel = \"cs2\"\npes = 64\n[run]\nwarmup_cycles = 1000\ncycles = 10000\n",
                       "t.toml", sets);
}

// The message of the ConfigError that loading throws, or "" when it loads.
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  return core::config_error_of([&] { load_cs2_text(text, "t.toml", sets); });
}

TEST(Cs2Run, TheSameSeedGivesTheSameResultsAndAnotherSeedOthers) {
  const auto a = to_json(run_traffic(config({"run.seed=7"}))).dump();
  EXPECT_EQ(a, to_json(run_traffic(config({"run.seed=7"}))).dump());
  EXPECT_NE(a, to_json(run_traffic(config({"run.seed=8"}))).dump());
}

// At a light load nothing queues for long: every offered byte is accepted (to the Bernoulli process's
// noise: some 4,000 packets over 64 PEs x 10,000 cycles, a standard deviation of 1.6%) and the mean latency
// is near the zero-load latency of a mean route.
TEST(Cs2Run, ALightLoadIsAcceptedWhole) {
  const Cs2RunResult r = run_traffic(config({"traffic.load=0.1"}));
  EXPECT_FALSE(r.saturated);
  EXPECT_EQ(r.packets_delivered, r.packets_timed);
  EXPECT_NEAR(r.offered_mb_per_s, 0.1 * 2 * 1e6 / 14286, 1e-9);
  EXPECT_NEAR(r.accepted_mb_per_s, r.offered_mb_per_s, 0.06 * r.offered_mb_per_s);
  // Uniform over 64 PEs: 4.375 switches on average (cs2.r3), x == d included.
  EXPECT_NEAR(r.switches_avg, 4.375, 0.15);
  const double zero_load_ns = (2 + 4.375 * 8 + 31) * 14.286;
  EXPECT_GT(r.latency_avg_ns, 0.98 * zero_load_ns);
  EXPECT_LT(r.latency_avg_ns, 1.3 * zero_load_ns);
}

// A shift along DEST's own routes (alternative 0 only) loads no channel twice (cs2.r8): each PE gets up
// to its full link rate, 70 MB/s per layer at a byte a cycle (the protocol's overheads that bring it to
// 50 MB/s are not modelled yet).
TEST(Cs2Run, AShiftUnderDestRunsAtTheLinkRate) {
  const Cs2RunResult r = run_traffic(
      config({"traffic.pattern=shift", "traffic.shift=5", "traffic.load=0.9", "routing.alternatives=1"}));
  EXPECT_FALSE(r.saturated);
  EXPECT_NEAR(r.accepted_mb_per_s, r.offered_mb_per_s, 0.03 * r.offered_mb_per_s);
}

// Uniform traffic at 90% of the links is beyond what a network without virtual channels accepts: head-of-
// line blocking alone holds an input-queued crossbar to 58.6% under uniform traffic (Karol, Hluchyj and
// Morgan, "Input versus output queueing on a space-division packet switch", 1987). The sources' queues
// grow, every packet still drains in the end, and the run must say it was saturated.
TEST(Cs2Run, ALoadBeyondCapacityIsMarkedSaturated) {
  const Cs2RunResult r = run_traffic(config({"traffic.load=0.9"}));
  EXPECT_TRUE(r.saturated);
  EXPECT_LT(r.accepted_mb_per_s, 0.8 * r.offered_mb_per_s);
}

// The control of the R8 cases (cs2.r8.*_dest_slowest_flow_*): a shift under DEST gives every PE what it
// offers, and the same shift with a random one of each table entry's 4 routes puts flows on shared
// channels, so the slowest PE gets far less (the cases' tolerance must be able to tell the two apart).
TEST(Cs2Run, AShiftUnderDestGivesEveryFlowItsOfferAndRandomRoutesDoNot) {
  const std::vector<std::string> shift = {"traffic.pattern=shift", "traffic.shift=5", "traffic.load=0.9",
                                          "run.cycles=20000"};
  auto dest = shift, random = shift;
  dest.push_back("routing.alternatives=1");
  random.push_back("routing.alternatives=4");
  EXPECT_GT(run_traffic(config(dest)).slowest_source_fraction, 0.95);
  EXPECT_LT(run_traffic(config(random)).slowest_source_fraction, 0.5);
}

// R10's control: bit reversal on 256 PEs puts 15 flows on a channel under DEST, so some PE gets a
// fifteenth of what it offers at best; the same traffic with rearranged tables gives every PE its offer.
TEST(Cs2Run, RearrangedTablesCarryABitReversalThatDestRoutesBlock) {
  std::vector<std::string> sets = {"machine.pes=256", "traffic.pattern=bit_reversal", "traffic.load=0.9",
                                   "routing.alternatives=1", "run.cycles=10000"};
  EXPECT_LT(run_traffic(config(sets)).slowest_source_fraction, 1.0 / 15);
  sets.push_back("routing.rearranged=true");
  // Over 10,000 cycles a PE's queue at the window's edges is worth a few percent of what it offers.
  EXPECT_GT(run_traffic(config(sets)).slowest_source_fraction, 0.9);
}

// Each Elite output arbitrates round robin among the inputs asking for it (note 003 §4.8). Under DEST a
// 16-PE bit reversal sends PEs 1, 2 and 3 (1 -> 8, 2 -> 4, 3 -> 12) through their bottom switch's up-port
// 0, a link of one byte a cycle: each gets a third of it, 37% of the 0.9 it offers, and none starves.
// (With one round-robin pointer per switch, moved by every grant in it, PE 1 took 98% and PE 3 nothing.)
TEST(Cs2Run, ThreeFlowsOnOneOutputShareItFairly) {
  const Cs2RunResult r =
      run_traffic(config({"machine.pes=16", "machine.layers=1", "traffic.pattern=bit_reversal",
                          "traffic.load=0.9", "routing.alternatives=1", "run.cycles=40000"}));
  EXPECT_GT(r.slowest_source_fraction, 0.3);
  EXPECT_LT(r.slowest_source_fraction, 0.4);
}

// With broadcasts, every copy is delivered: a light mixed load of 5% broadcasts on the canonical tree
// is accepted whole (created and delivered both count a broadcast's copies), on both layers.
TEST(Cs2Run, ALightLoadWithBroadcastsIsDeliveredWhole) {
  const Cs2RunResult r = run_traffic(config({"traffic.load=0.02", "traffic.broadcast_fraction=0.05"}));
  EXPECT_FALSE(r.saturated);
  EXPECT_EQ(r.packets_delivered, r.packets_timed);
  EXPECT_GT(r.packets_timed, 2000) << "broadcast copies count";
}

// With acks and a window of one, a PE starts its next packet on a layer in the cycle the last one's ack
// returns (net's AckPath test): one 32-byte packet per zero_load_cycles + ack delay on each layer. On 4
// PEs (one switch) under shift 1 no two flows share a channel, so at an offer above that rate every PE
// gets 2 x 32 / (41 + 7) bytes a cycle: 93.33 MB/s at 70 MHz (the window's edges: under 0.2%).
TEST(Cs2Run, AWindowOfOneSendsAPacketPerRoundTripOnEachLayer) {
  Cs2Config c = load_cs2_text(
      "[machine]\nmodel = \"cs2\"\npes = 4\n", "t.toml",
      {"traffic.pattern=shift", "traffic.load=1", "traffic.acks=true", "elan.window=1", "run.cycles=20000"});
  const Cs2RunResult r = run_traffic(c);
  const std::int64_t ack_delay = c.elite.ack_cycles * 1 + c.elite.wire_cycles * 2 + c.elan.turnaround_cycles;
  const double period = static_cast<double>(zero_load_cycles(c.elite, 1, 32) + ack_delay);
  EXPECT_EQ(period, 48);
  const double expected = 2 * 32 / period * 1e6 / c.elite.clock_ps;
  EXPECT_NEAR(r.accepted_mb_per_s, expected, 0.002 * expected);
  EXPECT_TRUE(r.saturated) << "the offer is 140 MB/s";
  // A window of two overlaps the ack with the next packet: the links run at the offer.
  c.elan.window = 2;
  EXPECT_GT(run_traffic(c).accepted_mb_per_s, 1.4 * expected);
}

// Byte errors under `mppnet run` with acks: every corrupted packet is aborted at its destination, counted
// once at the input that first sees its bad CRC, NACKed and sent again, so every timed packet is
// delivered once. Without acks nothing resends, and the run refuses the fault by its key.
TEST(Cs2Run, ByteErrorsAreAbortedNackedAndSentAgain) {
  const std::vector<std::string> faults{"faults.link=[0, 1, 0, 0, 4]", "faults.byte_error_rate=0.02"};
  std::vector<std::string> sets = faults;
  sets.push_back("traffic.acks=true");
  const Cs2RunResult r = run_traffic(config(sets));
  EXPECT_GT(r.packets_corrupted, 0);
  EXPECT_EQ(r.packets_aborted, r.packets_corrupted);
  EXPECT_EQ(r.crc_errors, r.packets_corrupted);
  EXPECT_EQ(r.packets_resent, r.packets_corrupted);
  EXPECT_EQ(r.packets_delivered, r.packets_timed);
  EXPECT_FALSE(r.saturated);
  const std::string refused = core::config_error_of(
      [&] { refuse_unsupported_faults(config(faults), "mppnet run", false, "set traffic.acks = true"); });
  EXPECT_EQ(refused,
            "--set faults.link=[0, 1, 0, 0, 4]: faults.link: byte errors need a sender that resends NACKed "
            "packets: set traffic.acks = true");
}

// Every PE sends to the hot PE: its two links carry 140 MB/s between them and no more, whatever the 64
// PEs offer (6.4 times that); every other PE receives nothing.
TEST(Cs2Run, AHotSpotGetsWhatItsLinksCarry) {
  const Cs2RunResult r =
      run_traffic(config({"traffic.pattern=hot_spot", "traffic.hot_pe=9", "traffic.load=0.1"}));
  EXPECT_TRUE(r.saturated);
  EXPECT_NEAR(r.busiest_destination_mb_per_s, 2 * 1e6 / 14286, 0.01 * 2 * 1e6 / 14286);
  EXPECT_NEAR(r.accepted_mb_per_s * 64, r.busiest_destination_mb_per_s, 1e-6);
  EXPECT_EQ(error_of("[traffic]\nhot_pe = 64\n"),
            "t.toml:2: traffic.hot_pe: 64 is not a PE: machine.pes is 64");
}

// traffic.hot_senders picks exactly that many PEs, never the hot one, evenly spread: 16 of the 63 PEs
// that are not PE 21 leave gaps of 3 or 4 (63 / 16 = 3.9).
TEST(Cs2Run, HotSendersAreThatManyPesEvenlySpread) {
  const Cs2Config c = config({"traffic.pattern=hot_spot", "traffic.hot_pe=21", "traffic.hot_senders=16"});
  std::vector<NodeId> senders;
  for (NodeId x = 0; x < 64; ++x)
    if (is_hot_sender(c, x)) senders.push_back(x);
  ASSERT_EQ(senders.size(), 16u);
  EXPECT_FALSE(is_hot_sender(c, 21));
  for (std::size_t k = 1; k < senders.size(); ++k) {
    const int gap = senders[k] - senders[k - 1] - (senders[k - 1] < 21 && senders[k] > 21 ? 1 : 0);
    EXPECT_GE(gap, 3);
    EXPECT_LE(gap, 4);
  }
  EXPECT_FALSE(is_hot_sender(config({"traffic.pattern=hot_spot", "traffic.hot_pe=21"}), 5));
}

// A light background is received as offered when the hot senders are silent: 48 PEs offer 10% of their
// two links uniformly to the 63 PEs but the hot one, so each of those receives 48 x 0.2 / 63 bytes a cycle
// (to the Bernoulli noise of some 10,000 packets: 1%). With the hot senders at half their links the hot
// PE gets what its links carry, and the background loses some of its bytes to the hot packets' blocked
// climbs (cs2.r11.background_keeps_throughput_64).
TEST(Cs2Run, ABackgroundBesideAHotSpot) {
  const std::vector<std::string> sets = {"traffic.pattern=hot_spot", "traffic.hot_pe=21",
                                         "traffic.hot_senders=16",   "traffic.load=0.1",
                                         "traffic.acks=true",        "run.cycles=50000"};
  auto with = [&](const std::string& hot_load) {
    std::vector<std::string> s = sets;
    s.push_back("traffic.hot_load=" + hot_load);
    return run_traffic(config(s));
  };
  const double byte_cycle_mb = 1e6 / 14286, offered = 48 * 0.2 / 63 * byte_cycle_mb;
  const Cs2RunResult quiet = with("0");
  EXPECT_NEAR(quiet.background_received_mb_per_s, offered, 0.03 * offered);
  EXPECT_GT(quiet.slowest_background_destination_mb_per_s, 0.7 * offered);
  EXPECT_EQ(quiet.received_bytes.size(), 64u);
  const Cs2RunResult hot = with("0.5");
  EXPECT_NEAR(hot.busiest_destination_mb_per_s, 2 * byte_cycle_mb, 0.02 * 2 * byte_cycle_mb);
  EXPECT_LT(hot.background_received_mb_per_s, quiet.background_received_mb_per_s);
  EXPECT_EQ(error_of("[traffic]\nhot_senders = 4\n"),
            "t.toml:2: traffic.hot_senders: hot senders need traffic.pattern = \"hot_spot\"; it is uniform");
  EXPECT_EQ(error_of("[traffic]\npattern = \"hot_spot\"\nhot_senders = 64\n"),
            "t.toml:3: traffic.hot_senders: 64 hot senders leave no PE for the background: machine.pes is 64 "
            "(0: every PE sends to the hot PE)");
}

TEST(Cs2Run, BadTrafficKeysNameFileLineKeyAndReason) {
  EXPECT_EQ(error_of("[traffic]\nload = 1.5\n").rfind("t.toml:2: traffic.load: ", 0), 0u);
  EXPECT_NE(error_of("[traffic]\npattern = \"tornado\"\n").find("t.toml:2: traffic.pattern"),
            std::string::npos);
  EXPECT_NE(error_of("[traffic]\npaket_bytes = 8\n").find("unknown key"), std::string::npos);
  EXPECT_EQ(error_of("[machine]\npes = 48\n[traffic]\npattern = \"bit_complement\"\n"),
            "t.toml:4: traffic.pattern: bit_complement needs a power of 2 PEs; machine.pes is 48");
  EXPECT_EQ(error_of("", {"run.cycles=0"}).rfind("--set run.cycles=0: run.cycles: ", 0), 0u);
  EXPECT_EQ(error_of("[machine]\npes = 128\n[traffic]\npattern = \"transpose\"\n"),
            "t.toml:4: traffic.pattern: transpose swaps two address halves of equal length: it needs a power "
            "of 4 PEs; machine.pes is 128");
  EXPECT_EQ(
      error_of("[routing]\nrearranged = true\n"),
      "t.toml:2: routing.rearranged: rearranged tables carry a permutation; traffic.pattern is uniform");
  EXPECT_EQ(error_of("[machine]\npes = 128\n[routing]\nrearranged = true\n[traffic]\npattern = \"shift\"\n"),
            "t.toml:4: routing.rearranged: rearranged tables need a complete layer of 4^k PEs; machine.pes "
            "is 128");
}

}  // namespace
}  // namespace mppnet::machines::cs2::cs2_run_test
