// fuzz/set_fuzz.cpp: `--set key=value` arguments over each shipped config. The first byte picks the
// config (configs/*.toml, read once at start), every following line is one --set argument.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fuzz/fuzz_config.hpp"

namespace {

std::vector<std::string>& configs() {
  static std::vector<std::string> paths = [] {
    std::vector<std::string> p;
    for (const auto& e : std::filesystem::directory_iterator(MPPNET_SOURCE_DIR "/configs"))
      if (e.path().extension() == ".toml") p.push_back(e.path().string());
    std::sort(p.begin(), p.end());  // the byte's meaning does not depend on the directory's order
    return p;
  }();
  return paths;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  static const std::vector<mppnet::io::ConfigFile>* files = [] {
    auto* f = new std::vector<mppnet::io::ConfigFile>;
    for (const std::string& path : configs()) f->push_back(mppnet::io::open_config_file(path));
    return f;
  }();
  const mppnet::io::ConfigFile& file = (*files)[data[0] % files->size()];
  std::vector<std::string> sets;
  std::string line;
  for (std::size_t i = 1; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      sets.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(data[i]);
    }
  }
  try {
    mppnet::fuzz::load_config(file, sets);
  } catch (const mppnet::core::ConfigError&) {
  }
  return 0;
}
