// fuzz/journal_fuzz.cpp: a journal record (io/journal.hpp) as a killed or edited run may leave it, read back
// the way a resumed sweep reads its points. The input's first byte chooses the file it becomes (a point
// record or the fingerprint); the rest is its content. Opening the journal may refuse with
// core::ConfigError (another fingerprint); a record that does not decode must be run again, so nothing but
// ConfigError may escape, and nothing may crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "exp/results.hpp"
#include "io/journal.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 16 * 1024) return 0;
  static const fs::path out =
      fs::temp_directory_path() / ("mppnet_journal_fuzz_" + std::to_string(::getpid()));
  static const nlohmann::json fingerprint = {{"command", "sweep"}, {"values", {0.1, 0.2}}};
  fs::remove_all(out);
  {
    mppnet::io::Journal fresh(out, "sweep", fingerprint);  // a real journal: fingerprint written
  }
  const std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  const fs::path dir = out / ".partial" / "sweep";
  const char* name = data[0] % 4 == 0   ? "fingerprint.json"
                     : data[0] % 4 == 1 ? "point-0001.json"
                                        : "point-0000.json";
  std::ofstream(dir / name, std::ios::binary) << content;
  try {
    mppnet::io::Journal resumed(out, "sweep", fingerprint);
    for (const char* point : {"point-0000", "point-0001"})
      (void)resumed.decoded(point, [](const nlohmann::json& r) {
        return std::make_pair(r.at("value").get<double>(), mppnet::exp::result_from_record(r.at("result")));
      });
    resumed.remove();
  } catch (const mppnet::core::ConfigError&) {
  }
  fs::remove_all(out);
  return 0;
}
