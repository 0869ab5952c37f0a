// machines/metro/yield.cpp: the yield Monte Carlo.
#include "machines/metro/yield.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/stats.hpp"

namespace mppnet::machines::metro {

namespace {

template <class Tracker>
int tolerated(Tracker& tracker, FaultUnit unit, int units, core::RandomStream& rng, std::vector<int>& order) {
  order.resize(units);
  for (int i = 0; i < units; ++i) order[i] = i;
  // A partial Fisher-Yates shuffle: the k-th fault is uniform among the units not yet faulty.
  for (int k = 0; k < units; ++k) {
    tracker.fail(unit, draw_fault(rng, order, k));
    if (!tracker.complete()) return k;
  }
  return units;
}

// Trials t = inst, inst + instances, ... on one built network, in batches (trial_batches.hpp).
template <class Tracker>
void run_trials(const YieldParams& p, Tracker& tracker, int inst, int units, YieldResult& res,
                long long& done, const Progress& progress, const TrialBatches& batches) {
  std::vector<int> order;
  // Often enough that a long study measures its rate within seconds (io::ProgressBar, long_run_note).
  const long long report_every = std::clamp<long long>(p.trials / 100, 1, 100);
  const long long count = (p.trials - inst + p.instances - 1) / p.instances;
  const auto trial = [&](long long j) { return inst + j * p.instances; };
  run_in_batches(
      batches, fmt::format("instance{}", inst), count, 1,
      [&](long long j, std::span<double> v) {
        tracker.reset();
        core::RandomStream rng(p.seed, static_cast<std::uint64_t>(trial(j)), core::Stream::Fault);
        v[0] = tolerated(tracker, p.unit, units, rng, order);
      },
      [&](long long j, std::span<const double> v) {
        res.tolerated[trial(j)] = static_cast<int>(v[0]);
        ++done;
        if (progress && (done % report_every == 0 || done == p.trials)) progress(done, p.trials);
      });
}

}  // namespace

int tolerated_faults(CompletenessTracker& tracker, FaultUnit unit, int units, core::RandomStream& rng,
                     std::vector<int>& order) {
  return tolerated(tracker, unit, units, rng, order);
}

int tolerated_faults(GraphCompletenessTracker& tracker, FaultUnit unit, int units, core::RandomStream& rng,
                     std::vector<int>& order) {
  return tolerated(tracker, unit, units, rng, order);
}

YieldResult run_yield(const YieldParams& p, const Progress& progress, const TrialBatches& batches) {
  MPPNET_ASSERT(p.trials >= 1 && p.instances >= 1 && p.instances <= p.trials, "run_yield trial counts");
  YieldResult res;
  res.params = p;
  res.tolerated.assign(static_cast<std::size_t>(p.trials), 0);
  // One instance at a time, so memory holds one network whatever the instance count; trial t still runs
  // on instance t mod instances with its own stream, so the order of the loops does not show.
  long long done = 0;
  // The trees (fat_tree.hpp) are graphs without strict stages: the graph tracker handles them.
  const auto* multibutterfly = std::get_if<MultibutterflyParams>(&p.network);
  for (int inst = 0; inst < p.instances; ++inst) {
    if (!multibutterfly) {
      const NetworkGraph g = build_network_graph(p.network, p.seed, inst);
      GraphCompletenessTracker tracker(g);
      res.fault_units = fault_unit_count(g, p.unit);
      run_trials(p, tracker, inst, res.fault_units, res, done, progress, batches);
      continue;
    }
    const Multibutterfly net = build_instance(*multibutterfly, p.seed, inst);
    CompletenessTracker tracker(net);
    res.fault_units = fault_unit_count(net, p.unit);
    run_trials(p, tracker, inst, res.fault_units, res, done, progress, batches);
  }

  core::RunningStats all;
  std::vector<core::RunningStats> per_instance(p.instances);
  for (long long t = 0; t < p.trials; ++t) {
    const int k = res.tolerated[t];
    all.add(k);
    per_instance[t % p.instances].add(k);
    if (static_cast<int>(res.tolerated_count.size()) <= k) res.tolerated_count.resize(k + 1, 0);
    ++res.tolerated_count[k];
  }
  res.mean = all.mean();
  res.stddev = all.stddev();
  res.std_error = res.stddev / std::sqrt(static_cast<double>(p.trials));
  res.percent_network = 100.0 * res.mean / res.fault_units;
  core::RunningStats means;
  double within = 0;
  for (const auto& s : per_instance) {
    res.instance_mean.push_back(s.mean());
    means.add(s.mean());
    within += s.variance() / static_cast<double>(s.count());
  }
  if (p.instances > 1)
    res.instance_stddev = std::sqrt(std::max(0.0, means.variance() - within / p.instances));
  // P(complete | k) = P(tolerated >= k).
  long long at_least = p.trials;
  for (std::size_t k = 0; k <= res.tolerated_count.size(); ++k) {
    res.p_complete.push_back(static_cast<double>(at_least) / static_cast<double>(p.trials));
    if (k < res.tolerated_count.size()) at_least -= res.tolerated_count[k];
  }
  return res;
}

std::string format_yield(const YieldResult& r) {
  const auto& n = r.params.network;
  std::string s = "network      " + describe(n) + "\n";
  s += fmt::format("fault unit   {} ({} in the network)\n",
                   fault_unit_names()[static_cast<int>(r.params.unit)], r.fault_units);
  s += fmt::format("trials       {} on {} instance(s), seed {}\n", r.params.trials, r.params.instances,
                   r.params.seed);
  s += fmt::format("tolerated    {:.3f} +- {:.3f} (standard error; 95% CI {:.3f} .. {:.3f}), sd {:.3f}\n",
                   r.mean, r.std_error, r.mean - 1.96 * r.std_error, r.mean + 1.96 * r.std_error, r.stddev);
  if (r.params.instances > 1)
    s += fmt::format("instances    E_tol spread between instances (sd) {:.3f}\n", r.instance_stddev);
  s += fmt::format("% network    {:.2f}%\n", r.percent_network);
  s += "k            P(complete | k)   +- se\n";
  const std::size_t last = r.p_complete.size();
  const std::size_t step = std::max<std::size_t>(1, last / 12);
  for (std::size_t k = 0; k < last; k += step) {
    const double p = r.p_complete[k];
    s += fmt::format("{:<12} {:<17.4f} {:.4f}\n", k, p,
                     std::sqrt(p * (1 - p) / static_cast<double>(r.params.trials)));
  }
  return s;
}

}  // namespace mppnet::machines::metro
