// machines/cm5/control_network.cpp: the control network's tree, its NIs and its slot-by-slot climb.
#include "machines/cm5/control_network.hpp"

#include <bit>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"

namespace mppnet::machines::cm5 {

int max_broadcast_words(BroadcastKind kind) {
  // User and supervisor sizes are the paper's (L496-497); interrupt and utility are not given: an
  // interrupt carries one word, a utility broadcast is privileged like a supervisor one (assumptions.md).
  switch (kind) {
    case BroadcastKind::User:
      return 8;
    case BroadcastKind::Supervisor:
    case BroadcastKind::Utility:
      return 4;
    case BroadcastKind::Interrupt:
      return 1;
  }
  return 0;
}

const char* broadcast_kind_name(BroadcastKind kind) {
  switch (kind) {
    case BroadcastKind::User:
      return "user";
    case BroadcastKind::Supervisor:
      return "supervisor";
    case BroadcastKind::Interrupt:
      return "interrupt";
    case BroadcastKind::Utility:
      return "utility";
  }
  return "?";
}

namespace {

// The message is formatted only when the check fails: pushes and pops call this for every packet.
template <typename... Args>
[[noreturn, gnu::cold, gnu::noinline]] void fail(fmt::format_string<Args...> what, Args&&... args) {
  throw std::invalid_argument("control network: " + fmt::format(what, std::forward<Args>(args)...));
}

template <typename... Args>
void require(bool ok, fmt::format_string<Args...> what, Args&&... args) {
  if (!ok) [[unlikely]]
    fail(what, std::forward<Args>(args)...);
}

}  // namespace

ControlNetwork::ControlNetwork(const ControlNetworkParams& params) : params_(params), leaves_(params.leaves) {
  require(params.leaves >= 2, "a partition of {} leaves; it needs at least 2", params.leaves);
  require(params.slot_cycles >= 1, "slot_cycles = {}; it must be at least 1", params.slot_cycles);
  require(params.level_delay_cycles >= 0, "level_delay_cycles = {}; it must be at least 0",
          params.level_delay_cycles);
  require(params.queue_packets >= 1, "queue_packets = {}; it must be at least 1", params.queue_packets);
  require(params.ni_fifo_packets >= kMaxCombineWords,
          "ni_fifo_packets = {}; it must hold a widest operand ({} words)", params.ni_fifo_packets,
          kMaxCombineWords);
  height_ = leaves_ == 1 ? 0 : std::bit_width(static_cast<unsigned>(leaves_ - 1));
  first_leaf_ = 1 << height_;
  const std::size_t n = 2 * static_cast<std::size_t>(first_leaf_);
  node_.assign(n, {});
  for (int k = 0; k < kOpClasses; ++k) {
    participants_[k].assign(n, 0);
    for (int leaf = 0; leaf < leaves_; ++leaf) {
      for (int v = leaf_node(leaf); v >= 1; v >>= 1) ++participants_[k][v];
    }
  }
  for (std::size_t v = 2; v < n; ++v) update_abstaining(static_cast<int>(v));
  ss_slot_.assign(n, -1);
  active_by_depth_.resize(static_cast<std::size_t>(height_) + 1);
  mapped_out_.assign(static_cast<std::size_t>(leaves_), false);
  leaf_.resize(static_cast<std::size_t>(leaves_));
  for (int c = 0; c < 2; ++c) {
    async_bits_[c].assign(static_cast<std::size_t>(leaves_), 0);
    async_changes_[c].push_back({-1, false});
    async_interrupt_from_[c].assign(static_cast<std::size_t>(leaves_), std::numeric_limits<Cycle>::max());
  }
  router_done_packet_.k = OpClass::RouterDone;
}

int ControlNetwork::depth_of(int node) const {
  return std::bit_width(static_cast<unsigned>(node)) - 1;
}

void ControlNetwork::push(Queue& q, std::uint32_t id) {
  packets_[id].next = kNone;
  if (q.tail == kNone) {
    q.head = id;
  } else {
    packets_[q.tail].next = id;
  }
  q.tail = id;
  ++q.size;
}

std::uint32_t ControlNetwork::pop_front(Queue& q) {
  const std::uint32_t id = q.head;
  q.head = packets_[id].next;
  if (q.head == kNone) q.tail = kNone;
  --q.size;
  return id;
}

// The parent of `child` keeps, per class, whether that child's subtree has anyone taking part.
void ControlNetwork::update_abstaining(int child) {
  std::uint8_t& mask = node_[child >> 1].abstaining;
  for (int c = 0; c < kOpClasses; ++c) {
    const auto bit = static_cast<std::uint8_t>(1u << (2 * c + (child & 1)));
    mask = participants_[c][child] == 0 ? mask | bit : mask & ~bit;
  }
}

void ControlNetwork::activate(int node) {
  if (node_[node].active) return;
  node_[node].active = 1;
  active_by_depth_[static_cast<std::size_t>(depth_of(node))].push_back(node);
}

// ---- Configuration.

void ControlNetwork::set_abstain(int leaf, OpClass k, bool on) {
  require(leaf >= 0 && leaf < leaves_, "set_abstain: leaf {} of a {}-leaf partition", leaf, leaves_);
  const auto c = static_cast<std::size_t>(k);
  if (abstains(leaf, k) == on) return;
  if (mapped_out_[leaf]) return;  // mapped out stays out
  for (int v = leaf_node(leaf); v >= 1; v >>= 1) {
    participants_[c][v] += on ? -1 : 1;
    if (v > 1) update_abstaining(v);
  }
}

bool ControlNetwork::abstains(int leaf, OpClass k) const {
  return participants_[static_cast<std::size_t>(k)][leaf_node(leaf)] == 0;
}

void ControlNetwork::map_out(int leaf) {
  require(leaf >= 0 && leaf < leaves_, "map_out: leaf {} of a {}-leaf partition", leaf, leaves_);
  for (int k = 0; k < kOpClasses; ++k) set_abstain(leaf, static_cast<OpClass>(k), true);
  mapped_out_[leaf] = true;
}

// ---- Pushes.

// The interface keeps the operation until software pops its result; its words wait in the outgoing
// FIFO until the leaf's link takes them (inject).
bool ControlNetwork::push_op(int leaf, OpClass k, const CombinePush& p) {
  LeafOps& lo = leaf_ops_[static_cast<std::size_t>(k)];
  if (lo.capacity == 0) grow(lo);
  if (flushed_ || lo.queued_words[leaf] + p.count > params_.ni_fifo_packets) return false;
  if (lo.pushed[leaf] - lo.popped[leaf] == lo.capacity) grow(lo);
  const std::size_t i = at(lo, leaf, lo.pushed[leaf]++);
  lo.pushes[i] = {p.words, p.kind, p.op, static_cast<std::uint8_t>(p.count), p.segment_start};
  lo.results[i] = {};
  lo.queued_words[leaf] += p.count;
  activate(leaf_node(leaf) >> 1);  // its parent takes the words from the FIFO
  return true;
}

// Doubles every leaf's ring (all share one capacity); rare: a ring holds what is pushed and not popped.
void ControlNetwork::grow(LeafOps& lo) {
  const auto n = static_cast<std::size_t>(leaves_);
  if (lo.capacity == 0) {
    lo.popped.assign(n, 0);
    lo.arrived.assign(n, 0);
    lo.injected.assign(n, 0);
    lo.pushed.assign(n, 0);
    lo.inject_word.assign(n, 0);
    lo.queued_words.assign(n, 0);
  }
  LeafOps bigger;
  bigger.capacity = lo.capacity == 0 ? 4 : 2 * lo.capacity;
  bigger.pushes.resize(bigger.capacity * n);
  bigger.results.resize(bigger.capacity * n);
  for (int leaf = 0; leaf < leaves_; ++leaf) {
    for (std::uint32_t i = lo.popped[leaf]; i != lo.pushed[leaf]; ++i) {
      bigger.pushes[at(bigger, leaf, i)] = lo.pushes[at(lo, leaf, i)];
      bigger.results[at(bigger, leaf, i)] = lo.results[at(lo, leaf, i)];
    }
  }
  lo.capacity = bigger.capacity;
  lo.pushes = std::move(bigger.pushes);
  lo.results = std::move(bigger.results);
}

bool ControlNetwork::push_combine(int leaf, const CombinePush& p) {
  require(leaf >= 0 && leaf < leaves_, "push_combine: leaf {} of a {}-leaf partition", leaf, leaves_);
  require(p.count >= 1 && p.count <= kMaxCombineWords,
          "push_combine from leaf {}: an operand of {} words; the network combines 1 to {}", leaf, p.count,
          kMaxCombineWords);
  require(static_cast<int>(p.op) <= static_cast<int>(Combiner::AddUnsigned),
          "push_combine from leaf {}: operator {} is not one of the five the network has", leaf,
          static_cast<int>(p.op));
  require(!abstains(leaf, OpClass::Combine),
          "push_combine from leaf {}: it abstains from combines (or is mapped out)", leaf);
  return push_op(leaf, OpClass::Combine, p);
}

bool ControlNetwork::push_sync_or(int leaf, bool bit) {
  require(leaf >= 0 && leaf < leaves_, "push_sync_or: leaf {} of a {}-leaf partition", leaf, leaves_);
  require(!abstains(leaf, OpClass::SyncOr),
          "push_sync_or from leaf {}: it abstains from the synchronous OR (or is mapped out)", leaf);
  return push_op(leaf, OpClass::SyncOr,
                 {.kind = CombineKind::Reduce, .op = Combiner::Or, .words = {bit ? 1u : 0u}, .count = 1});
}

bool ControlNetwork::push_router_done(int leaf) {
  require(leaf >= 0 && leaf < leaves_, "push_router_done: leaf {} of a {}-leaf partition", leaf, leaves_);
  require(!abstains(leaf, OpClass::RouterDone),
          "push_router_done from leaf {}: it abstains from router done (or is mapped out)", leaf);
  return push_op(leaf, OpClass::RouterDone, {.kind = CombineKind::Reduce, .op = Combiner::Or, .count = 1});
}

bool ControlNetwork::push_broadcast(int leaf, BroadcastKind kind, std::span<const std::uint32_t> words) {
  require(leaf >= 0 && leaf < leaves_, "push_broadcast: leaf {} of a {}-leaf partition", leaf, leaves_);
  require(!mapped_out_[leaf], "push_broadcast from leaf {}: it is mapped out", leaf);
  const int most = max_broadcast_words(kind);
  require(!words.empty() && static_cast<int>(words.size()) <= most,
          "push_broadcast from leaf {}: a {} broadcast holds 1 to {} words, not {}", leaf,
          broadcast_kind_name(kind), most, words.size());
  LeafState& s = leaf_[leaf];
  const auto waiting = static_cast<int>(s.broadcast_out.size()) - s.broadcast_out_head;
  if (flushed_ || waiting + static_cast<int>(words.size()) > params_.ni_fifo_packets) return false;
  if (waiting == 0) broadcasting_.push_back(leaf);
  for (std::size_t i = 0; i < words.size(); ++i) {
    s.broadcast_out.push_back(words[i]);
    s.broadcast_meta.push_back(static_cast<std::uint8_t>(static_cast<int>(kind) << 4 | (i == 0 ? 2 : 0) |
                                                         (i + 1 == words.size() ? 1 : 0)));
  }
  return true;
}

// ---- Results.

std::optional<ControlResult> ControlNetwork::pop(int leaf, OpClass k, Cycle now) {
  if (!has_result(leaf, k, now)) return std::nullopt;
  LeafOps& lo = leaf_ops_[static_cast<std::size_t>(k)];
  return lo.results[at(lo, leaf, lo.popped[leaf]++)];
}

bool ControlNetwork::has_result(int leaf, OpClass k, Cycle now) const {
  const LeafOps& lo = leaf_ops_[static_cast<std::size_t>(k)];
  return lo.capacity > 0 && lo.popped[leaf] != lo.arrived[leaf] &&
         lo.results[at(lo, leaf, lo.popped[leaf])].time <= now;
}

bool ControlNetwork::has_broadcast(int leaf, Cycle now) const {
  const LeafState& s = leaf_[leaf];
  return !mapped_out_[leaf] && s.broadcast_cursor < broadcasts_.size() &&
         broadcasts_[s.broadcast_cursor].time <= now;
}

const BroadcastMessage* ControlNetwork::broadcast_ahead(int leaf, int ahead) const {
  const std::size_t at = leaf_[leaf].broadcast_cursor + static_cast<std::size_t>(ahead);
  return mapped_out_[leaf] || at >= broadcasts_.size() ? nullptr : &broadcasts_[at];
}

std::optional<BroadcastMessage> ControlNetwork::pop_broadcast(int leaf, Cycle now) {
  LeafState& s = leaf_[leaf];
  if (mapped_out_[leaf] || s.broadcast_cursor >= broadcasts_.size()) return std::nullopt;
  const BroadcastMessage& m = broadcasts_[s.broadcast_cursor];
  if (m.time > now) return std::nullopt;
  ++s.broadcast_cursor;
  return m;
}

// ---- Asynchronous ORs: no slot of their own, they ride in every packet's synchronization bits (A27).

void ControlNetwork::set_async_or(int leaf, int copy, bool bit, Cycle now) {
  require(copy == 0 || copy == 1, "set_async_or: copy {}; there are two (0 user, 1 privileged)", copy);
  require(leaf >= 0 && leaf < leaves_, "set_async_or: leaf {} of a {}-leaf partition", leaf, leaves_);
  std::uint8_t& mine = async_bits_[copy][static_cast<std::size_t>(leaf)];
  if (mine == bit || mapped_out_[leaf]) return;
  mine = bit;
  const bool before = async_inputs_[copy] > 0;
  async_inputs_[copy] += bit ? 1 : -1;
  const bool after = async_inputs_[copy] > 0;
  if (before == after) return;
  const std::int64_t slot = (now + params_.slot_cycles - 1) / params_.slot_cycles;
  const Cycle visible = slot_time(slot) + latency_cycles();
  async_changes_[copy].push_back({visible, after});
  if (observer_ != nullptr) observer_->on_delivery(-1, visible);
}

bool ControlNetwork::async_or(int copy, Cycle now) const {
  const auto& changes = async_changes_[copy];
  for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
    if (it->first <= now) return it->second;
  }
  return false;
}

Cycle ControlNetwork::async_or_raised(int copy, Cycle now) const {
  const auto& changes = async_changes_[copy];
  for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
    if (it->first <= now && it->second) return it->first;
  }
  return -1;
}

void ControlNetwork::enable_async_or_interrupt(int leaf, int copy, bool on, Cycle now) {
  require(copy == 0 || copy == 1, "enable_async_or_interrupt: copy {}; there are two (0 user, 1 privileged)",
          copy);
  require(leaf >= 0 && leaf < leaves_, "enable_async_or_interrupt: leaf {} of a {}-leaf partition", leaf,
          leaves_);
  async_interrupt_from_[copy][static_cast<std::size_t>(leaf)] = on ? now : std::numeric_limits<Cycle>::max();
}

int ControlNetwork::async_or_interrupts(int leaf, int copy, Cycle now) const {
  const Cycle from = async_interrupt_from_[copy][static_cast<std::size_t>(leaf)];
  int n = 0;
  const auto& changes = async_changes_[copy];
  for (std::size_t i = 1; i < changes.size(); ++i) {
    const bool rise = changes[i].second && !changes[i - 1].second;
    n += rise && changes[i].first >= from && changes[i].first <= now ? 1 : 0;
  }
  return n;
}

// ---- Errors.

void ControlNetwork::raise(std::int64_t& counter, Cycle time) {
  ++counter;
  const Cycle visible = time + latency_cycles();
  if (visible < errors_.visible) {
    errors_.visible = visible;
    if (observer_ != nullptr) observer_->on_delivery(-1, visible);
  }
}

void ControlNetwork::check_created(Cycle now) {
  if (in_flight_ && in_flight_() < 0) raise(errors_.messages_created, now);
}

// ---- Running.

bool ControlNetwork::busy() const {
  if (!broadcasting_.empty() || root_down_.size > 0 || router_done_waiting_ > 0) return true;
  for (const auto& level : active_by_depth_) {
    if (!level.empty()) return true;
  }
  return false;
}

void ControlNetwork::run_until(Cycle t) {
  while (busy()) {
    const std::int64_t s = std::max(next_slot_, (time_ + params_.slot_cycles - 1) / params_.slot_cycles);
    if (slot_time(s) > t) break;
    step(s);
  }
  time_ = std::max(time_, t + 1);
  next_slot_ = std::max(next_slot_, (time_ + params_.slot_cycles - 1) / params_.slot_cycles);
}

void ControlNetwork::step(std::int64_t slot) {
  MPPNET_ASSERT(slot >= next_slot_, "control network slots run in increasing order");
  next_slot_ = slot + 1;
  send_broadcasts(slot);
  // Bottom up, each level combines what reached it in this slot; the first takes its leaves' words
  // straight from their interfaces.
  for (int depth = height_ - 1; depth >= 0; --depth) {
    auto& list = active_by_depth_[static_cast<std::size_t>(depth)];
    std::size_t kept = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {  // the list may not grow while we walk it
      const int v = list[i];
      if (process(v, slot)) {
        list[kept++] = v;
      } else {
        node_[v].active = 0;
      }
    }
    list.resize(kept);
  }
  turn_down(slot);
  if (router_done_waiting_ > 0) watch_router_done(slot);
}

}  // namespace mppnet::machines::cm5
