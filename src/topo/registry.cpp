// topo/registry.cpp: the table of registered topologies.
//
// Why an explicit table rather than self-registration: a topology that registered itself from a static
// initialiser in its own .cpp would vanish from any binary that references nothing else in that file,
// because the topo library is a static archive and the linker keeps only the object files it needs. This
// table names every topology's TopologyInfo, so all of them are linked whenever anything asks for a
// topology; it is checked at compile time (kinds in enum order), and it is the only list of topologies.
// Adding one: its file pair, its enumerator in TopologyKind, and one line here (docs/design.md).
#include <array>

#include "core/error.hpp"
#include "topo/dragonfly.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/k_ary_n_cube.hpp"
#include "topo/topology.hpp"

namespace mppnet::topo {

namespace {

constexpr std::array<const TopologyInfo*, 5> kTopologies = {
    &kMeshTopology, &kTorusTopology, &kHypercubeTopology, &kFatTreeTopology, &kDragonflyTopology,
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kTopologies.size(); ++i)
    if (static_cast<std::size_t>(kTopologies[i]->kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kTopologies[i] must register TopologyKind i");
static_assert(static_cast<std::size_t>(TopologyKind::Dragonfly) + 1 == kTopologies.size(),
              "every TopologyKind is registered (the last enumerator is the last entry)");

}  // namespace

std::span<const TopologyInfo* const> topologies() {
  return kTopologies;
}

const TopologyInfo& topology(TopologyKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  MPPNET_ASSERT(i < kTopologies.size(), "topology kind out of range");
  return *kTopologies[i];
}

}  // namespace mppnet::topo
