// workload/apps/app_keys.hpp: the declared keys of the [app] table.
#pragma once

#include <vector>

#include "io/key_table.hpp"
#include "workload/apps/app_params.hpp"

namespace mppnet::workload::apps {

// Unprefixed ("alltoall_bytes"); lift with io::section("app", ...).
std::vector<io::Key<AppParams>> app_keys();

}  // namespace mppnet::workload::apps
