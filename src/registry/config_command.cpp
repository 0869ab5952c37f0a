// registry/config_command.cpp: config-file arguments, and the model a config file describes.
#include "registry/config_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace mppnet::registry {

void add_config_arguments(CLI::App& command, ConfigArguments& args, const std::string& config_help,
                          const std::string& out_help) {
  command.add_option("config", args.config, config_help)->required();
  command.add_option("--set", args.sets, "Override a key (repeatable)");
  refuse_empty_path(command.add_option("--out", args.out, out_help));
}

CLI::Option* refuse_empty_path(CLI::Option* out) {
  return out->check(CLI::Validator(
      [](std::string& path) {
        return path.empty()
                   ? std::string("an empty path names no output; leave the option out for the default")
                   : std::string();
      },
      "PATH"));
}

std::filesystem::path output_directory(const std::string& config, const std::string& out) {
  if (!out.empty()) return out;
  return std::filesystem::path("results") / std::filesystem::path(config).stem();
}

std::string model_of(const io::ConfigFile& file, const std::vector<std::string>& sets) {
  std::string model(kNetworkModel);
  if (auto m = file.doc["machine"]["model"].value<std::string>()) model = *m;
  // The value is read exactly as the loaders read a --set (quotes, spaces, TOML or a bare word). A set
  // of another key, or a malformed one, is refused by this one-key table and left for the loader to
  // report with its location.
  static const io::KeySet model_key({io::KeySpec{"machine.model", io::KeyType::String, io::any_value(), ""}});
  for (const std::string& s : sets) {
    try {
      model = std::get<std::string>(model_key.read_arg(s).value);
    } catch (const core::ConfigError&) {
    }
  }
  return model;
}

core::ConfigError wrong_model(const io::ConfigFile& file, std::string_view model, std::string_view command,
                              std::string_view wants, const Registry& registry) {
  const std::string hint = registry.commands_hint(model);
  return core::ConfigError({file.path, 0}, "machine.model",
                           fmt::format("`mppnet {}` runs {} configs; this file describes model \"{}\"{}",
                                       command, wants, model, hint.empty() ? "" : " (" + hint + ")"));
}

io::ConfigFile open_config_of_model(const ConfigArguments& args, std::string_view model,
                                    std::string_view command, const Registry& registry) {
  io::ConfigFile file = io::open_config_file(args.config);
  const std::string described = model_of(file, args.sets);
  if (described != model) throw wrong_model(file, described, command, model, registry);
  return file;
}

}  // namespace mppnet::registry
