// app/metro_commands.hpp: `mppnet yield` and `mppnet harvest` on METRO multipath networks.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mppnet::app {

// Monte Carlo of the faults tolerated while the network stays complete; `trials` > 0 overrides run.trials.
int yield_command(const std::string& config, std::vector<std::string> sets, long long trials,
                  const std::filesystem::path& out);

// Fraction of nodes still usable after Chong's reconfiguration, at each fault level.
int harvest_command(const std::string& config, const std::vector<std::string>& sets,
                    const std::filesystem::path& out);

}  // namespace mppnet::app
