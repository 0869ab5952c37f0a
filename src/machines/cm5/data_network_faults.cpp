// machines/cm5/data_network_faults.cpp: the data network's reliability mechanisms: corrupted links and
// the CRC trail, Kirchhoff counting, and all-fall-down.
#include <fmt/format.h>

#include "machines/cm5/data_network.hpp"

namespace mppnet::machines::cm5 {

void DataNetwork::corrupt_link(ChipId chip, int port, int messages) {
  corrupt_out_[port_index(chip, port)] = static_cast<std::uint16_t>(messages);
}

void DataNetwork::corrupt_injection(NodeId v, int side, int messages) {
  corrupt_inject_[slot(v, side)] = static_cast<std::uint16_t>(messages);
}

bool DataNetwork::take_corruption(std::vector<std::uint16_t>& countdowns, std::size_t i) {
  if (countdowns[i] == 0) return false;
  --countdowns[i];
  return true;
}

std::vector<std::string> DataNetwork::kirchhoff_violations() const {
  std::vector<std::string> lines;
  for (ChipId c = 0; c < shape_.chips(); ++c) {
    std::int64_t in = 0;
    std::int64_t out = 0;
    for (int p = 0; p < kChipPorts; ++p) {
      in += port_in_[port_index(c, p)];
      out += port_out_[port_index(c, p)];
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

void DataNetwork::set_all_fall_down(ChipId c, bool on) {
  afd_mode_[c] = on ? 1 : 0;
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
