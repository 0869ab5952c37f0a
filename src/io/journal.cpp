// io/journal.cpp: the journal directory of an interruptible run: open or refuse, load, save, remove.
#include "io/journal.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <set>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/output_paths.hpp"

namespace mppnet::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFingerprint = "fingerprint.json";

// A parsed JSON file, or nullopt when it cannot be read or parsed (a record that is not whole is run
// again rather than trusted). Only a regular file is read: never a link someone planted.
std::optional<nlohmann::json> read_json(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  try {
    nlohmann::json j =
        nlohmann::json::parse(read_input_file(path, "journal record"), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return std::nullopt;
    return j;
  } catch (const core::ConfigError&) {
    return std::nullopt;
  }
}

// The journal lives in folders of mppnet's own: an existing <out>/.partial or <out>/.partial/<command>
// that is a link or not a folder is refused, never followed (a planted link would make remove() delete
// whatever it points to).
void check_own_folder(const fs::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) return;
  throw core::ConfigError(
      {dir.string(), 0}, "",
      S_ISLNK(st.st_mode) ? "is a symbolic link; mppnet keeps an interrupted run's journal in a folder of "
                            "its own and will not follow a link there: remove the link"
                          : "is not a folder; mppnet keeps an interrupted run's journal there: remove it");
}

// What a journal folder may hold: its fingerprint, records, and temporaries of an interrupted write.
bool is_journal_file(const fs::directory_entry& entry) {
  std::error_code ec;
  if (entry.symlink_status(ec).type() != fs::file_type::regular) return false;
  const std::string name = entry.path().filename().string();
  return name == kFingerprint || is_temp_file_name(name) ||
         (entry.path().extension() == ".json" && name.front() != '.');
}

// Removes the journal's own files and then the folder, never following a link, never touching anything
// else: a folder that still holds something else stays (and says so).
void remove_journal_folder(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_journal_file(entry)) ::unlink(entry.path().c_str());
  if (::rmdir(dir.c_str()) != 0 && errno != ENOENT)
    throw core::ConfigError({dir.string(), 0}, "",
                            fmt::format("holds files mppnet did not write, so it is left in place ({}); "
                                        "remove it to start over",
                                        std::strerror(errno)));
}

std::string cut(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

void diff(const nlohmann::json& a, const nlohmann::json& b, const std::string& path, std::string& out) {
  const std::string here = path.empty() ? "fingerprint" : path;
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, v] : a.items()) keys.insert(k);
    for (const auto& [k, v] : b.items()) keys.insert(k);
    for (const std::string& k : keys) {
      if (!out.empty()) return;
      const std::string at = path.empty() ? k : path + "." + k;
      if (!a.contains(k)) {
        out = fmt::format("{}: absent before, {} now", at, cut(b[k]));
      } else if (!b.contains(k)) {
        out = fmt::format("{}: {} before, absent now", at, cut(a[k]));
      } else {
        diff(a[k], b[k], at, out);
      }
    }
    return;
  }
  if (a.is_array() && b.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()) && out.empty(); ++i)
      diff(a[i], b[i], fmt::format("{}[{}]", here, i), out);
    if (out.empty() && a.size() != b.size())
      out = fmt::format("{}: {} entries before, {} now", here, a.size(), b.size());
    return;
  }
  if (a != b) out = fmt::format("{}: {} before, {} now", here, cut(a), cut(b));
}

}  // namespace

std::string first_difference(const nlohmann::json& before, const nlohmann::json& now) {
  std::string out;
  diff(before, now, "", out);
  return out;
}

Journal::Journal(const fs::path& out, const std::string& command, const nlohmann::json& fingerprint)
    : dir_(out / ".partial" / command) {
  check_own_folder(out / ".partial");
  check_own_folder(dir_);
  struct stat st {};
  if (::lstat((dir_ / kFingerprint).c_str(), &st) == 0) {
    const std::optional<nlohmann::json> before = read_json(dir_ / kFingerprint);
    const std::string change =
        before ? first_difference(*before, fingerprint) : "its fingerprint is unreadable";
    if (!change.empty())
      throw core::ConfigError(
          {dir_.string(), 0}, "",
          fmt::format(
              "left by an interrupted {} with other settings ({}); use another --out, or delete {} to "
              "start over",
              command, change, (out / ".partial").string()));
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (!is_journal_file(entry)) continue;
      const std::string file = entry.path().filename().string();
      // Temp files of a write the kill interrupted start with '.'; they are not records.
      if (file.front() == '.' || file == kFingerprint || entry.path().extension() != ".json") {
        if (is_temp_file_name(file)) ::unlink(entry.path().c_str());
        continue;
      }
      if (std::optional<nlohmann::json> record = read_json(entry.path()))
        records_.emplace(entry.path().stem().string(), std::move(*record));
    }
    resumed_ = records_.size();
    return;
  }
  // No fingerprint: no journal, or a kill before the fingerprint landed (no record is written before it).
  if (::lstat(dir_.c_str(), &st) == 0) remove_journal_folder(dir_);
  write_file_atomically(dir_ / kFingerprint, fingerprint.dump(2) + "\n");
}

const nlohmann::json* Journal::find(const std::string& name) const {
  const auto it = records_.find(name);
  return it == records_.end() ? nullptr : &it->second;
}

void Journal::save(const std::string& name, const nlohmann::json& record) {
  write_file_atomically(dir_ / (name + ".json"), record.dump() + "\n");
  records_.insert_or_assign(name, record);
}

void Journal::remove() {
  remove_journal_folder(dir_);
  // rmdir deletes only an empty folder: another command's journal beside this one stays.
  ::rmdir(dir_.parent_path().c_str());
}

}  // namespace mppnet::io
