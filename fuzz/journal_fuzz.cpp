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

namespace {

const nlohmann::json kFingerprint = {{"command", "sweep"}, {"values", {0.1, 0.2}}};

// Removes the fuzzer's journal when the process ends (constructed after the path, so destroyed before it).
struct RemovedAtExit {
  fs::path path;
  ~RemovedAtExit() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// One journal for the whole run, made once (its fingerprint written durably); each input then only
// replaces one file with plain writes, so the fuzzer runs at the speed of the reading it tests.
const fs::path& journal_parent() {
  static const fs::path out = [] {
    const fs::path shm("/dev/shm");
    const fs::path base = fs::is_directory(shm) ? shm : fs::temp_directory_path();
    fs::path p = base / ("mppnet_journal_fuzz_" + std::to_string(::getpid()));
    fs::remove_all(p);
    mppnet::io::Journal(p, "sweep", kFingerprint);
    return p;
  }();
  static const RemovedAtExit cleanup{out};
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 16 * 1024) return 0;
  const fs::path dir = journal_parent() / ".partial" / "sweep";
  const std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool fingerprint = data[0] % 4 == 0;
  const fs::path file = dir / (fingerprint        ? "fingerprint.json"
                               : data[0] % 4 == 1 ? "point-0001.json"
                                                  : "point-0000.json");
  std::ofstream(file, std::ios::binary) << content;
  try {
    const mppnet::io::Journal resumed(journal_parent(), "sweep", kFingerprint);
    for (const char* point : {"point-0000", "point-0001"})
      (void)resumed.decoded(point, [](const nlohmann::json& r) {
        return std::make_pair(r.at("value").get<double>(), mppnet::exp::result_from_record(r.at("result")));
      });
  } catch (const mppnet::core::ConfigError&) {
  }
  if (fingerprint) {
    std::ofstream(file, std::ios::binary) << kFingerprint.dump(2) << "\n";
  } else {
    fs::remove(file);
  }
  return 0;
}
