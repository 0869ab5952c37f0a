// machines/metro/trial_batches.hpp: Monte Carlo trials run in batches that a caller may keep (in a
// journal, io/journal.hpp) and hand back on a rerun, so that an interrupted study resumes where it stopped.
//
// Every trial draws from its own counter-based stream (seed, trial, Fault), never from a stream shared
// with the trials before it, so a batch run after a restart gives the numbers it gives in one go.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mppnet::machines::metro {

struct TrialBatches {
  long long trials_per_batch = 0;  // 0: each group is one batch
  // The values of a batch finished earlier (`width` per trial, in trial order), or nullopt to run it.
  std::function<std::optional<std::vector<double>>(const std::string& batch)> load;
  // Called with each batch this run finished.
  std::function<void(const std::string& batch, const std::vector<double>& values)> save;
};

// Trials per batch for a study of `total` trials in all: about 50 batches, so that a kill loses about 2% of
// the work while the journal stays a few dozen small files, each one fsync.
long long trials_per_batch(long long total);

// Runs the `count` trials of one group (`group` names it, e.g. "instance0") batch by batch: with B trials
// per batch, batch k holds trials k*B .. min((k+1)*B, count) - 1 and is named "<group>-batch<k>". A batch
// that `load` returns with `width` values per trial is taken as it is; any other is run, `run(j, values)`
// filling the `width` values of trial j, and handed to `save`. `take(j, values)` sees the values of every
// trial, loaded or run, in trial order (a trial that is run is taken right after it runs).
void run_in_batches(const TrialBatches& batches, const std::string& group, long long count, int width,
                    const std::function<void(long long, std::span<double>)>& run,
                    const std::function<void(long long, std::span<const double>)>& take);

}  // namespace mppnet::machines::metro
