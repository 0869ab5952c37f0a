// io/journal.cpp: the journal directory of an interruptible run: open or refuse, load, save, remove.
#include "io/journal.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace mppnet::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFingerprint = "fingerprint.json";

// A parsed JSON file, or nullopt when it cannot be read or parsed (a record that is not whole is run
// again rather than trusted).
std::optional<nlohmann::json> read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
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
  std::error_code ec;
  if (fs::exists(dir_ / kFingerprint, ec)) {
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
      const std::string file = entry.path().filename().string();
      // Temp files of a write the kill interrupted start with '.'; they are not records.
      if (file.front() == '.' || file == kFingerprint || entry.path().extension() != ".json") continue;
      if (std::optional<nlohmann::json> record = read_json(entry.path()))
        records_.emplace(entry.path().stem().string(), std::move(*record));
    }
    resumed_ = records_.size();
    return;
  }
  // No fingerprint: no journal, or a kill before the fingerprint landed (no record is written before it).
  fs::remove_all(dir_, ec);
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
  std::error_code ec;
  fs::remove_all(dir_, ec);
  // fs::remove deletes only an empty directory: another command's journal beside this one stays.
  fs::remove(dir_.parent_path(), ec);
}

}  // namespace mppnet::io
