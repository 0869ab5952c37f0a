// workload/apps/registry.cpp: the list of applications.
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

const std::vector<AppInfo>& applications() {
  static const std::vector<AppInfo> list = {
      {"alltoall",
       "All-to-all personalised exchange: every node stores a distinct block in every other node.",
       {"app.alltoall_bytes"},
       &run_alltoall},
      {"counter",
       "Shared counter: every node fetch-and-adds 1 on one node's counter, one request at a time.",
       {"app.counter_increments", "app.counter_home"},
       &run_shared_counter},
  };
  return list;
}

const AppInfo* find_application(std::string_view name) {
  for (const auto& a : applications())
    if (a.name == name) return &a;
  return nullptr;
}

AppResult run_application(const AppInfo& app, const topo::TopologyParams& topology,
                          const net::RouterParams& router, const am::AmParams& am, const AppParams& params,
                          std::uint64_t seed, std::int64_t watchdog_cycles) {
  am::SimulatedMachine sim(topology, router, am, seed, watchdog_cycles);
  AppResult r = app.run(sim, params);
  r.nodes = sim.machine.nodes();
  r.totals = sim.machine.totals();
  return r;
}

}  // namespace mppnet::workload::apps
