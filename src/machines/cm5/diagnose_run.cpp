// machines/cm5/diagnose_run.cpp: inject, detect, isolate, repair, check: the diagnostic network used
// end to end on the data network (note 000 §2.5; paper L762-771 and L288-295).
#include "machines/cm5/diagnose_run.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "machines/cm5/data_network.hpp"
#include "machines/cm5/diagnostic_geography.hpp"
#include "machines/cm5/diagnostic_tests.hpp"
#include "machines/cm5/map_out.hpp"

namespace mppnet::machines::cm5 {

namespace {

[[noreturn]] void bad(const char* option, const std::string& reason) {
  throw core::ConfigError({}, option, reason);
}

std::string join(const std::vector<DiagnosticAddress>& addresses) {
  std::string s;
  for (const DiagnosticAddress& a : addresses) s += (s.empty() ? "" : ", ") + a.str();
  return s;
}

std::string describe(const FatTreeShape& shape, ChipId c) {
  const ChipPlace& p = shape.place(c);
  return fmt::format("chip {} (side {}, level {}, node {}, index {})", c, p.side, p.level, p.node, p.index);
}

int fixed_digits(const DiagnosticAddress& a) {
  int n = 0;
  for (const Digit d : a.digits()) n += d == Digit::Both ? 0 : 1;
  return n;
}

std::string pods_text(int n) {
  return fmt::format("{} pod{}", n, n == 1 ? "" : "s");
}

struct Counter final : DataNetworkObserver {
  std::int64_t got = 0;
  void on_delivery(MessageId, const Message&) override { ++got; }
};

}  // namespace

DiagnoseReport run_diagnosis(const DiagnoseOptions& o) {
  if (o.nodes < 32 || o.nodes > 16384 || o.nodes % 32 != 0)
    bad("--nodes", fmt::format("a CM-5 has a multiple of 32 nodes from 32 to 16384 (got {})", o.nodes));
  if (o.stuck != 0 && o.stuck != 1)
    bad("--stuck", fmt::format("a stuck-at value is 0 or 1 (got {})", o.stuck));
  const DataNetworkParams defaults;
  const FatTreeShape shape(o.nodes, defaults.parents);
  if (o.fault_chip != kNoChip && (o.fault_chip < 0 || o.fault_chip >= shape.chips()))
    bad("--fault-chip", fmt::format("chip {} is not in a {}-node machine (chips 0 to {})", o.fault_chip,
                                    o.nodes, shape.chips() - 1));
  if (o.fault_level < 0 || o.fault_level > shape.height())
    bad("--fault-level", fmt::format("level {} is not in a {}-node machine (levels 1 to {}, or 0 for any)",
                                     o.fault_level, o.nodes, shape.height()));
  const ScanParams scan_params{.seed = o.seed};
  if (o.fault_bit < -1 || o.fault_bit >= scan_params.chain_bits)
    bad("--fault-bit",
        fmt::format("scan cell {} is not in a chain of {} cells", o.fault_bit, scan_params.chain_bits));
  if (o.messages < 0)
    bad("--messages", fmt::format("a count of messages is not negative (got {})", o.messages));

  DiagnoseReport r;
  std::string& out = r.text;
  const DiagnosticGeography geo(shape);
  out += fmt::format(
      "CM-5 diagnostic network: {} nodes, {} data-network chips on {} pods of {} (boards of one level and "
      "side), tree height {}\n",
      o.nodes, shape.chips(), geo.pods(), kChipsPerPod, geo.height());

  // The fault, hidden from what follows: only scan outputs reveal it.
  core::RandomStream draw(o.seed, 0, core::Stream::Fault);
  r.injected = o.fault_chip;
  if (r.injected == kNoChip) {
    const int level = o.fault_level > 0 ? o.fault_level : 1 + static_cast<int>(draw.below(shape.height()));
    const int side = static_cast<int>(draw.below(kSides));
    const int node = static_cast<int>(draw.below(static_cast<std::uint32_t>(shape.level_nodes(level))));
    const int index = static_cast<int>(draw.below(static_cast<std::uint32_t>(shape.chips_per_node(level))));
    r.injected = shape.chip(side, level, node, index);
  }
  r.injected_bit = o.fault_bit >= 0 ? o.fault_bit : static_cast<int>(draw.below(scan_params.chain_bits));
  ScanSystem scan(geo.leaves(), scan_params);
  const PodPlace at = geo.where(r.injected);
  scan.inject({.pod = at.pod, .chip = at.slot, .bit = r.injected_bit, .value = o.stuck});
  out += fmt::format("injected: {}, scan cell {} stuck at {}\n", describe(shape, r.injected), r.injected_bit,
                     o.stuck);

  DiagnosticTree tree = geo.make_tree();
  GroupTester tester(tree, scan);
  out +=
      fmt::format("1. group tests, one level of the data network at a time ({} vectors on {}-cell chains):\n",
                  scan.vectors(), scan_params.chain_bits);
  std::vector<std::vector<DiagnosticAddress>> failing;
  for (int level = 1; level <= shape.height(); ++level) {
    const std::vector<DiagnosticAddress> addresses = geo.level_addresses(level);
    const bool passed = tester.test(addresses);
    out += fmt::format("   level {}: address {} -> {}: {}\n", level, join(addresses),
                       pods_text(tester.log().back().pods), passed ? "pass" : "FAIL");
    if (!passed) failing.push_back(addresses);
  }

  out += "2. isolation by halves (first B -> 0; its 1 half is tested only when the 0 half fails too):\n";
  const int before = tester.group_tests();
  for (const std::vector<DiagnosticAddress>& addresses : failing) {
    // A selection of several addresses is split into its full-length ones first (the merges select no pod).
    std::vector<DiagnosticAddress> parts;
    for (const DiagnosticAddress& a : addresses)
      if (a.size() == geo.height()) parts.push_back(a);
    for (const DiagnosticAddress& a : parts) {
      const std::size_t first = tester.log().size();
      if (parts.size() > 1 && tester.test(a)) continue;
      const Isolation iso = isolate(tester, a, false);
      r.pods_found.insert(r.pods_found.end(), iso.pods.begin(), iso.pods.end());
      for (std::size_t k = first; k < tester.log().size(); ++k) {
        // Indented by how many digits of the starting address the test has fixed.
        const GroupTestRecord& g = tester.log()[k];
        const std::size_t depth =
            static_cast<std::size_t>(fixed_digits(g.addresses.back()) - fixed_digits(a));
        out += fmt::format("   {}address {} -> {}: {}\n", std::string(2 * depth, ' '), join(g.addresses),
                           pods_text(g.pods), g.passed ? "pass" : "FAIL");
      }
    }
  }
  r.isolation_tests = tester.group_tests() - before;
  for (const int p : r.pods_found)
    out += fmt::format("   pod found: {} (address {})\n", p, DiagnosticAddress::pod(p, geo.height()).str());

  out += "3. chain test in the pod, one chip at a time with the others in BYPASS:\n";
  for (const int p : r.pods_found) {
    for (const int slot : tester.chain_test(p)) {
      const ChipId c = geo.chip(p, slot);
      r.chips_found.push_back(c);
      out += fmt::format("   pod {} chain place {}: FAIL -> {}\n", p, slot, describe(shape, c));
    }
  }
  r.group_tests = tester.group_tests();
  r.chain_tests = tester.chain_tests();
  r.diagnostic_cycles = tester.cycles();
  out += fmt::format("   {} group tests, {} chain tests, {} diagnostic cycles ({:.1f} ms at 1 MHz)\n",
                     r.group_tests, r.chain_tests, r.diagnostic_cycles,
                     static_cast<double>(r.diagnostic_cycles) / kDiagnosticClockHz * 1e3);
  if (r.chips_found.size() != 1) {
    out += fmt::format("diagnosis found {} chips, not one: no repair\n", r.chips_found.size());
    return r;
  }

  // 4. Repair: route around a chip another can stand in for; map out the nodes of a level-1 chip.
  const ChipId failed = r.chips_found.front();
  DataNetworkParams params;
  params.nodes = o.nodes;
  params.seed = o.seed;
  DataNetwork net(params);
  const FailurePlan plan = plan_failure(shape, failed);
  NodeId first_out = 0, last_out = 0;  // mapped-out nodes [first_out, last_out)
  if (plan.can_route_around && net.route_around(failed)) {
    r.routed_around = true;
    out += fmt::format("4. repair: route around {} ({:.2f}% of its fat-tree node's bandwidth on its side)\n",
                       describe(shape, failed), 100 * plan.bandwidth_lost);
  } else {
    const ChipPlace& p = shape.place(failed);
    first_out = static_cast<NodeId>(p.node) << (2 * p.level);
    last_out = first_out + plan.nodes_mapped_out;
    r.nodes_mapped_out = plan.nodes_mapped_out;
    out += fmt::format("4. repair: map out nodes {} to {} (the only chip above them on side {})\n", first_out,
                       last_out - 1, p.side);
  }

  // 5. Random traffic among the nodes left, on both sides.
  Counter counter;
  net.set_observer(&counter);
  const int usable = o.nodes - r.nodes_mapped_out;
  core::RandomStream traffic(o.seed, 1, core::Stream::Destination);
  auto pick = [&] {
    NodeId v = static_cast<NodeId>(traffic.below(static_cast<std::uint32_t>(usable)));
    return v >= first_out && r.nodes_mapped_out > 0 ? v + r.nodes_mapped_out : v;
  };
  for (int k = 0; k < o.messages; ++k) {
    const NodeId src = pick();
    net.send(src, pick(), 5, 0, k % 2);
  }
  net.run_until(net.now() + 2'000'000);
  r.messages_sent = o.messages;
  r.messages_delivered = counter.got;
  for (int port = 0; port < kChipPorts; ++port)
    r.through_failed_chip += net.port_in(failed, port) + net.port_out(failed, port);
  out += fmt::format(
      "5. traffic check: {} random messages among the {} nodes left: {} delivered, {} through the failed "
      "chip\n",
      r.messages_sent, usable, r.messages_delivered, r.through_failed_chip);
  return r;
}

}  // namespace mppnet::machines::cm5
