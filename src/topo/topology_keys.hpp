// topo/topology_keys.hpp: the [topology] keys, declared by each topology on its own parameter struct.
//
// A topology declares its keys with io::key on its own struct (FatTreeParams::children, ...) in a
// TopologyKeys<P>, reads its struct from a TopologyParams with read(), and lists its keys in its
// TopologyInfo. The [topology] table of the config is `kind` plus every registered topology's keys:
// a name two topologies share ("n") is one key, whose doc says what it means to each of them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/key_table.hpp"
#include "topo/problem.hpp"
#include "topo/topology_params.hpp"

namespace mppnet::topo {

// One key a topology reads: its declaration (name without the section, doc in lower case without a
// final period, e.g. "routers per dimension") and its default.
struct TopologyKey {
  io::KeySpec spec;
  io::Value default_value;
};

// The keys of one topology, declared on its parameter struct P.
template <class P>
class TopologyKeys {
 public:
  explicit TopologyKeys(std::vector<io::Key<P>> keys) : keys_(std::move(keys)) {}

  // P{} with every key that `t` sets. REQUIRES: the values passed their keys' checks.
  P read(const TopologyParams& t) const {
    P p{};
    for (const auto& k : keys_)
      if (const io::Value* v = t.find(k.spec.name)) k.store(p, *v);
    return p;
  }
  // The [topology] table that reads back as `p`: `kind` and every key.
  TopologyParams write(std::string kind, const P& p) const {
    TopologyParams t{.kind = std::move(kind), .values = {}};
    for (const auto& k : keys_) t.values[k.spec.name] = k.load(p);
    return t;
  }
  // Every key with its default, P{}'s.
  std::vector<TopologyKey> list() const {
    const P defaults{};
    std::vector<TopologyKey> out;
    for (const auto& k : keys_) out.push_back({k.spec, k.load(defaults)});
    return out;
  }

 private:
  std::vector<io::Key<P>> keys_;
};

// The keys of the [topology] table (without the section in their names): `kind`, then every registered
// topology's keys, each name once. A key not set reads as its default. For io::section("topology", ...).
std::vector<io::Key<TopologyParams>> topology_config_keys();

// Problems with `p`'s kind and keys: an unregistered kind, or a key set that the kind does not read
// ("topology.children: a mesh has no key children; its keys: k, n").
void check_kind_and_keys(const TopologyParams& p, std::vector<Problem>& out);

// "fat_tree (n = 3, children = 4, parents = [], leaf_links = 1, up_routing = random_free)": every key
// of the kind, set or default, for messages and test output.
std::string describe(const TopologyParams& p);

}  // namespace mppnet::topo
