// app/model.hpp: which simulation model a config file describes, from its [machine] model key.
#pragma once

#include <string>
#include <vector>

namespace mppnet::app {

// "network" (the generic packet network, the default when the key is absent), "cm1" or "metro". A
// `--set machine.model=...` among `sets` wins. A file that cannot be read or parsed gives "network",
// whose loader then reports the problem with its location.
std::string config_model(const std::string& path, const std::vector<std::string>& sets);

}  // namespace mppnet::app
