// machines/metro/mrp/mrp_run.cpp: the FLAT24 source and the clocked MRP network under core::Scheduler.
#include "machines/metro/mrp/mrp_run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/scheduler.hpp"
#include "machines/metro/completeness.hpp"

namespace mppnet::machines::metro::mrp {
namespace {

// Random stream ids of the load (core::Stream's well-known ids, per node).
constexpr core::Stream kArrival = core::Stream::Arrival;
constexpr core::Stream kDestination = core::Stream::Destination;

// The whole MRP machine as one component of the router clock domain. One tick is one router cycle: the
// load creates messages, the endpoints read what arrived and drive their words, then the routers
// evaluate and MrpNetwork::step() latches every link (the commit). Endpoints and routers read only words
// of the cycle before, so their order inside the tick changes nothing; keeping them in one component
// keeps the commit after both without relying on component ids.
class MrpClocked final : public core::Component {
 public:
  MrpClocked(MrpNetwork& net, MrpEndpoints& ends, const MrpRunParams& p, std::uint64_t seed)
      : net_(net), ends_(ends), p_(p), generated_(static_cast<std::size_t>(net.nodes()), 0) {
    for (NodeId x = 0; x < net.nodes(); ++x) {
      arrival_.emplace_back(seed, static_cast<std::uint64_t>(x), kArrival);
      destination_.emplace_back(seed, static_cast<std::uint64_t>(x), kDestination);
    }
  }

  bool tick(Cycle) override {
    const int nodes = net_.nodes();
    for (NodeId x = 0; x < nodes; ++x) {
      // A node holding `outstanding` messages stalls: no draw, no message (note 004c §9 item 13).
      if (generated_[x] == per_phase() || ends_.held(x) >= p_.outstanding) continue;
      if (!arrival_[x].bernoulli(p_.load)) continue;
      const auto y = static_cast<NodeId>(destination_[x].below(static_cast<std::uint32_t>(nodes)));
      ends_.send(x, y);
      ++generated_[x];
      ++generated_total_;
    }
    ends_.tick();
    net_.step();
    // The barrier: a node that has issued its phase's messages waits until every message of the phase,
    // anywhere, is complete; then all start the next phase in the next cycle (note 004c §9 item 14).
    if (phase_done()) {
      phase_end_.push_back(net_.cycle());
      std::fill(generated_.begin(), generated_.end(), 0);
      generated_total_ = 0;
    }
    return !done();
  }

  bool done() const { return static_cast<int>(phase_end_.size()) == (p_.barrier ? p_.phases : 1); }
  const std::vector<std::int64_t>& phase_end() const { return phase_end_; }

 private:
  // Without the barrier (the A.3.4 ablation) the phases run as one: each node issues all its messages
  // at its own pace.
  int per_phase() const { return p_.barrier ? p_.messages : p_.messages * p_.phases; }
  bool phase_done() const {
    return generated_total_ == static_cast<std::int64_t>(per_phase()) * net_.nodes() && ends_.idle();
  }

  MrpNetwork& net_;
  MrpEndpoints& ends_;
  const MrpRunParams& p_;
  std::vector<core::RandomStream> arrival_, destination_;
  std::vector<int> generated_;
  std::int64_t generated_total_ = 0;
  std::vector<std::int64_t> phase_end_;
};

}  // namespace

EndpointParams endpoint_params(const MrpRunParams& p) {
  EndpointParams e;
  e.message_words = p.message_words;
  e.outstanding = p.outstanding;
  e.max_attempts = p.max_attempts;
  e.queue_capacity = p.outstanding;  // the load never queues beyond what the node may hold
  e.suppress_duplicates = p.suppress_duplicates;
  return e;
}

MrpParams router_params(const MrpRunParams& p) {
  MrpParams m;
  m.width = m.word_bits = p.width;
  m.dps = p.dps;
  return m;
}

std::vector<core::Problem> check_mrp_run(const MultibutterflyParams& net, const MrpRunParams& p) {
  std::vector<core::Problem> problems = check(net, router_params(p));
  if (!problems.empty()) return problems;
  const WordFormat format{p.width, field_bits_for(net.radix, net.dilation)};
  int nodes = 1;
  for (int s = 0; s < net.stages; ++s) nodes *= net.radix;
  problems = check_endpoints(endpoint_params(p), format, nodes);
  if (p.faulty_packages > 0) {
    // The package count depends only on the parameters, not on the wiring drawn.
    const int packages = build_instance(net, 1, 0).packages();
    if (p.faulty_packages > packages)
      problems.push_back({"faults.packages", fmt::format("{} faulty packages asked for; the network has {}",
                                                         p.faulty_packages, packages)});
  }
  return problems;
}

FaultDraw draw_complete_faults(const Multibutterfly& net, int packages, int max_draws, std::uint64_t seed) {
  FaultDraw out;
  if (packages == 0) return out;
  CompletenessTracker tracker(net);
  std::vector<int> order(static_cast<std::size_t>(net.packages()));
  for (int d = 0; d < max_draws; ++d) {
    tracker.reset();
    for (int k = 0; k < net.packages(); ++k) order[k] = k;
    core::RandomStream rng(seed, static_cast<std::uint64_t>(d), core::Stream::Fault);
    for (int k = 0; k < packages; ++k) tracker.fail(FaultUnit::Package, draw_fault(rng, order, k));
    out.draws = d + 1;
    out.complete = tracker.complete();
    out.packages.assign(order.begin(), order.begin() + packages);
    if (out.complete) break;
  }
  std::sort(out.packages.begin(), out.packages.end());
  return out;
}

int mask_faulty_packages(const Multibutterfly& graph, const std::vector<PackageId>& packages, MrpNetwork& net,
                         MrpEndpoints& ends) {
  std::vector<std::uint8_t> faulty(static_cast<std::size_t>(net.routers()), 0);
  for (PackageId pk : packages)
    for (RouterId u : graph.package_routers[pk]) faulty[u] = 1;
  int masked = 0;
  for (RouterId u = 0; u < net.routers(); ++u) {
    for (int b = 0; b < net.backward_ports(u); ++b) {
      const RouterId t = net.link_target(net.backward_link(u, b));
      if (faulty[u] || (t >= 0 && faulty[t])) {
        net.deselect_backward(u, b);
        ++masked;
      }
    }
    if (!faulty[u]) continue;
    for (int f = 0; f < net.forward_ports(u); ++f) {
      net.deselect_forward(u, f);
      ++masked;
    }
  }
  for (NodeId x = 0; x < net.nodes(); ++x)
    for (int q = 0; q < net.node_inputs(); ++q)
      if (faulty[net.link_target(net.source_link(x, q))]) {
        ends.mask_input(x, q);
        ++masked;
      }
  return masked;
}

MrpRunResult run_mrp(const MultibutterflyParams& params, const MrpRunParams& p, std::uint64_t seed) {
  const Multibutterfly graph = build_instance(params, seed, 0);
  MrpNetwork net(graph, router_params(p), seed);
  net.set_fast_reclaim(p.fast_reclaim);
  MrpEndpoints ends(net, params.radix, endpoint_params(p), seed);
  MrpRunResult r;
  const FaultDraw faults = draw_complete_faults(graph, p.faulty_packages, p.fault_draws, seed);
  r.faulty = faults.packages;
  r.fault_draws = faults.draws;
  r.network_complete = faults.complete;
  r.nodes = net.nodes();
  r.node_outputs = net.node_outputs();
  if (!faults.complete) return r;  // an incomplete network is reported, not measured
  r.masked_ports = mask_faulty_packages(graph, faults.packages, net, ends);
  MrpClocked machine(net, ends, p, seed);
  core::Scheduler scheduler;
  const core::DomainId domain = scheduler.add_domain("metro routers", p.period_ps);
  scheduler.add(domain, machine);
  // The component goes idle when the phase is over; the time limit ends a run that cannot finish.
  scheduler.run_until_time((p.max_cycles - 1) * p.period_ps);

  r.stats = ends.stats();
  r.cycles = net.cycle();
  r.completed = machine.done();
  r.phase_end = machine.phase_end();
  const EndpointStats& s = r.stats;
  if (s.delivered > 0)
    r.mean_latency_cycles = static_cast<double>(s.latency_sum) / static_cast<double>(s.delivered);
  const std::int64_t completed = s.delivered + s.failed;
  if (completed > 0)
    r.retries_per_message = static_cast<double>(s.attempts - completed) / static_cast<double>(completed);
  if (r.cycles > 0) {
    const double node_cycles = static_cast<double>(r.cycles) * r.nodes;
    r.io_utilisation = static_cast<double>(s.busy_output_cycles) / (node_cycles * r.node_outputs);
    r.delivered_bytes_per_cycle_per_node = static_cast<double>(s.delivered * p.message_words) / node_cycles;
  }
  r.latency_min = s.latency_min;
  for (RouterId u = 0; u < net.routers(); ++u) {
    for (int b = 0; b < net.backward_ports(u); ++b) r.ports_held += net.backward_busy(u, b) ? 1 : 0;
    for (int f = 0; f < net.forward_ports(u); ++f) r.ports_held += net.state(u, f) != PortState::Idle ? 1 : 0;
  }
  return r;
}

std::string format_mrp_result(const MrpRunParams& p, const MrpRunResult& r) {
  const EndpointStats& s = r.stats;
  const double ns = static_cast<double>(p.period_ps) / 1000.0;
  std::string out;
  out += fmt::format("{:<34}{}\n", "nodes", r.nodes);
  if (p.faulty_packages > 0)
    out += fmt::format("{:<34}{} ({} draw{}, {}; {} ports masked)\n", "faulty packages", p.faulty_packages,
                       r.fault_draws, r.fault_draws == 1 ? "" : "s",
                       r.network_complete ? "complete" : "INCOMPLETE: not run", r.masked_ports);
  if (!r.network_complete) return out;  // nothing ran: no figures to show
  if (p.phases > 1) out += fmt::format("{:<34}{} of {}\n", "barrier phases", r.phase_end.size(), p.phases);
  out += fmt::format("{:<34}{}{}\n", "cycles", r.cycles, r.completed ? "" : " (max_cycles reached)");
  out += fmt::format("{:<34}{} of {}\n", "messages delivered", s.delivered, s.created);
  out += fmt::format("{:<34}{}\n", "messages failed", s.failed);
  out += fmt::format("{:<34}{:.2f} cycles ({:.1f} ns)\n", "mean latency", r.mean_latency_cycles,
                     r.mean_latency_cycles * ns);
  out += fmt::format("{:<34}{} / {} cycles\n", "min / max latency", r.latency_min, s.latency_max);
  out += fmt::format("{:<34}{:.4f}\n", "retries per message", r.retries_per_message);
  out += fmt::format("{:<34}{} blocked, {} back-dropped, {} corrupted, {} protocol\n", "failed attempts",
                     s.blocked, s.blocked_fast, s.corrupted, s.protocol);
  out += fmt::format("{:<34}{:.4f}\n", "I/O bandwidth utilisation", r.io_utilisation);
  out += fmt::format("{:<34}{:.4f}\n", "delivered words/cycle/node", r.delivered_bytes_per_cycle_per_node);
  out += fmt::format("{:<34}{} (suppressed: {})\n", "duplicate arrivals", s.duplicates,
                     p.suppress_duplicates ? "yes" : "no");
  return out;
}

}  // namespace mppnet::machines::metro::mrp
