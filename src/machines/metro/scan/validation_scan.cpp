// machines/metro/scan/validation_scan.cpp: the scan-test cases of note 004b §5 (V11, V13, V15, V16).
//
// Chapter 5 prints no tables: its claims are properties (two faulty scan paths cut off at most one part,
// L1903; a random load is legal with probability 2^-m, L1928-1930; stuck lines load nothing, L1916-1918,
// L1932; the newest load wins, L1913-1915) and procedures (port-by-port isolation and test, L1976;
// masking and propagation, L1984-2000). The properties are Behaviour; counts that follow from the built
// network are derived in the quantity text. Every case but the random-load rate is exact: the scan system
// is deterministic and the MRP runs are one trace per seed.
#include "machines/metro/scan/validation_scan.hpp"

#include <algorithm>
#include <string>

#include "core/rng.hpp"
#include "machines/metro/mrp/scenarios.hpp"
#include "machines/metro/scan/localise.hpp"
#include "machines/metro/scan/reconfigure.hpp"
#include "machines/metro/scan/scan_scenarios.hpp"

namespace mppnet::machines::metro::scan {
namespace {

constexpr const char* kScanThesis = "DeHon 1993 (MIT AI TR-1445)";
constexpr const char* kScanExact =
    "exact: the scan system is deterministic and an MRP run is one trace per seed";

std::string src(const char* thesis_part, const char* note_part) {
  return std::string(kScanThesis) + " " + thesis_part + "; note 004b §5 " + note_part;
}

const char* kGrid =
    "Fig 4.4's 16-node multibutterfly (r = d = 2, 4 stages, ni = no = 2, deterministic, seed 1): 40 routers "
    "(24 of "
    "4 + 4 ports, 16 final ones of 2 + 2), each with 2 TAPs on the 5 x 8 grid of Fig 5.1 (13 scan paths), "
    "8-bit instructions with an "
    "8-bit check";

// Loads one word through TAP 0 of a lone router with TDI from `tdi` (good TCK and TMS): the IR word after.
template <class Tdi>
std::uint32_t load_with(RouterScan& r, int length, Tdi tdi) {
  for (bool tms : {true, true, false, false}) r.clock(0, tms, false);
  for (int b = 0; b < length; ++b) r.clock(0, b + 1 == length, tdi());
  for (bool tms : {true, false}) r.clock(0, tms, false);
  return r.instruction_word(0);
}

// Percent of `loads` random-TDI loads that leave a legal code in the instruction register.
double random_load_legal_percent(std::uint64_t seed, int loads) {
  const SparseCode code(8);
  RouterScan r(4, 4, 10, 2, code);
  r.clock(0, false, false);
  core::RandomStream rng(seed, 0, core::Stream::Fault);
  int legal = 0;
  for (int k = 0; k < loads; ++k)
    legal += code.is_legal(load_with(r, code.length(), [&] { return (rng.next_u64() >> 63) != 0; })) ? 1 : 0;
  return 100.0 * legal / loads;
}

// The V13 setup: copy 0 of the direction toward node 15 out of the first stage-2 router of its class
// (router 12) flips bit 7 of every word it carries toward the destination; 400 random messages.
struct StuckLinkRun {
  Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
  mrp::MrpNetwork net{g, mrp::MrpParams{}, 1};
  LinkId bad = -1;
  TrafficResult before;
  Localisation loc;
  explicit StuckLinkRun(int flips, int min_evidence) {
    bad = stage_two_link(g, net, 15, 0, 0);
    net.set_link_flip(bad, 0x80, flips > 0 ? 3 : 0, flips);
    before = random_messages(net, 2, 400, 1);
    ScanSystem scan(g, &net, ScanParams{});
    loc = localise_links(g, scan, before.attempts, min_evidence);
  }
};

// Fig 3.22's network: Fig 4.4's sizes with random wiring (the figure's own wiring is lost; seed 1 here).
Multibutterfly figure_322_network() {
  MultibutterflyParams p = mrp::figure_44_network();
  p.wiring = Wiring::Random;
  return build_instance(p, 1, 0);
}

// Fig 5.3 on it: stage-2 routers 13 and 14 lost, both direction-1 copies of stage-1 router 2.
NetworkMasks figure_53_faults(const Multibutterfly& g) {
  NetworkMasks m(g);
  m.router[13] = m.router[14] = 1;
  return m;
}

// Fig 5.4 on it: stage-2 routers 8, 10, 14 and 15 lost (found by trying every 2 + 2 of the two classes).
NetworkMasks figure_54_faults(const Multibutterfly& g) {
  NetworkMasks m(g);
  m.router[8] = m.router[10] = m.router[14] = m.router[15] = 1;
  return m;
}

// 400 random messages on Fig 3.22's network with Fig 5.3's faults masked by scan and, if `propagated`,
// the yield propagation applied too (the excised routers' node inputs unused at the sources): the run,
// and the attempts entering by stage-1 router 2 toward the upper half (nodes 8-15) and how many of them
// blocked at stage 1. `ok` is false unless every mask was written and every message delivered.
struct Figure53Run {
  bool ok = false;
  TrafficResult traffic;
  int through = 0, blocked_through = 0;
};

Figure53Run run_figure_53(bool propagated) {
  const Multibutterfly g = figure_322_network();
  mrp::MrpNetwork net(g, mrp::MrpParams{}, 1);
  ScanSystem scan(g, &net, ScanParams{});
  NetworkMasks m = figure_53_faults(g);
  const int ni = g.params.node_inputs;
  std::vector<std::pair<NodeId, int>> inputs;
  if (propagated) {
    propagate(g, m, ReconfigureMode::Yield);
    for (NodeId x = 0; x < g.nodes; ++x)
      for (int q = 0; q < ni; ++q)
        if (m.router[g.node_in[static_cast<std::size_t>(x) * ni + q]]) inputs.push_back({x, q});
  }
  Figure53Run run;
  if (apply_masks(g, m, scan) != 0) return run;
  run.traffic = random_messages(net, 2, 400, 1, 6, inputs);
  run.ok = run.traffic.stats.delivered == 400;
  for (const mrp::Attempt& a : run.traffic.attempts) {
    if (g.node_in[static_cast<std::size_t>(a.source) * ni + a.input] != 2 || a.destination < 8) continue;
    ++run.through;
    run.blocked_through += a.outcome == mrp::Outcome::Blocked && a.blocked_stage == 1 ? 1 : 0;
  }
  return run;
}

}  // namespace

std::vector<core::ValidationCase> scan_validation_cases() {
  using core::Evidence;
  std::vector<core::ValidationCase> cases;
  cases.push_back(core::exact_case(
      "metro.mrp.v15.two_dead_paths_cut_off_one",
      src("§5.3.1 (L1903: with dual-TAP parts on paths where no two share the same pair, two faulty scan "
          "paths "
          "make at most one component inaccessible; Fig 5.1)",
          "V15"),
      std::string(kGrid) + "; every one of the 78 pairs of paths with TCK stuck",
      "most routers no healthy path reaches (loads PORT_SELECT and reads the register back), over all pairs",
      1,
      [] {
        const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
        ScanSystem scan(g, nullptr, ScanParams{});
        const std::vector<int> cut = cut_off_by_path_pairs(scan, g.routers());
        return cut.size() == 78 ? static_cast<double>(*std::max_element(cut.begin(), cut.end())) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  core::ValidationCase rate;
  rate.id = "metro.mrp.v15.random_load_legal_percent";
  rate.source = src("§5.3.1 (L1928-1930: P_random_load = 2^n / 2^(n+m) = 2^-m)", "V15: m = 8 gives 0.39 %");
  rate.setup =
      "one router's TAP driven through Select-IR, Capture-IR, 16 Shift-IR edges with random TDI, Update-IR "
      "(good "
      "TCK and TMS, as L1928 assumes); 8-bit instructions, 8-bit check; 500,000 loads, seed 1";
  rate.quantity = "percent of loads that leave a legal code in the instruction register (2^-8 = 0.390625 %)";
  rate.expected = 0.390625;
  rate.tolerance = core::Tolerance::absolute(0.06);
  rate.tolerance_origin =
      "the sampling spread: a binomial with p = 2^-8 over 500,000 loads has a 95% interval of +-0.017 "
      "percentage "
      "points; +-0.06 is 3.5 times that";
  rate.evidence = Evidence::Behaviour;
  rate.measure = [] { return random_load_legal_percent(1, 500000); };
  cases.push_back(std::move(rate));
  cases.push_back(core::exact_case(
      "metro.mrp.v15.stuck_tdi_loads_nothing",
      src("§5.3.1 (L1916-1918, L1932: stuck TDI/TDO lines give all-zeros or all-ones words, which must not "
          "be "
          "legal codes)",
          "V15"),
      "one router's TAP loaded 1,000 times with TDI stuck at 0 and 1,000 times stuck at 1, after a "
      "PORT_SELECT "
      "load on its other TAP",
      "loads that leave anything but BYPASS, plus loads that took the other TAP's register", 0,
      [] {
        const SparseCode code(8);
        RouterScan r(4, 4, 10, 2, code);
        r.clock(0, false, false);
        r.clock(1, false, false);
        for (bool tms : {true, true, false, false}) r.clock(1, tms, false);
        const std::uint32_t w = code.encode({Opcode::PortSelect, 0}, 8);
        for (int b = 0; b < code.length(); ++b) r.clock(1, b + 1 == code.length(), ((w >> b) & 1) != 0);
        for (bool tms : {true, false}) r.clock(1, tms, false);
        int bad = 0;
        for (int k = 0; k < 2000; ++k) {
          const bool level = k >= 1000;
          load_with(r, code.length(), [&] { return level; });
          bad += r.instruction(0) == Instruction{} ? 0 : 1;
          bad += r.instruction(1).op == Opcode::PortSelect ? 0 : 1;
        }
        return static_cast<double>(bad);
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v15.newer_load_resets_conflicting_tap",
      src("§5.3.1 (L1913-1915: the TAP loading an instruction most recently gets the path; the conflicting "
          "TAP "
          "is reset to BYPASS)",
          "V15"),
      std::string(kGrid) +
          "; router 9: PORT_SELECT through its row path (TAP 0), then through its column path "
          "(TAP 1)",
      "opcode left in TAP 0 (BYPASS = 0) when TAP 1 holds PORT_SELECT (3); -1 otherwise", 0,
      [] {
        const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
        ScanSystem scan(g, nullptr, ScanParams{});
        scan.load(scan.path_of(9, 0), 9, {Opcode::PortSelect, 0});
        if (scan.router(9).instruction(0).op != Opcode::PortSelect) return -1.0;
        scan.load(scan.path_of(9, 1), 9, {Opcode::PortSelect, 0});
        if (scan.router(9).instruction(1).op != Opcode::PortSelect) return -1.0;
        return static_cast<double>(scan.router(9).instruction(0).op);
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v11.scan_deselected_copy_first_attempt",
      src("§4.9.1 (L1607-1625) and §5.3.2 (L1954-1956: port (de)select is a configuration register reached "
          "by "
          "scan)",
          "V11-V12: after masking, first-attempt success = 1"),
      std::string(kGrid) +
          "; copy 0 of the direction toward node 15 out of every stage-2 router flips bit 7 (as "
          "metro.mrp.v12.one_faulty_copy_mean_attempts); those 4 backward ports deselected by PORT_SELECT "
          "scans; 1,000 5-word messages 5 -> 15; seed 1",
      "mean attempts per message (2 without the masks)", 1,
      [] {
        const Multibutterfly g = build_instance(mrp::figure_44_network(), 1, 0);
        mrp::MrpNetwork net(g, mrp::MrpParams{}, 1);
        ScanSystem scan(g, &net, ScanParams{});
        for (int i = 0; i < 4; ++i) {
          const LinkId l = stage_two_link(g, net, 15, i, 0);
          net.set_link_flip(l, 0x80);
          const ScanSystem::LinkEnds e = scan.ends(l);
          if (!scan.set_port_enabled(e.upper, e.upper_port, false)) return -1.0;
        }
        mrp::EndpointParams ep;
        ep.message_words = 5;
        mrp::MrpEndpoints ends(net, 2, ep, 1);
        for (int k = 0; k < 1000; ++k) {
          ends.send(5, 15);
          for (int c = 0; c < 100000 && !ends.idle(); ++c) {
            ends.tick();
            net.step();
          }
        }
        const auto& st = ends.stats();
        return st.delivered == 1000 ? static_cast<double>(st.attempts) / 1000 : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  const std::string v13_setup =
      std::string(kGrid) +
      "; the link from stage-2 router 12's backward port 2 (copy 0 toward node 15) to stage 3 flips bit 7 of "
      "every word toward the destination (a static fault); fast reclaim off; 400 6-word messages (7 words "
      "through each router: an odd count, so the flip shows in the XOR checksums) between random node pairs, "
      "one at a time; seed 1; suspects from the checksums and STATUS paths of the "
      "corrupted attempts, each tested by partial-external scan with 2 attempts of evidence";
  cases.push_back(core::exact_case(
      "metro.mrp.v13.scan_finds_stuck_link",
      src("§5.4 (L1966-1976: MRP's checksums give hints; the suspect wire's ports are disabled and scanned)",
          "V13; §3.5 verify_link"),
      v13_setup,
      "the one link the scan test finds faulty: LinkId 32 node links + 4 ports x router 12 + port 2 = 82; -1 "
      "unless exactly one",
      82,
      [] {
        const StuckLinkRun run(-1, 2);
        return run.loc.faulty.size() == 1 && run.bad == 82 ? static_cast<double>(run.loc.faulty[0]) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v13.scan_test_ports_out_of_service",
      src("§5.4 (L1976: disable the ports of the components attached to the suspect wires; the rest keeps "
          "running)",
          "V13"),
      v13_setup,
      "ports one test takes out of service (the link's two ends), if exactly one suspect is tested; -1 "
      "otherwise",
      2,
      [] {
        const StuckLinkRun run(-1, 2);
        return run.loc.tested.size() == 1 ? static_cast<double>(run.loc.max_ports_out) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v13.scan_mask_ends_corruption",
      src("§5.5.1 (L1984-1986: disabling the ports at both ends excises a faulty channel)", "V12-V13"),
      v13_setup + "; then 400 more random messages (seed 2) with the link masked",
      "corrupted attempts after the mask, if all 400 are delivered; -1 otherwise (before the mask: 10)", 0,
      [] {
        StuckLinkRun run(-1, 2);
        const TrafficResult after = random_messages(run.net, 2, 400, 2);
        return after.stats.delivered == 400 ? static_cast<double>(after.stats.corrupted) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v13.scan_returns_transient_to_service",
      src("§5.4 (L1968-1970: corruption may be transient; static faults are worth masking, rare transients "
          "not)",
          "V13"),
      "as metro.mrp.v13.scan_finds_stuck_link, but the link flips one payload word only (the 4th word to "
      "cross "
      "it: a transient); every suspect with 1 attempt of evidence tested",
      "ports left deselected after the procedure, if exactly one suspect was tested; -1 otherwise", 0,
      [] {
        StuckLinkRun run(1, 1);
        if (run.loc.tested.size() != 1) return -1.0;
        int off = 0;
        for (RouterId u = 0; u < run.g.routers(); ++u) {
          for (int p = 0; p < run.net.forward_ports(u); ++p) off += run.net.forward_selected(u, p) ? 0 : 1;
          for (int p = 0; p < run.net.backward_ports(u); ++p) off += run.net.backward_selected(u, p) ? 0 : 1;
        }
        return static_cast<double>(off);
      },
      Evidence::Behaviour, kScanExact));
  const std::string v16_setup =
      "Fig 3.22's network: 16 nodes, r = d = 2, 4 stages, ni = no = 2, random wiring (seed 1; the figure's "
      "own "
      "wiring is lost from the transcription)";
  cases.push_back(core::exact_case(
      "metro.mrp.v16.dead_end_router_masked",
      src("§5.5.2, Fig 5.3 (L1990-1994, L2007-2010: two stage-2 routers lost leave first-stage router 3 with "
          "no "
          "outputs in one direction; it is masked as well)",
          "V16"),
      v16_setup +
          "; stage-2 routers 13 and 14 lost (both direction-1 copies of stage-1 router 2, the thesis's "
          "router 3 counted from 1); yield-mode propagation",
      "the one router propagation masks; -1 unless exactly one is masked and every node still reaches every "
      "node",
      2,
      [] {
        const Multibutterfly g = figure_322_network();
        NetworkMasks m = figure_53_faults(g);
        const ReconfigureResult r = propagate(g, m, ReconfigureMode::Yield);
        return r.masked.size() == 1 && r.complete ? static_cast<double>(r.masked[0]) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v16.dead_end_always_blocks",
      src("§5.5.2, Fig 5.3 (L2007-2010: all connections to destinations 8 through 16 routed through this "
          "router "
          "will always block)",
          "V16"),
      v16_setup +
          "; routers 13 and 14 excised by scan (their ports and their neighbours' ports deselected), no "
          "propagation; 400 random 6-word messages one at a time; seed 1",
      "fraction of the attempts entering by router 2 toward nodes 8-15 that blocked at stage 1 (-1 if none "
      "entered)",
      1,
      [] {
        const Figure53Run run = run_figure_53(false);
        return run.ok && run.through > 0 ? static_cast<double>(run.blocked_through) / run.through : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v16.propagation_removes_dead_end_blocks",
      src("§5.5.2 (L1994: propagating the reconfiguration prevents a router from ever routing a data stream "
          "into "
          "a dead end)",
          "V16"),
      "as metro.mrp.v16.dead_end_always_blocks, with router 2 masked too (yield propagation) and the sources "
      "never using the inputs that lead to it",
      "blocked attempts over the whole run (an idle network with one message at a time blocks only at dead "
      "ends); -1 unless all 400 are delivered",
      0,
      [] {
        const Figure53Run run = run_figure_53(true);
        return run.ok ? static_cast<double>(run.traffic.stats.blocked) : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v16.yield_keeps_every_node",
      src("§5.5.2, Fig 5.4 (L1996-2000, L2016-2020: paths still join every pair, but removing the dead ends "
          "would isolate node 6; in the yield setting the propagation is checked first)",
          "V16"),
      v16_setup + "; stage-2 routers 8, 10, 14 and 15 lost: stage-1 routers 1 and 5, node 2's two entries, "
                  "are dead ends in opposite directions; yield-mode propagation",
      "nodes cut off; -1 unless both dead ends are refused and every node still reaches every node", 0,
      [] {
        const Multibutterfly g = figure_322_network();
        NetworkMasks m = figure_54_faults(g);
        const ReconfigureResult r = propagate(g, m, ReconfigureMode::Yield);
        return r.complete && r.refused == std::vector<RouterId>{1, 5} ? static_cast<double>(r.cut_off.size())
                                                                      : -1.0;
      },
      Evidence::Behaviour, kScanExact));
  cases.push_back(core::exact_case(
      "metro.mrp.v16.harvest_cuts_off_one_node",
      src("§5.5.2, Fig 5.4 (L2016-2020: the propagation of Fig 3.28 isolates a node that still had paths)",
          "V16"),
      "as metro.mrp.v16.yield_keeps_every_node, harvest-mode propagation (Fig 3.28 as it stands)",
      "nodes cut off (node 2, the network's counterpart of the thesis's node 6)", 1,
      [] {
        const Multibutterfly g = figure_322_network();
        NetworkMasks m = figure_54_faults(g);
        if (!all_pairs_connected(g, m)) return -1.0;
        const ReconfigureResult r = propagate(g, m, ReconfigureMode::Harvest);
        return r.cut_off == std::vector<NodeId>{2} ? 1.0 : static_cast<double>(r.cut_off.size()) + 100;
      },
      Evidence::Behaviour, kScanExact));
  return cases;
}

}  // namespace mppnet::machines::metro::scan
