// machines/cm5/validation.cpp: the data network's claims (Leiserson et al. 1992, §3) and those of its
// software as validation cases (ids cm5.v13-v26).
//
// Sources cite Leiserson et al., "The Network Architecture of the Connection Machine CM-5" (SPAA 1992;
// docs/references.md) by section, with the line (L123) of its transcription that docs/cm5.md cites. Every
// network below uses the defaults of DataNetworkParams (docs/assumptions.md, "CM-5 data network"); none was
// fitted to these numbers.
#include "machines/cm5/validation.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "machines/cm5/all_fall_down_run.hpp"
#include "machines/cm5/completion.hpp"
#include "machines/cm5/congestion.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/fetch_deadlock.hpp"
#include "machines/cm5/locality.hpp"
#include "machines/cm5/map_out.hpp"
#include "machines/cm5/message_format.hpp"
#include "machines/cm5/message_sets.hpp"
#include "machines/cm5/node_machine.hpp"
#include "machines/cm5/partition_run.hpp"
#include "machines/cm5/sets_run.hpp"
#include "machines/cm5/software_rates.hpp"
#include "machines/cm5/streams.hpp"

namespace mppnet::machines::cm5 {

namespace {

using core::Tolerance;
using core::ValidationCase;

// Every claim here is in the paper's §3, "The CM-5 Data Network".
constexpr const char* kPaper = "Leiserson et al. 1992, §3";

// The raw rates are capacities the paper states exactly (§3, L204-209); a backlogged run
// counts whole messages whose tails arrive in its window, so its only error is the messages cut at the
// window's edges.
constexpr const char* kWindowOrigin =
    "exact: a raw capacity the paper states (§3); +-0.05 MB/s a node for the whole messages the 10,000-cycle "
    "window counts at its edges";
// The functional cases: a result is right or wrong, a message lost or not.
constexpr const char* kExactOrigin = "exact: a count that the paper's mechanism makes 0 or fixed";

DataNetworkParams machine(int nodes, UpChoice up = UpChoice::RandomFree) {
  DataNetworkParams p;
  p.nodes = nodes;
  p.up_choice = up;
  return p;
}

// Raw MB/s of `pattern` with every sender backlogged on both sides, 5-word messages.
double stream_raw(int nodes, const Pattern& pattern, Cycle measure = 10000) {
  DataNetwork net(machine(nodes));
  return run_streams(net, pattern, {.warmup_cycles = 2000, .measure_cycles = measure}, 1).raw_mb_per_s();
}

ValidationCase locality_case(const char* id, const char* lines, const char* what, int group,
                             double expected) {
  return {
      id,
      std::string(kPaper) + ", " + lines + ": " + what,
      "1,024 nodes, every node sends 5-word messages on both sides to one partner in its group of " +
          std::to_string(group) + " outside its smaller group, always backlogged",
      "raw MB/s per node",
      expected,
      Tolerance::absolute(0.05),
      true,
      [group] {
        for (LocalityRow& r : run_locality(machine(1024), {.warmup_cycles = 2000, .measure_cycles = 10000})) {
          if (r.group == group) return r.raw_per_node();
        }
        return 0.0;
      },
      {},
      // The expected value is the paper's, but it follows from link counts and link rates: agreement shows
      // that the model has those links, not how it behaves under load.
      core::Evidence::ClosedForm,
      kWindowOrigin};
}

double crc_errors(bool primary) {
  DataNetworkParams p = machine(1024, UpChoice::Deterministic);
  DataNetwork net(p);
  // 0 -> 1023 climbs through the first parent port of every chip; the level-3 chip's link up is bad.
  ChipId c = net.shape().leaf_chip(0, 0);
  for (int level = 1; level < 3; ++level) c = net.shape().peer(c, kChildPorts).chip;
  net.corrupt_link(c, kChildPorts);
  net.send(0, 1023, 5, 0, 0);
  net.run_until(1000);
  std::int64_t n = primary ? net.ni_errors(1023, 0).primary : net.ni_errors(1023, 0).secondary;
  for (ChipId k = 0; k < net.shape().chips(); ++k) {
    n += primary ? net.chip_errors(k).primary : net.chip_errors(k).secondary;
  }
  return static_cast<double>(n);
}

struct Recorder final : DataNetworkObserver {
  std::vector<std::pair<std::uint64_t, Cycle>> got;
  void on_delivery(MessageId, const Message& m) override { got.push_back({m.label, m.delivered}); }
};

// Messages of a hot spot that are lost or delivered twice across all-fall-down and resume.
double afd_lost_or_duplicated() {
  const AllFallDownRun r = all_fall_down_hot_spot();
  return static_cast<double>(r.sent - r.distinct_delivered) +
         static_cast<double>(r.delivered - r.distinct_delivered);
}

// Messages of the second half of a 256-node machine whose delivery cycle changes when the first half
// saturates itself, or that do not arrive.
double partition_interference() {
  const PartitionRun r = partition_isolation();
  return static_cast<double>(r.second_changed + (4000 - r.second_delivered));
}

// Levels of an n-node machine where a failed chip can be neither routed around within 1/16 of its node's
// bandwidth nor mapped out with at most 1/64 of the nodes.
double levels_outside_failure_bound(int n) {
  const FatTreeShape shape(n, {2, 2, 4});
  int outside = 0;
  for (int level = 1; level <= shape.height(); ++level) {
    outside += within_paper_bound(shape, plan_failure(shape, shape.chip(0, level, 0, 0))) ? 0 : 1;
  }
  return outside;
}

// Messages that touch a failed level-4 chip of a 1,024-node machine, or fail to arrive, once it is routed
// around.
double route_around_misses() {
  DataNetwork net(machine(1024));
  const ChipId failed = net.shape().chip(0, 4, 1, 5);
  if (!net.route_around(failed)) return -1;
  Recorder rec;
  net.set_observer(&rec);
  core::RandomStream r(9, 0, core::Stream::Destination);
  for (int k = 0; k < 6000; ++k)
    net.send(static_cast<NodeId>(r.below(1024)), static_cast<NodeId>(r.below(1024)), 5, 0, k % 2);
  net.run_until(2'000'000);
  std::int64_t touched = 0;
  for (int p = 0; p < kChipPorts; ++p) touched += net.port_in(failed, p) + net.port_out(failed, p);
  return static_cast<double>(touched) + static_cast<double>(6000 - rec.got.size());
}

// Completion of 8 copies of the across-the-root set on 256 nodes (each node 4 messages a side).
// Cycles from sending a 5-word message across the root of a 256-node machine to its tail's arrival,
// unloaded (as data_network_test.cpp derives for 1,024 nodes): its head leaves the node at cycle 1,
// crosses 8 links (backplanes of 1 cycle below level 2, cables of 2 above: 12 cycles) and 7 chips that
// each hold it route_cycles, and the tail follows its nibbles (50 at a level-4 turn) less one behind.
int unloaded_across_root_256() {
  const DataNetworkParams p;
  return 1 + (4 * p.board_wire_cycles + 4 * p.cable_wire_cycles) + 7 * p.route_cycles +
         (message_nibbles(5, 4) - 1);
}

// cm5.v19's measure (`mppnet cm5-sets --nodes 256`): completion of set `name` (5-word messages, sides
// alternating; permutations 8 times over) on 256 nodes over the paper's load estimate, a lower bound.
double completion_over_bound_256(const std::string& name) {
  return run_message_sets({.nodes = 256, .sets = {name}}).rows.front().ratio();
}

double across_root_completion(UpChoice up) {
  DataNetwork net(machine(256, up));
  return static_cast<double>(completion_cycles(net, repeat(across_root(256), 8), 5));
}

// Largest over smallest share of a hot output among its 5 busy inputs (data_network_test.cpp derives
// the setup): 3 neighbours' ports and 2 parent ports carrying 4 far nodes' messages.
double hot_output_share_ratio() {
  DataNetwork net(machine(64));
  const Pattern to_zero = [](NodeId src, core::RandomStream&) -> NodeId {
    return (src >= 1 && src <= 3) || (src >= 16 && src < 20) ? 0 : -1;
  };
  const StreamResult r =
      run_streams(net, to_zero, {.warmup_cycles = 2000, .measure_cycles = 40000, .both_sides = false}, 1);
  double far = 0;
  for (NodeId v = 16; v < 20; ++v) far += static_cast<double>(r.delivered_from[v]);
  std::vector<double> shares = {static_cast<double>(r.delivered_from[1]),
                                static_cast<double>(r.delivered_from[2]),
                                static_cast<double>(r.delivered_from[3]), far / 2, far / 2};
  return *std::max_element(shares.begin(), shares.end()) / *std::min_element(shares.begin(), shares.end());
}

// What the paper's MB/s count (§3, L233-237), a choice the software bandwidth cases turn on; the other
// reading measured with this code (docs/assumptions.md, "Choices behind verdicts").
core::ModellingChoice data_words_choice() {
  return {
      "what the paper's MB/s per node count: every data word of a message, or the payload after an "
      "active message's handler word",
      "every data word (the 5 of Fig. 4), the data a processor puts into the network (L233-237)",
      "payload: 4/5 of these figures, 3.74, 3.33 and 2.50 MB/s on 256, 1,024 and 4,096 nodes (all "
      "FAIL against 'in excess of 4'), and no interface cost reaches 15 MB/s of nearest-neighbour "
      "payload (1, 2 and 3 cycles an access give 11.1, 11.1 and 12.8): the payload reading cannot meet "
      "the paper's two figures together"};
}

// The chips' buffer depth, which the random-permutation rate on 4,096 nodes turns on.
core::ModellingChoice v16_buffer_choice(int nodes) {
  const char* values = nodes == 256    ? "4.90 with 256 nibbles and 5.32 with 1,024 (pass under every depth)"
                       : nodes == 1024 ? "4.54 with 256 nibbles and 4.72 with 1,024 (pass under every depth)"
                                       : "3.53 with 256 nibbles (differs) and 4.04 with 1,024 (pass): the "
                                         "verdict turns on the depth, which the paper does not give";
  return {"how many nibbles a chip input buffers (the paper says only that chips buffer)",
          "128, the power of two that holds two longest messages (docs/assumptions.md, \"Buffers\"), a "
          "size set by the message length",
          std::string(values) + " (seed 1)"};
}

}  // namespace

std::vector<ValidationCase> cm5_validation_cases() {
  std::vector<ValidationCase> cases;
  cases.push_back({"cm5.v15.node_raw_both_sides", std::string(kPaper) + ", L204-205",
                   "one node streams 5-word messages to its neighbours on both sides of a 64-node machine",
                   "raw MB/s out of the node", 40, Tolerance::absolute(0.05), false, [] {
                     return stream_raw(
                         64, [](NodeId src, core::RandomStream&) -> NodeId { return src == 0 ? 1 : -1; });
                   }});
  cases.back().tolerance_origin =
      "exact: the paper's raw 2 x 20 MB/s (§3, L204-205); +-0.05 MB/s is less than one message on a link "
      "over the 10,000-cycle window";
  cases.back().evidence = core::Evidence::ClosedForm;  // 2 links x 20 MB/s: a capacity by link count
  cases.push_back(locality_case("cm5.v13.within4_raw", "L204-205", "two 20 MB/s links per node", 4, 40));
  cases.push_back(
      locality_case("cm5.v13.within16_raw", "L205-207", "2 parent links per chip at level 1", 16, 20));
  cases.push_back(
      locality_case("cm5.v13.within64_raw", "L206-207", "160 MB/s out of a 16-node subtree", 64, 10));
  cases.push_back(
      {"cm5.v13.subtree16_raw",
       std::string(kPaper) + ", L206-207",
       "64 nodes; the 16 nodes of one level-2 subtree stream 5-word messages to random nodes outside "
       "it on both sides",
       "raw MB/s out of the subtree",
       160,
       // 8 links x 1 message of about 50 nibbles at each edge of 10,000 cycles: 0.8 MB/s, 0.5%.
       Tolerance::relative_to(0.005),
       false,
       [] {
         return stream_raw(64, [](NodeId src, core::RandomStream& r) -> NodeId {
           return src < 16 ? 16 + static_cast<NodeId>(r.below(48)) : -1;
         });
       },
       {},
       core::Evidence::ClosedForm});  // 8 links x 20 MB/s, as cm5.v13's locality cases
  cases.back().tolerance_origin =
      "exact: the paper's raw 8 x 20 MB/s (§3, L206-207); +-0.5% for the messages cut at the window's edges "
      "(8 links, one message of about 50 nibbles each in 10,000 cycles)";
  cases.push_back(
      {"cm5.v14.bisection_2k_raw", std::string(kPaper) + ", L208-209",
       "2,048 nodes; each node of the first half streams 5-word messages to its twin in the second "
       "half on both sides",
       "raw MB/s across the bisection, one direction", 10240, Tolerance::relative_band(0.03, 0.005), true,
       [] {
         return stream_raw(
             2048, [](NodeId src, core::RandomStream&) -> NodeId { return src < 1024 ? src + 1024 : -1; },
             4000);
       }});
  cases.back().tolerance_origin =
      "below: the paper's '10 gigabytes/second' (§3, L208-209), 10.24 GB/s by its link counts, read as at "
      "most 3% under; "
      "above: the 512 links carry no more, +0.5% for the window's edges";
  cases.back().evidence = core::Evidence::ClosedForm;  // 512 links x 20 MB/s: a capacity by link count
  // The paper's message sets (L222-233: 'all message sets'; note 000 V19 names them), measured alike.
  // Each is pinned to its value within 3 standard deviations of the ratio over seeds 1-10 of
  // `mppnet cm5-sets --nodes 256` (the seed draws the permutation and the up-link choices).
  struct V19Set {
    const char* id;
    const char* set;  // the name cm5-sets knows it by
    const char* setup;
    core::PinnedDifference difference;
    const char* deeper_buffers;  // the ratio with 256 and 1,024-nibble buffers (cm5-sets --buffer-nibbles)
  };
  const char* kLinks =
      "the busiest link carries about {} times the bound: single links take more than their bundle's even "
      "share (a message's way down is fixed by the chip its random climb reached), which the bound's "
      "bundle totals do not see; the rest is waiting behind it (docs/assumptions.md, \"CM-5, message "
      "sets\")";
  const std::string waiting =
      "the busiest link carries at most 1.07 times the bound; the rest is messages waiting in full buffers "
      "behind down links that are sending (docs/assumptions.md, \"CM-5, message sets\"; docs/cm5.md, 'The "
      "all-to-all's schedule')";
  const auto seeds = [](double sd) { return fmt::format("3 sd of seeds 1-10 (sd {})", sd); };
  const std::vector<V19Set> v19_sets = {
      {"random_permutation", "random", "a random permutation 8 times over",
       core::pinned_around(1.907, 0.201,
                           "single down links carry up to 1.5x their share: a message's way down is fixed by "
                           "the chip its random climb reached, which the bound's bundle totals do not see "
                           "(docs/assumptions.md, \"CM-5, message sets\")",
                           seeds(0.067)),
       "1.922 and 1.982"},
      {"transpose", "transpose", "a transpose (address halves swapped) 8 times over",
       core::pinned_around(2.100, 0.143, fmt::format(fmt::runtime(kLinks), "1.5"), seeds(0.048)),
       "2.300 and 2.300"},
      {"bit_reversal", "bit_reversal", "a bit reversal 8 times over",
       core::pinned_around(2.039, 0.244, fmt::format(fmt::runtime(kLinks), "1.7"), seeds(0.081)),
       "2.305 and 2.376"},
      {"perfect_shuffle", "perfect_shuffle", "a perfect shuffle (address rotated left one bit) 8 times over",
       core::pinned_around(1.780, 0.200, fmt::format(fmt::runtime(kLinks), "1.3"), seeds(0.067)),
       "1.906 and 2.031"},
      {"all_to_all", "all_to_all", "the all-to-all, round r from node i to i + r mod 256 (65,280 messages)",
       core::pinned_around(1.736, 0.224, waiting, seeds(0.075)), "1.664 and 1.573"},
      // 0.10 over the 1.5 read for "nearly as well", about one seed sd: a 3-sd band would also hold a
      // doubled difference, so this one is pinned within 1 sd.
      {"all_to_all_xor", "all_to_all_xor", "the all-to-all, round r from node i to i XOR r (65,280 messages)",
       core::pinned_around(1.601, 0.085, waiting,
                           "1 sd of seeds 1-10 (0.085): the difference is about one sd, and a wider band "
                           "would hold a doubled difference"),
       "1.569 and 1.550"},
  };
  for (const V19Set& v : v19_sets) {
    cases.push_back({fmt::format("cm5.v19.{}_vs_load_bound", v.id),
                     std::string(kPaper) +
                         ", L222-233: 'all message sets nearly as well as the chosen bandwidths "
                         "allow', read as within 1.5x of the load estimate (docs/cm5.md)",
                     fmt::format("256 nodes, {}, 5-word messages, sides alternating", v.setup),
                     "completion time / the paper's load estimate, a lower bound (§3, L224-233)", 1.5,
                     Tolerance::absolute_band(0.5, 0), false,
                     [set = std::string(v.set)] { return completion_over_bound_256(set); }, v.difference});
    cases.back().tolerance_origin =
        "above: mppnet's factor 1.5 for the paper's 'nearly as well as the chosen bandwidths allow' (§3, "
        "L222-223; docs/cm5.md); below: 1, the load bound is a lower bound";
    cases.back().choices = {
        {"how many nibbles a chip input buffers (the paper says only that chips buffer)",
         "128, the power of two that holds two longest messages (docs/assumptions.md, "
         "\"Buffers\"), a size set by the message length",
         fmt::format(
             "256 or 1,024 nibbles give {} (seed 1): above 1.5 under every depth, so the verdict does not "
             "turn on it",
             v.deeper_buffers)}};
  }
  cases.push_back(
      {"cm5.v20.random_up_links_vs_load_bound", std::string(kPaper) + ", L215-222",
       "256 nodes, every node sends 4 messages a side to its twin across the root (8 copies of the set)",
       "completion time / the paper's load estimate, a lower bound (§3, L224-233; 800 cycles)", 1,
       Tolerance::absolute_band(0, 0.5), false,
       [] { return across_root_completion(UpChoice::RandomFree) / 800; }});
  cases.back().tolerance_origin =
      "above: the factor 1.5 of cm5.v19 (the paper asks this set, too, to be routed nearly as well as the "
      "bandwidths allow, §3, L215-222); below: 1, the load bound is a lower bound";
  cases.push_back(
      {"cm5.v20.deterministic_up_links_funnel",
       std::string(kPaper) + ", L215-222",
       "as cm5.v20.random_up_links_vs_load_bound with every chip taking its first parent link",
       "cycles; derived: the 64 x 4 messages of 50 nibbles of a 64-node subtree's side share one link",
       12800,
       Tolerance::absolute_band(0, unloaded_across_root_256()),
       false,
       [] { return across_root_completion(UpChoice::Deterministic); },
       // The expected value is derived, not the paper's: independent evidence. The paper's claim (random
       // choice much better on such sets, L220-222) is this case beside the one before: 16x the time.
       {},
       core::Evidence::Independent,
       fmt::format("derived: 12,800 cycles of one link's serialisation is a floor; above it the first "
                   "message's way up to that link and the last one's down from it, together one message's "
                   "unloaded trip across the root: {} cycles (1 + 12 of wires + 7 chips x {} + 50 - 1)",
                   unloaded_across_root_256(), DataNetworkParams{}.route_cycles)});
  cases.push_back({"cm5.v21.hot_output_fairness", std::string(kPaper) + ", L245-246",
                   "64 nodes; 3 neighbours and 4 far nodes stream to node 0 on the left side, 40,000 cycles",
                   "largest / smallest share of node 0's link among its 5 busy inputs", 1,
                   Tolerance::absolute_band(0, 0.03), false, hot_output_share_ratio});
  cases.back().tolerance_origin =
      "round-robin gives equal shares (the paper's fair arbitration, L245-246): 1; +0.03 for one message "
      "more or less at each edge of the window, of about 165 per input";
  cases.push_back(
      {"cm5.v22.one_side_deadlocks", std::string(kPaper) + ", L307-318",
       "64 nodes flood each other with requests; requests and replies on the left side; one-message "
       "queues",
       "1 if the machine deadlocked", 1, Tolerance::exact(), false,
       [] { return request_flood(false, Sides::Right) < 0 ? 1.0 : 0.0; }});
  cases.push_back({"cm5.v22.left_right_finishes", std::string(kPaper) + ", L323-330",
                   "as cm5.v22.one_side_deadlocks with requests left and replies right", "requests served",
                   64 * 200, Tolerance::exact(), false,
                   [] { return static_cast<double>(request_flood(true, Sides::Right)); }});
  cases.push_back({"cm5.v22.replies_both_sides_finishes", std::string(kPaper) + ", L330-332",
                   "as cm5.v22.one_side_deadlocks with requests left and replies on both sides",
                   "requests served", 64 * 200, Tolerance::exact(), false,
                   [] { return static_cast<double>(request_flood(true, Sides::Both)); }});
  cases.push_back(
      {"cm5.v23.all_fall_down_lost_or_duplicated", std::string(kPaper) + ", L357-377",
       "256 nodes all send to node 0; chips enter all-fall-down one by one in random order; resume",
       "messages lost or delivered twice", 0, Tolerance::exact(), false, afd_lost_or_duplicated});
  cases.push_back({"cm5.v24.crc_primary_errors", std::string(kPaper) + ", L278-282",
                   "1,024 nodes, one message 0 -> 1023, the link out of its level-3 chip corrupts one nibble",
                   "primary errors reported", 1, Tolerance::exact(), false, [] { return crc_errors(true); }});
  cases.push_back(
      {"cm5.v24.crc_secondary_errors", std::string(kPaper) + ", L278-282",
       "as cm5.v24.crc_primary_errors: the 5 chips after the first detector (levels 5, 4, 3, 2, 1) and "
       "the receiving interface",
       "secondary errors reported", 6, Tolerance::exact(), false, [] { return crc_errors(false); }});
  cases.push_back({"cm5.v25.partition_isolation", std::string(kPaper) + ", L179-183",
                   "256 nodes in two 128-node partitions; the first saturates itself, the second sends 4,000 "
                   "messages",
                   "second-partition messages delivered at another cycle than when alone", 0,
                   Tolerance::exact(), false, partition_interference});
  cases.push_back({"cm5.v26.route_around_misses", std::string(kPaper) + ", L288-295",
                   "1,024 nodes, a level-4 chip failed and routed around, 6,000 random messages",
                   "messages that touch the failed chip or do not arrive", 0, Tolerance::exact(), false,
                   route_around_misses});
  for (const int n : {1024, 4096}) {
    cases.push_back(
        {fmt::format("cm5.v26.failure_bound_{}", n),
         std::string(kPaper) + ", L293-295, the bound read as docs/assumptions.md does",
         fmt::format(
             "{} nodes, one failed chip at each level: route around (losing 1 / chips of its node) or "
             "map out its subtree, whichever is better",
             n),
         "levels where neither stays within 6.25% of the node or 1/64 of the nodes", 0, Tolerance::exact(),
         false, [n] { return levels_outside_failure_bound(n); },
         n == 1024 ? std::optional(core::PinnedDifference{
                         1, 1,
                         "at level 3 a route-around loses 1/4 of a 64-node subtree's side and a map-out "
                         "takes 64 of 1,024 nodes (1/16): the paper's bound holds under this reading only "
                         "from 4,096 nodes (docs/assumptions.md, \"CM-5, failed chips\")",
                         "exact: a count of levels that the machine's shape fixes"})
                   : std::nullopt});
    cases.back().tolerance_origin =
        "exact: a level is inside the paper's bound (§3, L293-295, read as docs/assumptions.md does) or not";
  }
  // Software included: node programs through the interfaces with the CM-5 cost model (docs/cm5.md).
  // One-way active messages (am's notify) on both sides: a handler that never replies cannot
  // fetch-deadlock, so the interfaces may use both sides for them (paper L323-337).
  // The paper counts the data a processor puts into and takes out of the network (§3, L233-237): every
  // data word of a message (Fig. 4: 1 to 5). An active message's five are its handler's index and four
  // arguments, so these cases count 20 bytes a message, the unit the software cost was fitted in; the
  // payload (16 bytes) is docs/cm5.md's to report beside them.
  const char* data_quantity =
      "MB/s per node of message data, sent (= received): the 5 data words of every message (4 of them "
      "the active message's payload)";
  for (const int n : {256, 1024, 4096}) {
    cases.push_back(
        {fmt::format("cm5.v16.random_permutation_data_{}", n), std::string(kPaper) + ", L233-237",
         fmt::format("{} nodes, every node sends 200 one-way active messages of 4 words (5 on the network) "
                     "to its partner in a random permutation and receives as many",
                     n),
         data_quantity, 4, Tolerance::absolute_band(0, 12.4), true,
         [n] { return software_rate(n, Partners::RandomPermutation, 200, cm5_am_params(), 1).data_mb_per_s; },
         n == 4096 ? std::optional(core::pinned_around(
                         3.126, 0.094,
                         "3.13 on 4,096 nodes (4.68 on 256, 4.16 on 1,024; 3.15 on 16,384, too slow to run "
                         "here): roughly independent of N from 4,096 nodes on, as the paper says, but 22% "
                         "under its 4 MB/s. Each message's way down is fixed by the chip its random climb "
                         "reached, so single down links take up to 1.5x their share (as cm5.v19), more so "
                         "in a taller tree (docs/assumptions.md, \"CM-5, random permutations at scale\")",
                         "3 sd of seeds 1-10 (sd 0.031)"))
                   : std::nullopt});
    cases.back().tolerance_origin =
        "the paper's 'in excess of 4 megabytes/second' (§3, L233-234), one-sided; the upper edge 16.4 is the "
        "most the calibrated software can send, not a claim";
    cases.back().choices = {data_words_choice(), v16_buffer_choice(n)};
  }
  cases.push_back(
      {"cm5.v17.grid2d_data_1024",
       std::string(kPaper) + ", L234-235",
       "1,024 nodes as a 32 x 32 torus in Z order (2-D subgrids in subtrees), every node sends 200 "
       "one-way active messages of 4 words to its 4 neighbours in turn; a calibration check: the software "
       "cost was set from this figure (docs/cm5.md), so it tests the network side only",
       data_quantity,
       15,
       Tolerance::relative_to(0.1),
       true,
       [] { return software_rate(1024, Partners::Grid2d, 200, cm5_am_params(), 1).data_mb_per_s; },
       {},
       core::Evidence::Calibration,
       "the paper's '15 megabytes/second per processor are achievable' (§3, L234-235), a figure without a "
       "width: +-10%"});
  cases.back().choices = {data_words_choice()};
  // The chips' head latency (route_cycles) is the one parameter the paper gives nothing for; note A8
  // has it calibrated on these latencies (docs/assumptions.md): 16 cycles is the only whole number that
  // puts both ends inside 3-7 us, so these two cases are calibration checks, not evidence.
  for (const int n : {32, 16384}) {
    cases.push_back(
        {fmt::format("cm5.v18.latency_{}", n),
         std::string(kPaper) + ", L235-237",
         fmt::format("{} nodes, idle; node 0 sends one 1-word active message to node {}", n, n - 1),
         "us from the send's start to the end of the receiving handler",
         n == 32 ? 3.0 : 7.0,
         Tolerance::absolute_band(n == 32 ? 0 : 4, n == 32 ? 4 : 0),  // the 3-7 us band
         n > 32,
         [n] { return software_latency_us(n, cm5_am_params()); },
         {},
         core::Evidence::Calibration,
         "the paper's 'between 3 and 7 microseconds, depending on the size' (§3, L235-236) as the band; "
         "the chips' head latency was set so that both ends fall inside it"});
  }
  // The rest are functional checks with exact expected values.
  for (ValidationCase& c : cases) {
    if (c.tolerance_origin.empty() && c.tolerance.below == 0 && c.tolerance.above == 0)
      c.tolerance_origin = kExactOrigin;
  }
  return cases;
}

}  // namespace mppnet::machines::cm5
