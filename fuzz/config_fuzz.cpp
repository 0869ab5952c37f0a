// fuzz/config_fuzz.cpp: a config file of any model, as text (seed corpus: configs/*.toml).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "fuzz/fuzz_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;  // config files are small; longer inputs only slow the search
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const mppnet::io::ConfigFile file = mppnet::io::config_file_from_text(text, "fuzz.toml");
    mppnet::fuzz::load_config(file, {});
  } catch (const mppnet::core::ConfigError&) {
  }
  return 0;
}
