// io/atomic_file.cpp: temp file + fsync + rename.
#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "core/error.hpp"

namespace mppnet::io {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int err) {
  throw core::ConfigError({path.string(), 0}, "", what + ": " + std::strerror(err));
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) fail(path, "cannot create directory " + parent.string(), ec.value());
  const std::filesystem::path temp =
      parent / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot write", errno);
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      std::filesystem::remove(temp, ec);
      fail(path, "cannot write", err);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    std::filesystem::remove(temp, ec);
    fail(path, "cannot flush", err);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::filesystem::remove(temp, ec);
    fail(path, "cannot rename into place", err);
  }
}

}  // namespace mppnet::io
