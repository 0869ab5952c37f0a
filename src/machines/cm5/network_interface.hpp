// machines/cm5/network_interface.hpp: the CM-5 network interfaces of all nodes, as the endpoint that node
// programs (am/) send through.
//
// The paper's interface (L112-157, L300-337; note 000 §3.2): per side a send FIFO and a receive FIFO,
// memory-mapped; a send is all or nothing, and the processor reads a status to see whether the network
// took it and retries later if not; messages of 1 to 5 words with a 4-bit tag; relative addresses,
// bounds-checked and translated to physical ones; physical addressing for the supervisor only.
// Node programs see it through net::Endpoint:
//  - virtual network 0 (requests) is the left side and 1 (replies) the right (L323-337), so a reply
//    never waits behind a request; with one virtual network both use the left side;
//  - an am packet of more than 5 words is sent as several messages, as the CM-5's message library did
//    for longer data, and announced when its last part arrives;
//  - try_send refuses (the send-OK status says "not accepted") when the send FIFO is full, and am's
//    software retries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/scheduler.hpp"
#include "core/slot_pool.hpp"
#include "machines/cm5/data_network.hpp"
#include "net/endpoint.hpp"

namespace mppnet::machines::cm5 {

// A partition's relative addresses (0-based, contiguous, failed nodes skipped) and the physical ones
// they stand for (paper L139-146, note 000 §5.1).
class AddressMap {
 public:
  // The nodes of the physical subtree [base, base + size) that are not mapped out, in order.
  AddressMap(NodeId base, int size, const std::vector<NodeId>& mapped_out = {});
  int size() const { return static_cast<int>(physical_.size()); }
  // The physical address of relative address `rel`, or nothing when it lies outside the partition (the
  // interface's bounds check). A privileged (supervisor) access takes `rel` as physical as it is.
  std::optional<NodeId> translate(std::int64_t rel, bool privileged = false) const;
  NodeId physical(NodeId rel) const { return physical_[rel]; }
  // The relative address of physical node `phys`, or -1 if it is not in the partition.
  NodeId relative(NodeId phys) const;

 private:
  NodeId base_;
  std::vector<NodeId> physical_;
  std::vector<NodeId> relative_;  // by physical - base
};

// Which sides each kind of message uses. The paper's rule (L323-337): requests on one side only,
// replies on the other or on both, and no fetch-deadlock can arise; requests on both sides may deadlock.
enum class Sides : std::uint8_t { Left, Right, Both };

struct InterfaceParams {
  int send_fifo_messages = 8;  // per side: messages written and not yet in the network
  Sides requests = Sides::Left;
  Sides replies = Sides::Right;
  Sides one_way = Sides::Both;  // one-way messages (am's notify): they never wait on a reply
  // Bit t: a message of tag t interrupts its receiver (paper L268-271); else the program finds it by
  // polling. Node programs' messages carry tag 0 (requests), 1 (replies) or 2 (one-way).
  int interrupt_mask = 0xffff;
  // Test mode: false makes the handler poll its waiting senders after every cycle instead of hearing
  // when a send FIFO gains room. Results must be identical (data_network_exactness_test.cpp).
  bool report_room = true;
};

class NetworkInterfaces final : public core::Component, public net::Endpoint, private DataNetworkObserver {
 public:
  // Adds itself to `scheduler` in `domain` (the 40 MHz network clock). REQUIRES: `network`, `scheduler`
  // outlive it; vnets is 1 (everything on the left), 2 (requests,
  // replies) or 3 (and one-way messages).
  NetworkInterfaces(DataNetwork& network, core::Scheduler& scheduler, core::DomainId domain, AddressMap map,
                    int vnets, const InterfaceParams& params = {});

  // core::Component: steps the data network to this edge and announces what it delivered.
  bool tick(Cycle cycle) override;

  // net::Endpoint, in relative addresses; flits are 32-bit words.
  int nodes() const override { return map_.size(); }
  int vnets() const override { return vnets_; }
  net::PacketId try_send(NodeId src, NodeId dest, int flits, std::uint64_t tag, int vnet) override;
  std::int64_t space_to_send(NodeId src, int vnet) const override;
  bool reports_space() const override { return params_.report_room; }
  void hold_ejection(NodeId v, int vnet, bool hold) override;
  void set_delivery_handler(net::DeliveryHandler* handler) override { handler_ = handler; }
  net::EndpointActivity activity() const override;
  std::string describe_blocked() const override;
  std::int64_t cycles_run() const override { return cycles_run_; }
  core::DomainId domain() const override { return domain_; }

  static constexpr int kMaxPartsPerPacket = 2;  // am's largest packet: 1 + 4 + 4 words

 private:
  struct Packet {
    NodeId src = -1;
    NodeId dest = -1;
    std::int32_t words = 0;
    std::int32_t vnet = 0;
    std::int32_t parts_left = 0;
    Cycle created = 0;
    std::uint64_t tag = 0;
    std::uint32_t next = core::SlotPool<Packet>::kNone;
  };

  void on_delivery(MessageId id, const Message& m) override;
  void on_queue_space(NodeId v, int side) override;
  // The side of node v's next message of virtual network vnet ("both" alternates per node and network).
  int side_of(NodeId v, int vnet);
  Sides sides_for(int vnet) const;
  // The side a message of v's vnet would go on with the most room in its send FIFO.
  int roomiest_side(NodeId v, int vnet) const;

  DataNetwork& network_;
  core::Scheduler& scheduler_;
  core::DomainId domain_;
  core::ComponentId id_;
  Picoseconds period_ps_;
  AddressMap map_;
  int vnets_;
  InterfaceParams params_;
  net::DeliveryHandler* handler_ = nullptr;
  core::SlotPool<Packet> packets_;
  std::vector<std::uint8_t> next_side_;  // nodes * vnets: where "both" sends next
  std::int64_t cycles_run_ = 0;
};

}  // namespace mppnet::machines::cm5
