// machines/cm5/preset_test.cpp: the CM-5 registers its data network as a preset of the generic network.
#include <gtest/gtest.h>

#include "machines/cm5/preset.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {
void register_machine(registry::Registry& registry);

namespace {

TEST(Cm5Registration, AddsTheDataNetworkPresetToTheGenericNetwork) {
  registry::Registry r;
  register_machine(r);
  const auto presets = r.presets_for(registry::kNetworkModel);
  ASSERT_EQ(presets.size(), 1u);
  EXPECT_EQ(presets[0]->name, "cm5");
  EXPECT_EQ(r.machines().at(0).name, "cm5");
}

TEST(Cm5Preset, IsTheFatTreeOfNote000) {
  // Note 000 §2.3.2: 4 children per router, parent links 2, 2, 4 by level, 2 links per node, 40 MHz.
  const registry::Preset p = data_network_preset();
  const io::PresetSets want = {{"topology.kind", "\"fat_tree\""},
                               {"topology.children", "4"},
                               {"topology.parents", "[2, 2, 4]"},
                               {"topology.leaf_links", "2"},
                               {"router.cycle_ps", "25000"}};
  EXPECT_EQ(p.sets, want);
}

}  // namespace
}  // namespace mppnet::machines::cm5
