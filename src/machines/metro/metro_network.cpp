// machines/metro/metro_network.cpp: dispatch over the three METRO topologies.
#include "machines/metro/metro_network.hpp"

#include <type_traits>

namespace mppnet::machines::metro {

static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<int>(Topology::Multibutterfly), MetroNetwork>,
                   MultibutterflyParams> &&
        std::is_same_v<std::variant_alternative_t<static_cast<int>(Topology::FatTree), MetroNetwork>,
                       MetroFatTreeParams> &&
        std::is_same_v<std::variant_alternative_t<static_cast<int>(Topology::HybridFatTree), MetroNetwork>,
                       HybridFatTreeParams>,
    "MetroNetwork's alternatives must follow the order of Topology");

Topology topology_of(const MetroNetwork& n) {
  return static_cast<Topology>(n.index());
}

std::vector<Problem> check(const MetroNetwork& n) {
  return std::visit([](const auto& p) { return check(p); }, n);
}

long long network_nodes(const MetroNetwork& n) {
  return std::visit([](const auto& p) { return network_nodes(p); }, n);
}

std::string describe(const MetroNetwork& n) {
  return std::visit([](const auto& p) { return describe(p); }, n);
}

NetworkGraph build_network_graph(const MetroNetwork& n, std::uint64_t seed, int instance) {
  return std::visit(
      [&](const auto& p) {
        if constexpr (std::is_same_v<std::decay_t<decltype(p)>, MultibutterflyParams>)
          return to_graph(build_instance(p, seed, instance));
        else
          return build_fat_tree(p);
      },
      n);
}

}  // namespace mppnet::machines::metro
