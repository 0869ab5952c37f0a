// topo/k_ary_n_cube.cpp: builds k-ary n-meshes and k-ary n-cubes.
#include "topo/k_ary_n_cube.hpp"

#include "core/error.hpp"

namespace mppnet::topo {

Graph build_k_ary_n_cube(int k, int n, bool wrap) {
  MPPNET_ASSERT(k >= 2 && n >= 1 && (!wrap || k >= 3), "k-ary n-cube parameters were not checked");
  std::int32_t routers = 1;
  for (int d = 0; d < n; ++d) routers *= k;
  static_assert(cube_node_port(2) == 4, "the node port is the last one, as direct_network puts it");
  Graph g = direct_network(routers, 2 * n + 1);
  for (RouterId r = 0; r < routers; ++r) {
    std::int32_t stride = 1;  // k^d: the id distance of one step in dimension d
    for (int d = 0; d < n; ++d, stride *= k) {
      const int c = coordinate(r, d, k);
      RouterId up = -1;
      RouterId down = -1;
      if (c + 1 < k) {
        up = r + stride;
      } else if (wrap) {
        up = r - c * stride;  // k-1 -> 0
      }
      if (c > 0) {
        down = r - stride;
      } else if (wrap) {
        down = r + (k - 1) * stride;  // 0 -> k-1
      }
      // The +1 neighbour reaches r again through its -1 port, and vice versa.
      if (up >= 0) g.ports[g.port_base[r] + plus_port(d)] = {PeerKind::Router, up, minus_port(d)};
      if (down >= 0) g.ports[g.port_base[r] + minus_port(d)] = {PeerKind::Router, down, plus_port(d)};
    }
  }
  return g;
}

}  // namespace mppnet::topo
