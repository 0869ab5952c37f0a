// core/error.hpp: input errors that carry the user's location, and assertions for our own bugs.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace mppnet::core {

// Where a value came from: a file and line, or a command-line flag ("--set", line 0).
struct SourceLocation {
  std::string file;
  int line = 0;
};

// An input problem: bad config, impossible topology, unreadable file. app/ prints what() and exits 2.
// The message reads "file:line: key: reason" (parts that are unknown are left out).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(SourceLocation where, std::string key, std::string reason)
      : std::runtime_error(format(where, key, reason)),
        where_(std::move(where)),
        key_(std::move(key)),
        reason_(std::move(reason)) {}

  const SourceLocation& where() const { return where_; }
  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }

 private:
  static std::string format(const SourceLocation& w, const std::string& key, const std::string& reason) {
    std::string s;
    if (!w.file.empty()) {
      s += w.file;
      if (w.line > 0) s += ":" + std::to_string(w.line);
      s += ": ";
    }
    if (!key.empty()) s += key + ": ";
    return s + reason;
  }
  SourceLocation where_;
  std::string key_;
  std::string reason_;
};

// A run that can never finish: work is left (flits in a network, programs waiting) and nothing has moved
// for the watchdog's period. what() says what is stuck (the blocked input VCs, the waiting programs).
class DeadlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void assertion_failed(const char* cond, const char* msg, const char* file, int line) {
  std::fprintf(stderr, "mppnet internal error: %s (%s) at %s:%d\n", msg, cond, file, line);
  std::abort();
}

}  // namespace mppnet::core

// A state no input can reach. Kept in release builds: a simulator that is wrong is worse than one that stops.
#define MPPNET_ASSERT(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::mppnet::core::assertion_failed(#cond, msg, __FILE__, __LINE__))

// For invariants that hold by construction on a per-flit path (one flit per channel per cycle, credits
// never exceed buffer room): checked in Debug builds, which the test suite also runs under the sanitizers,
// and free in Release.
#ifdef NDEBUG
#define MPPNET_DEBUG_ASSERT(cond, msg) static_cast<void>(0)
#else
#define MPPNET_DEBUG_ASSERT(cond, msg) MPPNET_ASSERT(cond, msg)
#endif
