// core/problem.hpp: one reason a set of parameters cannot be built, the result of every build check.
//
// Each layer's check() (topology, traffic, METRO networks) returns every reason at once; the caller turns
// each into a core::ConfigError located where the key was set (io::fail_at).
#pragma once

#include <string>

namespace mppnet::core {

struct Problem {
  std::string key;  // the config key at fault, e.g. "topology.k"
  std::string reason;
};

}  // namespace mppnet::core
