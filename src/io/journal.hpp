// io/journal.hpp: the finished parts of a long run, kept on disk as they finish so that a rerun of the
// same command into the same output directory skips them.
//
// A journal is the directory <out>/.partial/<command>/: `fingerprint.json` (everything the results depend
// on: the resolved config, the command's own arguments, the mppnet version) and one small JSON record per
// finished part, each written atomically (temp file, fsync, rename). A kill at any moment leaves whole
// records or none; a temp file it leaves behind is ignored. The command removes the journal once its
// final files are written, so a journal on disk always means an interrupted run.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace mppnet::io {

class Journal {
 public:
  // Opens the journal of `command` under `out` (<out>/.partial/<command>/). When one exists with the same
  // fingerprint, its records are loaded; when it has another fingerprint, throws core::ConfigError naming
  // the journal, the first difference and the way out (another --out, or delete the journal): results of
  // two configs are never mixed. Otherwise a new journal is created with this fingerprint.
  // REQUIRES: `command` is a plain name (no '/').
  Journal(const std::filesystem::path& out, const std::string& command, const nlohmann::json& fingerprint);

  // The record saved under `name` by this run or the interrupted one, if any.
  const nlohmann::json* find(const std::string& name) const;
  // The record under `name` as `decode` reads it, or nullopt when there is none or it does not decode
  // (a record edited by hand or cut short: that part is run again, never reported as a raw exception).
  template <class Decode>
  auto decoded(const std::string& name, Decode decode) const
      -> std::optional<decltype(decode(std::declval<const nlohmann::json&>()))> {
    const nlohmann::json* record = find(name);
    if (record == nullptr) return std::nullopt;
    try {
      return decode(*record);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  // Writes `record` durably as <dir>/<name>.json. REQUIRES: `name` is a plain file name without ".json".
  void save(const std::string& name, const nlohmann::json& record);
  // Records the interrupted run left (found when the journal was opened).
  std::size_t resumed() const { return resumed_; }
  const std::filesystem::path& dir() const { return dir_; }
  // Deletes the journal (and <out>/.partial when no other command's journal is left in it). Call once the
  // final files are written.
  void remove();

 private:
  std::filesystem::path dir_;
  std::map<std::string, nlohmann::json> records_;
  std::size_t resumed_ = 0;
};

// Where two JSON documents first differ, in key order, as "config.traffic.rate: 0.1 before, 0.2 now"
// (values longer than 40 characters are cut); empty when they are equal.
std::string first_difference(const nlohmann::json& before, const nlohmann::json& now);

}  // namespace mppnet::io
