// machines/metro/mlink/mlink_endpoint.hpp: MLINK as the network interface of node programs: the MBTA's
// MRP network behind the endpoint contract (net/endpoint.hpp) that the active-message runtime (am/)
// talks to, as cs2/elan_endpoint.hpp puts the CS-2's layers behind it.
//
// Every packet of the runtime is one MLINK remote function invocation (ROP, §11.3): an active message
// ([E⁺92], L3057), its argument words and data as 8·len bytes (len = the packet's bytes rounded up to
// double-words), its handler as the ROP's address. MLINK queues it for the destination's processor,
// which is where am's handlers run; the runtime's remote memory operations (put, get, store) are such
// handlers. MLINK's own READ and WRITE (mlink.hpp) are not used by the runtime.
//  - A node sends one connection at a time (§10.2); its source queue has a class per virtual network,
//    replies first, each of am.send_queue_packets; the packet is in the runtime's send queue until
//    MLINK has it acknowledged.
//  - A packet is delivered in the cycle its destination reads the TURN with good checks; a node holding
//    ejection of a virtual network answers its ROPs NACK (incoming queue full) and the source tries
//    again: on a circuit-switched network a refused message does not wait in the network, it is retried.
//  - An ROP that MLINK fails to deliver in metro.mlink.max_trials trials stops the run with an error (the
//    processor's policy, §11.1, L3011; 0, the default, retries without limit).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler.hpp"
#include "machines/metro/mlink/mlink.hpp"
#include "net/endpoint.hpp"

namespace mppnet::machines::metro::mlink {

struct MlinkEndpointOptions {
  int vnets = 2;                        // 2: requests and replies; 1: one shared
  std::int64_t send_queue_packets = 4;  // per node and virtual network
  int flit_bytes = 1;                   // bytes a runtime flit stands for (am.flit_bytes)
};

class MlinkEndpoint final : public core::Component, public net::Endpoint, public MlinkHost {
 public:
  // Adds itself to `scheduler` in `domain`, whose period is the router clock. REQUIRES: check(p, ...)
  // empty; net and scheduler outlive it.
  MlinkEndpoint(mrp::MrpNetwork& net, int radix, const MlinkParams& p, std::uint64_t seed,
                core::Scheduler& scheduler, core::DomainId domain, const MlinkEndpointOptions& options);

  // core::Component: one router cycle of MLINK and the network.
  bool tick(Cycle cycle) override;

  // net::Endpoint
  int nodes() const override { return net_.nodes(); }
  int vnets() const override { return options_.vnets; }
  net::PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) override;
  std::int64_t space_to_send(NodeId src, int vnet) const override;
  void hold_ejection(NodeId v, int vnet, bool hold) override;
  void set_delivery_handler(net::DeliveryHandler* handler) override { handler_ = handler; }
  net::EndpointActivity activity() const override;
  std::string describe_blocked() const override { return mlink_.describe_busy(); }
  std::int64_t cycles_run() const override { return cycles_run_; }
  core::DomainId domain() const override { return domain_; }

  // MlinkHost
  std::span<std::uint8_t> memory(NodeId) override { return {}; }
  bool rop(NodeId v, NodeId src, std::uint32_t addr, std::span<const std::uint8_t> data, std::uint64_t tag,
           std::int64_t cycle) override;
  void done(NodeId v, std::uint64_t tag, const OperationResult& r) override;

  const Mlink& mlink() const { return mlink_; }

 private:
  Picoseconds time_of(std::int64_t net_cycle) const { return (net_cycle + offset_) * period_ps_; }

  mrp::MrpNetwork& net_;
  Mlink mlink_;
  core::Scheduler& scheduler_;
  MlinkEndpointOptions options_;
  Picoseconds period_ps_;
  core::DomainId domain_;
  core::ComponentId id_;
  int settle_cycles_;  // cycles stepped after MLINK went idle, so that the last DROPs reach every port
  Cycle offset_ = 0;   // scheduler cycle minus the network's cycle
  std::int64_t cycles_run_ = 0, quiet_ = 0;
  std::int64_t last_progress_ = 0;  // the network cycle an operation last completed or was queued
  net::DeliveryHandler* handler_ = nullptr;

  // The runtime's packets in MLINK, by slot (the MLINK operation's tag); free slots are reused.
  std::vector<net::Packet> packets_;
  std::vector<net::PacketId> free_;
  std::vector<std::uint8_t> held_;  // node v, vnet: ejection held
  std::int64_t in_mlink_ = 0;
  std::vector<std::uint8_t> zeros_;  // the ROPs' bytes: the runtime keeps what a message says
};

}  // namespace mppnet::machines::metro::mlink
