// workload/apps/stencil.hpp: the stencils with the values they computed, for tests.
#pragma once

#include <cstdint>
#include <vector>

#include "am/simulated_machine.hpp"
#include "workload/apps/app_params.hpp"
#include "workload/apps/registry.hpp"

namespace mppnet::workload::apps {

struct StencilRun {
  AppResult result;
  // The global grid's cells after the iterations, as the nodes computed them: x fastest, then y, then z
  // (grid size nodes-per-axis x app.stencil_edge per axis).
  std::vector<double> cells;
};

// run_stencil2d (dims = 2) or run_stencil3d (dims = 3), also returning the cells.
StencilRun run_stencil_cells(am::Machine& m, const AppParams& params, std::uint64_t seed, int dims,
                             const ProgressSink& progress = {});

}  // namespace mppnet::workload::apps
