// machines/cs2/validation_faults.cpp: R13, fault handling (note 003 §5 R13), on simulated packets and on
// the rebuilt route tables of a layer (faults.hpp, cs2_network.hpp).
//
// Byte errors: one link of layer 0 corrupts each byte crossing it with probability p. A packet is marked
// at the input that will see its bad CRC; at its destination it is aborted (not delivered), counted at
// that input only, and NACKed; the source sends it again (Cs2Network::resend_nacked, the Elan's resend).
// Failed links: the tables of the failed layer are rebuilt around the link, and every table entry is
// followed byte by byte on the built graph.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "machines/cs2/channel_load.hpp"
#include "machines/cs2/config.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "machines/cs2/faults.hpp"
#include "machines/cs2/validation.hpp"

namespace mppnet::machines::cs2 {

namespace {

using core::Evidence;
using core::Tolerance;
using core::ValidationCase;

constexpr const char* kFaultSource =
    "Meiko, CS-2 Communications Network Overview (1993), L94-L98 and L378-L381; N §2.11, §4.4, §4.8, "
    "§5 R13, §6 #13, #21";

// The faulty link of the byte-error runs: bottom switch 0 (PEs 0-3), plane 0, up-port 4, to stage 2.
// Under DEST every route from PEs 0-3 to a PE d >= 4 with digit(d, 0) = 0 climbs on it, and every
// route from outside bottom switch 0 to PE 0 comes down on it.
const std::vector<int> kFaultyLink = {0, 1, 0, 0, 4};

Cs2Config faulty_machine(double p) {
  Cs2Config c;
  c.machine.pes = 64;
  c.machine.layers = 1;
  c.routing.alternatives = 1;  // DEST: the traffic below crosses the faulty link on every packet
  c.faults.link = kFaultyLink;
  c.faults.byte_error_rate = p;
  check_cs2(c);
  return c;
}

struct ErrorRun {
  std::int64_t messages = 0;
  std::int64_t sent = 0;               // packets sent, resends included
  std::int64_t corrupted = 0;          // of them, marked corrupt
  std::int64_t corrupt_delivered = 0;  // delivered while marked corrupt: must stay 0
  std::int64_t delivered_once = 0;     // messages delivered exactly once
  std::int64_t nacks = 0;
  std::int64_t resent = 0;
  std::int64_t errors_at_detector = 0;  // bad CRCs counted at the input the packet was marked at
  std::int64_t errors_elsewhere = 0;
  std::int64_t aborted = 0;
  std::int64_t crossed = 0;  // packets whose route crosses the faulty link
  bool finished = false;
};

// `messages` packets of `bytes` bytes: half from PEs 0-3 up across the faulty link, half from PEs
// 16-63 down across it to PE 0; NACKed ones are sent again until every message is delivered.
ErrorRun run_byte_errors(double p, int messages, int bytes) {
  const Cs2Config c = faulty_machine(p);
  Cs2Network net(c, /*acks=*/true);
  net::Network& layer = net.layer(0);
  ErrorRun out;
  out.messages = messages;
  std::vector<std::uint8_t> corrupt(static_cast<std::size_t>(messages), 0);  // the attempt in flight
  std::vector<std::int32_t> deliveries(static_cast<std::size_t>(messages), 0);
  const auto send = [&](NodeId src, NodeId dest, std::uint64_t tag) {
    const topo::SourceRoute r = net.route_on(0, src, dest, 0);
    out.crossed += crossing_input(net.graph(), src, r, net.faulty_link()) >= 0 ? 1 : 0;
    net.send_on(0, src, dest, bytes, tag, 0);
    ++out.sent;
    corrupt[tag] = net.last_corrupted() ? 1 : 0;
  };
  for (int m = 0; m < messages; ++m) {
    const int k = m / 2;
    // Up: PE k % 4 to 16 * (1 + k % 3) + 4 * (k % 4) (digit 0 is 0, so up-port 4 at stage 1).
    if (m % 2 == 0) send(k % 4, 16 * (1 + k % 3) + 4 * (k % 4), static_cast<std::uint64_t>(m));
    // Down: DEST climbs from PE s to stage 2 on up-port 4 + digit(0, 0) = 4, to the plane whose
    // down-link into bottom switch 0 is the faulty link: every route from s >= 16 to PE 0 comes down it.
    else
      send(16 + k % 48, 0, static_cast<std::uint64_t>(m));
  }
  std::int64_t done = 0;
  for (int t = 0; t < 2000000 && done < messages; ++t) {
    net.step();
    for (const net::PacketId id : layer.delivered()) {
      const auto tag = static_cast<std::size_t>(layer.packet(id).tag);
      if (corrupt[tag]) ++out.corrupt_delivered;
      if (++deliveries[tag] == 1) ++done;
      layer.release(id);
    }
    for (const net::Ack& a : layer.acknowledged()) out.nacks += a.nack ? 1 : 0;
    // Resend through the same helper, so that each attempt's corruption is recorded.
    for (const net::Ack& a : layer.acknowledged())
      if (a.nack) {
        send(a.src, a.dest, a.tag);
        ++out.resent;
      }
  }
  for (int t = 0; t < 100000 && !net.idle(); ++t) net.step();
  out.finished = done == messages && net.idle();
  out.corrupted = net.corrupted();
  out.aborted = layer.packets_aborted();
  for (const std::int32_t d : deliveries) out.delivered_once += d == 1 ? 1 : 0;
  const auto errors = layer.input_errors();
  const LinkRef& f = net.faulty_link();
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const bool detector =
        static_cast<std::int32_t>(i) == f.in_far || static_cast<std::int32_t>(i) == f.in_near;
    (detector ? out.errors_at_detector : out.errors_elsewhere) += errors[i];
  }
  return out;
}

constexpr int kMessages = 1000;
constexpr int kFaultBytes = 32;

// Table entries of layer `l` that break (no route, a route that does not reach its destination, or one
// that crosses the failed link), over every ordered pair and alternative; and the entries whose original
// route crossed it (a case with none would pass vacuously).
struct TableCheck {
  std::int64_t broken = 0;
  std::int64_t crossed_before = 0;
  std::int64_t unreachable = 0;  // entries with no route (a failed PE link's own PE)
};

TableCheck check_table(const Cs2Network& net, int l, NodeId cut_pe) {
  TableCheck out;
  const LinkRef& failed = net.failed_link();
  for (NodeId x = 0; x < net.pes(); ++x)
    for (NodeId d = 0; d < net.pes(); ++d)
      for (int alt = 0; alt < net.config().routing.alternatives; ++alt) {
        if (crossing_input(net.graph(), x, net.route(x, d, alt), failed) >= 0) ++out.crossed_before;
        const topo::SourceRoute r = net.route_on(l, x, d, alt);
        const bool own = x == cut_pe || d == cut_pe;
        if (r.length == 0) {
          ++out.unreachable;
          if (!own) ++out.broken;
          continue;
        }
        if (own || follow_route(net.graph(), x, r, [](int) {}) != d ||
            crossing_input(net.graph(), x, r, failed) >= 0)
          ++out.broken;
      }
  return out;
}

Cs2Config failed_machine(int pes, std::vector<int> link) {
  Cs2Config c;
  c.machine.pes = pes;
  c.machine.layers = 2;
  c.routing.alternatives = 4;
  c.faults.failed_link = std::move(link);
  check_cs2(c);
  return c;
}

// Every pair sends one packet with send() (the stripe picks the layer); returns the flits that crossed
// the failed link in either direction plus the packets not delivered.
std::int64_t traffic_on_failed(Cs2Network& net) {
  for (NodeId x = 0; x < net.pes(); ++x)
    for (NodeId d = 0; d < net.pes(); ++d)
      if (x != d) net.send(x, d, 16, 0);
  std::int64_t delivered = 0;
  for (int t = 0; t < 1000000 && !net.idle(); ++t) {
    net.step();
    for (int l = 0; l < net.layers(); ++l) {
      for (const net::PacketId id : net.layer(l).delivered()) net.layer(l).release(id);
      delivered += static_cast<std::int64_t>(net.layer(l).delivered().size());
    }
  }
  const LinkRef& f = net.failed_link();
  const auto flits = net.layer(f.layer).port_flits();
  std::int64_t used = flits[static_cast<std::size_t>(f.out_down)];
  if (f.out_back >= 0) used += flits[static_cast<std::size_t>(f.out_back)];
  // A failed PE link: the PE's own injection is counted by the source, not a port.
  return used + (static_cast<std::int64_t>(net.pes()) * (net.pes() - 1) - delivered);
}

void add_failed_link_case(std::vector<ValidationCase>& cases, int pes, std::vector<int> link) {
  const std::string named = fmt::format("[{}]", fmt::join(link, ", "));
  cases.push_back(
      {.id = fmt::format("cs2.r13.failed_link_unused_{}", pes),
       .source = kFaultSource,
       .setup = fmt::format("{} PEs, 2 layers, 4 DEST alternatives, faults.failed_link = {} (a link between "
                            "switches); every (source, destination, alternative) entry of layer 0's rebuilt "
                            "table followed byte by byte on the built graph",
                            pes, named),
       .quantity = "entries with no route, a route missing its destination or a route over the failed link "
                   "(+1 if no original entry used the link, so that the case cannot pass vacuously)",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure =
           [pes, link] {
             const Cs2Network net(failed_machine(pes, link));
             const TableCheck t = check_table(net, 0, -1);
             return static_cast<double>(t.broken + (t.crossed_before == 0 ? 1 : 0));
           },
       .evidence = Evidence::ClosedForm,
       .tolerance_origin = "exact: a count over every table entry"});
}

}  // namespace

std::vector<ValidationCase> fault_cases() {
  std::vector<ValidationCase> cases;
  const std::string link = fmt::format("[{}]", fmt::join(kFaultyLink, ", "));
  const double p_run = 0.01;
  const std::string setup = fmt::format(
      "64 PEs, 1 layer, DEST, acks on; faults.link = {} (bottom switch 0's up-port 4), "
      "faults.byte_error_rate = {}; {} messages of {} bytes, half up across the link from PEs 0-3, half "
      "down across it to PE 0; NACKed packets sent again until each message is delivered",
      link, p_run, kMessages, kFaultBytes);
  cases.push_back(
      {.id = "cs2.r13.nothing_corrupt_committed",
       .source = kFaultSource,
       .setup = setup,
       .quantity = "packets delivered while marked corrupt (+1 if the run corrupted none or did "
                   "not finish, so that the case cannot pass vacuously)",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure =
           [p_run] {
             const ErrorRun r = run_byte_errors(p_run, kMessages, kFaultBytes);
             return static_cast<double>(r.corrupt_delivered + (r.corrupted == 0 || !r.finished ? 1 : 0));
           },
       .evidence = Evidence::Behaviour,
       .tolerance_origin = "exact: 'failed transmissions are not committed to memory' (L95-L96)"});
  cases.push_back({.id = "cs2.r13.only_detecting_switch_counts",
                   .source = kFaultSource,
                   .setup = setup,
                   .quantity =
                       "fraction of all counted errors that sit on the input the faulty link feeds, "
                       "times (errors counted = packets corrupted); 1 when only the detecting input counts",
                   .expected = 1,
                   .tolerance = Tolerance::exact(),
                   .measure =
                       [p_run] {
                         const ErrorRun r = run_byte_errors(p_run, kMessages, kFaultBytes);
                         const std::int64_t all = r.errors_at_detector + r.errors_elsewhere;
                         if (all == 0 || all != r.corrupted) return 0.0;
                         return static_cast<double>(r.errors_at_detector) / static_cast<double>(all);
                       },
                   // The network counts at the input mark_corrupt names, and the driver names the
                   // faulty link's far end: a check of that bookkeeping, not of a CRC check per switch.
                   .evidence = Evidence::SelfConsistency,
                   .tolerance_origin =
                       "exact: counting only where the CRC first fails (N §6 #21) is a count, not a rate"});
  cases.push_back(
      {.id = "cs2.r13.nack_and_resend",
       .source = kFaultSource,
       .setup = setup,
       .quantity = "fraction of messages delivered exactly once, times (NACKs = resends = aborted = "
                   "corrupted > 0)",
       .expected = 1,
       .tolerance = Tolerance::exact(),
       .measure =
           [p_run] {
             const ErrorRun r = run_byte_errors(p_run, kMessages, kFaultBytes);
             const bool matched = r.corrupted > 0 && r.nacks == r.corrupted && r.resent == r.corrupted &&
                                  r.aborted == r.corrupted && r.finished;
             return matched ? static_cast<double>(r.delivered_once) / static_cast<double>(r.messages) : 0.0;
           },
       .evidence = Evidence::Behaviour,
       .tolerance_origin =
           "exact: every message is delivered once, every corrupted packet NACKed and resent"});
  for (const double p : {0.002, 0.01, 0.03}) {
    // Every packet crosses the link, so a message takes a geometric number of attempts with success
    // q = (1-p)^L; the goodput n / attempts over n messages has standard deviation about
    // q sqrt((1 - q) / n) (delta method); 4 of them leave a false failure below 1e-4.
    const double q = std::pow(1 - p, kFaultBytes);
    const double sd = q * std::sqrt((1 - q) / kMessages);
    cases.push_back(
        {.id = fmt::format("cs2.r13.goodput_vs_p_{}", p),
         .source = kFaultSource,
         .setup = fmt::format("as cs2.r13.nothing_corrupt_committed with faults.byte_error_rate = {}", p),
         .quantity = fmt::format("goodput: messages / packets sent over the faulty link, against "
                                 "(1 - p)^L = {:.4f} for L = {} bytes",
                                 q, kFaultBytes),
         .expected = q,
         .tolerance = Tolerance::absolute(4 * sd),
         .measure =
             [p] {
               const ErrorRun r = run_byte_errors(p, kMessages, kFaultBytes);
               if (!r.finished || r.crossed != r.sent) return 0.0;
               return static_cast<double>(r.messages) / static_cast<double>(r.sent);
             },
         // (1 - p)^L is the very probability the model draws each packet's corruption with: the case
         // checks the draws and the resend loop against it, not the model against another derivation.
         .evidence = Evidence::SelfConsistency,
         .tolerance_origin = fmt::format("4 standard deviations of the goodput of {} messages, "
                                         "q sqrt((1 - q) / n) = {:.4f}",
                                         kMessages, sd)});
  }
  add_failed_link_case(cases, 64, {0, 2, 0, 0, 4});
  add_failed_link_case(cases, 256, {0, 3, 0, 0, 5});
  cases.push_back(
      {.id = "cs2.r13.failed_pe_link_other_layer",
       .source = kFaultSource,
       .setup = "64 PEs, 2 layers, 4 DEST alternatives, faults.failed_link = [0, 1, 0, 0, 2] (PE 2's link "
                "into layer 0); layer 0's rebuilt table checked entry by entry, then one 16-byte packet "
                "per ordered pair sent with the Elan's layer stripe",
       .quantity = "layer-0 entries that break (a pair without PE 2 unreachable, or an entry of PE 2 "
                   "routed), plus layer-1 entries of PE 2 without a route, plus flits over the failed "
                   "link and packets not delivered",
       .expected = 0,
       .tolerance = Tolerance::exact(),
       .measure =
           [] {
             Cs2Network net(failed_machine(64, {0, 1, 0, 0, 2}), /*acks=*/false);
             const TableCheck t = check_table(net, 0, 2);
             std::int64_t bad = t.broken + (t.unreachable == 0 ? 1 : 0);
             for (NodeId x = 0; x < net.pes(); ++x)
               if (net.route_on(1, x, 2, 0).length == 0 || net.route_on(1, 2, x, 0).length == 0) ++bad;
             return static_cast<double>(bad + traffic_on_failed(net));
           },
       .evidence = Evidence::ClosedForm,
       .tolerance_origin = "exact: counts over every table entry and every packet"});
  return cases;
}

}  // namespace mppnet::machines::cs2
