// machines/cm1/router.hpp: the CM-1/CM-2 router as a synchronous SIMD model, petit cycle by petit cycle.
//
// Source: Kahle, Kuszmaul, Hillis, "The Connection Machine Message Router" (TMC 1989), sec. 3 (seed 001
// lines 55-157), following reference note 001 §4.2-§4.5 and the choices of its §6 (docs/cm1.md). Every chip
// runs in lockstep: inject (fill the B slots, buffered messages first), one pass through the heart
// (columns 0..c-1; in column i the lowest row wanting dimension i crosses, or the highest row is
// desperation-routed when all B rows are full), eject (arrived messages to their processors, OR'ed per
// processor). Petit cycles repeat until every message is delivered (global OR, note §6 A7) or a timeout.
//
// Layout: one 64-byte line of 8 row entries per chip; an entry packs the relative address, the carried
// parity, the hop count, the destination processor and VP bank, and the message index (see router.cpp).
// Nothing is allocated inside a petit cycle. CM-2 combining (`combining`) folds messages for one VP.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "machines/cm1/params.hpp"
#include "machines/cm1/patterns.hpp"

namespace mppnet::machines::cm1 {

inline constexpr int kMaxRows = 8;

// The outcome of one routing instruction (delivery cycle).
struct RoutingStats {
  std::int64_t petit_cycles = 0;  // including those spent before a livelock timeout
  bool terminated = true;         // false: a timeout fired and (after any splits) messages remain
  int splits = 0;                 // halvings after a timeout (paper L155)
  std::int64_t messages = 0;      // messages in the instruction
  std::int64_t delivered = 0;
  std::int64_t transmissions = 0;  // channel-slots (chip x dimension x petit cycle) with MSGP = 1
  std::int64_t productive = 0;     // of which crossed a dimension the message wanted
  std::int64_t desperation = 0;    // of which were desperation-routed
  std::int64_t channel_slots = 0;  // chips x dims x petit cycles
  std::int64_t combined = 0;       // messages folded into another one by CM-2 combining
  std::int64_t or_combined = 0;  // messages OR'ed into a processor that already received one that petit cycle
  std::int64_t latency_sum = 0;  // sum over delivered messages of (delivery - injection + 1) petit cycles
  std::int64_t invariant_violations = 0;      // counted only with check_invariants
  std::vector<std::int64_t> remaining_after;  // undelivered messages after each petit cycle
};

class Router {
 public:
  // REQUIRES: parameters that passed check_cm1 (dims 2..12, rows 1..8, powers of two, vp_ratio <= 256).
  Router(const MachineParams& machine, const RouterParams& router, int vp_ratio);

  // Routes dst[s] from every source VP s (kNoMessage: s sends nothing) until all are delivered.
  // REQUIRES: dst.size() == vp count; every destination is a VP.
  RoutingStats route(std::span<const std::uint32_t> dst);
  // As route(dst), but message s is injected by physical processor origin[s] instead of its own (s mod
  // processors): the reply phase of a read, whose replies start at a target or at a combining point.
  // REQUIRES: origin.size() == vp count; every origin[s] of a message is a physical processor.
  RoutingStats route(std::span<const std::uint32_t> dst, std::span<const std::uint32_t> origin);

  // Called after every petit cycle with its number (1-based); for tests and traces.
  void set_observer(std::function<void(const Router&, std::int64_t)> f) { observer_ = std::move(f); }

  // After route(): per source VP, the petit cycle of delivery (0: not delivered or not sent) and hops
  // (mod 4096; with combining, a folded message gets its carrier's).
  std::span<const std::int32_t> delivered_at() const { return deliver_pc_; }
  std::span<const std::uint16_t> hops() const { return hops_; }
  // After route(): per destination VP, the OR of the data of every message delivered to it.
  std::span<const std::uint64_t> received() const { return received_; }
  // After route() with combining: per source VP, the message it was folded into (kNoMessage: it travelled
  // itself) and the chip where that happened. Folding forms a tree per delivered carrier; a read's reply
  // retraces it (run_read in operations.hpp).
  std::span<const std::uint32_t> folded_into() const { return folded_into_; }
  std::span<const std::int32_t> folded_at_chip() const { return folded_at_chip_; }

  // State between petit cycles (what the observer sees): the source VP in each row of a chip, -1 if empty.
  std::vector<std::int64_t> rows_of(std::int32_t chip) const;
  std::int32_t chips() const { return chips_; }
  int rows() const { return rows_; }
  std::uint64_t data_of(std::uint32_t src_vp) const { return src_vp & data_mask_; }

 private:
  // One delivery attempt of the messages with active[s]; returns false on timeout.
  bool run(std::span<const std::uint32_t> dst, RoutingStats& st);
  void inject(std::int64_t pc, RoutingStats& st);
  bool combine(std::int32_t chip, std::uint64_t* r, int n, std::uint64_t e, RoutingStats& st);
  void heart(RoutingStats& st);
  void eject(std::int64_t pc, RoutingStats& st);
  std::uint64_t decide(std::int32_t chip, int column, RoutingStats& st);
  void check_after_petit_cycle(RoutingStats& st) const;

  MachineParams machine_;
  RouterParams params_;
  int vp_ratio_;
  int dims_;
  std::int32_t chips_;
  int procs_per_chip_;
  int proc_bits_;        // log2(processors)
  std::uint32_t procs_;  // physical processors
  std::uint32_t vps_;
  int rows_;
  std::uint64_t data_mask_;
  std::int64_t timeout_;

  std::span<const std::uint32_t> dst_;
  std::span<const std::uint32_t> origin_;     // empty: every message starts at its own processor
  std::vector<std::uint64_t> row_;            // chips x kMaxRows entries
  std::vector<std::uint8_t> count_;           // messages per chip while in the heart
  std::vector<std::uint8_t> arrived_last_;    // the last list entry arrived over dimension c-1 (row B-1)
  std::vector<std::uint64_t> queue_;          // per processor, v slots: (source VP << 32) | destination VP
  std::vector<std::uint32_t> queue_start_;    // per processor: its first slot in queue_
  std::vector<std::uint32_t> queue_length_;   // per processor: messages it sends
  std::vector<std::uint32_t> next_in_queue_;  // per processor: the next one to offer
  std::vector<std::uint16_t> desperation_;    // per message: desperation hops (only with check_invariants)
  std::vector<std::uint16_t> waiting_;        // per chip: processors with a message still to inject
  std::vector<std::int32_t> inject_pc_;
  std::vector<std::int32_t> deliver_pc_;
  std::vector<std::uint16_t> hops_;
  std::vector<std::uint64_t> received_;
  std::int64_t undelivered_ = 0;
  std::int64_t not_injected_ = 0;
  std::int64_t combined_in_flight_ = 0;       // folded messages not yet delivered
  std::vector<std::uint32_t> next_combined_;  // per message: the next one folded into its carrier
  std::vector<std::uint32_t> tail_combined_;  // per carrier: the last message of its chain
  std::vector<std::uint32_t> folded_into_;    // per message: the one it was folded into, or kNoMessage
  std::vector<std::int32_t> folded_at_chip_;  // per message: where it was folded
  std::function<void(const Router&, std::int64_t)> observer_;
};

}  // namespace mppnet::machines::cm1
