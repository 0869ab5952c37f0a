// io/config_loader.hpp: the steps every config file goes through: read, parse, preset, keys, --set.
//
// A config struct T is loaded in one fixed order: the preset chosen by the file or by --set (if T has
// presets), then the file's own keys in file order, then each --set "key=value" in order; every key
// records where it was last set in T::origin. Each loader keeps only what is its own: its KeyTable,
// its presets and its cross-key checks, which report at where_set(c, key) (STYLE §2.3, §2.4).
#pragma once

#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "core/error.hpp"
#include "io/key_table.hpp"

namespace mppnet::io {

// A struct the loader can fill: default-constructible, with where each key was set and the file name.
template <class T>
concept LoadableConfig = std::default_initializable<T> && requires(T t) {
  { t.origin } -> std::same_as<Origins&>;
  { t.source_file } -> std::same_as<std::string&>;
};

// (key, TOML value) pairs, applied as if written at the location of the key that chose them.
using PresetSets = std::vector<std::pair<std::string, std::string>>;

// Named sets of defaults chosen by one key (e.g. machine.preset). The last `--set key=...` chooses,
// else the file's key; the choice and its pairs are applied before anything else, whatever the
// order of the file, so that the file and --set override them. An empty `key` means no presets.
struct Presets {
  std::string key;
  // The pairs of preset `name`. REQUIRES: `name` passed the check of `key` (a string or enum key).
  std::function<PresetSets(const std::string& name)> sets;
};

// The text of the file at `path`. Throws ConfigError "path: cannot read file: <strerror>".
std::string read_config_file(const std::string& path);

// A config file read and parsed once. Every reader of a part of it (the model's loader, [am], [app])
// takes this document, so a file is parsed once and a syntax error is reported once, with its line.
// Not copyable: toml++ drops the source lines of copied nodes, and every error must keep its line.
struct ConfigFile {
  std::string path;
  toml::table doc;

  ConfigFile(std::string p, toml::table d) : path(std::move(p)), doc(std::move(d)) {}
  ConfigFile(ConfigFile&&) = default;
  ConfigFile& operator=(ConfigFile&&) = default;
  ConfigFile(const ConfigFile&) = delete;
  ConfigFile& operator=(const ConfigFile&) = delete;
};

// Reads and parses `path`. Throws ConfigError "path: cannot read file: ..." or "path:line: <syntax>".
ConfigFile open_config_file(const std::string& path);
// The same for a config held in memory; `name` stands for the file in messages.
ConfigFile config_file_from_text(std::string_view text, const std::string& name);

// The TOML document in `text`; `name` stands for the file in messages. Throws ConfigError
// "name:line: <description>" on a syntax error.
toml::table parse_config(std::string_view text, const std::string& name);

// Where `key` was set ("topology.parents[2]" counts as topology.parents); the file with no line when
// it was not set (the key keeps its default).
core::SourceLocation where_set(const Origins& origin, const std::string& source_file, const std::string& key);

namespace detail {

struct ChosenPreset {
  KeySet::Assignment choice;  // the preset key's own value and location
  PresetSets sets;
};

// The preset that `doc` (the file `name`) and `sets` choose, read and checked; nullopt when none is
// named or there are no presets. Throws ConfigError for a bad preset value, before any other key is read.
std::optional<ChosenPreset> choose_preset(const KeySet& keys, const toml::table& doc, const std::string& name,
                                          const std::vector<std::string>& sets, const Presets& presets);

}  // namespace detail

// Loads T from the parsed document `doc` (`name` stands for the file in messages and becomes
// c.source_file): the preset, then the file's keys, then each "key=value" of `sets` in order. Sections
// in `foreign_sections` belong to another reader of the same file and are passed over; any other
// section or key that `table` does not declare is an error. Throws core::ConfigError for the first
// problem: unknown key (with a did-you-mean), wrong type, value out of range. Cross-key checks are the
// caller's, after this returns.
template <LoadableConfig T>
T load_config(const KeyTable<T>& table, const toml::table& doc, const std::string& name,
              const std::vector<std::string>& sets, const Presets& presets = {},
              const std::vector<std::string>& foreign_sections = {}) {
  T c;
  c.source_file = name;
  if (auto preset = detail::choose_preset(table.keys(), doc, name, sets, presets)) {
    table.apply(c, preset->choice, &c.origin);
    for (const auto& [key, value] : preset->sets)
      table.set_text(c, key, value, preset->choice.where, &c.origin);
  }
  table.set_document(c, doc, name, &c.origin, foreign_sections);
  for (const auto& s : sets) table.set_arg(c, s, &c.origin);
  return c;
}

// The same from TOML `text`, parsed first (a syntax error throws "name:line: <description>").
template <LoadableConfig T>
T load_config(const KeyTable<T>& table, std::string_view text, const std::string& name,
              const std::vector<std::string>& sets, const Presets& presets = {}) {
  return load_config(table, parse_config(text, name), name, sets, presets);
}

template <LoadableConfig T>
core::SourceLocation where_set(const T& c, const std::string& key) {
  return where_set(c.origin, c.source_file, key);
}

// Throws ConfigError "file:line: key: reason" located where `key` was set.
template <LoadableConfig T>
[[noreturn]] void fail_at(const T& c, const std::string& key, const std::string& reason) {
  throw core::ConfigError(where_set(c, key), key, reason);
}

// Re-checks every key of `c` on its own (a T filled in code has not been through the loader); a
// problem is reported where that key was set.
template <LoadableConfig T>
void check_keys(const KeyTable<T>& table, const T& c) {
  table.check(c, [&](const std::string& key) { return where_set(c, key); });
}

}  // namespace mppnet::io
