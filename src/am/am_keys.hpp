// am/am_keys.hpp: the declared keys of the [am] table (the software cost model).
#pragma once

#include <vector>

#include "am/am_params.hpp"
#include "io/key_table.hpp"

namespace mppnet::am {

// The keys of AmParams, unprefixed ("clock_ps"); lift them with io::section("am", ...).
std::vector<io::Key<AmParams>> am_keys();

}  // namespace mppnet::am
