// machines/cm5/control_network_slots.cpp: one slot of the control network: broadcasts, the climb of
// combines, their turn at the root and way down, router done, and the context switch's flush.
#include <algorithm>

#include "core/error.hpp"
#include "machines/cm5/control_network.hpp"

namespace mppnet::machines::cm5 {

// A broadcast word climbs the whole tree in its slot, unbuffered and ahead of everything (L595-599):
// it takes its links' up slots, and two meeting in one node is a collision (V8). The first in leaf order
// goes on; the other is lost, and both senders see the error.
void ControlNetwork::send_broadcasts(std::int64_t slot) {
  const Cycle now = slot_time(slot);
  const int window = params_.broadcast_window > 0 ? params_.broadcast_window : 2 * height_;
  std::size_t kept = 0;
  for (const int leaf : broadcasting_) {
    LeafState& s = leaf_[leaf];
    std::erase_if(s.broadcast_returns, [now](Cycle t) { return t <= now; });
    if (static_cast<int>(s.broadcast_returns.size()) < window) {
      const std::uint32_t word = s.broadcast_out[static_cast<std::size_t>(s.broadcast_out_head)];
      const std::uint8_t meta = s.broadcast_meta[static_cast<std::size_t>(s.broadcast_out_head)];
      ++s.broadcast_out_head;
      const Cycle arrives = now + latency_cycles();
      s.broadcast_returns.push_back(arrives);
      bool lost = false;
      for (int v = leaf_node(leaf); v > 1 && !lost; v >>= 1) {
        if (ss_slot_[v ^ 1] == slot) {
          raise(errors_.broadcast_collision, now);
          lost = true;
        }
        ss_slot_[v] = slot;
      }
      if (!lost) {
        ss_slot_[1] = slot;  // the root's way down carries it in this slot
        const bool first = (meta & 2) != 0, last = (meta & 1) != 0;
        if (first) broadcasts_.push_back({.kind = static_cast<BroadcastKind>(meta >> 4), .source = leaf});
        // The one message being assembled from this source is the last of its messages.
        auto it = std::find_if(broadcasts_.rbegin(), broadcasts_.rend(),
                               [leaf](const BroadcastMessage& m) { return m.source == leaf; });
        if (it != broadcasts_.rend() && it->count < static_cast<int>(it->words.size())) {
          it->words[static_cast<std::size_t>(it->count++)] = word;
          if (last) {
            it->time = arrives;
            if (observer_ != nullptr) observer_->on_delivery(-1, arrives);
          } else {
            it->time = std::numeric_limits<Cycle>::max();
          }
        }
      }
    }
    if (s.broadcast_out_head < static_cast<int>(s.broadcast_out.size())) {
      broadcasting_[kept++] = leaf;
    } else {
      s.broadcast_out.clear();
      s.broadcast_meta.clear();
      s.broadcast_out_head = 0;
    }
  }
  broadcasting_.resize(kept);
}

// A leaf's link carries one packet a slot, taken by its parent straight from the interface's outgoing
// FIFO (which is where a packet waits for its sibling at the first level), unless its broadcast has the
// link in this slot.
bool ControlNetwork::leaf_pending(int leaf, int c) const {
  const LeafOps& lo = leaf_ops_[static_cast<std::size_t>(c)];
  return leaf < leaves_ && lo.capacity > 0 && lo.injected[leaf] != lo.pushed[leaf];
}

Summary ControlNetwork::take_leaf(int leaf, int c, WordOp& w) {
  LeafOps& lo = leaf_ops_[static_cast<std::size_t>(c)];
  const PushRec& p = lo.pushes[at(lo, leaf, lo.injected[leaf])];
  const int word = lo.inject_word[leaf];
  const int msw = p.op == Combiner::MaxSigned ? word : p.count - 1 - word;  // adds go least significant first
  w = {p.kind, p.op, static_cast<std::uint8_t>(word), p.count};
  const Summary s = leaf_summary(w, p.words[static_cast<std::size_t>(msw)], p.segment_start);
  --lo.queued_words[leaf];
  if (++lo.inject_word[leaf] == p.count) {
    lo.inject_word[leaf] = 0;
    ++lo.injected[leaf];
  }
  return s;
}

bool ControlNetwork::send_up(int node, std::uint32_t id, std::int64_t slot) {
  if (node == 1) {
    push(root_down_, id);
    return true;
  }
  const auto c = static_cast<std::size_t>(packets_[id].k);
  if (ss_slot_[node] == slot) return false;  // a broadcast has the link
  Queue& q = node_[node >> 1].in[c][node & 1];
  if (q.size >= params_.queue_packets) return false;  // flow control
  push(q, id);
  activate(node >> 1);
  return true;
}

// A node combines, per slot, the heads of one class whose both children have spoken (an abstaining
// child speaks the identity), round-robin over the classes ready, and sends the result up.
bool ControlNetwork::process(int node, std::int64_t slot) {
  TreeNode& t = node_[node];
  const bool over_leaves = 2 * node >= first_leaf_;
  const int first_child_leaf = 2 * node - first_leaf_;
  // Whether child `side` has a packet of class c waiting, and whether it can come in this slot.
  auto pending = [&](int side, int c) {
    return over_leaves ? leaf_pending(first_child_leaf + side, c) : t.in[c][side].size > 0;
  };
  auto ready = [&](int side, int c) {
    return pending(side, c) && !(over_leaves && ss_slot_[2 * node + side] == slot);
  };
  auto busy_after = [&] {
    if (t.hold != kNone) return true;
    for (int c = 0; c < kOpClasses; ++c) {
      const bool a = pending(0, c), b = pending(1, c);
      if ((a || child_abstains(node, 0, c)) && (b || child_abstains(node, 1, c)) && (a || b)) return true;
    }
    return false;  // waiting for a child: an arrival wakes it
  };
  auto take = [&](int side, int c, WordOp& w) {
    if (over_leaves) return take_leaf(first_child_leaf + side, c, w);
    const std::uint32_t id = pop_front(t.in[c][side]);
    const Packet& pk = packets_[id];
    w = pk.w;
    const Summary s{pk.value, pk.segment};
    packets_.release(id);
    return s;
  };
  if (t.hold != kNone) {
    if (!send_up(node, t.hold, slot)) return true;
    t.hold = kNone;
    return busy_after();
  }
  for (int i = 0; i < kOpClasses; ++i) {
    const int c = (t.rr + i) % kOpClasses;
    const bool r0 = ready(0, c), r1 = ready(1, c);
    if (!r0 && !r1) continue;
    if ((!r0 && !child_abstains(node, 0, c)) || (!r1 && !child_abstains(node, 1, c))) continue;
    WordOp wa, wb;
    Summary a = r0 ? take(0, c, wa) : Summary{};
    Summary b = r1 ? take(1, c, wb) : Summary{};
    const WordOp w = r0 ? wa : wb;
    if (r0 && r1 && !(wa == wb)) raise(errors_.combine_mismatch, slot_time(slot));
    if (!r0) a = identity(w);
    if (!r1) b = identity(w);
    const UpResult r = combine_up(w, a, b, t.residue_up[c]);
    if (w.kind != CombineKind::Reduce) {
      const std::uint32_t keep = packets_.allocate();
      packets_[keep].value = r.saved.value;
      packets_[keep].segment = r.saved.segment;
      push(t.saved[c], keep);
    }
    const std::uint32_t out = packets_.allocate();
    Packet& pk = packets_[out];
    pk.w = w;
    pk.k = static_cast<OpClass>(c);
    pk.value = r.up.value;
    pk.segment = r.up.segment;
    t.rr = static_cast<std::uint8_t>(c + 1);
    if (!send_up(node, out, slot)) t.hold = out;
    return busy_after();
  }
  return busy_after();
}

// The root's way down takes one packet a slot; a broadcast has priority over a waiting combine.
void ControlNetwork::turn_down(std::int64_t slot) {
  if (ss_slot_[1] == slot || root_down_.size == 0) return;
  deliver(pop_front(root_down_), slot_time(slot) + latency_cycles());
}

void ControlNetwork::deliver(std::uint32_t id, Cycle time) {
  const Packet p = packets_[id];
  packets_.release(id);
  const auto c = static_cast<std::size_t>(p.k);
  if (p.k == OpClass::RouterDone) {
    ++router_done_waiting_;  // everyone has promised: now watch the count (note §5.14)
    return;
  }
  const Summary down = root_down(p.w, {p.value, p.segment});
  if (p.w.kind == CombineKind::Reduce) {
    for (int leaf = 0; leaf < leaves_; ++leaf) {
      if (participants_[c][leaf_node(leaf)] > 0) arrive(leaf, p, down, time);
    }
  } else {
    descend(1, p, down, time);
  }
}

void ControlNetwork::descend(int node, const Packet& p, Summary value, Cycle time) {
  const auto c = static_cast<std::size_t>(p.k);
  if (participants_[c][node] == 0) return;
  if (node >= first_leaf_) {
    // The interface knows its own segment bit: a segment's first element gets the identity (§5.13).
    const int leaf = node - first_leaf_;
    const LeafOps& lo = leaf_ops_[c];
    arrive(leaf, p, leaf_result(p.w, value, lo.pushes[at(lo, leaf, lo.arrived[leaf])].segment_start), time);
    return;
  }
  const DownResult d = combine_down(p.w, value, take_saved(c, node, p.w), node_[node].residue_down[c]);
  descend(2 * node, p, d.left, time);
  descend(2 * node + 1, p, d.right, time);
}

// What a node set aside on the way up. Only after a combine mismatch (an error every NI sees, after which
// results mean nothing until a flush) can a node have set nothing aside for the operation coming down.
Summary ControlNetwork::take_saved(std::size_t c, int node, const WordOp& w) {
  if (node_[node].saved[c].size == 0) return identity(w);
  const std::uint32_t keep = pop_front(node_[node].saved[c]);
  const Summary s{packets_[keep].value, packets_[keep].segment};
  packets_.release(keep);
  return s;
}

void ControlNetwork::arrive(int leaf, const Packet& p, Summary value, Cycle time) {
  LeafOps& lo = leaf_ops_[static_cast<std::size_t>(p.k)];
  ControlResult& r = lo.results[at(lo, leaf, lo.arrived[leaf])];
  const int msw = p.w.op == Combiner::MaxSigned ? p.w.word : p.w.words - 1 - p.w.word;
  r.words[static_cast<std::size_t>(msw)] = wrapped(value.value);
  r.overflow = r.overflow || overflows(p.w, value.value);
  if (p.w.word + 1 < p.w.words) return;
  r.count = p.w.words;
  r.time = time;
  ++lo.arrived[leaf];
  if (observer_ != nullptr) observer_->on_delivery(leaf, time);
}

// Once every leaf has promised to send no more, the network sums (sent - received) over the leaves in
// every slot, pipelined (note A26); the first zero answers everyone. Below zero a message was created.
void ControlNetwork::watch_router_done(std::int64_t slot) {
  const std::int64_t in_flight = in_flight_ ? in_flight_() : 0;
  if (in_flight < 0) raise(errors_.messages_created, slot_time(slot));
  if (in_flight != 0) return;
  --router_done_waiting_;
  Packet done;
  done.k = OpClass::RouterDone;
  done.w = {CombineKind::Reduce, Combiner::Or, 0, 1};
  const Cycle time = slot_time(slot) + latency_cycles();
  for (int leaf = 0; leaf < leaves_; ++leaf) {
    if (participants_[static_cast<std::size_t>(OpClass::RouterDone)][leaf_node(leaf)] > 0) {
      arrive(leaf, done, {1, false}, time);
    }
  }
}

// ---- Context switch.

void ControlNetwork::flush(Cycle now) {
  for (TreeNode& t : node_) {
    for (int c = 0; c < kOpClasses; ++c) {
      for (Queue& q : t.in[c]) {
        while (q.size > 0) packets_.release(pop_front(q));
      }
      while (t.saved[c].size > 0) packets_.release(pop_front(t.saved[c]));
      t.residue_up[c] = t.residue_down[c] = 0;
    }
    if (t.hold != kNone) packets_.release(t.hold);
    t.hold = kNone;
  }
  while (root_down_.size > 0) packets_.release(pop_front(root_down_));
  router_done_waiting_ = 0;
  for (auto& level : active_by_depth_) {
    for (const int v : level) node_[v].active = 0;
    level.clear();
  }
  // Results on their way down are aborted with the rest; what arrived stays. The interfaces still hold
  // every operation whose result had not arrived: resume sends them again.
  for (LeafOps& lo : leaf_ops_) {
    if (lo.capacity == 0) continue;
    for (int leaf = 0; leaf < leaves_; ++leaf) {
      std::uint32_t kept = lo.popped[leaf];
      while (kept != lo.arrived[leaf] && lo.results[at(lo, leaf, kept)].time <= now) ++kept;
      lo.arrived[leaf] = lo.injected[leaf] = kept;
      lo.inject_word[leaf] = 0;
      lo.queued_words[leaf] = 0;
      for (std::uint32_t i = kept; i != lo.pushed[leaf]; ++i) {
        lo.results[at(lo, leaf, i)] = {};
        lo.queued_words[leaf] += lo.pushes[at(lo, leaf, i)].count;
      }
    }
  }
  flushed_ = true;
}

void ControlNetwork::resume() {
  flushed_ = false;
  for (const LeafOps& lo : leaf_ops_) {
    for (int leaf = 0; leaf < leaves_ && lo.capacity > 0; ++leaf) {
      if (lo.injected[leaf] != lo.pushed[leaf]) activate(leaf_node(leaf) >> 1);
    }
  }
}

}  // namespace mppnet::machines::cm5
