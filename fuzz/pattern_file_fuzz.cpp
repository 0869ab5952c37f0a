// fuzz/pattern_file_fuzz.cpp: the CM-1 pattern file (`traffic.file`: "source_vp destination_vp" lines).
// The first two bytes give the number of VPs; the rest is the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "machines/cm1/patterns.hpp"

namespace {

// One file per process, rewritten for every input: the reader takes a path.
const std::string& scratch_path() {
  static const std::string path = [] {
    std::string p = "/tmp/mppnet-pattern-fuzz-" + std::to_string(::getpid());
    std::atexit([] { std::remove(scratch_path().c_str()); });
    return p;
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > 64 * 1024) return 0;
  const std::uint32_t vps = 1 + (static_cast<std::uint32_t>(data[0]) << 8 | data[1]);
  std::FILE* f = std::fopen(scratch_path().c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 2 && std::fwrite(data + 2, 1, size - 2, f) != size - 2) std::abort();
  std::fclose(f);
  try {
    const auto dst = mppnet::machines::cm1::read_pattern_file(scratch_path(), vps);
    if (dst.size() != vps) std::abort();  // one entry per VP, whatever the file
    for (const std::uint32_t d : dst)
      if (d != mppnet::machines::cm1::kNoMessage && d >= vps) std::abort();
  } catch (const mppnet::core::ConfigError&) {
  }
  return 0;
}
