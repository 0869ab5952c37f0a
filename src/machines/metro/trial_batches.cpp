// machines/metro/trial_batches.cpp: batches of trials, loaded when a previous run finished them, else run
// and saved.
#include "machines/metro/trial_batches.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mppnet::machines::metro {

long long trials_per_batch(long long total) {
  constexpr long long kBatches = 50;
  return std::max<long long>(1, (total + kBatches - 1) / kBatches);
}

void run_in_batches(const TrialBatches& batches, const std::string& group, long long count, int width,
                    const std::function<void(long long, std::span<double>)>& run,
                    const std::function<void(long long, std::span<const double>)>& take) {
  const long long per = batches.trials_per_batch > 0 ? batches.trials_per_batch : std::max(1LL, count);
  std::vector<double> values;
  for (long long first = 0, k = 0; first < count; first += per, ++k) {
    const long long n = std::min(per, count - first);
    const auto size = static_cast<std::size_t>(n * width);
    const std::string name = fmt::format("{}-batch{}", group, k);
    std::optional<std::vector<double>> kept = batches.load ? batches.load(name) : std::nullopt;
    const auto trial = [&](long long j) {
      return std::span<double>(values).subspan(static_cast<std::size_t>(j * width), width);
    };
    if (kept && kept->size() == size) {
      values = std::move(*kept);
      for (long long j = 0; j < n; ++j) take(first + j, trial(j));
      continue;
    }
    // Each trial is taken as soon as it is run, so that progress (and the rate a long study is
    // measured by) moves trial by trial, not batch by batch.
    values.assign(size, 0.0);
    for (long long j = 0; j < n; ++j) {
      run(first + j, trial(j));
      take(first + j, trial(j));
    }
    if (batches.save) batches.save(name, values);
  }
}

}  // namespace mppnet::machines::metro
