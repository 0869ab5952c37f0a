// app/model.cpp: peeking at [machine] model before choosing the loader.
#include "app/model.hpp"

#include <toml++/toml.h>

namespace mppnet::app {

std::string config_model(const std::string& path, const std::vector<std::string>& sets) {
  std::string model = "network";
  try {
    const toml::table t = toml::parse_file(path);
    if (auto m = t["machine"]["model"].value<std::string>()) model = *m;
  } catch (const std::exception&) {
    return model;
  }
  const std::string key = "machine.model=";
  for (const std::string& s : sets) {
    if (s.rfind(key, 0) != 0) continue;
    model = s.substr(key.size());
    if (model.size() >= 2 && model.front() == '"' && model.back() == '"')
      model = model.substr(1, model.size() - 2);
  }
  return model;
}

}  // namespace mppnet::app
