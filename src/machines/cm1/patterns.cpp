// machines/cm1/patterns.cpp: destination patterns (note §5 E4, E9).
#include "machines/cm1/patterns.hpp"

#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "io/input_file.hpp"
#include "workload/patterns.hpp"

namespace mppnet::machines::cm1 {

namespace {
constexpr std::uint64_t kDestComponent = 0xc1001;  // component ids of this model's random streams
constexpr std::uint64_t kSendComponent = 0xc1002;
}  // namespace

std::vector<std::uint32_t> read_pattern_file(const std::string& path, std::uint32_t vps) {
  std::istringstream in(io::read_input_file(path, "pattern file"));
  std::vector<std::uint32_t> dst(vps, kNoMessage);
  std::vector<int> line_of(vps, 0);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string text[2], extra;
    if (!(words >> text[0])) continue;  // blank or comment
    words >> text[1] >> extra;
    long long v[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const auto& w = text[k];
      const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v[k]);
      if (w.empty() || ec != std::errc() || end != w.data() + w.size() || !extra.empty())
        throw core::ConfigError(
            {path, n}, "", fmt::format("expected two VP numbers \"source destination\", got \"{}\"", line));
      if (v[k] < 0 || v[k] >= vps)
        throw core::ConfigError(
            {path, n}, "",
            fmt::format("VP {} does not exist: the machine has {} VPs (0 .. {})", v[k], vps, vps - 1));
    }
    const auto s = static_cast<std::uint32_t>(v[0]);
    if (dst[s] != kNoMessage)
      throw core::ConfigError(
          {path, n}, "",
          fmt::format("VP {} already sends a message (line {}); one per VP per instruction", s, line_of[s]));
    dst[s] = static_cast<std::uint32_t>(v[1]);
    line_of[s] = n;
  }
  return dst;
}

std::vector<std::uint32_t> make_destinations(const MachineParams& m, const TrafficParams& t,
                                             std::int64_t seed) {
  const int proc_bits = m.dims + std::countr_zero(static_cast<unsigned>(m.procs_per_chip));
  const std::uint32_t procs = std::uint32_t{1} << proc_bits;
  const std::uint32_t mask = procs - 1;
  const auto vps = static_cast<std::uint32_t>(procs * static_cast<std::uint32_t>(t.vp_ratio));
  const auto s = static_cast<std::uint64_t>(seed);
  if (t.pattern == Pattern::File) return read_pattern_file(t.file, vps);
  std::vector<std::uint32_t> dst(vps);
  core::RandomStream rng(s, kDestComponent, core::Stream::Destination);

  for (std::uint32_t v = 0; v < vps; ++v) {
    const std::uint32_t bank = v & ~mask;
    const auto p = static_cast<NodeId>(v & mask);
    switch (t.pattern) {
      case Pattern::RandomFunction:
        dst[v] = rng.below(vps);
        break;
      case Pattern::RandomPermutation:
        dst[v] = v;  // shuffled below
        break;
      case Pattern::Complement:
        dst[v] = bank | static_cast<std::uint32_t>(workload::bit_complement(p, proc_bits));
        break;
      case Pattern::BitReversal:
        dst[v] = bank | static_cast<std::uint32_t>(workload::bit_reverse(p, proc_bits));
        break;
      case Pattern::Transpose:
        dst[v] = bank | static_cast<std::uint32_t>(workload::transpose(p, proc_bits));
        break;
      case Pattern::Shift: {
        const std::int64_t q = (static_cast<std::int64_t>(p) + t.shift) % static_cast<std::int64_t>(procs);
        dst[v] = bank | static_cast<std::uint32_t>(q < 0 ? q + procs : q);
        break;
      }
      case Pattern::HotSpot:
        dst[v] = rng.bernoulli(t.hotspot_fraction) ? static_cast<std::uint32_t>(t.target) : rng.below(vps);
        break;
      case Pattern::AllToOne:
        dst[v] = static_cast<std::uint32_t>(t.target);
        break;
      case Pattern::File:
        MPPNET_ASSERT(false, "file patterns are read above");
        break;
    }
  }
  if (t.pattern == Pattern::RandomPermutation) {
    core::RandomStream shuffle(s, kDestComponent, core::Stream::Setup);
    for (std::uint32_t i = vps - 1; i > 0; --i) std::swap(dst[i], dst[shuffle.below(i + 1)]);
  }
  if (t.send_fraction < 1.0) {
    core::RandomStream send(s, kSendComponent, core::Stream::Arrival);
    for (auto& d : dst)
      if (!send.bernoulli(t.send_fraction)) d = kNoMessage;
  }
  return dst;
}

}  // namespace mppnet::machines::cm1
