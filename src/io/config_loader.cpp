// io/config_loader.cpp: reading and parsing a config file, choosing its preset, and origin lookup.
#include "io/config_loader.hpp"

#include "io/input_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace mppnet::io {

namespace {

using core::ConfigError;
using core::SourceLocation;

// The key of a "key=value" argument, as KeySet::read_arg will see it.
std::string arg_key(const std::string& arg) {
  std::string key = arg.substr(0, arg.find('='));
  key.erase(0, key.find_first_not_of(" \t"));
  key.erase(key.find_last_not_of(" \t") + 1);
  return key;
}

}  // namespace

std::string read_config_file(const std::string& path) {
  return read_input_file(path, "config file");
}

toml::table parse_config(std::string_view text, const std::string& name) {
  try {
    return toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw ConfigError({name, static_cast<int>(e.source().begin.line)}, "", std::string(e.description()));
  }
}

ConfigFile open_config_file(const std::string& path) {
  return config_file_from_text(read_config_file(path), path);
}

ConfigFile config_file_from_text(std::string_view text, const std::string& name) {
  return ConfigFile(name, parse_config(text, name));
}

SourceLocation where_set(const Origins& origin, const std::string& source_file, const std::string& key) {
  const auto it = origin.find(key.substr(0, key.find('[')));
  return it != origin.end() ? it->second : SourceLocation{source_file, 0};
}

namespace detail {

std::optional<ChosenPreset> choose_preset(const KeySet& keys, const toml::table& doc, const std::string& name,
                                          const std::vector<std::string>& sets, const Presets& presets) {
  if (presets.key.empty()) return std::nullopt;
  const auto key = keys.find(presets.key);
  MPPNET_ASSERT(key.has_value(), "the preset key is not declared in the key table");

  std::optional<KeySet::Assignment> choice;
  if (const toml::node* n = doc.at_path(presets.key).node()) {
    const SourceLocation where{name, static_cast<int>(n->source().begin.line)};
    choice = KeySet::Assignment{*key, keys.read(*key, *n, where), where};
  }
  for (const auto& s : sets)
    if (arg_key(s) == presets.key) choice = keys.read_arg(s);
  if (!choice) return std::nullopt;

  const nlohmann::json chosen = keys.to_json(choice->key, choice->value);
  MPPNET_ASSERT(chosen.is_string(), "the preset key must be a string or enum key");
  return ChosenPreset{*choice, presets.sets(chosen.get<std::string>())};
}

}  // namespace detail

}  // namespace mppnet::io
