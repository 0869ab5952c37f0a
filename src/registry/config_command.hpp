// registry/config_command.hpp: what every command that takes a config file shares: its arguments, the
// model the file describes, and the error for a file of another model.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "io/config_loader.hpp"
#include "registry/registry.hpp"

namespace mppnet::registry {

struct ConfigArguments {
  std::string config;
  std::vector<std::string> sets;
  std::string out;
};

// Adds the config file (positional, required), --set (repeatable) and --out to `command`.
void add_config_arguments(CLI::App& command, ConfigArguments& args, const std::string& config_help,
                          const std::string& out_help);

// For every --out: an empty path is refused as a usage error (exit 2), not taken for the default.
// Returns `out`, so that it wraps an add_option call.
CLI::Option* refuse_empty_path(CLI::Option* out);

// --out, or results/<config file's stem> when it was not given.
std::filesystem::path output_directory(const std::string& config, const std::string& out);

// The model `file` describes: the last `--set machine.model=...` among `sets`, else the file's
// [machine] model, else "network". A malformed value is left for the model's loader to report.
std::string model_of(const io::ConfigFile& file, const std::vector<std::string>& sets);

// "file: machine.model: `mppnet <command>` runs <wants> configs; this file describes model "<model>"
// (use mppnet ...)", the hint naming the commands registered for that model.
core::ConfigError wrong_model(const io::ConfigFile& file, std::string_view model, std::string_view command,
                              std::string_view wants, const Registry& registry);

// Opens args.config and checks that it describes `model`; the file, parsed once, for the command's
// loader. Throws core::ConfigError (unreadable file, syntax, another model).
io::ConfigFile open_config_of_model(const ConfigArguments& args, std::string_view model,
                                    std::string_view command, const Registry& registry);

}  // namespace mppnet::registry
