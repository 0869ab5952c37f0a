// machines/cns1/loopback.hpp: a stand-in network that joins a few T1 NIs in one process, for the NI's
// unit tests: no topology, no timing, only the NI's contract (the machine's network is mesh_ports.hpp).
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "machines/cns1/network_interface.hpp"
#include "machines/cns1/ni_port.hpp"

namespace mppnet::machines::cns1 {

// Each node has an output queue per priority of out_queue_messages whole messages (the NI's output
// slots, A13/A35): a SEND succeeds while there is room. deliver() moves messages, oldest first, into
// their destinations' in-queues as far as those have room; what does not fit waits, so a receiver that
// takes no events backs its senders up (§3.7) and the two priorities never block each other. Order per
// (sender, priority) is kept, hence per (sender, receiver, priority) as the document requires. A
// multicast reaches its destination only (no path here: the mesh gives the copies on the way, A31).
class Loopback {
 public:
  explicit Loopback(std::size_t out_queue_messages = 1) : out_queue_messages_(out_queue_messages) {}

  // Node ids are 0, 1, ... in the order of these calls; the NI is built on this network's port.
  // The returned NI lives as long as the Loopback.
  NetworkInterface& add_node(NiConfig config);
  NetworkInterface& node(std::size_t id) { return *nodes_.at(id)->ni; }
  std::size_t size() const { return nodes_.size(); }

  // When true, every successful try_send delivers at once (the message reaches its receiver during the
  // SEND instruction itself).
  void set_deliver_on_send(bool on) { deliver_on_send_ = on; }

  // Returns how many messages moved.
  std::size_t deliver();
  std::size_t waiting(std::size_t id, Priority priority) const {
    return nodes_.at(id)->port.out[index(priority)].size();
  }

 private:
  class Port : public NiPort {
   public:
    Port(Loopback& network, std::size_t id) : network_(network), id_(id) {}
    bool can_send(Priority priority) const override;
    bool try_send(const T1Message& message) override;
    std::array<std::deque<T1Message>, 2> out;

   private:
    Loopback& network_;
    std::size_t id_;
  };
  struct Node {
    Node(Loopback& network, std::size_t id) : port(network, id) {}
    Port port;
    std::unique_ptr<NetworkInterface> ni;
  };

  std::size_t out_queue_messages_;
  bool deliver_on_send_ = false;
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace mppnet::machines::cns1
