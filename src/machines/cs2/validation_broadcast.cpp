// machines/cs2/validation_broadcast.cpp: R12, broadcast, and R14, unicast deadlock freedom (note 003 §5),
// on simulated packets of the traffic network (cs2_network.hpp) and on the box decomposition.
//
// The document says how a broadcast goes ("ascend the switch hierarchy to a point from which all the
// target PEs can be reached. From this point the broadcast then fans out", L248-L250), that a switch
// maps one input to a contiguous range of outputs and recombines the ACK/NACK tokens of the branches
// (L366-L369, L456-L458), and that wormhole routing in a multistage network can deadlock unless resources
// are taken in a fixed order (L104-L118). The counts below (2k - 1 stages, 2k - 1 boxes) and the
// deadlock freedom of the canonical tree and of unicast routes are the note's derivations (§2.9, §2.10,
// §4.7), so these cases check the simulation against them: independent evidence, not the document's own
// numbers.
//
// Deadlock is judged by a no-progress watchdog: every PE keeps its source queue topped up (saturation
// without an unbounded backlog) for a while, then stops creating; a run deadlocks when no flit has moved
// for kQuietCycles while packets are still out. The network has no timers and its arbiters move only when
// a flit crosses, so a state in which nothing moves for that long is a fixed point: it never drains.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/rng.hpp"
#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/cs2_run.hpp"
#include "machines/cs2/routes.hpp"
#include "machines/cs2/validation.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

// Without a flit moving nothing else changes either (one VC, no timers, pointers move only with a
// grant, and a grant moves a flit within data_cycles), so any quiet spell longer than a few cycles is
// a deadlock; 4,000 leaves a wide margin.
constexpr Cycle kQuietCycles = 4000;
constexpr int kQueuedPackets = 2;  // per PE: a source is never idle, and its queue stays short
constexpr Cycle kCycles = 10000;   // of saturated load per run
constexpr int kSeeds = 3;

Cs2Config broadcast_machine(int pes, std::uint64_t seed = 1) {
  Cs2Config c;
  c.machine.pes = pes;
  c.machine.layers = 1;
  c.run.seed = static_cast<std::int64_t>(seed);
  c.traffic.broadcast_fraction = 1;  // asks for replicating layers (the traffic here is built by hand)
  return c;
}

// Steps until the network is idle, handing each delivered packet to `seen` and releasing it.
template <class Seen>
void drain(Cs2Network& net, Seen&& seen) {
  for (int t = 0; t < 200000 && !net.idle(); ++t) {
    net.step();
    for (int l = 0; l < net.layers(); ++l)
      for (const net::PacketId d : net.layer(l).delivered()) {
        seen(net.layer(l).packet(d));
        net.layer(l).release(d);
      }
  }
}

// R12: every copy of a full-machine broadcast from each of a few sources passes 2k - 1 switches. Returns
// that count when every copy agrees and every PE got exactly one copy, else -1.
double full_broadcast_stages(int pes) {
  Cs2Network net(broadcast_machine(pes));
  int agreed = -2;
  for (const NodeId src : {0, pes / 2 + 3, pes - 1}) {
    std::vector<int> copies(static_cast<std::size_t>(pes), 0);
    net.broadcast_on(0, src, 0, pes - 1, 32, 0);
    drain(net, [&](const net::Packet& p) {
      ++copies[static_cast<std::size_t>(p.dest)];
      if (agreed == -2) agreed = p.hops;
      if (p.hops != agreed) agreed = -1;
    });
    if (std::any_of(copies.begin(), copies.end(), [](int n) { return n != 1; })) return -1;
  }
  return agreed;
}

// R12: the fraction of broadcast packets that got exactly one token back with the right verdict: ACK
// when every PE accepts, NACK when one PE drawn at random refuses. Full-machine and random-range
// broadcasts (one packet per box) from random sources, one at a time.
double combined_ack_fraction(int pes, int broadcasts) {
  Cs2Network net(broadcast_machine(pes), /*acks=*/true);
  net::Network& layer = net.layer(0);
  core::RandomStream rng(7, 0, core::Stream::Destination);
  std::int64_t packets = 0, right = 0;
  std::vector<net::PacketId> ids;
  for (int i = 0; i < broadcasts; ++i) {
    const auto src = static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(pes)));
    const auto [a, b] = broadcast_range(pes, rng);
    // Every other broadcast has a refusing PE, drawn from its range so that one of its packets reaches it.
    const bool refuse = i % 2 == 1;
    const auto refusing =
        static_cast<NodeId>(a + static_cast<NodeId>(rng.below(static_cast<std::uint32_t>(b - a + 1))));
    if (refuse) layer.set_nack(refusing, true);
    ids.clear();
    net.broadcast_on(0, src, a, b, 24, static_cast<std::uint64_t>(i), &ids);
    const BroadcastBoxes boxes = decompose_range(net.shape(), a, b);  // one per packet, in order
    std::vector<int> tokens(ids.size(), 0);
    std::vector<bool> nacked(ids.size(), false), expect_nack(ids.size(), false);
    for (std::size_t k = 0; k < ids.size(); ++k)
      expect_nack[k] = refuse && refusing >= boxes[k].first && refusing < boxes[k].first + boxes[k].count;
    for (int t = 0; t < 100000 && !net.idle(); ++t) {
      net.step();
      for (const net::PacketId d : layer.delivered()) layer.release(d);
      for (const net::Ack& ack : layer.acknowledged()) {
        const auto k = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), ack.packet) - ids.begin());
        if (k == ids.size()) continue;  // not this broadcast's: counted as missing below
        ++tokens[k];
        nacked[k] = ack.nack;
      }
    }
    if (refuse) layer.set_nack(refusing, false);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      ++packets;
      right += tokens[k] == 1 && nacked[k] == expect_nack[k] ? 1 : 0;
    }
  }
  return packets == 0 ? 0 : static_cast<double>(right) / static_cast<double>(packets);
}

// Whether a saturated run deadlocks: every PE keeps kQueuedPackets packets queued for `cycles`,
// c.traffic.broadcast_fraction of them broadcasts (broadcast_range()), the rest unicast to c's pattern
// along one of 4 alternatives drawn per packet; then no more are created, and the run deadlocks if the
// watchdog fires before the network is idle.
bool deadlocks(const Cs2Config& c, Cycle cycles) {
  Cs2Network net(c);
  net::Network& layer = net.layer(0);
  std::vector<core::RandomStream> rng;
  for (int x = 0; x < net.pes(); ++x)
    rng.emplace_back(static_cast<std::uint64_t>(c.run.seed), static_cast<std::uint64_t>(x),
                     core::Stream::Destination);
  const int pes = net.pes();
  const int bits = std::countr_zero(static_cast<unsigned>(pes));
  for (Cycle t = 0;; ++t) {
    if (t < cycles)
      for (NodeId x = 0; x < pes; ++x) {
        if (layer.source_queue_length(x) >= kQueuedPackets) continue;
        auto& r = rng[static_cast<std::size_t>(x)];
        if (c.traffic.broadcast_fraction > 0 && r.bernoulli(c.traffic.broadcast_fraction)) {
          const auto [a, b] = broadcast_range(pes, r);
          net.broadcast_on(0, x, a, b, c.traffic.packet_bytes, 0);
          continue;
        }
        // Uniform, or the bit complement: every packet crosses the top stage, the heaviest load the
        // up-links can get.
        const NodeId d = c.traffic.pattern == Pattern::BitComplement
                             ? static_cast<NodeId>(~x & ((1 << bits) - 1))
                             : static_cast<NodeId>(r.below(static_cast<std::uint32_t>(pes)));
        net.send_on(0, x, d, c.traffic.packet_bytes, 0, static_cast<int>(r.below(kAlternatives)));
      }
    net.step();
    for (const net::PacketId d : layer.delivered()) layer.release(d);
    if (t >= cycles && net.idle()) return false;
    if (layer.now() - layer.last_progress() > kQuietCycles) return true;
  }
}

// Deadlocked runs of `c` over seeds 1..kSeeds.
int deadlocked_runs(Cs2Config c) {
  int n = 0;
  for (int s = 1; s <= kSeeds; ++s) {
    c.run.seed = s;
    n += deadlocks(c, kCycles) ? 1 : 0;
  }
  return n;
}

// R12's mixed load: 64 and 256 PEs, 20% and 50% broadcasts, 64-byte packets (twice an input FIFO, so a
// blocked broadcast holds channels in several switches), the rest uniform unicast under DEST.
double mixed_runs_deadlocked(BroadcastTree tree) {
  int n = 0;
  for (const int pes : {64, 256})
    for (const double f : {0.2, 0.5}) {
      Cs2Config c = broadcast_machine(pes);
      c.traffic.broadcast_fraction = f;
      c.traffic.packet_bytes = 64;
      c.routing.broadcast_tree = tree;
      n += deadlocked_runs(c);
    }
  return n;
}

// R14: unicast only (the fast router), RANDOM up-ports over 4 alternatives, at 64 and 256 PEs.
double unicast_runs_deadlocked(Pattern p) {
  int n = 0;
  for (const int pes : {64, 256}) {
    Cs2Config c = broadcast_machine(pes);
    c.traffic.broadcast_fraction = 0;
    c.traffic.packet_bytes = 64;
    c.traffic.pattern = p;
    c.routing.policy = Policy::Random;
    n += deadlocked_runs(c);
  }
  return n;
}

}  // namespace

std::vector<ValidationCase> broadcast_cases() {
  std::vector<ValidationCase> cases;
  const std::string r12 =
      std::string(kDoc) + ", ch. 2, L248-L250 and ch. 3, L366-L369, L456-L458; N §2.9, §4.7, §5 R12";
  for (const int pes : {64, 256}) {
    const int k = LayerShape(pes, Doubling::EightWayTop).stages();
    cases.push_back(core::exact_case(
        fmt::format("cs2.r12.full_broadcast_stages_{}", pes), r12,
        fmt::format("one layer of {} PEs ({} stages); a 32-byte broadcast to PEs 0..{} (one box) from PEs 0, "
                    "{} and {} in turn, canonical plane-0 tree, simulated",
                    pes, k, pes - 1, pes / 2 + 3, pes - 1),
        "switches passed by every delivered copy (2k - 1; -1 if copies differ or a PE misses its copy)",
        2.0 * k - 1, [pes] { return full_broadcast_stages(pes); }, Evidence::Independent,
        "exact: a count of switches on simulated packets"));
  }
  cases.push_back(core::exact_case(
      "cs2.r12.one_combined_ack", r12,
      "one layer of 64 PEs with acks; 40 broadcasts one at a time from random PEs, half to every PE and "
      "half to random ranges (one packet per box), every other one with one random PE of its range "
      "refusing (set_nack), simulated",
      "fraction of broadcast packets answered by exactly one token, NACK if the refusing PE is in its box "
      "and ACK otherwise",
      1.0, [] { return combined_ack_fraction(64, 40); }, Evidence::Independent,
      "exact: every packet's token is counted"));
  for (const int pes : {64, 256}) {
    const LayerShape shape(pes, Doubling::EightWayTop);
    cases.push_back(core::exact_case(
        fmt::format("cs2.r12.range_boxes_at_most_2k_minus_1_{}", pes),
        std::string(kDoc) + ", ch. 3, L366-L369; N §2.9, §4.7, §6 #24, §5 R12",
        fmt::format("every contiguous range [a, b] of {} PEs ({} ranges), decompose_range", pes,
                    pes * (pes + 1) / 2),
        "most aligned boxes of any range (bound 2k - 1, reached)", 2.0 * shape.stages() - 1,
        [shape, pes] {
          std::size_t most = 0;
          for (std::int64_t a = 0; a < pes; ++a)
            for (std::int64_t b = a; b < pes; ++b) most = std::max(most, decompose_range(shape, a, b).size());
          return static_cast<double>(most);
        },
        Evidence::ClosedForm, "exact: exhaustive over the ranges"));
  }
  const std::string r12_deadlock =
      std::string(kDoc) + ", ch. 1, L104-L118 and ch. 3, L366-L369; N §2.10, §5 R12";
  const std::string mixed = fmt::format(
      "one layer of 64 and one of 256 PEs, 64-byte packets (twice the 32-byte FIFO), each PE keeping {} "
      "queued (saturation): 20% or 50% broadcasts (half to every PE, half to random ranges), the rest "
      "uniform unicast over 4 DEST alternatives; {} cycles, then drained; watchdog {} cycles without a "
      "flit moving; seeds 1..{}",
      kQueuedPackets, kCycles, kQuietCycles, kSeeds);
  cases.push_back(core::exact_case(
      "cs2.r12.canonical_tree_no_deadlock", r12_deadlock,
      mixed + ", every broadcast on the canonical plane-0 tree", "runs that deadlocked (of 12)", 0.0,
      [] { return mixed_runs_deadlocked(BroadcastTree::Canonical); }, Evidence::Independent,
      "exact: a count of runs"));
  cases.push_back(core::exact_case(
      "cs2.r12.any_plane_can_deadlock", r12_deadlock,
      mixed + ", every broadcast climbing to a top plane drawn per packet (routing.broadcast_tree = "
              "\"any_plane\")",
      "1 if some run deadlocked (the negative control: broadcasts rooted at different top switches over "
      "the same lower switches each win some of them and wait for the others), else 0",
      1.0, [] { return mixed_runs_deadlocked(BroadcastTree::AnyPlane) > 0 ? 1.0 : 0.0; },
      Evidence::Independent, "exact: whether a deadlock occurred"));
  const std::string r14 = std::string(kDoc) + ", ch. 1, L104-L118; N §2.10, §5 R14";
  for (const Pattern p : {Pattern::Uniform, Pattern::BitComplement}) {
    const bool uniform = p == Pattern::Uniform;
    cases.push_back(core::exact_case(
        fmt::format("cs2.r14.no_unicast_deadlock_{}", uniform ? "uniform" : "adversarial"), r14,
        fmt::format("one layer of 64 and one of 256 PEs, RANDOM up-ports with 4 alternatives drawn per "
                    "packet, 64-byte packets, {} traffic, each PE keeping {} queued (saturation); {} "
                    "cycles, then drained; watchdog {} cycles without a flit moving; seeds 1..{}",
                    uniform ? "uniform" : "bit-complement (every packet crosses the top stage)",
                    kQueuedPackets, kCycles, kQuietCycles, kSeeds),
        "runs that deadlocked (of 6)", 0.0, [p] { return unicast_runs_deadlocked(p); }, Evidence::Independent,
        "exact: a count of runs"));
  }
  return cases;
}

}  // namespace mppnet::machines::cs2
