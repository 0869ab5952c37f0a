// topo/topology_params.hpp: what a topology can be told (filled from the [topology] config table).
//
// TopologyParams names the topology and holds the [topology] keys that were set, by name. It knows no
// topology: each one declares its own keys on its own parameter struct (KAryNCubeParams, FatTreeParams,
// ..., in the topology's header) and reads that struct from here (topo/topology_keys.hpp); a key left
// unset takes that struct's default. So a new topology adds its keys without editing this file, the
// config loader or any key table.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "io/value.hpp"

namespace mppnet::topo {

struct TopologyParams {
  std::string kind = "fat_tree";  // a registered topology's name (topo/topology.hpp)
  // Key name without the section ("k", "parents") -> checked value.
  std::map<std::string, io::Value, std::less<>> values;

  const io::Value* find(std::string_view key) const {
    const auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
  }
  bool operator==(const TopologyParams&) const = default;
};

}  // namespace mppnet::topo
