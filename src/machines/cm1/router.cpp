// machines/cm1/router.cpp: inject, heart and eject of the CM-1/CM-2 router (note 001 §4.2-§4.5).
#include "machines/cm1/router.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"

namespace mppnet::machines::cm1 {

namespace {

// A row entry: bits 0..11 relative cube address (c <= 12), bit 12 the carried PARITY, bits 13..15 zero,
// bits 16..27 hops (mod 4096), bits 28..31 the destination's processor on its chip and 32..39 its VP bank
// (so the ejector and combining need no lookup), bits 40..63 the message index (its source VP). kEmpty has
// bits 13..15 set, so no entry equals it.
constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
constexpr std::uint64_t kParity = std::uint64_t{1} << 12;
constexpr int kHopShift = 16;
constexpr int kLocalShift = 28;
constexpr int kBankShift = 32;
constexpr int kMsgShift = 40;
constexpr std::uint64_t kHopMask = std::uint64_t{0xfff} << kHopShift;
constexpr std::uint64_t kDestMask = std::uint64_t{0xfff} << kLocalShift;  // local processor and bank

constexpr std::uint32_t msg_of(std::uint64_t e) {
  return static_cast<std::uint32_t>(e >> kMsgShift);
}
constexpr int hops_of(std::uint64_t e) {
  return static_cast<int>((e & kHopMask) >> kHopShift);
}
constexpr std::uint32_t local_of(std::uint64_t e) {
  return static_cast<std::uint32_t>((e >> kLocalShift) & 0xf);
}
constexpr std::uint32_t bank_of(std::uint64_t e) {
  return static_cast<std::uint32_t>((e >> kBankShift) & 0xff);
}
constexpr std::uint64_t bump_hops(std::uint64_t e) {
  return (e & ~kHopMask) | ((e + (std::uint64_t{1} << kHopShift)) & kHopMask);
}

int parity_of(std::uint64_t x) {
  return std::popcount(x) & 1;
}

}  // namespace

Router::Router(const MachineParams& machine, const RouterParams& router, int vp_ratio)
    : machine_(machine),
      params_(router),
      vp_ratio_(vp_ratio),
      dims_(machine.dims),
      chips_(std::int32_t{1} << machine.dims),
      procs_per_chip_(machine.procs_per_chip),
      proc_bits_(machine.dims + std::countr_zero(static_cast<unsigned>(machine.procs_per_chip))),
      procs_(std::uint32_t{1} << proc_bits_),
      vps_(procs_ * static_cast<std::uint32_t>(vp_ratio)),
      rows_(router.rows),
      data_mask_(router.data_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << router.data_bits) - 1),
      timeout_(router.timeout_petit_cycles > 0 ? router.timeout_petit_cycles
                                               : 1000 + 800 * std::int64_t{vp_ratio}) {
  MPPNET_ASSERT(dims_ >= 1 && dims_ <= 12, "dims out of the entry's 12 address bits");
  MPPNET_ASSERT(rows_ >= 1 && rows_ <= kMaxRows, "rows out of range");
  MPPNET_ASSERT(std::uint64_t{vps_} <= (std::uint64_t{1} << 24), "VPs exceed the entry's 24 index bits");
  MPPNET_ASSERT(procs_per_chip_ <= 16, "the ejector keeps a 16-bit mask of processors");
}

std::vector<std::int64_t> Router::rows_of(std::int32_t chip) const {
  std::vector<std::int64_t> out(static_cast<std::size_t>(rows_), -1);
  for (int s = 0; s < rows_; ++s) {
    const std::uint64_t e = row_[static_cast<std::size_t>(chip) * kMaxRows + s];
    if (e != kEmpty) out[static_cast<std::size_t>(s)] = msg_of(e);
  }
  return out;
}

RoutingStats Router::route(std::span<const std::uint32_t> dst) {
  return route(dst, {});
}

RoutingStats Router::route(std::span<const std::uint32_t> dst, std::span<const std::uint32_t> origin) {
  MPPNET_ASSERT(dst.size() == vps_, "one destination per source VP");
  MPPNET_ASSERT(origin.empty() || origin.size() == vps_, "one origin per source VP");
  origin_ = origin;
  RoutingStats st;
  if (params_.combining) {
    folded_into_.assign(vps_, kNoMessage);
    folded_at_chip_.assign(vps_, -1);
  }
  inject_pc_.assign(vps_, 0);
  deliver_pc_.assign(vps_, 0);
  hops_.assign(vps_, 0);
  received_.assign(vps_, 0);
  for (const auto d : dst) {
    if (d == kNoMessage) continue;
    MPPNET_ASSERT(d < vps_, "destination is not a VP");
    ++st.messages;
  }

  // Attempts: the whole set first; after a timeout, each half, recursively (paper L155).
  struct Attempt {
    std::vector<std::uint32_t> dst;
    int depth;
  };
  std::vector<Attempt> todo;
  if (!run(dst, st)) {
    std::vector<std::uint32_t> all(dst.begin(), dst.end());
    todo.push_back({std::move(all), 0});
  }
  while (!todo.empty()) {
    Attempt a = std::move(todo.back());
    todo.pop_back();
    if (a.depth >= params_.max_splits) {
      st.terminated = false;
      continue;
    }
    ++st.splits;
    std::vector<std::uint32_t> first(a.dst.size(), kNoMessage), second(a.dst.size(), kNoMessage);
    std::int64_t n = 0;
    for (const auto d : a.dst) n += d != kNoMessage;
    std::int64_t k = 0;
    for (std::size_t s = 0; s < a.dst.size(); ++s) {
      if (a.dst[s] == kNoMessage) continue;
      (k++ < (n + 1) / 2 ? first : second)[s] = a.dst[s];
    }
    // Second half pushed first, so the first half runs first.
    for (auto* half : {&second, &first}) {
      if (!run(*half, st)) todo.push_back({std::move(*half), a.depth + 1});
    }
  }
  // Delivered = messages whose final attempt delivered them.
  st.delivered = 0;
  for (std::uint32_t s = 0; s < vps_; ++s) st.delivered += dst[s] != kNoMessage && deliver_pc_[s] > 0;
  return st;
}

bool Router::run(std::span<const std::uint32_t> dst, RoutingStats& st) {
  dst_ = dst;
  row_.assign(static_cast<std::size_t>(chips_) * kMaxRows, kEmpty);
  count_.assign(static_cast<std::size_t>(chips_), 0);
  arrived_last_.assign(static_cast<std::size_t>(chips_), 0);
  // Each processor's messages in VP-bank order, stored processor by processor so that injection reads
  // them sequentially: (source VP << 32) | destination VP.
  // With an origin per message a processor may send more than v (a read's target replying to many).
  queue_.resize(vps_);
  queue_start_.assign(procs_, 0);
  queue_length_.assign(procs_, 0);
  next_in_queue_.assign(procs_, 0);
  waiting_.assign(static_cast<std::size_t>(chips_), 0);
  const auto origin_of = [&](std::uint32_t src) {
    return origin_.empty() ? src & (procs_ - 1) : origin_[src];
  };
  for (std::uint32_t src = 0; src < vps_; ++src)
    if (dst[src] != kNoMessage) ++queue_length_[origin_of(src)];
  std::uint32_t start = 0;
  for (std::uint32_t p = 0; p < procs_; ++p) {
    queue_start_[p] = start;
    start += queue_length_[p];
    queue_length_[p] = 0;
  }
  undelivered_ = 0;
  for (std::uint32_t src = 0; src < vps_; ++src) {  // VP-bank order within each processor
    if (dst[src] == kNoMessage) continue;
    const std::uint32_t p = origin_of(src);
    queue_[queue_start_[p] + queue_length_[p]++] = (std::uint64_t{src} << 32) | dst[src];
    deliver_pc_[src] = 0;
    if (params_.combining) folded_into_[src] = kNoMessage;
    ++undelivered_;
  }
  for (std::uint32_t p = 0; p < procs_; ++p)
    if (queue_length_[p] > 0) ++waiting_[p / static_cast<std::uint32_t>(procs_per_chip_)];
  if (params_.check_invariants) desperation_.assign(vps_, 0);
  not_injected_ = undelivered_;
  combined_in_flight_ = 0;
  if (params_.combining) {
    next_combined_.assign(vps_, kNoMessage);
    tail_combined_.resize(vps_);
    for (std::uint32_t s = 0; s < vps_; ++s) tail_combined_[s] = s;
  }
  if (undelivered_ == 0) return true;

  for (std::int64_t pc = 1;; ++pc) {
    const std::int64_t global_pc = st.petit_cycles + 1;
    inject(global_pc, st);
    heart(st);
    eject(global_pc, st);
    st.petit_cycles = global_pc;
    st.channel_slots += std::int64_t{chips_} * dims_;
    st.remaining_after.push_back(undelivered_);
    if (params_.check_invariants) check_after_petit_cycle(st);
    if (observer_) observer_(*this, global_pc);
    if (undelivered_ == 0) return true;
    if (pc >= timeout_) return false;
  }
}

// CM-2 combining (paper L320; note §6 A19): a message meeting, at the same chip, one with the same relative
// address and the same destination VP is folded into it and delivered with it. `r` holds `n` slots, some
// possibly empty. Returns whether `e` was folded.
bool Router::combine(std::int32_t chip, std::uint64_t* r, int n, std::uint64_t e, RoutingStats& st) {
  const std::uint64_t cube_mask = (std::uint64_t{1} << dims_) - 1;
  const std::uint32_t m = msg_of(e);
  for (int k = 0; k < n; ++k) {
    // Same relative address at the same chip and same processor and bank: the same destination VP.
    if (r[k] == kEmpty || ((r[k] ^ e) & (cube_mask | kDestMask)) != 0) continue;
    const std::uint32_t head = msg_of(r[k]);
    next_combined_[tail_combined_[head]] = m;
    folded_into_[m] = head;
    folded_at_chip_[m] = chip;
    tail_combined_[head] = tail_combined_[m];
    ++combined_in_flight_;
    ++st.combined;
    return true;
  }
  return false;
}

void Router::inject(std::int64_t pc, RoutingStats& st) {
  const int procs_per_chip = procs_per_chip_;
  const int start =
      params_.injector_priority == InjectorPriority::Rotating ? static_cast<int>(pc % procs_per_chip) : 0;
  const std::uint32_t cube_mask = (std::uint32_t{1} << dims_) - 1;
  const int local_bits = proc_bits_ - dims_;
  for (std::int32_t x = 0; x < chips_; ++x) {
    std::uint64_t* r = &row_[static_cast<std::size_t>(x) * kMaxRows];
    if (params_.buffered_rows == BufferedRows::Repack) {
      int k = 0;
      for (int s = 0; s < rows_; ++s)
        if (r[s] != kEmpty) r[k++] = r[s];
      for (int s = k; s < rows_; ++s) r[s] = kEmpty;
    }
    if (waiting_[static_cast<std::size_t>(x)] > 0) {
      // The 2-D priority chain (note §6 A3): the lowest empty slot takes the first waiting processor in
      // priority order; each processor offers at most one message (its next VP bank) per petit cycle.
      const std::uint32_t base = static_cast<std::uint32_t>(x) * static_cast<std::uint32_t>(procs_per_chip);
      int s = 0;  // the lowest slot that may be empty
      for (int q = 0; q < procs_per_chip; ++q) {
        while (s < rows_ && r[s] != kEmpty) ++s;
        if (s == rows_) break;
        const std::uint32_t p = base + static_cast<std::uint32_t>((start + q) & (procs_per_chip - 1));
        auto& next = next_in_queue_[p];
        if (next >= queue_length_[p]) continue;
        const std::uint64_t queued = queue_[queue_start_[p] + next];
        const auto src = static_cast<std::uint32_t>(queued >> 32);
        const auto d = static_cast<std::uint32_t>(queued);
        const std::uint32_t dst_chip = (d & (procs_ - 1)) >> local_bits;
        const std::uint32_t rel = (static_cast<std::uint32_t>(x) ^ dst_chip) & cube_mask;
        const std::uint32_t local = d & ((std::uint32_t{1} << local_bits) - 1);
        const std::uint32_t bank = d >> proc_bits_;
        // Even parity over CUBE, PROC, VP and DATA (note §6 A10).
        const int parity = parity_of(rel) ^ parity_of(local) ^ parity_of(bank) ^ parity_of(data_of(src));
        const std::uint64_t e = rel | (parity ? kParity : 0) | (std::uint64_t{local} << kLocalShift) |
                                (std::uint64_t{bank} << kBankShift) | (std::uint64_t{src} << kMsgShift);
        // No processor injects twice in a petit cycle (note §5 E12): its previous message went earlier.
        if (params_.check_invariants && next > 0 &&
            inject_pc_[static_cast<std::uint32_t>(queue_[queue_start_[p] + next - 1] >> 32)] == pc)
          ++st.invariant_violations;
        inject_pc_[src] = static_cast<std::int32_t>(pc);
        --not_injected_;
        if (++next == queue_length_[p]) --waiting_[static_cast<std::size_t>(x)];
        if (params_.combining && combine(x, r, rows_, e, st)) continue;  // acknowledged; the slot stays free
        r[s] = e;
      }
    }
    // Into the heart: the occupied rows in row order (decisions depend only on order and count).
    int k = 0;
    for (int s = 0; s < rows_; ++s)
      if (r[s] != kEmpty) r[k++] = r[s];
    count_[static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(k);
    arrived_last_[static_cast<std::size_t>(x)] = 0;
  }
}

// Column `column` at chip `chip` (note §4.4, paper L131-L147). The chip's messages sit in list order
// (rows packed low, an arrival last). Removes and returns the message that crosses, or kEmpty.
std::uint64_t Router::decide(std::int32_t chip, int column, RoutingStats& st) {
  std::uint8_t& n = count_[static_cast<std::size_t>(chip)];
  if (n == 0) return kEmpty;
  std::uint64_t* r = &row_[static_cast<std::size_t>(chip) * kMaxRows];
  int k = 0;
  if (params_.pipeline == Pipeline::DropBits) {
    // Oblivious e-cube (paper L212): only a message that needs no dimension below `column` may cross it.
    const std::uint64_t below = (std::uint64_t{1} << column) - 1;
    while (k < n && (((r[k] >> column) & 1) == 0 || (r[k] & below) != 0)) ++k;
  } else {
    while (k < n && ((r[k] >> column) & 1) == 0) ++k;
  }
  std::uint64_t out;
  if (k < n) {  // case 1: the lowest row that wants dimension `column` crosses
    out = r[k];
    for (int j = k; j + 1 < n; ++j) r[j] = r[j + 1];
    ++st.productive;
  } else if (n == rows_) {  // case 3: full and nobody may cross: the highest row is desperation-routed
    out = r[n - 1];
    ++st.desperation;
    if (params_.check_invariants) ++desperation_[msg_of(out)];
  } else {  // case 2: nothing crosses
    return kEmpty;
  }
  --n;
  // The crossing flips address bit `column` and inverts PARITY (paper L91, L99; note §6 A9).
  return bump_hops(out ^ (std::uint64_t{1} << column) ^ kParity);
}

void Router::heart(RoutingStats& st) {
  for (int i = 0; i < dims_; ++i) {
    const std::int32_t bit = std::int32_t{1} << i;
    const bool last = i == dims_ - 1;
    for (std::int32_t hi = 0; hi < chips_; hi += 2 * bit) {
      for (std::int32_t x = hi; x < hi + bit; ++x) {
        const std::int32_t y = x | bit;
        // Both ends decide on what they held before this column; then each receives the other's message
        // into its highest row, which the decision left free.
        const std::uint64_t from_x = decide(x, i, st);
        const std::uint64_t from_y = decide(y, i, st);
        // Row B-1 is free after every decision (paper L147): counted here, asserted below.
        if (params_.check_invariants)
          st.invariant_violations +=
              (count_[static_cast<std::size_t>(x)] >= rows_) + (count_[static_cast<std::size_t>(y)] >= rows_);
        if (from_y != kEmpty &&
            !(params_.combining && combine(x, &row_[static_cast<std::size_t>(x) * kMaxRows],
                                           count_[static_cast<std::size_t>(x)], from_y, st))) {
          auto& n = count_[static_cast<std::size_t>(x)];
          MPPNET_ASSERT(n < rows_, "row B-1 not free for an arriving message");
          row_[static_cast<std::size_t>(x) * kMaxRows + n++] = from_y;
          if (last) arrived_last_[static_cast<std::size_t>(x)] = 1;
        }
        if (from_x != kEmpty &&
            !(params_.combining && combine(y, &row_[static_cast<std::size_t>(y) * kMaxRows],
                                           count_[static_cast<std::size_t>(y)], from_x, st))) {
          auto& n = count_[static_cast<std::size_t>(y)];
          MPPNET_ASSERT(n < rows_, "row B-1 not free for an arriving message");
          row_[static_cast<std::size_t>(y) * kMaxRows + n++] = from_x;
          if (last) arrived_last_[static_cast<std::size_t>(y)] = 1;
        }
      }
    }
  }
  st.transmissions = st.productive + st.desperation;
}

void Router::eject(std::int64_t pc, RoutingStats& st) {
  const std::uint64_t cube_mask = (std::uint64_t{1} << dims_) - 1;
  const bool one_bank = params_.vp_ejection == VpEjection::OneBank;
  const std::uint32_t bank_now = static_cast<std::uint32_t>((pc - 1) % vp_ratio_);
  const EjectLimit limit = params_.eject_limit;
  for (std::int32_t x = 0; x < chips_; ++x) {
    std::uint64_t* r = &row_[static_cast<std::size_t>(x) * kMaxRows];
    const int n = count_[static_cast<std::size_t>(x)];
    if (n == 0) {
      std::fill(r, r + kMaxRows, kEmpty);
      continue;
    }
    // Back from list order to physical rows: packed rows 0..n-1, except that a message that arrived over
    // the last dimension sits in row B-1 (paper L135).
    std::uint64_t slot[kMaxRows];
    std::fill(slot, slot + kMaxRows, kEmpty);
    for (int k = 0; k < n; ++k) {
      const bool arrival = k == n - 1 && arrived_last_[static_cast<std::size_t>(x)];
      slot[arrival ? rows_ - 1 : k] = r[k];
    }
    const std::uint32_t chip_base = static_cast<std::uint32_t>(x) << (proc_bits_ - dims_);
    std::uint32_t got = 0;  // processors that received a message this petit cycle
    bool any = false;
    for (int s = 0; s < rows_; ++s) {
      const std::uint64_t e = slot[s];
      if (e == kEmpty || (e & cube_mask) != 0) continue;
      if (limit == EjectLimit::OnePerChip && any) continue;
      const std::uint32_t m = msg_of(e);
      if (one_bank && bank_of(e) != bank_now) continue;
      const std::uint32_t d = (bank_of(e) << proc_bits_) | chip_base | local_of(e);
      const std::uint32_t proc_bit = std::uint32_t{1} << local_of(e);
      if (got & proc_bit) {
        if (limit == EjectLimit::OnePerProcessor) continue;
        ++st.or_combined;  // the ejector ORs two bitstreams switched to one processor (paper L113)
      }
      got |= proc_bit;
      any = true;
      // With combining, the messages folded into this one are delivered with it (their hop counts are
      // the carrier's).
      for (std::uint32_t c = m;; c = next_combined_[c]) {
        received_[d] |= data_of(c);
        deliver_pc_[c] = static_cast<std::int32_t>(pc);
        hops_[c] = static_cast<std::uint16_t>(hops_of(e));
        st.latency_sum += pc - inject_pc_[c] + 1;
        --undelivered_;
        if (c != m) --combined_in_flight_;
        if (!params_.combining || c == tail_combined_[m]) break;
      }
      slot[s] = kEmpty;
    }
    std::copy(slot, slot + kMaxRows, r);
  }
}

// Note §5 E12: conservation, at most B per chip, chip ^ rel == destination chip, parity, hop counts.
void Router::check_after_petit_cycle(RoutingStats& st) const {
  const int local_bits = proc_bits_ - dims_;
  const std::uint64_t cube_mask = (std::uint64_t{1} << dims_) - 1;
  std::int64_t in_rows = 0;
  for (std::int32_t x = 0; x < chips_; ++x) {
    int here = 0;
    for (int s = 0; s < kMaxRows; ++s) {
      const std::uint64_t e = row_[static_cast<std::size_t>(x) * kMaxRows + s];
      if (e == kEmpty) continue;
      ++here;
      if (s >= rows_) ++st.invariant_violations;
      const std::uint32_t m = msg_of(e);
      const std::uint32_t d = dst_[m];
      const std::uint32_t dst_chip = (d & (procs_ - 1)) >> local_bits;
      const std::uint32_t src_chip = ((origin_.empty() ? m : origin_[m]) & (procs_ - 1)) >> local_bits;
      const auto rel = static_cast<std::uint32_t>(e & cube_mask);
      if ((static_cast<std::uint32_t>(x) ^ rel) != dst_chip) ++st.invariant_violations;
      const std::uint32_t local = d & ((std::uint32_t{1} << local_bits) - 1);
      if (local_of(e) != local || bank_of(e) != (d >> proc_bits_)) ++st.invariant_violations;
      const int parity =
          parity_of(rel) ^ parity_of(local) ^ parity_of(d >> proc_bits_) ^ parity_of(data_of(m));
      if (parity != ((e & kParity) ? 1 : 0)) ++st.invariant_violations;
      // hops = popcount(rel0) - popcount(rel) + 2 * desperation hops (mod 4096).
      const int rel0 = std::popcount(src_chip ^ dst_chip);
      if (((rel0 - std::popcount(rel) + 2 * desperation_[m] - hops_of(e)) & 0xfff) != 0)
        ++st.invariant_violations;
    }
    if (here > rows_) ++st.invariant_violations;
    in_rows += here;
  }
  if (in_rows + combined_in_flight_ + not_injected_ != undelivered_) ++st.invariant_violations;
}

}  // namespace mppnet::machines::cm1
