// machines/cns1/register.cpp: what the CNS-1 with T1 nodes adds to mppnet (registry/registry.hpp): the
// model "t1" (one MIPS program on every node of the mesh, `mppnet run`) and the validation cases t1.*
// (docs/t1.md). The machine is named after its node, the T1, whose document the cases come from.
#include "machines/cns1/t1_config.hpp"
#include "machines/cns1/t1_run_command.hpp"
#include "machines/cns1/validation.hpp"
#include "registry/registry.hpp"

namespace mppnet::machines::cns1 {

void register_machine(registry::Registry& registry) {
  registry.add({
      .name = "t1",
      .doc = "T1 nodes (MIPS-II with the Active Messages NI) on the CNS-1 mesh: configs/t1-16.toml "
             "(machine.model = \"t1\")",
      .models = {{
          .name = "t1",
          .title = "t1: T1 nodes on the CNS-1 mesh (machine.model = \"t1\", configs/t1-16.toml)",
          .keys = t1_key_list,
          .check = [](const io::ConfigFile& file,
                      const std::vector<std::string>& sets) { load_t1(file, sets); },
          .run = t1_run_command,
      }},
      .presets = {},
      .validation_cases = t1_validation_cases,
      .commands = {},
  });
}

}  // namespace mppnet::machines::cns1
