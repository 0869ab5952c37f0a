// io/atomic_file.cpp: checked target, unguessable temp file, fsync, rename; POSIX calls so every step
// reports errno.
#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/output_paths.hpp"
#include "io/temp_files.hpp"

namespace mppnet::io {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason) {
  throw core::ConfigError{{path.string(), 0}, "", reason};
}

std::string errno_text(int err) {
  return std::strerror(err);
}

// Writes all of content to fd, retrying short writes and EINTR. Returns 0 or an errno value.
int write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return 0;
}

// Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory, and the
// file's content is already safe by then.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  if (path.empty() || path.filename().empty()) fail(path, "cannot write a file: the path names a directory");
  const std::filesystem::path parent =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");

  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) fail(path, fmt::format("cannot create directory '{}': {}", parent.string(), ec.message()));
  check_output_target(path);

  // Registered before it exists, so that a SIGINT or SIGTERM at any point leaves no temp file behind.
  std::optional<TempPath> guard;
  const NewTemp temp = create_temp_file(parent, path.filename().string(), guard);
  const int fd = temp.fd;

  // From here on every failure removes the temp file before throwing.
  const auto fail_removing = [&](const std::string& step, int err) {
    ::unlink(temp.path.c_str());
    fail(path, fmt::format("{}: {}", step, errno_text(err)));
  };
  if (const int err = write_all(fd, content); err != 0) {
    ::close(fd);
    fail_removing(fmt::format("cannot write '{}'", temp.path.string()), err);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail_removing(fmt::format("cannot flush '{}' to disk", temp.path.string()), err);
  }
  if (::close(fd) != 0) fail_removing(fmt::format("cannot close '{}'", temp.path.string()), errno);
  // Checked again just before the rename: the target may have changed during a long write.
  try {
    check_output_target(path);
  } catch (const core::ConfigError&) {
    ::unlink(temp.path.c_str());
    throw;
  }
  if (::rename(temp.path.c_str(), path.c_str()) != 0) {
    fail_removing(fmt::format("cannot rename '{}' to '{}'", temp.path.string(), path.string()), errno);
  }
  sync_directory(parent);
  note_written(path);
}

void prepare_output_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw core::ConfigError(
        {dir.string(), 0}, "",
        "cannot use as an output directory: " + (ec ? ec.message() : std::string("not a directory")));
  if (::access(dir.c_str(), W_OK) != 0)
    throw core::ConfigError({dir.string(), 0}, "",
                            std::string("cannot write into it: ") + std::strerror(errno));
}

}  // namespace mppnet::io
