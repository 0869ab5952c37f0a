// machines/cs2/elan_collectives.hpp: node programs' collectives on the CS-2's broadcast.
//
// The Elite switches copy a packet to a contiguous range of outputs and merge the branches' acks into
// one, ACK only if every destination ACKed (Meiko, CS-2 Communications Network Overview, 1993,
// L366-L369); the document calls this "broadcast and combining operations" (L457-L458), and reference
// note 003 (§2.9) reads the merged ack as a global AND for barriers. The Elans use it so:
//  - a barrier: each PE's SPARC tells its Elan it has arrived; PE 0's Elan, once its own PE has arrived,
//    broadcasts a probe to every PE, and each Elan acks it only if its PE has arrived. A merged NACK
//    sends the probe again at once; a merged ACK sends the release, a broadcast every PE waits for;
//  - a broadcast: the root sends one packet to every PE (a block: one per am.packet_payload_bytes,
//    queued at once and paced by the Elan's window);
//  - a reduction: the values climb am's software tree to PE 0 (the switches replicate, they do not add),
//    and PE 0 broadcasts the total;
//  - a scan: am's software tree (a prefix differs per PE, which a broadcast cannot give).
// The switches' broadcasts take the canonical plane-0 tree (note 003 §2.10); they go on the reply layer
// when requests and replies each have a layer. Processor costs are am's: a send to start an operation,
// a receive to read a value, a poll to see a barrier's release or a DMA'd block (docs/cs2.md
// "Collectives", docs/assumptions.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "am/collectives.hpp"
#include "am/machine.hpp"
#include "machines/cs2/elan_endpoint.hpp"

namespace mppnet::machines::cs2 {

class ElanCollectives final : public am::Collectives, public BroadcastListener {
 public:
  // Listens to `endpoint`'s broadcasts; sends on `layer` with `overhead_bytes` of Elan overhead per
  // packet. REQUIRES: the endpoint's network replicates; all outlive this.
  ElanCollectives(ElanEndpoint& endpoint, am::Machine& machine, const am::AmParams& am, int layer,
                  int overhead_bytes);

  am::Task<am::Combined> run(am::Node& node, am::Collective what, std::uint64_t value, am::ReduceOp op,
                             NodeId root) override;
  am::Task<> broadcast_block(am::Node& node, NodeId root, std::span<std::byte> block) override;
  std::string path() const override;

  // Barrier probes sent (every barrier sends at least one) and the ones the merged ack refused.
  std::int64_t probes() const { return probes_; }
  std::int64_t refused_probes() const { return refused_probes_; }

  void on_copy(NodeId pe, std::uint64_t tag) override;
  void on_merged_ack(const net::Ack& a) override;

 private:
  enum class Kind : std::uint64_t { Data = 0, Probe = 1, Release = 2 };
  // One collective, from the first PE's call (or the first copy to arrive) until every PE is done.
  struct Round {
    std::vector<std::byte> data;  // what the root broadcasts, once it has
    std::vector<int> got;         // per PE: data or release packets drained there
    int left = 0;                 // PEs not yet done
    int acks_due = 0;             // a probe's packets whose merged ack is still out
    bool all_arrived = true;      // every probe copy so far found its PE arrived
  };

  Round& round(std::uint64_t seq);
  void finish(std::uint64_t seq, Round& r);
  void send(NodeId src, std::uint64_t seq, Kind kind, std::uint64_t index, int payload_bytes);
  void probe(std::uint64_t seq);
  // Every PE: the root sends `block` in `messages` packets of one sequence number, and each PE waits
  // for them all and copies them in.
  am::Task<> spread(am::Node& node, NodeId root, std::span<std::byte> block);
  am::Task<> barrier(am::Node& node);

  ElanEndpoint& endpoint_;
  am::Machine& machine_;
  am::AmParams am_;
  int layer_;
  int overhead_bytes_;
  std::map<std::uint64_t, Round> rounds_;  // by sequence number: a PE may run ahead of others
  std::vector<std::uint64_t> next_seq_;    // per PE: its next collective's sequence number
  std::vector<std::uint64_t> arrived_;     // per PE: 1 + the last barrier it arrived at
  std::int64_t probes_ = 0;
  std::int64_t refused_probes_ = 0;
  am::TreeCollectives software_;  // scans
};

}  // namespace mppnet::machines::cs2
