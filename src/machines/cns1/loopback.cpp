// machines/cns1/loopback.cpp: the stand-in network's queues.
#include "machines/cns1/loopback.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace mppnet::machines::cns1 {

NetworkInterface& Loopback::add_node(NiConfig config) {
  const std::size_t id = nodes_.size();
  config.node_id = static_cast<std::uint32_t>(id);
  auto node = std::make_unique<Node>(*this, id);
  node->ni = std::make_unique<NetworkInterface>(config, &node->port);
  nodes_.push_back(std::move(node));
  return *nodes_.back()->ni;
}

bool Loopback::Port::can_send(Priority priority) const {
  return out[index(priority)].size() < network_.out_queue_messages_;
}

bool Loopback::Port::try_send(const T1Message& message) {
  if (!can_send(message.priority)) return false;
  const std::uint32_t destination = message.destination & kNodeIdMask;
  if (destination >= network_.nodes_.size()) {
    throw std::out_of_range(fmt::format("T1 loopback: node {} sent to node {}, but there are only {} nodes",
                                        id_, destination, network_.nodes_.size()));
  }
  out[index(message.priority)].push_back(message);
  if (network_.deliver_on_send_) network_.deliver();
  return true;
}

std::size_t Loopback::deliver() {
  std::size_t moved = 0;
  for (auto& node : nodes_) {
    for (auto& queue : node->port.out) {
      while (!queue.empty()) {
        NetworkInterface& to = *nodes_[queue.front().destination & kNodeIdMask]->ni;
        if (!to.offer(queue.front())) break;
        queue.pop_front();
        ++moved;
      }
    }
  }
  return moved;
}

}  // namespace mppnet::machines::cns1
