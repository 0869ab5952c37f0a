// machines/cns1/mesh_probe.cpp: the mesh driven alone.
#include "machines/cns1/mesh_probe.hpp"

#include "machines/cns1/ni_registers.hpp"
#include "topo/k_ary_n_cube.hpp"

namespace mppnet::machines::cns1 {

T1Config probe_config(int nodes) {
  T1Config c;
  c.machine.nodes = nodes;
  c.machine.program = "(driven directly)";
  return c;
}

T1Config program_config(const std::string& program, int nodes) {
  T1Config c;
  c.machine.nodes = nodes;
  c.machine.program = program;
  return c;
}

T1Message probe_message(NodeId dest, Priority p, bool multicast, std::uint32_t w0) {
  T1Message m;
  m.destination = static_cast<std::uint32_t>(dest);
  m.handler = 0x1400;
  m.priority = p;
  m.multicast = multicast;
  m.scalar_count = 1;
  m.scalars[0] = w0;
  return m;
}

void run_mesh(T1Machine& m, Picoseconds ps) {
  m.scheduler().run_until_time(m.scheduler().now() + ps);
}

std::int64_t link_flits(T1Machine& m) {
  const auto flits = m.network().port_flits();
  const auto& g = m.network().graph();
  std::int64_t total = 0;
  for (RouterId r = 0; r < g.num_routers(); ++r)
    for (PortId p = 0; p < topo::cube_node_port(2); ++p) total += flits[g.port_base[r] + p];
  return total;
}

std::set<NodeId> nodes_holding(T1Machine& m, Priority p) {
  std::set<NodeId> out;
  for (NodeId v = 0; v < m.nodes(); ++v)
    if (m.node(v).ni().queued(p) > 0) out.insert(v);
  return out;
}

std::uint32_t take_event(T1Machine& m, NodeId v) {
  T1Node& n = m.node(v);
  n.ni().write_register(n.cpu(), kNistat, n.ni().nistat() | nistat::kLpmm | nistat::kHpmm);
  n.ni().at_boundary(n.cpu());
  return n.ni().nistat();
}

}  // namespace mppnet::machines::cns1
