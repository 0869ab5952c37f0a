// machines/cs2/elite_topology.cpp: the shape and the graph of one CS-2 layer (elite_topology.hpp).
#include "machines/cs2/elite_topology.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::cs2 {

LayerShape::LayerShape(int pes, Doubling doubling) : pes_(pes), doubling_(doubling) {
  MPPNET_ASSERT(layer_problem(pes).empty(), "a CS-2 layer size that was not checked");
  // The smallest size holding the PEs: a size holds 2^(size-2)+1 .. 2^size (L304-L305), so every count
  // from 2 up is held by exactly one smallest size, in either reading of the odd sizes.
  size_ = 2;
  while ((std::int64_t{1} << size_) < pes) ++size_;
  stages_ = size_ / 2;  // "[size/2]" read as floor (note §6 #2): doubling adds no stage
  stage_base_[1] = 0;
  for (int st = 1; st <= stages_; ++st) stage_base_[st + 1] = stage_base_[st] + switches(st);
}

std::int64_t LayerShape::identifiers(int st) const {
  if (st == stages_ && !back_to_back()) return 1;
  const std::int64_t span = std::int64_t{1} << (2 * st);  // PEs under one identifier
  return (pes_ + span - 1) / span;
}

std::int64_t LayerShape::switches() const {
  return stage_base_[stages_ + 1];
}

bool LayerShape::exists(const SwitchId& s) const {
  return s.st >= 1 && s.st <= stages_ && s.P >= 0 && s.P < identifiers(s.st) && s.Q >= 0 &&
         s.Q < planes(s.st);
}

RouterId LayerShape::router(const SwitchId& s) const {
  MPPNET_ASSERT(exists(s), "a switch the layer does not have");
  return static_cast<RouterId>(stage_base_[s.st] + s.P * planes(s.st) + s.Q);
}

SwitchId LayerShape::switch_of(RouterId r) const {
  int st = 1;
  while (r >= stage_base_[st + 1]) ++st;
  const std::int64_t i = r - stage_base_[st];
  return {st, i / planes(st), i % planes(st)};
}

std::string layer_problem(int pes) {
  if (pes < kMinPes) return fmt::format("the CS-2 needs at least {} PEs (got {})", kMinPes, pes);
  if (pes > kMaxPes)
    return fmt::format("at most {} PEs (size 14, 7 stages) are modelled (got {})", kMaxPes, pes);
  return "";
}

topo::Graph build_layer(const LayerShape& shape) {
  const int k = shape.stages();
  const auto routers = static_cast<int>(shape.switches());
  topo::Graph g;
  g.num_nodes = shape.pes();
  g.links_per_node = 1;
  g.port_base.resize(routers + 1);
  for (int r = 0; r <= routers; ++r) g.port_base[r] = r * kElitePorts;
  g.ports.resize(static_cast<std::size_t>(routers) * kElitePorts);
  g.node_links.resize(shape.pes());
  auto connect = [&g](RouterId a, PortId pa, RouterId b, PortId pb) {
    g.ports[g.port_base[a] + pa] = {topo::PeerKind::Router, b, pb};
    g.ports[g.port_base[b] + pb] = {topo::PeerKind::Router, a, pa};
  };
  for (NodeId x = 0; x < shape.pes(); ++x) {
    const RouterId r = shape.router({1, shape.prefix(x, 1), 0});
    const PortId p = shape.digit(x, 0);
    g.ports[g.port_base[r] + p] = {topo::PeerKind::Node, x, 0};
    g.node_links[x] = {r, p};
  }
  for (int st = 1; st < k; ++st) {
    const bool to_top = st + 1 == k;
    for (std::int64_t P = 0; P < shape.identifiers(st); ++P)
      for (std::int64_t Q = 0; Q < shape.planes(st); ++Q)
        for (int u = 0; u < 4; ++u) {
          const SwitchId parent{st + 1, to_top && shape.eight_way_top() ? 0 : P / 4,
                                Q + u * shape.planes(st)};
          const auto down = static_cast<PortId>(to_top && shape.eight_way_top() ? P : P % 4);
          connect(shape.router({st, P, Q}), 4 + u, shape.router(parent), down);
        }
  }
  if (shape.back_to_back() && shape.identifiers(k) == 2) {
    // The two halves' free top links joined pairwise (reading C): link v of plane Q to link v of plane Q.
    for (std::int64_t Q = 0; Q < shape.planes(k); ++Q)
      for (int v = 0; v < 4; ++v) connect(shape.router({k, 0, Q}), 4 + v, shape.router({k, 1, Q}), 4 + v);
  }
  return g;
}

const char* doubling_name(Doubling d) {
  switch (d) {
    case Doubling::EightWayTop:
      return "eight_way_top";
    case Doubling::BackToBack:
      return "back_to_back";
  }
  return "?";
}

}  // namespace mppnet::machines::cs2
