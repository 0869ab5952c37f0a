// fuzz/fuzz_config.hpp: what every fuzz target checks a config with, as `mppnet run` and `mppnet app`
// would before running anything: the model the file names, then that model's loader and checks (the
// generic network's with its [am] and [app] tables). Bad input must end in core::ConfigError; any
// other exception, a crash or a sanitizer report is a finding.
#pragma once

#include <string>
#include <vector>

#include "app/app_commands.hpp"
#include "exp/experiment_config.hpp"
#include "io/config_loader.hpp"
#include "registry/config_command.hpp"
#include "registry/registry.hpp"

namespace mppnet::fuzz {

inline void load_config(const io::ConfigFile& file, const std::vector<std::string>& sets) {
  const std::string model = registry::model_of(file, sets);
  if (model == registry::kNetworkModel) {
    exp::load_experiment(file, sets);
    app::load_app_config(file, sets);
    return;
  }
  const registry::Model* m = registry::machines().find_model(model);
  if (m != nullptr) m->check(file, sets);  // an unknown model is the command's error, before any loader
}

}  // namespace mppnet::fuzz
