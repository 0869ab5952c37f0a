// am/am_test_util.hpp: small networks for the am tests (test-only header).
#pragma once

#include <memory>

#include "am/simulated_machine.hpp"
#include "topo/params_for_test.hpp"

namespace mppnet::am::testing {

inline topo::TopologyParams mesh(int k, int n = 2) {
  return topo::testing::mesh(k, n);
}

// 1 VC per virtual network and 1-cycle routers and channels, unless changed.
inline net::RouterParams router(int vcs, int buffer_flits = 8) {
  net::RouterParams r;
  r.vcs = vcs;
  r.buffer_flits = buffer_flits;
  r.cycle_ps = 10000;
  return r;
}

inline std::unique_ptr<SimulatedMachine> make(const topo::TopologyParams& t, const net::RouterParams& r,
                                              const AmParams& a, std::uint64_t seed = 1,
                                              std::int64_t watchdog = 2000) {
  return std::make_unique<SimulatedMachine>(t, r, a, seed, watchdog);
}

}  // namespace mppnet::am::testing
