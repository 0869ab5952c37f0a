// machines/metro/mrp/validation_endpoint.cpp: MRP-ENDPOINT cases (note 004b §2.8, §2.10 and §5 V2, V12).
//
// The endpoint protocol of §4.7 (L1453-1538) is prose: the thesis prints no endpoint numbers. Timings are
// derived with note 004b §2.10's model (W = 1, P = dps - 1), so those cases are Independent; that a
// corrupted stream is retried and that retry after a lost ACK delivers a message twice (L1493-1509,
// L1524-1526) the thesis states in words, so those cases are Behaviour. All are exact: a run is one
// trace per seed.
#include <string>

#include "machines/metro/mrp/mrp_endpoint.hpp"
#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/mrp/validation_mrp.hpp"
#include "machines/metro/multibutterfly.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

constexpr const char* kEndpointThesis = "DeHon 1993 (MIT AI TR-1445)";
constexpr const char* kEndpointExact =
    "exact: a synchronous protocol gives one trace per connection, word by word";
constexpr std::uint64_t kSeed = 1;

struct EndpointRun {
  std::vector<Attempt> attempts;
  std::vector<Completion> completions;
  EndpointStats stats;
};

// One message x -> y on a network built from `p` with seed 1, until it is done; `prepare` may deselect
// ports or arm the endpoint fault hooks first.
template <class Prepare>
EndpointRun one_message(const MultibutterflyParams& p, int dps, int message_words, int max_attempts, NodeId x,
                        NodeId y, Prepare prepare) {
  const Multibutterfly graph = build_instance(p, kSeed, 0);
  MrpParams mp;
  mp.dps = dps;
  MrpNetwork net(graph, mp, kSeed);
  EndpointParams e;
  e.message_words = message_words;
  e.max_attempts = max_attempts;
  MrpEndpoints ends(net, p.radix, e, kSeed);
  EndpointRun out;
  ends.set_log(&out.attempts, &out.completions);
  prepare(graph, net, ends);
  ends.send(x, y);
  for (int c = 0; c < 1000 && !ends.idle(); ++c) {
    ends.tick();
    net.step();
  }
  out.stats = ends.stats();
  return out;
}

const auto kNothing = [](const Multibutterfly&, MrpNetwork&, MrpEndpoints&) {};

// On Fig 4.4's network, copy `copy` (-1: both) of direction 1 in every stage-2 router (the way to node 15)
// flips the top data bit of every forward word: a bit no later stage routes on, so only the data and the
// checksums are hit (note 004b §5 V12-V13).
void flip_stage_two(const Multibutterfly& g, MrpNetwork& net, int copy, int skip = 0, int count = -1) {
  const int s = 1, d = g.copies[s], digit = (15 >> 2) & 1;
  for (RouterId u = g.stage_first[s]; u < g.stage_first[s + 1]; ++u)
    for (int k = 0; k < d; ++k)
      if (copy < 0 || k == copy) net.set_link_flip(net.backward_link(u, digit * d + k), 0x80, skip, count);
}

// Mean attempts per message over `messages` messages 5 -> 15 sent one after another on an idle network
// with copy 0 faulty, masked (deselected) or not.
double mean_attempts(std::uint64_t seed, int messages, bool masked) {
  const Multibutterfly graph = build_instance(figure_44_network(), seed, 0);
  MrpNetwork net(graph, MrpParams{}, seed);
  EndpointParams e;
  e.message_words = 5;
  MrpEndpoints ends(net, 2, e, seed);
  flip_stage_two(graph, net, 0);
  if (masked) {
    const int s = 1, d = graph.copies[s], digit = (15 >> 2) & 1;
    for (RouterId u = graph.stage_first[s]; u < graph.stage_first[s + 1]; ++u)
      net.deselect_backward(u, digit * d);
  }
  for (int k = 0; k < messages; ++k) {
    ends.send(5, 15);
    for (int c = 0; c < 100000 && !ends.idle(); ++c) {
      ends.tick();
      net.step();
    }
  }
  const EndpointStats& st = ends.stats();
  return st.delivered == messages ? static_cast<double>(st.attempts) / messages : -1.0;
}

}  // namespace

std::vector<core::ValidationCase> mrp_endpoint_validation_cases() {
  using core::Evidence;
  std::vector<core::ValidationCase> cases;
  cases.push_back(core::exact_case(
      "metro.mrp.endpoint.mbta_flat24_zero_load_latency",
      std::string(kEndpointThesis) +
          " §10.2 (L2997: 70 ns one way) and §4.7.2 (L1475-1485); note 004b §2.10: the last reply word at "
          "t0 + M + 2 T_fwd + R - 1, the DROP one cycle later",
      "the MBTA's network (r = 4, d = 2, 3 stages, ni = no = 2, deterministic) with dps = 2 at 100 MHz; one "
      "FLAT24 message (24 words after the ROUTE) from node 0 to node 63 on an idle network; seed 1",
      "cycles from the message's creation to the source reading the DROP after the 2-word ACK: M = 25, "
      "T_fwd = 7, R = 2 gives 25 + 14 + 2",
      41,
      [] {
        const EndpointRun r = one_message(mbta_network(), 2, 24, 0, 0, 63, kNothing);
        return r.completions.size() == 1
                   ? static_cast<double>(r.completions[0].done - r.completions[0].created)
                   : -1.0;
      },
      Evidence::Independent, kEndpointExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v2.blocked_attempt_returns_drop",
      std::string(kEndpointThesis) +
          " §4.7.2 (L1478): (STATUS CHECKSUM)^s DROP; note 004b §2.10: the DROP reaches "
          "the source at T_turn + 2 s + 2",
      "Fig 4.4's network (r = d = 2, 4 stages); every stage-3 port toward node 15 deselected; a 5-word "
      "message 5 -> 15 (TURN in cycle 6), max_attempts 2; seed 1",
      "cycles from each attempt's ROUTE to its DROP at the source (6 + 2*3 + 2), less 100 per attempt not "
      "blocked at stage 3 with 3 pairs or not started in the cycle the one before ended",
      14,
      [] {
        const auto block = [](const Multibutterfly& g, MrpNetwork& net, MrpEndpoints&) {
          const int s = 2, d = g.copies[s], digit = (15 >> 1) & 1;
          for (RouterId u = g.stage_first[s]; u < g.stage_first[s + 1]; ++u)
            for (int k = 0; k < d; ++k) net.deselect_backward(u, digit * d + k);
        };
        const EndpointRun r = one_message(figure_44_network(), 1, 5, 2, 5, 15, block);
        if (r.attempts.size() != 2) return -1.0;
        double v = static_cast<double>(r.attempts[1].end - r.attempts[1].start);
        for (std::size_t k = 0; k < 2; ++k) {
          const Attempt& a = r.attempts[k];
          if (a.outcome != Outcome::Blocked || a.blocked_stage != 3 || a.pairs != 3) v -= 100;
          if (a.end - a.start != 14) v -= 100;
        }
        if (r.attempts[1].start != r.attempts[0].end) v -= 100;
        return v;
      },
      Evidence::Independent, kEndpointExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v12.corrupted_stream_retried",
      std::string(kEndpointThesis) +
          " §4.7.3 (L1493-1500): a destination that reports corruption makes the source "
          "retransmit; note 004b §5 V12",
      "Fig 4.4's network; one payload bit flipped at node 15's output on the first connection; a 5-word "
      "message 5 -> 15; seed 1",
      "attempts until the ACK (NACK, then a good copy)", 2,
      [] {
        const auto flip = [](const Multibutterfly&, MrpNetwork&, MrpEndpoints& e) {
          e.corrupt_arrivals(15, 1);
        };
        const EndpointRun r = one_message(figure_44_network(), 1, 5, 0, 5, 15, flip);
        return r.stats.delivered == 1 && r.stats.corrupted == 1 ? static_cast<double>(r.stats.attempts)
                                                                : -1.0;
      },
      Evidence::Behaviour, kEndpointExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v12.lost_ack_duplicate",
      std::string(kEndpointThesis) +
          " §4.7.5 (L1524-1530): source retry with faults that corrupt only the reply "
          "delivers a message twice; note 004b §5 V12",
      "Fig 4.4's network; node 15's first ACK flipped after it accepted the message; a 5-word message "
      "5 -> 15; metro.mrp.suppress_duplicates on; seed 1",
      "intact copies that arrived again (the duplicate the sequence number then suppresses)", 1,
      [] {
        const auto flip = [](const Multibutterfly&, MrpNetwork&, MrpEndpoints& e) {
          e.corrupt_replies(15, 1);
        };
        const EndpointRun r = one_message(figure_44_network(), 1, 5, 0, 5, 15, flip);
        return r.stats.accepted == 1 && r.stats.delivered == 1 ? static_cast<double>(r.stats.duplicates)
                                                               : -1.0;
      },
      Evidence::Behaviour, kEndpointExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v13.checksums_locate_flipped_link",
      std::string(kEndpointThesis) +
          " §4.5.3 (L1435-1439: each router returns a checksum of the data it received; "
          "the source can locate the fault); note 004b §5 V13",
      "Fig 4.4's network; the stage-2 ports toward node 15 flip the top data bit of one payload word (a "
      "transient fault in the forward phase); fast reclaim off; a 5-word message 5 -> 15, one attempt; seed "
      "1",
      "the nearest stage whose returned CHECKSUM differs from the source's own (C1, C2 match; C3, C4 do "
      "not), or -1 unless exactly 2 differ and the destination NACKs",
      3,
      [] {
        const auto fault = [](const Multibutterfly& g, MrpNetwork& net, MrpEndpoints&) {
          flip_stage_two(g, net, -1, 3, 1);
        };
        const EndpointRun r = one_message(figure_44_network(), 1, 5, 1, 5, 15, fault);
        if (r.attempts.size() != 1 || r.attempts[0].outcome != Outcome::Corrupted ||
            r.attempts[0].checksum_mismatches != 2)
          return -1.0;
        return static_cast<double>(r.attempts[0].first_mismatch_stage);
      },
      Evidence::Independent, kEndpointExact));
  core::ValidationCase v12;
  v12.id = "metro.mrp.v12.one_faulty_copy_mean_attempts";
  v12.source =
      std::string(kEndpointThesis) +
      " §4.7.3 (L1493-1509: a failed connection is retried, the path probably differs); note 004b §5 "
      "V12: success per attempt (d - f)/d, so 2 attempts on average for d = 2, f = 1";
  v12.setup =
      "Fig 4.4's network; copy 0 of the two stage-2 ports toward node 15 flips the top data bit; 1,000 "
      "5-word messages 5 -> 15 one after another per seed, seeds 1..10; immediate retry";
  v12.quantity = "mean attempts per message (a geometric count with p = 1/2)";
  v12.expected = 2;
  v12.tolerance = core::Tolerance::absolute(0.1);
  v12.tolerance_origin =
      "the sampling spread: sd 1.41 per message, so 10 seeds x 1,000 messages give a 95% interval of "
      "about +-0.03, well inside +-0.1";
  v12.evidence = Evidence::Independent;
  v12.measure = [] {
    double sum = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) sum += mean_attempts(seed, 1000, false);
    return sum / 10;
  };
  cases.push_back(std::move(v12));
  cases.push_back(core::exact_case(
      "metro.mrp.v12.masked_copy_first_attempt",
      std::string(kEndpointThesis) +
          " §4.9.1 (L1607-1625: a deselected port is never allocated); note 004b §5 V12: "
          "after masking, first-attempt success = 1",
      "as metro.mrp.v12.one_faulty_copy_mean_attempts, with the faulty copy deselected in every stage-2 "
      "router; 1,000 messages; seed 1",
      "mean attempts per message", 1, [] { return mean_attempts(1, 1000, true); }, Evidence::Behaviour,
      kEndpointExact));
  return cases;
}

}  // namespace mppnet::machines::metro::mrp
