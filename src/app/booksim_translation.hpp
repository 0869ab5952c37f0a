// app/booksim_translation.hpp: the state of one BookSim-to-mppnet translation, shared by the files that
// translate its parts (booksim_network.cpp: topology and router; booksim_import.cpp: traffic, the run
// and the keys left over). Only those two files include it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/booksim_file.hpp"
#include "app/booksim_import.hpp"

namespace mppnet::app::booksim {

std::string toml_real(double v);
std::string quoted(const std::string& s);

class Translation {
 public:
  Translation(const std::string& text, const std::string& file) : file_(file) {
    BooksimFile read = read_booksim_file(text, file);
    settings_ = std::move(read.settings);
    errors_ = std::move(read.errors);
  }

  BooksimImport run();

 private:
  const std::string& value(const std::string& key) {
    used_.insert(key);
    if (read_since_set_.empty()) read_since_set_ = key;
    return settings_.at(key).value;
  }
  long long integer(const std::string& key);
  double real(const std::string& key);
  // A value or {a,b,...} list of positive numbers (T = long long: whole ones); empty, with the key
  // rejected, when it is not one.
  template <typename T>
  std::vector<T> numbers(const std::string& key);
  // Records that `key` (its value as read) has no meaning in mppnet.
  void reject(const std::string& key, const std::string& why) {
    used_.insert(key);
    const BooksimSetting& s = settings_.count(key) ? settings_.at(key) : BooksimSetting{};
    errors_.push_back(s.line > 0
                          ? fmt::format("{}:{}: {}: {}", file_, s.line, key, why)
                          : fmt::format("{}: {} (BookSim's default {}): {}", file_, key, s.value, why));
  }
  // The key must keep the value BookSim's default gives it: mppnet models only that behaviour.
  void require(const std::string& key, const std::string& want, const std::string& why) {
    if (!same_booksim_value(value(key), want))
      reject(key, fmt::format("{} = {}: {}", key, settings_.at(key).value, why));
  }
  // A one-line note in the generated file's header, on a key the file sets.
  void note(const std::string& key, const std::string& what) {
    const BooksimSetting& s = settings_.at(key);
    notes_.push_back(s.line > 0 ? fmt::format("{} (line {}): {}", key, s.line, what)
                                : fmt::format("{} (BookSim's default {}): {}", key, s.value, what));
  }
  // Keys the file sets that the translation did not read: notes, refusals and defaults.
  void unread_keys();
  // Writes `key` (in `section`) of the mppnet config. The first BookSim key read since the previous
  // set() is the one it comes from (the value is computed from it in the call), for errors on it.
  void set(const std::string& section, const std::string& key, const std::string& toml) {
    sections_[section].push_back(key + " = " + toml);
    from_[section + "." + key] = read_since_set_;
    read_since_set_.clear();
  }
  // The mppnet config must load: a value its checks refuse (num_vcs = 0, a network too large for the
  // host) is an error on the BookSim key it came from.
  void check_translation(const std::string& toml);
  void topology();
  void cmesh(const std::string& routing);
  void router(int channel_latency);
  void traffic();
  void run_keys();
  int channel_latency();

  std::string file_;
  std::map<std::string, BooksimSetting> settings_;
  std::set<std::string> used_;
  std::vector<std::string> errors_, notes_, ignored_, at_default_;
  std::map<std::string, std::vector<std::string>> sections_;
  std::map<std::string, std::string> from_;  // mppnet key -> the BookSim key it was computed from
  std::string read_since_set_;
  double offered_flits_ = 0;  // flits per node and cycle that BookSim's injection_rate offers
};

}  // namespace mppnet::app::booksim
