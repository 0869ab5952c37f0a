// topo/dragonfly.cpp: the dragonfly: checks, builder, minimal and Valiant routing (topo/dragonfly.hpp).
#include "topo/dragonfly.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "topo/build.hpp"
#include "topo/saturating.hpp"
#include "topo/topology_keys.hpp"

namespace mppnet::topo {

namespace {

enum class Hop : std::uint8_t { Eject, Local, Global };
struct Step {
  PortId port;
  Hop hop;
};

// One minimal step from `router` toward group `target` (when it is another group) or else toward the
// destination router `dest_router` and its node port `node_port`.
Step step_toward(const DragonflyParams& p, RouterId router, int target, RouterId dest_router, int node_port) {
  const int group = p.group_of(router);
  const int i = p.index_of(router);
  if (group != target) {
    const int t = p.link_to(group, target);
    const int owner = t / p.h;
    if (owner == i) return {p.global_port(t % p.h), Hop::Global};
    return {p.local_port(i, owner), Hop::Local};
  }
  if (router == dest_router) return {node_port, Hop::Eject};
  return {p.local_port(i, p.index_of(dest_router)), Hop::Local};
}

// VC class c of `classes` on a port of `vcs` VCs: [c * vcs / classes, (c + 1) * vcs / classes - 1].
RouteSet class_port(PortId port, int c, int classes, int vcs) {
  return one_port(port, c * vcs / classes, (c + 1) * vcs / classes - 1);
}

const TopologyKeys<DragonflyParams>& dragonfly_key_table() {
  const auto size = io::in_range(1, kMaxDragonflyParam);
  static const TopologyKeys<DragonflyParams> keys({
      io::key("dragonfly_p", &DragonflyParams::p, size, "nodes per router (p)"),
      io::key("dragonfly_a", &DragonflyParams::a, size,
              "routers per group (a), fully connected by local links"),
      io::key("dragonfly_h", &DragonflyParams::h, size,
              "global links per router (h); groups = a * h + 1, one link per pair"),
      io::key("dragonfly_routing", &DragonflyParams::routing, io::one_of({"minimal", "valiant"}),
              "minimal (2 VCs or more) or valiant, via a random group (3 VCs or more)"),
  });
  return keys;
}

}  // namespace

DragonflyParams dragonfly_params(const TopologyParams& p) {
  return dragonfly_key_table().read(p);
}
TopologyParams topology_of(const DragonflyParams& p) {
  return dragonfly_key_table().write(kDragonflyTopology.name, p);
}
std::vector<TopologyKey> dragonfly_keys() {
  return dragonfly_key_table().list();
}

void check_dragonfly(const TopologyParams& params, std::vector<Problem>& out) {
  const DragonflyParams p = dragonfly_params(params);
  bool sizes_ok = true;
  auto in_range = [&](const char* key, int v, const char* what) {
    if (v >= 1 && v <= kMaxDragonflyParam) return;
    out.push_back({key, std::string("a dragonfly needs 1 to ") + std::to_string(kMaxDragonflyParam) + " " +
                            what + " (got " + std::to_string(v) + ")"});
    sizes_ok = false;
  };
  in_range("topology.dragonfly_p", p.p, "nodes per router");
  in_range("topology.dragonfly_a", p.a, "routers per group");
  in_range("topology.dragonfly_h", p.h, "global links per router");
  if (!sizes_ok) return;
  check_node_count(dragonfly_node_count(params), "topology.dragonfly_a",
                   "a dragonfly of p = " + std::to_string(p.p) + ", a = " + std::to_string(p.a) +
                       ", h = " + std::to_string(p.h) + " (" + std::to_string(p.groups()) + " groups)",
                   out);
}

Graph build_dragonfly_topology(const TopologyParams& p) {
  return build_dragonfly(dragonfly_params(p));
}

long long dragonfly_port_count(const TopologyParams& params) {
  const DragonflyParams d = dragonfly_params(params);
  return saturating_mul(static_cast<long long>(d.routers()), d.ports());
}

long long dragonfly_node_count(const TopologyParams& params) {
  const DragonflyParams d = dragonfly_params(params);
  const long long p = std::max(d.p, 0);
  const long long a = std::max(d.a, 0);
  const long long h = std::max(d.h, 0);
  const long long groups = saturating_add(saturating_mul(a, h), 1);
  return saturating_mul(p, saturating_mul(a, groups));
}

int dragonfly_max_router_hops(const TopologyParams& params) {
  const DragonflyParams p = dragonfly_params(params);
  // Per group visited: the arrival router and, with a >= 2, one local hop.
  const int per_group = p.a >= 2 ? 2 : 1;
  return (p.routing == DragonflyRouting::Valiant ? 3 : 2) * per_group;
}

int dragonfly_min_vcs(const TopologyParams& p) {
  return dragonfly_params(p).routing == DragonflyRouting::Valiant ? 3 : 2;
}

const char* dragonfly_min_vcs_reason(const TopologyParams& p) {
  return dragonfly_params(p).routing == DragonflyRouting::Valiant
             ? "a dragonfly with Valiant routing needs at least 3 VCs per port (a local-channel class for "
               "each of the source, intermediate and destination groups)"
             : "a dragonfly with minimal routing needs at least 2 VCs per port (local-channel classes before "
               "and after the global hop)";
}

Routing dragonfly_routing(const TopologyParams& params, const Graph& g, int vcs) {
  const DragonflyParams p = dragonfly_params(params);
  MPPNET_ASSERT(g.num_routers() == p.routers() && g.num_nodes == p.nodes(),
                "the graph was not built from these dragonfly parameters");
  if (p.routing == DragonflyRouting::Valiant) return Routing::bind(DragonflyValiantRouting(p, vcs), vcs);
  return Routing::bind(DragonflyMinimalRouting(p, vcs), vcs);
}

Graph build_dragonfly(const DragonflyParams& p) {
  MPPNET_ASSERT(p.p >= 1 && p.a >= 1 && p.h >= 1 && p.p <= kMaxDragonflyParam && p.a <= kMaxDragonflyParam &&
                    p.h <= kMaxDragonflyParam,
                "dragonfly parameters were not checked");
  const int routers = p.routers();
  const int ports = p.ports();
  Graph g;
  g.num_nodes = p.nodes();
  g.links_per_node = 1;
  g.port_base.resize(routers + 1);
  for (RouterId r = 0; r <= routers; ++r) g.port_base[r] = r * ports;
  g.ports.resize(static_cast<std::size_t>(routers) * ports);
  g.node_links.resize(g.num_nodes);
  for (RouterId r = 0; r < routers; ++r) {
    const int group = p.group_of(r);
    const int i = p.index_of(r);
    for (int j = 0; j < p.p; ++j) {
      const NodeId v = r * p.p + j;
      g.ports[g.port_base[r] + j] = {PeerKind::Node, v, 0};
      g.node_links[v] = {r, j};
    }
    for (int j = 0; j < p.a; ++j) {
      if (j == i) continue;
      g.ports[g.port_base[r] + p.local_port(i, j)] = {PeerKind::Router, group * p.a + j, p.local_port(j, i)};
    }
    for (int c = 0; c < p.h; ++c) {
      const int t = i * p.h + c;
      const int other = t < group ? t : t + 1;
      const int back = p.link_to(other, group);  // the other group's link index back to this one
      g.ports[g.port_base[r] + p.global_port(c)] = {PeerKind::Router, other * p.a + back / p.h,
                                                    p.global_port(back % p.h)};
    }
  }
  return g;
}

int dragonfly_minimal_routers(const DragonflyParams& p, RouterId from, RouterId to) {
  if (from == to) return 1;
  const int gf = p.group_of(from);
  const int gt = p.group_of(to);
  if (gf == gt) return 2;
  const int t = p.link_to(gf, gt);
  const int back = p.link_to(gt, gf);
  return 2 + (t / p.h != p.index_of(from)) + (back / p.h != p.index_of(to));
}

int dragonfly_routers_via(const Graph& g, const DragonflyParams& p, RouterId from, RouterId to, int via) {
  auto owner = [&](int group, int other) {  // the router of `group` whose global link leads to `other`
    for (int i = 0; i < p.a; ++i)
      for (int c = 0; c < p.h; ++c)
        if (g.link(group * p.a + i, p.global_port(c)).peer / p.a == other) return group * p.a + i;
    MPPNET_ASSERT(false, "two dragonfly groups without a global link");
    return -1;
  };
  // A group visit enters at one router and leaves from the same one or one local hop away.
  auto visit = [](RouterId in, RouterId out) { return in == out ? 1 : 2; };
  int groups[3] = {p.group_of(from), 0, 0};
  int count = 1;
  if (via != p.group_of(from) && via != p.group_of(to)) groups[count++] = via;
  if (p.group_of(to) != p.group_of(from)) groups[count++] = p.group_of(to);
  int routers = 0;
  RouterId in = from;
  for (int k = 0; k + 1 < count; ++k) {
    routers += visit(in, owner(groups[k], groups[k + 1]));
    in = owner(groups[k + 1], groups[k]);
  }
  return routers + visit(in, to);
}

// With m = a p nodes per group and N - 1 destinations per node:
//   minimal: global G -> G' carries the m nodes of G to the m of G': m^2 / (N - 1). Local x -> y carries
//   x's p nodes to the h groups y links to and to y's p nodes, p (h m + p) / (N - 1), and the arrivals at
//   x (from its h groups) for y's nodes, h m p / (N - 1).
//   Valiant: a global link G -> G' is the direct link when the intermediate is either end (2/g), the first
//   leg of the g - 2 pairs (G, D) that draw G' and the second leg of the g - 2 pairs (S, G') that draw G:
//   m^2 / (N - 1) * (2 + 2 (g - 2)) / g. Local: the first target group is still uniform over the other
//   groups and the last leg still arrives evenly, so the minimal terms stay, plus the hop inside the
//   intermediate group: h^2 (S, D) pairs of groups linked to x and y, each m^2 / ((N - 1) g).
DragonflyUniformLoad dragonfly_uniform_load(const DragonflyParams& d) {
  const double p = d.p, h = d.h, g = d.groups();
  const double m = d.a * p;
  const double others = m * g - 1;
  DragonflyUniformLoad load;
  load.global = m * m / others;
  load.local = (p * (h * m + p) + h * m * p) / others;
  if (d.routing == DragonflyRouting::Valiant) {
    load.global *= (2 + 2 * (g - 2)) / g;
    load.local += h * h * m * m / (others * g);
  }
  return load;
}

double DragonflyUniformLoad::bound() const {
  return 1.0 / std::max({terminal, local, global});
}

RouteSet DragonflyMinimalRouting::route(RouterId router, PortId in_port, VcId,
                                        PacketHead& head) const noexcept {
  const RouterId dest_router = head.dest / p_.p;
  const Step s = step_toward(p_, router, p_.group_of(dest_router), dest_router, head.dest % p_.p);
  switch (s.hop) {
    case Hop::Eject:
    case Hop::Global:
      return class_port(s.port, 0, 1, vcs_);
    case Hop::Local:
      // A local hop after the global hop (the packet came in on a global port) takes class 1.
      return class_port(s.port, in_port >= p_.global_port(0) ? 1 : 0, 2, vcs_);
  }
  return {};
}

RouteSet DragonflyValiantRouting::route(RouterId router, PortId in_port, VcId,
                                        PacketHead& head) const noexcept {
  const RouterId dest_router = head.dest / p_.p;
  const int group = p_.group_of(router);
  const int dest_group = p_.group_of(dest_router);
  std::uint64_t h = head.header;
  if (in_port < p_.p) {
    // The source router draws the intermediate group; a packet for its own group goes minimally.
    const auto draw = static_cast<int>(((head.random >> 32) * static_cast<std::uint64_t>(p_.groups())) >> 32);
    h = static_cast<std::uint64_t>((group == dest_group ? group : draw) + 1);
  }
  MPPNET_ASSERT(valiant_intermediate(h) >= 0, "Valiant routing: a packet without an intermediate group");
  if (!valiant_reached(h) && group == valiant_intermediate(h)) h |= std::uint64_t{1} << 32;
  const int target = valiant_reached(h) ? dest_group : valiant_intermediate(h);
  const int globals = valiant_global_hops(h);
  const Step s = step_toward(p_, router, target, dest_router, head.dest % p_.p);
  RouteSet rs;
  switch (s.hop) {
    case Hop::Eject:
      rs = class_port(s.port, 0, 1, vcs_);
      break;
    case Hop::Local:
      rs = class_port(s.port, globals, 3, vcs_);
      break;
    case Hop::Global:
      rs = class_port(s.port, globals, 2, vcs_);
      h += std::uint64_t{1} << 40;
      break;
  }
  head.header = h;
  return rs;
}

}  // namespace mppnet::topo
