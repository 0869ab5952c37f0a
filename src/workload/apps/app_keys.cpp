// workload/apps/app_keys.cpp: one declaration per field of AppParams.
#include "workload/apps/app_keys.hpp"

namespace mppnet::workload::apps {

std::vector<io::Key<AppParams>> app_keys() {
  using io::in_range;
  using io::key;
  return {
      key("alltoall_bytes", &AppParams::alltoall_bytes, in_range(1, 1 << 20),
          "alltoall: bytes every node sends to every other node."),
      key("counter_increments", &AppParams::counter_increments, in_range(1, 1 << 20),
          "counter: fetch-and-add operations per node."),
      key("counter_home", &AppParams::counter_home, in_range(0, 1 << 22),
          "counter: the node that holds the shared counter."),
  };
}

}  // namespace mppnet::workload::apps
