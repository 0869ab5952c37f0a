// workload/apps/processor_grid.hpp: the nodes as a near-square or near-cube grid, for the stencils.
#pragma once

#include <array>

#include "core/types.hpp"

namespace mppnet::workload::apps {

// Node id = x + size[0] * (y + size[1] * z); size[2] = 1 in 2-D.
struct ProcessorGrid {
  int dims = 2;
  std::array<int, 3> size{1, 1, 1};

  std::array<int, 3> coordinates(NodeId v) const {
    return {v % size[0], v / size[0] % size[1], v / size[0] / size[1]};
  }
  // The node one step (-1 or +1) along axis from v, or -1 past the edge of the grid (no wrap).
  NodeId neighbour(NodeId v, int axis, int step) const {
    std::array<int, 3> c = coordinates(v);
    c[axis] += step;
    if (c[axis] < 0 || c[axis] >= size[axis]) return -1;
    return c[0] + size[0] * (c[1] + size[1] * c[2]);
  }
};

// The factorisation of `nodes` into `dims` (2 or 3) factors that is closest to square or cube: the
// smallest factor is the largest divisor d with d^dims <= nodes, and so on for the rest; the largest
// factor is size[0]. 16 -> 4 x 4 and 4 x 2 x 2, 36 -> 6 x 6 and 4 x 3 x 3, 128 -> 16 x 8 and 8 x 4 x 4.
inline ProcessorGrid processor_grid(int nodes, int dims) {
  ProcessorGrid g;
  g.dims = dims;
  int rest = nodes;
  for (int axis = dims - 1; axis > 0; --axis) {
    const int share = axis + 1;  // factors still to choose, this one included
    int best = 1;
    for (int d = 1; d <= rest; ++d) {
      long long power = 1;
      for (int i = 0; i < share; ++i) power *= d;
      if (power > rest) break;
      if (rest % d == 0) best = d;
    }
    g.size[axis] = best;
    rest /= best;
  }
  g.size[0] = rest;
  return g;
}

}  // namespace mppnet::workload::apps
