// io/output_directory.cpp: checking, locking and cleaning a command's output folder, and its record of files.
#include "io/output_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/output_paths.hpp"

namespace mppnet::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse_output(const fs::path& where, const std::string& why) {
  throw core::ConfigError({where.string(), 0}, "", why);
}

// A plot folder a killed run left: only the regular files mppnet put there, then the folder itself.
void remove_plot_folder(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.symlink_status(ec).type() == fs::file_type::regular) ::unlink(entry.path().c_str());
  ::rmdir(dir.c_str());
}

// Leftovers of a killed run (mppnet's temporaries and plot folders) are removed; an entry that is not a
// regular file, a folder or a link to a folder is refused, since a result written there would destroy it.
void clean_and_check(const fs::path& dir, bool remove_leftovers) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode) && is_temp_file_name(name)) {
      if (remove_leftovers) ::unlink(entry.path().c_str());
    } else if (S_ISDIR(st.st_mode) && is_plot_folder_name(name)) {
      if (remove_leftovers) remove_plot_folder(entry.path());
    } else if (S_ISLNK(st.st_mode)) {
      struct stat to {};
      if (name == ".partial" || ::stat(entry.path().c_str(), &to) != 0 || !S_ISDIR(to.st_mode))
        check_output_target(entry.path());  // refuses, naming the link
    } else if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      check_output_target(entry.path());  // refuses, naming the kind
    }
  }
}

std::vector<std::string> read_record(const fs::path& file) {
  std::vector<std::string> files;
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return files;
  try {
    const nlohmann::json j = nlohmann::json::parse(read_input_file(file, "the record of a run's files"));
    for (const auto& f : j.at("files")) files.push_back(f.get<std::string>());
  } catch (const std::exception&) {
    files.clear();  // an unreadable record lists nothing: nothing is removed on its word
  }
  return files;
}

// A name a record may list: relative, inside the folder, not the journal's, not a record.
bool is_recordable(const fs::path& relative) {
  if (relative.empty() || relative.is_absolute()) return false;
  for (const fs::path& part : relative)
    if (part == ".." || part == ".partial") return false;
  return relative.filename() != kFilesRecordName;
}

}  // namespace

OutputDirectory::OutputDirectory(fs::path dir, Files files) : dir_(std::move(dir)), files_(files) {
  if (dir_.empty()) refuse_output(dir_, "an empty path names no output folder");
  struct stat st {};
  if (::stat(dir_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    refuse_output(dir_, "is not a folder; an output path (--out) names a folder for the results");
  created_ = ::lstat(dir_.c_str(), &st) != 0;
  prepare_output_directory(dir_);
  std::error_code ec;
  resolved_ = fs::canonical(dir_, ec);
  if (ec) refuse_output(dir_, fmt::format("cannot resolve the folder's path: {}", ec.message()));

  bool locked = true;
  lock_fd_ = ::open(resolved_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ < 0) refuse_output(dir_, fmt::format("cannot open the folder: {}", std::strerror(errno)));
  while (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) {
      ::close(lock_fd_);
      lock_fd_ = -1;
      refuse_output(dir_,
                    "another mppnet run is writing into this folder now; wait for it to finish, or choose "
                    "another --out");
    }
    // A file system without locks (some network file systems: ENOLCK, EOPNOTSUPP): the run goes on
    // unlocked, as it would have before locks existed, rather than refuse every folder there; it then
    // leaves temporaries alone, since they may be another run's.
    locked = false;
    break;
  }
  try {
    clean_and_check(resolved_, locked);
  } catch (...) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw;
  }
  earlier_files_ = read_record(resolved_ / kFilesRecordName);
  writes_at_start_ = writes_so_far();
  exceptions_at_start_ = std::uncaught_exceptions();
}

OutputDirectory::~OutputDirectory() {
  try {
    finish(std::uncaught_exceptions() <= exceptions_at_start_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mppnet: note: %s\n", e.what());
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);
  std::error_code ec;
  if (created_ && fs::is_empty(dir_, ec) && !ec) fs::remove(dir_, ec);
}

namespace {

// The files this run wrote under `dir` (relative names), regular files only.
std::set<std::string> files_written(const fs::path& dir, long long writes_at_start) {
  std::set<std::string> now;
  for (const fs::path& p : written_under(dir, writes_at_start)) {
    const fs::path relative = p.lexically_relative(dir);
    struct stat st {};
    if (is_recordable(relative) && ::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      now.insert(relative.string());
  }
  return now;
}

bool is_plain_file(const fs::path& file) {
  struct stat st {};
  return ::lstat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Removes `file`, an earlier run's regular file, when it is reached through no link (a record planted
// beside a link to another folder must not reach there). False when it stays.
bool remove_earlier_file(const fs::path& file) {
  std::error_code ec;
  if (fs::canonical(file.parent_path(), ec) != file.parent_path().lexically_normal() || ec) return false;
  return ::unlink(file.c_str()) == 0;
}

// A nested folder the earlier run made (a sweep's point) goes too once nothing but its record is left,
// and so on up to `top`.
void remove_emptied_folders(const fs::path& file, const fs::path& top) {
  for (fs::path parent = file.parent_path(); parent != top && parent.string().size() > top.string().size();
       parent = parent.parent_path()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(parent, ec))
      if (e.path().filename() != kFilesRecordName) return;
    if (ec) return;
    ::unlink((parent / kFilesRecordName).c_str());
    if (::rmdir(parent.c_str()) != 0) return;
  }
}

void say_removed(const std::vector<std::string>& removed, const fs::path& dir) {
  if (removed.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < removed.size() && i < 5; ++i) list += (i > 0 ? ", " : "") + removed[i];
  if (removed.size() > 5) list += fmt::format(" and {} more", removed.size() - 5);
  std::fprintf(stderr, "mppnet: removed %zu file(s) an earlier run wrote into %s that this run did not: %s\n",
               removed.size(), dir.string().c_str(), list.c_str());
}

void write_record(const fs::path& record_file, const std::set<std::string>& record) {
  if (record.empty()) {
    if (is_plain_file(record_file)) ::unlink(record_file.c_str());
    return;
  }
  nlohmann::json j;
  j["files"] = std::vector<std::string>(record.begin(), record.end());
  // A name that is not UTF-8 is written with replacement characters: it then matches no file, so the
  // next run leaves that file alone rather than guess.
  write_file_atomically(record_file, j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace

void OutputDirectory::finish(bool normal_end) {
  const std::set<std::string> now = files_written(resolved_, writes_at_start_);
  std::set<std::string> record = now;
  std::vector<std::string> removed;
  const bool replace = normal_end && files_ != Files::AddToEarlierRun;
  for (const std::string& name : earlier_files_) {
    if (now.count(name) != 0 || !is_recordable(name)) continue;
    const fs::path file = resolved_ / name;
    if (!is_plain_file(file)) continue;  // gone, or not ours now: forgotten
    if (replace && remove_earlier_file(file)) {
      removed.push_back(name);
      remove_emptied_folders(file, resolved_);
    } else {
      record.insert(name);
    }
  }
  say_removed(removed, dir_);
  write_record(resolved_ / kFilesRecordName, record);
}

}  // namespace mppnet::io
