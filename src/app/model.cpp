// app/model.cpp: peeking at [machine] model before choosing the loader.
#include "app/model.hpp"

#include <toml++/toml.h>

#include "io/key_table.hpp"

namespace mppnet::app {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string config_model(const std::string& path, const std::vector<std::string>& sets) {
  std::string model = "network";
  try {
    const toml::table t = toml::parse_file(path);
    if (auto m = t["machine"]["model"].value<std::string>()) model = *m;
  } catch (const std::exception&) {
    return model;
  }
  // The value is read exactly as the loaders read a --set (quotes, spaces, TOML or a bare word); a
  // malformed one is left for the loader to report with its location.
  static const io::KeySet model_key({io::KeySpec{"machine.model", io::KeyType::String, io::any_value(), ""}});
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || trim(std::string_view(s).substr(0, eq)) != "machine.model") continue;
    try {
      model = std::get<std::string>(model_key.read_arg(s).value);
    } catch (const std::exception&) {
    }
  }
  return model;
}

}  // namespace mppnet::app
