// topo/registry.cpp: the registered topologies, looked up by name.
//
// Why a generated list rather than self-registration: a topology that registered itself from a static
// initialiser in its own .cpp would vanish from any binary that references nothing else in that file,
// because the topo library is a static archive and the linker keeps only the object files it needs. The
// build writes registered_topologies() (CMakeLists.txt, "Topologies") from every
// `inline constexpr TopologyInfo k<Name>Topology` in topo/*.hpp, so each is referenced, and linked,
// whenever anything asks for a topology.
#include <algorithm>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "topo/topology.hpp"

namespace mppnet::topo {

// Generated (build/generated/topology_list.cpp): every k<Name>Topology, in file order.
std::span<const TopologyInfo* const> registered_topologies();

std::span<const TopologyInfo* const> topologies() {
  static const std::vector<const TopologyInfo*> sorted = [] {
    const auto all = registered_topologies();
    std::vector<const TopologyInfo*> v(all.begin(), all.end());
    std::sort(v.begin(), v.end(), [](const TopologyInfo* a, const TopologyInfo* b) {
      return std::string_view(a->name) < b->name;
    });
    for (std::size_t i = 1; i < v.size(); ++i)
      MPPNET_ASSERT(std::string_view(v[i - 1]->name) != v[i]->name, "two topologies register one name");
    return v;
  }();
  return sorted;
}

const TopologyInfo* find_topology(std::string_view name) {
  for (const TopologyInfo* t : topologies())
    if (name == t->name) return t;
  return nullptr;
}

const TopologyInfo& topology(std::string_view name) {
  const TopologyInfo* t = find_topology(name);
  MPPNET_ASSERT(t != nullptr, "topology.kind names no registered topology");
  return *t;
}

}  // namespace mppnet::topo
