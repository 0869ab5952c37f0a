// io/output_paths.cpp: the output-target check, unguessable temporaries, and the record of written files.
#include "io/output_paths.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/error.hpp"
namespace mppnet::io {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTempMark = ".mppnet-tmp-";
constexpr std::string_view kPlotMark = ".mppnet-plot-";
constexpr int kSuffixLetters = 8;

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// ".<anything><mark><kSuffixLetters letters>": the shape create_temp_file and plot_folder_name give.
bool has_mark(const std::string& name, std::string_view mark) {
  if (name.size() < 1 + mark.size() + kSuffixLetters || name.front() != '.') return false;
  const std::size_t at = name.size() - kSuffixLetters - mark.size();
  if (name.compare(at, mark.size(), mark) != 0) return false;
  return std::all_of(name.end() - kSuffixLetters, name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

// Each written path with the number of the write that last wrote it, so that an output directory can
// take only the files written while it was held (io/output_directory.hpp).
std::mutex g_written_mutex;
std::uint64_t g_writes = 0;
std::map<std::string, std::uint64_t>& written() {
  static std::map<std::string, std::uint64_t> files;
  return files;
}

}  // namespace

void check_output_target(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // absent (or unreachable: the write will say why)
  if (S_ISREG(st.st_mode)) return;
  const std::string why =
      S_ISLNK(st.st_mode)
          ? "is a symbolic link; mppnet replaces a result file by rename and will not replace or follow a "
            "link it did not make: remove the link or choose another output path"
          : fmt::format(
                "is {}; mppnet writes only regular files and never replaces another kind: choose "
                "another output path",
                kind_of(st.st_mode));
  throw core::ConfigError({path.string(), 0}, "", why);
}

std::string random_suffix(int letters) {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string out;
  unsigned char bytes[64];
  MPPNET_ASSERT(letters > 0 && letters <= 64, "a random suffix of 1 to 64 letters");
  std::size_t got = 0;
  while (got < static_cast<std::size_t>(letters)) {
    const ssize_t n = ::getrandom(bytes + got, static_cast<std::size_t>(letters) - got, 0);
    if (n < 0 && errno == EINTR) continue;
    MPPNET_ASSERT(n > 0, "the kernel's random source is readable");
    got += static_cast<std::size_t>(n);
  }
  for (int i = 0; i < letters; ++i) out += kAlphabet[bytes[i] % (sizeof kAlphabet - 1)];
  return out;
}

NewTemp create_temp_file(const fs::path& dir, const std::string& name, std::optional<TempPath>& guard) {
  // A clash is astronomically rare (62^8 names) unless someone plants files; a few tries then give up.
  for (int attempt = 0; attempt < 16; ++attempt) {
    NewTemp t;
    t.path = dir / fmt::format(".{}{}{}", name, kTempMark, random_suffix(kSuffixLetters));
    guard.reset();
    guard.emplace(t.path);
    t.fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (t.fd >= 0) {
      ::fchmod(t.fd, 0644);  // whatever the umask left, as results were always written
      return t;
    }
    if (errno != EEXIST)
      throw core::ConfigError(
          {(dir / name).string(), 0}, "",
          fmt::format("cannot create a temporary file in '{}': {}", dir.string(), std::strerror(errno)));
  }
  throw core::ConfigError(
      {(dir / name).string(), 0}, "",
      fmt::format("cannot create a temporary file in '{}': every name tried exists", dir.string()));
}

bool is_temp_file_name(const std::string& name) {
  return has_mark(name, kTempMark);
}

bool is_plot_folder_name(const std::string& name) {
  return has_mark(name, kPlotMark);
}

std::string plot_folder_name(const std::string& stem) {
  return fmt::format(".{}{}{}", stem, kPlotMark, random_suffix(kSuffixLetters));
}

void note_written(const fs::path& path) {
  std::error_code ec;
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const fs::path absolute = fs::weakly_canonical(parent, ec) / path.filename();
  if (ec) return;
  const std::lock_guard lock(g_written_mutex);
  written()[absolute.string()] = ++g_writes;
}

std::uint64_t writes_so_far() {
  const std::lock_guard lock(g_written_mutex);
  return g_writes;
}

std::vector<fs::path> written_under(const fs::path& dir, std::uint64_t since) {
  std::error_code ec;
  const std::string prefix = (fs::weakly_canonical(dir, ec) / "").string();
  std::vector<fs::path> out;
  const std::lock_guard lock(g_written_mutex);
  for (auto it = written().lower_bound(prefix); it != written().end() && it->first.starts_with(prefix); ++it)
    if (it->second > since) out.emplace_back(it->first);
  return out;
}

}  // namespace mppnet::io
