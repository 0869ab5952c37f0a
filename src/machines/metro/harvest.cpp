// machines/metro/harvest.cpp: Chong's reconfiguration and the harvest Monte Carlo.
#include "machines/metro/harvest.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "machines/metro/completeness.hpp"

namespace mppnet::machines::metro {

std::vector<std::uint8_t> chong_live_nodes(const Multibutterfly& net,
                                           const std::vector<std::uint8_t>& faulty) {
  const int N = net.nodes, S = net.stages(), r = net.params.radix;
  const int ni = net.params.node_inputs;
  std::vector<std::uint8_t> live(N, 1);
  // Step 1: I/O isolation.
  for (NodeId x = 0; x < N; ++x) {
    bool any_in = false;
    for (int q = 0; q < ni; ++q)
      any_in = any_in || !faulty[net.node_in[static_cast<std::size_t>(x) * ni + q]];
    bool any_out = false;
    const int P = x / r;
    for (int i = 0; i < net.class_size[S - 1]; ++i) any_out = any_out || !faulty[net.router_id(S - 1, P, i)];
    live[x] = any_in && any_out;
  }
  // Live nodes under every class of every stage: prefix sums over node order (classes are contiguous).
  std::vector<int> live_before(N + 1, 0);
  for (NodeId x = 0; x < N; ++x) live_before[x + 1] = live_before[x] + live[x];
  auto live_in = [&](int stage, int cls) {
    const int span = net.reach_span(stage);
    return live_before[(cls + 1) * span] - live_before[cls * span];
  };
  // Step 2: usable routers, from the final stage backwards.
  std::vector<std::uint8_t> usable(net.routers(), 0);
  for (RouterId u = net.stage_first[S - 1]; u < net.routers(); ++u) usable[u] = !faulty[u];
  for (int s = S - 2; s >= 0; --s) {
    for (RouterId u = net.stage_first[s]; u < net.stage_first[s + 1]; ++u) {
      if (faulty[u]) continue;
      const int P = net.class_of(u), dirs = net.directions[s], d = net.copies[s];
      bool ok = true;
      for (int j = 0; j < dirs && ok; ++j) {
        if (live_in(s + 1, P * dirs + j) == 0) continue;
        bool some = false;
        for (int k = 0; k < d; ++k) some = some || usable[net.out[net.out_first[u] + j * d + k]];
        ok = some;
      }
      usable[u] = ok;
    }
  }
  // Step 3: nodes that cannot enter the network through a usable router.
  for (NodeId x = 0; x < N; ++x) {
    if (!live[x]) continue;
    bool any = false;
    for (int q = 0; q < ni; ++q) any = any || usable[net.node_in[static_cast<std::size_t>(x) * ni + q]];
    live[x] = any;
  }
  return live;
}

HarvestResult run_harvest(const HarvestParams& p, const Progress& progress, const TrialBatches& batches) {
  MPPNET_ASSERT(p.trials >= 1 && p.instances >= 1 && p.instances <= p.trials, "run_harvest trial counts");
  HarvestResult res;
  res.params = p;
  const std::size_t levels = p.fault_fractions.size();
  const long long total = p.trials * static_cast<long long>(levels);
  // Often enough that a long study measures its rate within seconds (io::ProgressBar, long_run_note).
  const long long report_every = std::clamp<long long>(total / 100, 1, 100);
  std::vector<double> kept(static_cast<std::size_t>(total));  // [level * trials + t]
  std::vector<std::uint8_t> complete(static_cast<std::size_t>(total));
  std::vector<int> order;
  std::vector<std::uint8_t> faulty;
  long long done = 0;
  // One instance at a time (see run_yield); trial t of level i uses instance t mod instances.
  for (int inst = 0; inst < p.instances; ++inst) {
    const Multibutterfly net = build_instance(p.network, p.seed, inst);
    CompletenessTracker tracker(net);
    res.packages = net.packages();
    order.resize(res.packages);
    for (std::size_t i = 0; i < levels; ++i) {
      const int faults = static_cast<int>(std::lround(p.fault_fractions[i] * res.packages));
      const long long count = (p.trials - inst + p.instances - 1) / p.instances;
      const auto slot_of = [&](long long j) {
        return i * static_cast<std::size_t>(p.trials) + static_cast<std::size_t>(inst + j * p.instances);
      };
      // Two values per trial: the fraction of nodes kept and whether the network stayed complete.
      run_in_batches(
          batches, fmt::format("instance{}-level{}", inst, i), count, 2,
          [&](long long j, std::span<double> v) {
            tracker.reset();
            core::RandomStream rng(p.seed, slot_of(j), core::Stream::Fault);
            for (int k = 0; k < res.packages; ++k) order[k] = k;
            faulty.assign(net.routers(), 0);
            for (int k = 0; k < faults; ++k) {
              const int package = draw_fault(rng, order, k);
              for (RouterId u : net.package_routers[package]) faulty[u] = 1;
              // Completeness never comes back, so the tracker stops once the network is incomplete.
              if (tracker.complete()) tracker.fail(FaultUnit::Package, package);
            }
            const auto live = chong_live_nodes(net, faulty);
            long long n_live = 0;
            for (auto l : live) n_live += l;
            v[0] = static_cast<double>(n_live) / net.nodes;
            v[1] = tracker.complete() ? 1 : 0;
          },
          [&](long long j, std::span<const double> v) {
            kept[slot_of(j)] = v[0];
            complete[slot_of(j)] = v[1] != 0 ? 1 : 0;
            ++done;
            if (progress && (done % report_every == 0 || done == total)) progress(done, total);
          });
    }
  }
  for (std::size_t i = 0; i < levels; ++i) {
    HarvestPoint pt;
    pt.fault_fraction = p.fault_fractions[i];
    pt.faulty_packages = static_cast<int>(std::lround(pt.fault_fraction * res.packages));
    core::RunningStats stats;
    long long n_complete = 0;
    for (long long t = 0; t < p.trials; ++t) {
      const std::size_t slot = i * static_cast<std::size_t>(p.trials) + static_cast<std::size_t>(t);
      stats.add(kept[slot]);
      n_complete += complete[slot];
    }
    pt.harvest = stats.mean();
    pt.std_error = stats.stddev() / std::sqrt(static_cast<double>(p.trials));
    pt.p_complete = static_cast<double>(n_complete) / static_cast<double>(p.trials);
    res.points.push_back(pt);
  }
  return res;
}

std::string format_harvest(const HarvestResult& r) {
  const auto& n = r.params.network;
  std::string s = "network      " + describe(n) + "\n";
  s += fmt::format("trials       {} per fault level on {} instance(s), seed {}; {} packages\n",
                   r.params.trials, r.params.instances, r.params.seed, r.packages);
  s += "faults %   packages   harvest    +- se      P(complete)\n";
  for (const auto& pt : r.points)
    s += fmt::format("{:<10.1f} {:<10} {:<10.4f} {:<9.4f} {:.4f}\n", 100 * pt.fault_fraction,
                     pt.faulty_packages, pt.harvest, pt.std_error, pt.p_complete);
  return s;
}

}  // namespace mppnet::machines::metro
