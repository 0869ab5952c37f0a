// machines/cm5/register.cpp: what the CM-5 adds to mppnet (registry/registry.hpp). Its data network is
// the generic packet network with a preset; its own models (control network, processors behind the
// network interface, node programs on am/) will register here.
#include "machines/cm5/preset.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cm5 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "cm5",
      .doc = "CM-5 data network: 4-ary fat tree, parent links 2, 2, 4 per level, 2 links per node (note 000 "
             "§2.3.2); machine.preset = \"cm5\", configs/cm5_1024.toml",
      .models = {},
      .presets = {data_network_preset()},
      .validation_cases = nullptr,
      .commands = {},
  });
}

}  // namespace mppnet::machines::cm5
