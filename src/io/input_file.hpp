// io/input_file.hpp: reading a whole input file (config, pattern, BookSim config, results to plot) with a
// size limit and a time limit, so that /dev/zero, /proc/self/mem or a FIFO nobody writes to gives an
// error rather than a hang, an exhausted memory or a silently empty input.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace mppnet::io {

struct InputLimits {
  std::uint64_t max_bytes = std::uint64_t{256} << 20;  // `--max-input-mb`
  int timeout_ms = 10'000;  // the longest wait for data from a FIFO, pipe or device (`--input-timeout`)
};

// The limits every read_input_file applies; the command line sets them once, before any input is read.
void set_input_limits(const InputLimits& limits);
const InputLimits& input_limits();

// The whole content of `path`. Throws core::ConfigError{{path, 0}, "", reason} naming `what` ("config
// file") and the cause: the file cannot be opened, is a folder, is larger than the limit (read no further
// than the limit, so an endless device is refused too), delivers no data within the time limit (a FIFO
// with no writer), or a read fails (EIO is an error, never an end of file).
std::string read_input_file(const std::filesystem::path& path, std::string_view what);

// Waits until `fd` can be read (it has data, or its writer's end is closed) or `deadline` passes: 1 when
// readable, 0 at the deadline, -1 on an error (errno says which). A wait interrupted by a signal goes on.
int wait_readable(int fd, std::chrono::steady_clock::time_point deadline);

}  // namespace mppnet::io
