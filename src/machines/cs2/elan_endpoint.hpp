// machines/cs2/elan_endpoint.hpp: the PEs' Elans as the network interface of node programs: the CS-2's
// layers behind the endpoint contract (net/endpoint.hpp) that the active-message runtime (am/) talks to.
//
// Virtual networks are layers. With two virtual networks (requests and replies, am.separate_vnets) each
// takes a layer of its own: the two layers are independent networks (Meiko, CS-2 Communications Network
// Overview, 1993, L92-L93), so a full request layer never blocks a reply, as separate virtual networks
// must not. With one, a PE stripes its packets over the layers in turn, as `mppnet run` does, and takes
// the next layer with room when its stripe's queue is full (the room it reports is every queue's). A packet
// takes an alternative of its source's route table drawn per packet (routing.policy), carries its Elan
// overhead in its flits (am.header_bytes), and every delivered packet is acknowledged on the layer's
// ack path; a PE starts a packet on a layer only while fewer than elan.window of its packets there are
// unacknowledged (docs/cs2.md "Node programs"). A NACKed packet (a byte error, faults.byte_error_rate) is
// sent again by the Elan on its layer; the runtime never sees the aborted copy or its NACK.
#pragma once

#include <cstdint>
#include <string>

#include "core/scheduler.hpp"
#include "machines/cs2/cs2_network.hpp"
#include "net/endpoint.hpp"

namespace mppnet::machines::cs2 {

// Hears of the broadcasts the Elans send for themselves (the collectives, elan_collectives.hpp) instead
// of the runtime: each copy as it drains at its PE, and each packet's merged ack at its source.
class BroadcastListener {
 public:
  virtual ~BroadcastListener() = default;
  virtual void on_copy(NodeId pe, std::uint64_t tag) = 0;
  virtual void on_merged_ack(const net::Ack& a) = 0;
};

struct ElanEndpointOptions {
  int vnets = 2;                        // 2: requests and replies on a layer each; 1: striped over the layers
  std::int64_t send_queue_packets = 4;  // per PE and virtual network, waiting to start
};

class ElanEndpoint final : public core::Component, public net::Endpoint {
 public:
  // Adds itself to `scheduler` in `domain`, whose period must be the link clock (elite.clock_ps).
  // REQUIRES: `net` was built with acks; vnets is 1, or 2 with net.layers() == 2; net and scheduler
  // outlive it.
  ElanEndpoint(Cs2Network& net, core::Scheduler& scheduler, core::DomainId domain,
               const ElanEndpointOptions& options);

  // core::Component: steps every layer one link cycle, announces deliveries, then acks.
  bool tick(Cycle cycle) override;

  // net::Endpoint
  int nodes() const override { return net_.pes(); }
  int vnets() const override { return options_.vnets; }
  net::PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) override;
  std::int64_t space_to_send(NodeId src, int vnet) const override;
  void hold_ejection(NodeId v, int vnet, bool hold) override;
  void set_delivery_handler(net::DeliveryHandler* handler) override { handler_ = handler; }
  net::EndpointActivity activity() const override;
  std::string describe_blocked() const override;

  // Tags with this bit set are the listener's broadcasts; the runtime's tags (message ids) never have it.
  static constexpr std::uint64_t kBroadcastTag = std::uint64_t{1} << 63;
  // REQUIRES: the network replicates (Cs2Network::broadcasts()); the listener outlives the endpoint.
  void set_broadcast_listener(BroadcastListener* listener) { listener_ = listener; }
  // A broadcast of `bytes` bytes from src to every PE on `layer`, one packet per aligned box, each
  // carrying tag | kBroadcastTag; returns the packets sent.
  int broadcast(int layer, NodeId src, int bytes, std::uint64_t tag);

  // Packets the Elans sent again after a NACK.
  std::int64_t resent() const { return resent_; }
  std::int64_t cycles_run() const override { return cycles_run_; }
  core::DomainId domain() const override { return domain_; }

 private:
  // Packets src's queue on `layer` can still take.
  std::int64_t room(NodeId src, int layer) const;

  Cs2Network& net_;
  core::Scheduler& scheduler_;
  ElanEndpointOptions options_;
  Picoseconds period_ps_;
  core::DomainId domain_;
  core::ComponentId id_;
  int settle_cycles_;  // cycles stepped after the last flit moved, so that its credits land before a sleep
  Cycle offset_ = 0;   // scheduler cycle minus the layers' cycle
  std::int64_t cycles_run_ = 0;
  std::int64_t resent_ = 0;
  net::DeliveryHandler* handler_ = nullptr;
  BroadcastListener* listener_ = nullptr;
};

}  // namespace mppnet::machines::cs2
