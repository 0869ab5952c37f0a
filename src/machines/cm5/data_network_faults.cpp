// machines/cm5/data_network_faults.cpp: the data network's reliability mechanisms: corrupted links and
// the CRC trail, Kirchhoff counting, and all-fall-down.
#include <algorithm>

#include <fmt/format.h>

#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

void DataNetwork::corrupt_link(ChipId chip, int port, int messages) {
  outputs_[port_index(chip, port)].corrupt_next = static_cast<std::uint16_t>(messages);
}

void DataNetwork::corrupt_injection(NodeId v, int side, int messages) {
  corrupt_inject_[slot(v, side)] = static_cast<std::uint16_t>(messages);
}

bool DataNetwork::take_corruption(std::uint16_t& countdown) {
  if (countdown == 0) return false;
  --countdown;
  return true;
}

std::vector<std::string> DataNetwork::kirchhoff_violations() const {
  std::vector<std::string> lines;
  for (ChipId c = 0; c < shape_.chips(); ++c) {
    std::int64_t in = 0;
    std::int64_t out = 0;
    for (int p = 0; p < kChipPorts; ++p) {
      in += port_in(c, p);
      out += port_out(c, p);
    }
    if (in != out) {
      const ChipPlace& at = shape_.place(c);
      lines.push_back(fmt::format("chip {} (side {}, level {}, node {}, chip {}): {} messages in, {} out", c,
                                  at.side, at.level, at.node, at.index, in, out));
    }
  }
  return lines;
}

// The fixed permutation of note 000 A10: input i of chip c falls to child (i + c) mod 4, so each child
// port takes two of the eight inputs and neighbouring chips spread a hot spot differently. A child port
// with nothing below it (the partly populated top) passes its share to the next one.
int DataNetwork::afd_port(ChipId c, int in_port) const {
  for (int k = 0; k < kChildPorts; ++k) {
    const int port = (in_port + c + k) % kChildPorts;
    if (shape_.peer(c, port).is_used()) return port;
  }
  return 0;  // unreachable: every chip has a child
}

namespace {

int avoid_key(const FatTreeShape& shape, int side, int level, int index) {
  // Chip indices within a node are below the top level's count, the largest of any level.
  const int stride = shape.chips_per_node(shape.height());
  return ((side * (shape.height() + 1)) + level) * stride + index;
}

}  // namespace

bool DataNetwork::route_around(ChipId failed) {
  const ChipPlace at = shape_.place(failed);
  if (at.level < 2) return false;
  const int below = at.level - 1;
  const int p = shape_.parent_ports(below);
  // The level-(k-1) chips whose parent port leads to index j at level k, in every node: index j / P.
  const std::int64_t span = std::int64_t{1} << (2 * at.level);
  const auto first = static_cast<NodeId>(at.node * span);
  const auto last = static_cast<NodeId>(std::min<std::int64_t>(params_.nodes, first + span));
  if (avoid_.empty()) {
    avoid_.resize(static_cast<std::size_t>(
        avoid_key(shape_, kSides - 1, shape_.height(), shape_.chips_per_node(shape_.height()))));
  }
  // Every other parent of those chips must remain for the messages that avoid this one.
  auto& list = avoid_[avoid_key(shape_, at.side, below, at.index / p)];
  unsigned ports = 1u << (at.index % p);
  for (const Avoid& a : list) ports |= 1u << a.parent;
  if (ports == (1u << p) - 1) return false;
  list.push_back({static_cast<std::uint8_t>(at.index % p), first, last});
  return true;
}

unsigned DataNetwork::avoided_parents(ChipId c, MessageId id) const {
  if (avoid_.empty()) return 0;
  const Message& m = pool_[id];
  const ChipPlace& at = shape_.place(c);
  unsigned ports = 0;
  for (const Avoid& a : avoid_[avoid_key(shape_, at.side, at.level, at.index)]) {
    const bool from = m.src >= a.first && m.src < a.last;
    const bool to = m.dest >= a.first && m.dest < a.last;
    if (from || to) ports |= 1u << a.parent;
  }
  return ports;
}

void DataNetwork::set_all_fall_down(ChipId c, bool on) {
  afd_mode_[c] = on ? 1 : 0;
  wake_heads(c);
  // A chip holding messages routes them by its new mode from the next cycle on.
  if (on) mark_pending(c);
}

std::int64_t DataNetwork::fallen_total() const {
  std::int64_t n = 0;
  for (const auto& list : fallen_) n += static_cast<std::int64_t>(list.size());
  return n;
}

void DataNetwork::resume_after_fall() {
  std::fill(afd_mode_.begin(), afd_mode_.end(), 0);
  std::fill(asleep_until_.begin(), asleep_until_.end(), Cycle{0});
  for (NodeId v = 0; v < params_.nodes; ++v) {
    for (const MessageId old : fallen_[v]) {
      const Message m = pool_[old];
      pool_.release(old);
      const MessageId id = send(v, m.true_dest, m.words, m.tag, m.side, m.label);
      pool_[id].created = m.created;
    }
    fallen_[v].clear();
  }
}

}  // namespace mppnet::machines::cm5
