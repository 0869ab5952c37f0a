// machines/cm5/preset.cpp: the CM-5 data network's shape and clock, as keys of the generic network.
#include "machines/cm5/preset.hpp"

namespace mppnet::machines::cm5 {

registry::Preset data_network_preset() {
  // The CM-5 data network as reconstructed in note 000 §2.3.2: a 4-ary fat tree whose router chips
  // have 2 parent links at levels 1 and 2 and 4 above, with 2 network links per node.
  return {
      .model = std::string(registry::kNetworkModel),
      .name = "cm5",
      .doc =
          "CM-5 data network: 4-ary fat tree, parent links 2, 2, 4 per level, 2 links per node (note 000 "
          "§2.3.2).",
      .sets =
          {
              {"topology.kind", "\"fat_tree\""},
              {"topology.children", "4"},
              {"topology.parents", "[2, 2, 4]"},
              {"topology.leaf_links", "2"},
              {"router.cycle_ps", "25000"},  // 40 MHz (note 000 §2.3.3)
          },
  };
}

}  // namespace mppnet::machines::cm5
