// topo/problem.hpp: one reason a topology cannot be built, naming the config key at fault.
#pragma once

#include <string>

namespace mppnet::topo {

struct Problem {
  std::string key;  // "topology.k", "router.vcs", ...
  std::string reason;
};

}  // namespace mppnet::topo
