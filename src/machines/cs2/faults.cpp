// machines/cs2/faults.cpp: [faults] links resolved on the built layer, crossings, rebuilt routes.
#include "machines/cs2/faults.hpp"

#include <array>

#include <fmt/format.h>

#include "machines/cs2/channel_load.hpp"

namespace mppnet::machines::cs2 {

std::string link_problem(const Cs2Config& c, const LayerShape& shape, const topo::Graph& g,
                         const std::vector<int>& v) {
  if (v.empty()) return "";
  if (v.size() != 5)
    return fmt::format("give [layer, stage, network id, plane, port] (5 numbers), not {}", v.size());
  const int layer = v[0], stage = v[1], port = v[4];
  const SwitchId s{stage, v[2], v[3]};
  const std::string named = fmt::format("[{}, {}, {}, {}, {}]", v[0], v[1], v[2], v[3], v[4]);
  if (layer < 0 || layer >= c.machine.layers)
    return fmt::format("no layer {} in {}: machine.layers is {}", layer, named, c.machine.layers);
  if (stage < 1 || stage > shape.stages())
    return fmt::format("no stage {} in {}: {} PEs have stages 1-{}", stage, named, c.machine.pes,
                       shape.stages());
  if (v[2] < 0 || v[3] < 0 || !shape.exists(s))
    return fmt::format(
        "no switch with network id {} and plane {} at stage {} in {} (mppnet cs2-names lists them)", v[2],
        v[3], stage, named);
  const RouterId r = shape.router(s);
  if (port < 0 || port >= g.num_ports(r) || g.link(r, port).kind == topo::PeerKind::None)
    return fmt::format("port {} of that switch leads to no switch or PE in {}", port, named);
  return "";
}

LinkRef resolve_link(const LayerShape& shape, const topo::Graph& g, const std::vector<int>& v) {
  if (v.empty()) return {};
  LinkRef l;
  l.layer = v[0];
  l.router = shape.router(SwitchId{v[1], v[2], v[3]});
  l.port = v[4];
  l.out_down = g.port_base[l.router] + l.port;
  l.in_near = l.out_down;  // an input and an output of one port share its index
  const topo::PortLink& link = g.link(l.router, l.port);
  if (link.kind == topo::PeerKind::Node) {
    l.pe = link.peer;
    l.in_far = static_cast<std::int32_t>(g.ports.size()) + link.peer * g.links_per_node + link.peer_port;
  } else {
    l.out_back = g.port_base[link.peer] + link.peer_port;
    l.in_far = l.out_back;
  }
  return l;
}

void check_faults(const Cs2Config& c, const LayerShape& shape) {
  const FaultParams& f = c.faults;
  if (f.byte_error_rate > 0 && f.link.empty())
    io::fail_at(c, "faults.byte_error_rate",
                fmt::format("{} needs a link to act on: set faults.link", f.byte_error_rate));
  if (f.link.empty() && f.failed_link.empty()) return;
  const topo::Graph g = build_layer(shape);
  for (const char* key : {"faults.link", "faults.failed_link"}) {
    const auto& v = std::string(key) == "faults.link" ? f.link : f.failed_link;
    if (const std::string why = link_problem(c, shape, g, v); !why.empty()) io::fail_at(c, key, why);
  }
  const LinkRef failed = resolve_link(shape, g, f.failed_link);
  if (failed.valid() && failed.pe >= 0 && c.machine.layers < 2)
    io::fail_at(c, "faults.failed_link",
                fmt::format("it is PE {}'s only link: with machine.layers = 1 the PE is cut off", failed.pe));
}

void refuse_unsupported_faults(const Cs2Config& c, const char* command, bool picks_layers,
                               const char* resend_hint) {
  if (!c.faults.link.empty() && c.faults.byte_error_rate > 0 && resend_hint != nullptr)
    io::fail_at(c, "faults.link",
                fmt::format("byte errors need a sender that resends NACKed packets: {}", resend_hint));
  if (picks_layers && !c.faults.failed_link.empty()) {
    const LayerShape shape = layer_shape(c);
    if (resolve_link(shape, build_layer(shape), c.faults.failed_link).pe >= 0)
      io::fail_at(c, "faults.failed_link",
                  fmt::format("{} sends on the layer each message picks; a PE's own failed link is "
                              "supported by mppnet run and the cs2.r13 cases only",
                              command));
  }
}

std::int32_t crossing_input(const topo::Graph& g, NodeId src, const topo::SourceRoute& route,
                            const LinkRef& link) {
  if (link.pe >= 0 && src == link.pe) return link.in_near;  // the PE's own link, on the way in
  std::int32_t input = -1;
  follow_route(g, src, route, [&](int channel) {
    if (input >= 0) return;
    if (channel == link.out_down) input = link.in_far;
    if (channel == link.out_back) input = link.in_near;
  });
  return input;
}

topo::SourceRoute route_avoiding(const LayerShape& shape, const topo::Graph& g, NodeId x, NodeId d, Turn turn,
                                 int alt, const LinkRef& failed) {
  if (failed.pe >= 0 && (x == failed.pe || d == failed.pe)) return {};
  const std::vector<int> base = dest_ups(shape, x, d, turn);
  const int n = static_cast<int>(base.size());
  std::array<int, topo::kMaxRouteBytes> ups{};
  const std::int64_t combos = std::int64_t{1} << (2 * n);
  for (std::int64_t k = 0; k < combos; ++k) {
    std::int64_t code = k + alt;
    for (int i = 0; i < n; ++i, code >>= 2)
      ups[static_cast<std::size_t>(i)] = (base[static_cast<std::size_t>(i)] + static_cast<int>(code & 3)) % 4;
    topo::SourceRoute r =
        unicast_route(shape, x, d, std::span<const int>(ups.data(), static_cast<std::size_t>(n)), turn);
    if (crossing_input(g, x, r, failed) < 0) return r;
  }
  return {};
}

}  // namespace mppnet::machines::cs2
