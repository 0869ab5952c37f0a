// topo/k_ary_n_cube.hpp: k-ary n-meshes and k-ary n-cubes (tori): coordinates and the graph builder.
//
// Router id = sum_d coord_d * k^d; node id == router id, one node per router. Port 2d goes to +1 in
// dimension d and port 2d+1 to -1; port 2n attaches the node (node link 0). On a mesh the edge ports
// that lead nowhere are PeerKind::None; on a torus they wrap between coordinates k-1 and 0.
#pragma once

#include <cstdint>

#include "topo/graph.hpp"

namespace mppnet::topo {

// Coordinate of `id` in dimension `dim`. REQUIRES: k >= 2, 0 <= dim, id >= 0.
constexpr int coordinate(std::int32_t id, int dim, int k) {
  for (int d = 0; d < dim; ++d) id /= k;
  return id % k;
}

constexpr PortId plus_port(int dim) {
  return 2 * dim;
}
constexpr PortId minus_port(int dim) {
  return 2 * dim + 1;
}
constexpr PortId cube_node_port(int n) {
  return 2 * n;
}

// REQUIRES: k >= 2 (k >= 3 when wrap), n >= 1, k^n within check()'s node cap.
Graph build_k_ary_n_cube(int k, int n, bool wrap);

}  // namespace mppnet::topo
