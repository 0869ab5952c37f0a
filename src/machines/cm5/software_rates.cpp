// machines/cm5/software_rates.cpp: streaming and latency node programs on a CM-5 of default parameters.
#include "machines/cm5/software_rates.hpp"

#include <algorithm>
#include <vector>

#include "am/machine.hpp"
#include "core/rng.hpp"
#include "machines/cm5/message_sets.hpp"
#include "machines/cm5/node_machine.hpp"

namespace mppnet::machines::cm5 {

namespace {

struct RateNode {
  std::vector<NodeId> partners;
  int messages = 0;
  int received = 0;
};

void on_message(am::Incoming& in) {
  ++in.node.state<RateNode>().received;
}

// Z order: the bits of x and y interleaved, so a 2^k x 2^k block of the grid is a subtree of 4^k nodes.
NodeId z_index(int x, int y) {
  NodeId v = 0;
  for (int b = 0; b < 16; ++b) v |= ((x >> b & 1) << (2 * b)) | ((y >> b & 1) << (2 * b + 1));
  return v;
}

std::vector<NodeId> grid_neighbours(NodeId v, int side) {
  int x = 0, y = 0;
  for (int b = 0; b < 16; ++b) {
    x |= (v >> (2 * b) & 1) << b;
    y |= (v >> (2 * b + 1) & 1) << b;
  }
  return {z_index((x + 1) % side, y), z_index((x + side - 1) % side, y), z_index(x, (y + 1) % side),
          z_index(x, (y + side - 1) % side)};
}

Cm5Config machine_config(int nodes) {
  Cm5Config c;
  c.machine.nodes = nodes;
  return c;
}

// These programs keep nothing in node memory: a small one keeps a 16K machine light.
am::AmParams without_memory(am::AmParams am) {
  am.memory_bytes = 1024;
  return am;
}

}  // namespace

SoftwareRate software_rate(int nodes, Partners partners, int messages, const am::AmParams& am,
                           std::uint64_t seed, Sides one_way) {
  Cm5Config config = machine_config(nodes);
  config.interface.one_way = one_way;
  Cm5NodeMachine host(config, without_memory(am));
  am::Machine& m = host.machine();
  std::vector<RateNode> state(nodes);
  if (partners == Partners::Grid2d) {
    int side = 1;
    while (side * side < nodes) side *= 2;
    for (NodeId v = 0; v < nodes; ++v) state[v].partners = grid_neighbours(v, side);
  } else {
    std::vector<NodeId> perm;
    core::RandomStream r(seed, 0, core::Stream::Setup);
    for (bool fixed = true; fixed;) {  // a permutation without fixed points: about e tries
      perm = shuffled(nodes, r);
      fixed = false;
      for (NodeId v = 0; v < nodes; ++v) fixed |= perm[v] == v;
    }
    for (NodeId v = 0; v < nodes; ++v) state[v].partners = {perm[v]};
  }
  for (RateNode& s : state) s.messages = messages;
  m.attach(state);
  m.run([](am::Node& node) -> am::Task<> {
    RateNode& s = node.state<RateNode>();
    for (int k = 0; k < s.messages; ++k) {
      co_await node.notify(s.partners[k % s.partners.size()], on_message, k, 0, 0, 0);
    }
    co_await node.wait_until([&s] { return s.received >= s.messages; });
  });
  const double us = static_cast<double>(m.totals().finish_ps) / 1e6;
  return {.data_mb_per_s = 20.0 * messages / us, .payload_mb_per_s = 16.0 * messages / us, .time_us = us};
}

double software_latency_us(int nodes, const am::AmParams& am) {
  Cm5NodeMachine host(machine_config(nodes), without_memory(am));
  am::Machine& m = host.machine();
  std::vector<RateNode> state(nodes);
  state[nodes - 1].messages = 1;
  m.attach(state);
  m.run([nodes](am::Node& node) -> am::Task<> {
    RateNode& s = node.state<RateNode>();
    if (node.id() == 0) co_await node.notify(nodes - 1, on_message);
    co_await node.wait_until([&s] { return s.received >= s.messages; });
  });
  return static_cast<double>(m.totals().finish_ps) / 1e6;
}

}  // namespace mppnet::machines::cm5
