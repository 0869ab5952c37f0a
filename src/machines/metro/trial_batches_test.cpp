// machines/metro/trial_batches_test.cpp: batches of trials are named and cut as documented, a loaded batch
// is not run again, and a yield or harvest study that resumes from kept batches gives the numbers of one
// that ran without a break.
#include "machines/metro/trial_batches.hpp"

#include <gtest/gtest.h>

#include <map>

#include "machines/metro/harvest.hpp"
#include "machines/metro/params_for_test.hpp"
#include "machines/metro/yield.hpp"

namespace mppnet::machines::metro {
namespace {

// An in-memory journal: what save was given, handed back by load.
struct Kept {
  std::map<std::string, std::vector<double>> batches;
  int saved = 0;
  TrialBatches hooks(long long per_batch) {
    return {.trials_per_batch = per_batch,
            .load = [this](const std::string& b) -> std::optional<std::vector<double>> {
              const auto it = batches.find(b);
              if (it == batches.end()) return std::nullopt;
              return it->second;
            },
            .save =
                [this](const std::string& b, const std::vector<double>& v) {
                  batches[b] = v;
                  ++saved;
                }};
  }
};

TEST(TrialBatches, AboutFiftyBatchesInAll) {
  EXPECT_EQ(trials_per_batch(1), 1);
  EXPECT_EQ(trials_per_batch(50), 1);
  EXPECT_EQ(trials_per_batch(51), 2);     // ceil(51 / 50)
  EXPECT_EQ(trials_per_batch(1000), 20);  // 1000 / 50
  EXPECT_EQ(trials_per_batch(6000), 120);
}

TEST(TrialBatches, SevenTrialsInBatchesOfThree) {
  // Batches hold trials 0-2, 3-5 and 6; two values per trial.
  Kept kept;
  std::vector<long long> ran, taken;
  run_in_batches(
      kept.hooks(3), "g", 7, 2,
      [&](long long j, std::span<double> v) {
        ran.push_back(j);
        v[0] = static_cast<double>(j);
        v[1] = 10.0 * static_cast<double>(j);
      },
      [&](long long j, std::span<const double> v) {
        taken.push_back(j);
        EXPECT_EQ(v[1], 10.0 * static_cast<double>(j));
      });
  EXPECT_EQ(ran, (std::vector<long long>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(taken, ran);
  ASSERT_EQ(kept.batches.size(), 3u);
  EXPECT_EQ(kept.batches["g-batch1"], (std::vector<double>{3, 30, 4, 40, 5, 50}));
  EXPECT_EQ(kept.batches["g-batch2"], (std::vector<double>{6, 60}));
}

TEST(TrialBatches, AKeptBatchIsTakenAndNotRun) {
  Kept kept;
  kept.batches["g-batch1"] = {-3, -4, -5};
  kept.batches["g-batch2"] = {-6, -7};  // the wrong size for a batch of one trial: run again
  std::vector<long long> ran;
  std::vector<double> seen;
  run_in_batches(
      kept.hooks(3), "g", 7, 1,
      [&](long long j, std::span<double> v) {
        ran.push_back(j);
        v[0] = static_cast<double>(j);
      },
      [&](long long, std::span<const double> v) { seen.push_back(v[0]); });
  EXPECT_EQ(ran, (std::vector<long long>{0, 1, 2, 6}));
  EXPECT_EQ(seen, (std::vector<double>{0, 1, 2, -3, -4, -5, 6}));
  EXPECT_EQ(kept.saved, 2);
}

TEST(TrialBatches, WithoutHooksEveryTrialRunsOnce) {
  long long runs = 0, takes = 0;
  run_in_batches(
      {}, "g", 5, 1, [&](long long, std::span<double>) { ++runs; },
      [&](long long, std::span<const double>) { ++takes; });
  EXPECT_EQ(runs, 5);
  EXPECT_EQ(takes, 5);
}

TEST(TrialBatches, YieldResumedFromHalfItsBatchesEqualsAnUnbrokenRun) {
  YieldParams p;
  p.network = params(4, 2, 3, Wiring::Random);
  p.trials = 300;
  p.instances = 3;
  p.seed = 11;
  const YieldResult unbroken = run_yield(p);
  Kept all;
  const YieldResult batched = run_yield(p, {}, all.hooks(7));
  EXPECT_EQ(batched.tolerated, unbroken.tolerated);
  // 100 trials per instance in batches of 7: 15 batches each.
  EXPECT_EQ(all.saved, 45);
  // An interrupted run kept every other batch; the rerun runs the rest.
  Kept half;
  int i = 0;
  for (const auto& [name, values] : all.batches)
    if (i++ % 2 == 0) half.batches[name] = values;
  const YieldResult resumed = run_yield(p, {}, half.hooks(7));
  EXPECT_EQ(half.saved, 22);
  EXPECT_EQ(resumed.tolerated, unbroken.tolerated);
  EXPECT_EQ(resumed.mean, unbroken.mean);
  EXPECT_EQ(resumed.p_complete, unbroken.p_complete);
  EXPECT_EQ(resumed.instance_stddev, unbroken.instance_stddev);
}

TEST(TrialBatches, HarvestResumedFromKeptBatchesEqualsAnUnbrokenRun) {
  HarvestParams p;
  p.network = params(4, 2, 3, Wiring::Deterministic);
  p.fault_fractions = {0.05, 0.2};
  p.trials = 40;
  p.instances = 2;
  const HarvestResult unbroken = run_harvest(p);
  Kept all;
  run_harvest(p, {}, all.hooks(6));
  // 2 levels x 2 instances x 20 trials in batches of 6: 4 batches per group.
  EXPECT_EQ(all.saved, 16);
  all.batches.erase("instance1-level1-batch2");
  all.saved = 0;
  const HarvestResult resumed = run_harvest(p, {}, all.hooks(6));
  EXPECT_EQ(all.saved, 1);
  ASSERT_EQ(resumed.points.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(resumed.points[i].harvest, unbroken.points[i].harvest) << i;
    EXPECT_EQ(resumed.points[i].std_error, unbroken.points[i].std_error) << i;
    EXPECT_EQ(resumed.points[i].p_complete, unbroken.points[i].p_complete) << i;
  }
}

}  // namespace
}  // namespace mppnet::machines::metro
