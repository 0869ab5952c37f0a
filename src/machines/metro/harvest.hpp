// machines/metro/harvest.hpp: Chong's fault-propagation reconfiguration and the harvest study.
//
// Harvest is the fraction of nodes still usable after faults (DeHon §2.1.1, §3.5.5, Fig 3.28-3.29).
// The algorithm as fixed by note 004a §4.10 and §7 item 11:
//   1. a node is I/O-isolated, and lost, when all its stage-1 routers or all its final routers are faulty;
//   2. from the final stage backwards, a router is usable when it is not faulty and, in every direction
//      whose destination subtree still holds a live node, some copy leads to a usable router (the final
//      stage: usable when not faulty);
//   3. a node none of whose stage-1 routers is usable is dropped.
// One pass, no fixpoint; "unused" ports are ignored (a static analysis).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machines/metro/multibutterfly.hpp"
#include "machines/metro/yield.hpp"

namespace mppnet::machines::metro {

// The nodes kept by Chong's algorithm with `faulty` routers (per router id, nonzero = faulty).
std::vector<std::uint8_t> chong_live_nodes(const Multibutterfly& net,
                                           const std::vector<std::uint8_t>& faulty);

struct HarvestParams {
  MultibutterflyParams network;
  // Fractions of the packages that are faulty, each rounded to a whole number of packages.
  std::vector<double> fault_fractions = {0.01, 0.02, 0.05, 0.075, 0.10, 0.125, 0.15, 0.175, 0.20, 0.25};
  long long trials = 600;  // per fraction
  int instances = 1;
  std::uint64_t seed = 1;
};

struct HarvestPoint {
  double fault_fraction = 0;
  int faulty_packages = 0;
  double harvest = 0;     // mean fraction of nodes kept
  double std_error = 0;   // over trials
  double p_complete = 0;  // fraction of trials in which the network stayed complete
};

struct HarvestResult {
  HarvestParams params;
  int packages = 0;
  std::vector<HarvestPoint> points;
};

// REQUIRES: check(p.network).empty(), p.trials >= 1, 1 <= p.instances <= p.trials, fractions in [0, 1].
// Trial t of fraction i runs on instance t mod instances with faults from (seed, i * trials + t, Fault).
// Keeps two numbers per trial and level, and one network at a time. Each instance's trials of each level
// run in `batches` (group "instance<i>-level<l>", two values per trial: the fraction of nodes kept and 1
// if the network stayed complete); a batch they load is not run again, and the result is the same.
HarvestResult run_harvest(const HarvestParams& p, const Progress& progress = {},
                          const TrialBatches& batches = {});

std::string format_harvest(const HarvestResult& r);

}  // namespace mppnet::machines::metro
