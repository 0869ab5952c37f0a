// app/validate_command.hpp: `mppnet validate`: the registered cases, paper against simulation.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mppnet::app {

// Runs the cases named in `ids` (every case when empty; without the slow ones when `fast_only`), or
// lists them. Prints each case with its kind of evidence, expected and simulated values, tolerance and
// verdict (core::judge), the band and reason of its documented difference if it has one, then a summary by
// kind and verdict and how many cases are of each kind of evidence (the number that compare the simulated
// machine with its publication apart from the rest); writes <out>/validation.json, .csv and .md atomically.
// The cases run on `jobs` threads; the output is the same for any number. Returns 0, or core::kExitRunFailed
// when a case failed: outside its tolerance without a documented difference, outside the band its documented
// difference is pinned to, or within tolerance while carrying one. Throws core::ConfigError for an unknown
// case id.
int validate_command(const std::vector<std::string>& ids, bool list_only, bool fast_only, int jobs,
                     const std::filesystem::path& out);

}  // namespace mppnet::app
