// core/error_testing.hpp: for tests: the message of the ConfigError a call throws.
#pragma once

#include <string>

#include "core/error.hpp"

namespace mppnet::core {

// The message of the ConfigError that `f` throws, or "" when it throws none. Tests compare it with the
// exact line a user would see.
template <class F>
std::string config_error_of(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace mppnet::core
