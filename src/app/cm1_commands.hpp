// app/cm1_commands.hpp: `mppnet run` on a CM-1/CM-2 router config.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mppnet::app {

// One routing instruction: petit cycles, bit-times, wire utilisation, messages per second.
int cm1_run_command(const std::string& config, const std::vector<std::string>& sets,
                    const std::filesystem::path& out);

}  // namespace mppnet::app
