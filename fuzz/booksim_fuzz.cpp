// fuzz/booksim_fuzz.cpp: `mppnet import booksim FILE`. What the import accepts must load as a config of
// `mppnet run` without error (it writes only keys and values the generic network takes; node programs
// may ask more of it, such as VCs that split between requests and replies).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/booksim_import.hpp"
#include "core/error.hpp"
#include "exp/experiment_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16 * 1024) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  mppnet::app::BooksimImport imported;
  try {
    imported = mppnet::app::import_booksim(text, "fuzz.booksim");
  } catch (const mppnet::core::ConfigError&) {
    return 0;
  }
  if (!imported.errors.empty()) return 0;
  try {
    mppnet::exp::load_experiment_text(imported.toml, "imported.toml", {});
  } catch (const mppnet::core::ConfigError& e) {
    std::fprintf(stderr, "an imported config does not load: %s\n%s\n", e.what(), imported.toml.c_str());
    std::abort();
  }
  return 0;
}
