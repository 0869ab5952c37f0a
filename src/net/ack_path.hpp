// net/ack_path.hpp: end-to-end acknowledgements returned to a packet's source along its path, in reverse.
//
// Some machines acknowledge every packet in hardware: the Meiko CS-2's switches pass ack tokens back on
// the reverse direction of each link, through a return route of their own inside each switch, so that
// an ack is "never congested by data" (Meiko, CS-2 Communications Network Overview, 1993, L352-L353,
// L362-L364). Such an ack is a delay line, not a packet: it waits for nothing, so its arrival time is a
// function of the path alone (docs/assumptions.md, "Acknowledgements as a delay line"):
//
//   arrival = tail drained at the destination + turnaround + hops x router_cycles + (hops + 1) x
//             channel_cycles
//
// where hops is the routers the packet passed and hops + 1 the channels between its two nodes. The
// network posts one Ack record per delivered unicast packet and hands the records back in the cycle
// they arrive. Records live in a binary heap in one vector that grows only when more acks are in flight
// than ever before: no allocation per packet in the steady state, none per flit.
//
// A multicast gets one merged ack, not one per copy: a switch that broadcasts "recombine[s] the
// acknowledge or not-acknowledge tokens from each of the broadcast destinations" (L366-L369), sending
// one token up only when every branch has answered, ACK only if every branch ACKed (reference note 003
// §2.9). As a delay line that is: the merged ack is posted when the last copy is drained, and arrives
// at the latest of (copy drained + delay(copy's hops)) over the copies, since each branch's token
// reaches the source's side of the tree no earlier than its own path allows and the tree waits for the
// slowest. Its `nack` is set when any copy was drained at a refusing node. Open merges live in a pool
// of their own that, like the heap, grows only to the most ever open at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "net/packet.hpp"

namespace mppnet::net {

struct AckParams {
  bool enabled = false;
  int router_cycles = 0;      // per router on the way back (the Elite's 5 cycles)
  int channel_cycles = 0;     // per channel on the way back (hops + 1 of them)
  int turnaround_cycles = 0;  // at the destination, from its last flit to the ack leaving
  // Packets a node may have started and not yet had acknowledged, per virtual network; 0: no limit.
  // A node whose window is full keeps its queued packets until an ack comes back (the Elan's overlapped
  // acknowledgements: one packet being sent, one awaiting its ack).
  int window = 0;
};

// One packet's acknowledgement, as its source sees it. The packet itself has been released by the time
// its ack arrives, so the record carries what a source needs to match it.
struct Ack {
  PacketId packet = kNoPacket;  // the id the packet had (it may be reused since)
  NodeId src = -1;
  NodeId dest = -1;
  std::uint64_t tag = 0;
  std::int32_t vnet = 0;
  std::int32_t flits = 0;
  std::int32_t hops = 0;
  Cycle delivered = -1;     // the packet's tail was drained (a multicast: its last copy's)
  Cycle arrives = -1;       // the ack reaches the source
  std::int32_t copies = 1;  // the delivered packets this ack stands for (a multicast's copies)
  bool nack = false;        // a destination refused the packet (a multicast: at least one of them)
};

// The delay line of every ack in one network.
class AckPath {
 public:
  void configure(const AckParams& p) {
    MPPNET_ASSERT(p.router_cycles >= 0 && p.channel_cycles >= 0 && p.turnaround_cycles >= 0,
                  "negative ack delays");
    MPPNET_ASSERT(p.window >= 0 && (p.window == 0 || p.enabled), "a window needs acks to open it");
    params_ = p;
  }
  bool enabled() const { return params_.enabled; }
  const AckParams& params() const { return params_; }

  // Cycles from a packet's tail drained to its ack at the source, for a path through `hops` routers.
  // At least one: an ack arrives in a later cycle than its packet, as every delay in the network does.
  Cycle delay(int hops) const {
    const Cycle d = params_.turnaround_cycles + static_cast<Cycle>(hops) * params_.router_cycles +
                    static_cast<Cycle>(hops + 1) * params_.channel_cycles;
    return std::max<Cycle>(d, 1);
  }

  // Opens the merged ack of multicast packet `id`, for its one copy so far (the packet itself); the
  // caller stores the returned handle in the packet's ack_group before copying the packet.
  std::int32_t open_merge(PacketId id, const Packet& p) {
    std::int32_t g;
    if (free_merges_.empty()) {
      g = static_cast<std::int32_t>(merges_.size());
      merges_.emplace_back();
    } else {
      g = free_merges_.back();
      free_merges_.pop_back();
    }
    Merge& m = merges_[static_cast<std::size_t>(g)];
    m.ack = {id, p.src, p.dest, p.tag, p.vnet, p.flits, 0, -1, -1, 0, false};
    m.pending = 1;
    ++open_merges_;
    return g;
  }
  // `more` further copies of the packet will answer to merge `g`.
  void add_copies(std::int32_t g, int more) { merges_[static_cast<std::size_t>(g)].pending += more; }

  // Posts the ack of packet `id`, drained at `now`; `nack` when the node that drained it refused it.
  // A copy of a multicast answers to its merge instead, which posts one ack after its last copy.
  void post(PacketId id, const Packet& p, Cycle now, bool nack = false) {
    const Cycle arrives = now + delay(p.hops);
    if (p.ack_group < 0) {
      push({id, p.src, p.dest, p.tag, p.vnet, p.flits, p.hops, now, arrives, 1, nack});
      return;
    }
    Merge& m = merges_[static_cast<std::size_t>(p.ack_group)];
    MPPNET_ASSERT(m.pending > 0, "a multicast copy answered a merge that was complete");
    m.ack.delivered = std::max(m.ack.delivered, now);
    if (arrives > m.ack.arrives) {
      m.ack.arrives = arrives;
      m.ack.hops = p.hops;  // the path that decides the arrival
    }
    ++m.ack.copies;
    m.ack.nack |= nack;
    if (--m.pending > 0) return;
    push(m.ack);
    free_merges_.push_back(p.ack_group);
    --open_merges_;
  }

  // Moves the acks that arrive at `now` into arrived(), in the order they were posted among those of
  // one arrival cycle (so a run's results do not depend on the heap's layout).
  // REQUIRES: called once per cycle, with increasing `now`, before any post() of that cycle.
  void collect(Cycle now) {
    arrived_.clear();
    while (!heap_.empty() && heap_.front().ack.arrives <= now) {
      MPPNET_ASSERT(heap_.front().ack.arrives == now, "an ack was collected late");
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      arrived_.push_back(heap_.back().ack);
      heap_.pop_back();
    }
  }
  std::span<const Ack> arrived() const { return arrived_; }
  // Acks on their way back, and merges still waiting for copies.
  std::int64_t in_flight() const { return static_cast<std::int64_t>(heap_.size()) + open_merges_; }

 private:
  struct Entry {
    Ack ack;
    std::uint64_t order = 0;  // post order: ties in arrival time leave in this order
  };
  // std::push_heap keeps the largest on top; the top must be the earliest arrival, first posted.
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.ack.arrives != b.ack.arrives ? a.ack.arrives > b.ack.arrives : a.order > b.order;
    }
  };
  struct Merge {
    Ack ack;          // the merged record so far
    int pending = 0;  // copies not yet drained
  };
  void push(const Ack& a) {
    heap_.push_back({a, next_order_++});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  AckParams params_;
  std::vector<Entry> heap_;
  std::vector<Merge> merges_;
  std::vector<std::int32_t> free_merges_;
  std::int64_t open_merges_ = 0;
  std::vector<Ack> arrived_;
  std::uint64_t next_order_ = 0;
};

}  // namespace mppnet::net
