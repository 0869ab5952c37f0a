// workload/apps/app_params.hpp: the parameters of the applications ([app] table), one group per app.
#pragma once

namespace mppnet::workload::apps {

struct AppParams {
  // alltoall: every node sends this many bytes to every other node.
  int alltoall_bytes = 64;
  // counter: fetch-and-add operations per node, on a counter held by node counter_home.
  int counter_increments = 8;
  int counter_home = 0;
};

}  // namespace mppnet::workload::apps
