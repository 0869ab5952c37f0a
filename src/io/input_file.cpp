// io/input_file.cpp: bounded reads: fstat first, then read with poll() on anything that is not a regular
// file.
#include "io/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::io {

namespace {

InputLimits g_limits;

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw core::ConfigError({path.string(), 0}, "", why);
}

std::string limit_text(std::uint64_t bytes) {
  if (bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

// Closes the descriptor however the read ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void set_input_limits(const InputLimits& limits) {
  g_limits = limits;
}

const InputLimits& input_limits() {
  return g_limits;
}

std::string read_input_file(const std::filesystem::path& path, std::string_view what) {
  const InputLimits limits = g_limits;
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer; the reads below wait with poll.
  const Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) refuse(path, fmt::format("cannot read the {}: {}", what, std::strerror(errno)));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    refuse(path, fmt::format("cannot read the {}: {}", what, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) refuse(path, fmt::format("cannot read the {}: it is a folder", what));
  const auto too_large = [&] {
    return fmt::format("the {} is larger than the input limit of {}; the option --max-input-mb N raises it",
                       what, limit_text(limits.max_bytes));
  };
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::uint64_t>(st.st_size) > limits.max_bytes) refuse(path, too_large());

  std::string text;
  if (regular) text.reserve(static_cast<std::size_t>(st.st_size));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms);
  char buffer[1 << 16];
  for (;;) {
    // A FIFO, pipe or device: wait until it has data or its writer's end. On Linux a FIFO that no writer
    // has opened yet reports neither, and a read would return 0 as at an end of file: only poll can tell.
    if (!regular) {
      const int ready = wait_readable(file.fd, deadline);
      if (ready < 0) refuse(path, fmt::format("cannot read the {}: {}", what, std::strerror(errno)));
      if (ready == 0)
        refuse(path, fmt::format("cannot read the {}: no data within {} s (a FIFO with no writer?); "
                                 "the option --input-timeout SECONDS sets the wait",
                                 what, limits.timeout_ms / 1000.0));
    }
    const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
      if (text.size() > limits.max_bytes) refuse(path, too_large());
      continue;
    }
    if (n == 0) return text;
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    refuse(path, fmt::format("cannot read the {}: {}", what, std::strerror(errno)));
  }
}

int wait_readable(int fd, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return 0;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    return ready < 0 ? -1 : ready > 0 ? 1 : 0;
  }
}

}  // namespace mppnet::io
