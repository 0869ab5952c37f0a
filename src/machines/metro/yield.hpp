// machines/metro/yield.hpp: Monte Carlo of the faults a network tolerates while it stays complete.
//
// The experiment of DeHon §3.5.4 (Table 3.4, Fig 3.26) as fixed by note 004a §4.9 and §7 items 8-9:
// faults arrive one at a time, uniformly among the fault units not yet faulty; the number tolerated in a
// trial is the largest k at which the network is still complete (complete with k faults, not with k+1).
// The estimate is the mean over trials, its error the standard error sd/sqrt(trials) (the paper's
// "error" column matches that), and the yield curve P(complete | k) is the fraction of trials that
// tolerated at least k faults. Trial t runs on network instance t mod instances and draws its faults
// from the stream (seed, t, Fault), so its result depends only on (seed, t).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "machines/metro/completeness.hpp"
#include "machines/metro/graph_completeness.hpp"
#include "machines/metro/metro_network.hpp"
#include "machines/metro/trial_batches.hpp"

namespace mppnet::machines::metro {

struct YieldParams {
  MetroNetwork network;  // any topology; a default multibutterfly unless set
  FaultUnit unit = FaultUnit::Package;
  long long trials = 1000;
  int instances = 1;  // network instances (random wirings differ; the deterministic one does not)
  std::uint64_t seed = 1;
};

struct YieldResult {
  YieldParams params;
  int fault_units = 0;                // packages, routers or links in one instance
  double mean = 0;                    // expected faults tolerated
  double stddev = 0;                  // over trials
  double std_error = 0;               // stddev / sqrt(trials)
  double percent_network = 0;         // mean / fault_units * 100 ("% Network" of Table 3.4)
  std::vector<double> instance_mean;  // per instance: its trials' mean
  // The spread of E_tol between network instances, with the trial noise of the instance means removed:
  // sqrt(max(0, var(instance means) - mean within-instance variance / trials per instance)). 0 with one
  // instance. A paper value measured on one instance differs from our mean by about this much.
  double instance_stddev = 0;
  std::vector<int> tolerated;              // per trial, in trial order
  std::vector<long long> tolerated_count;  // index k: trials that tolerated exactly k faults
  // index k: P(complete | k faults) = fraction of trials that tolerated at least k.
  std::vector<double> p_complete;
};

// Called now and then with (trials done, trials in total).
using Progress = std::function<void(long long, long long)>;

// Any topology: multibutterflies use CompletenessTracker, the fat trees GraphCompletenessTracker. Each
// instance's trials run in `batches` (group "instance<i>", one value per trial: the faults tolerated); a
// batch they load is not run again, and the result is the same.
// REQUIRES: check(p.network).empty(), p.trials >= 1, 1 <= p.instances <= p.trials.
YieldResult run_yield(const YieldParams& p, const Progress& progress = {}, const TrialBatches& batches = {});

// One trial on a reset tracker: faults in random order from `rng` until the network is incomplete.
// Returns the number tolerated. `order` is scratch space.
int tolerated_faults(CompletenessTracker& tracker, FaultUnit unit, int units, core::RandomStream& rng,
                     std::vector<int>& order);
int tolerated_faults(GraphCompletenessTracker& tracker, FaultUnit unit, int units, core::RandomStream& rng,
                     std::vector<int>& order);

// A short table: parameters, E_tol +- standard error, % network, and P(complete | k) at a few k.
std::string format_yield(const YieldResult& r);

}  // namespace mppnet::machines::metro
