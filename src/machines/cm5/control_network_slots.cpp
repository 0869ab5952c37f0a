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

// A leaf sends one packet a slot up its link, taking the classes in turn, when its parent has room.
void ControlNetwork::inject(int leaf, std::int64_t slot) {
  const int v = leaf_node(leaf);
  if (ss_slot_[v] == slot) return;  // its link carries its broadcast in this slot
  LeafState& s = leaf_[leaf];
  for (int i = 0; i < kOpClasses; ++i) {
    const int c = (s.rr + i) % kOpClasses;
    Queue& fifo = in_[c][v][0];
    if (fifo.size == 0 || in_[c][v >> 1][v & 1].size >= params_.queue_packets) continue;
    const std::uint32_t id = pop_front(fifo);
    if (packets_[id].w.kind == CombineKind::ForwardScan) {
      // The NI keeps its segment bit: a segment's first element gets the identity (note §5.13).
      const std::uint32_t keep = packets_.allocate();
      packets_[keep].segment = packets_[id].segment;
      push(saved_[c][v], keep);
    }
    push(in_[c][v >> 1][v & 1], id);
    activate(v >> 1);
    s.rr = static_cast<std::uint8_t>(c + 1);
    return;
  }
}

bool ControlNetwork::send_up(int node, std::uint32_t id, std::int64_t slot) {
  if (node == 1) {
    push(root_down_, id);
    return true;
  }
  const auto c = static_cast<std::size_t>(packets_[id].k);
  if (ss_slot_[node] == slot) return false;  // a broadcast has the link
  Queue& q = in_[c][node >> 1][node & 1];
  if (q.size >= params_.queue_packets) return false;  // flow control
  push(q, id);
  activate(node >> 1);
  return true;
}

// A node combines, per slot, the heads of one class whose both children have spoken (an abstaining
// child speaks the identity), round-robin over the classes ready, and sends the result up.
bool ControlNetwork::process(int node, std::int64_t slot) {
  auto busy_after = [&] {
    if (hold_[node] != kNone) return true;
    for (int c = 0; c < kOpClasses; ++c) {
      const bool a = in_[c][node][0].size > 0 || child_abstains(2 * node, static_cast<OpClass>(c));
      const bool b = in_[c][node][1].size > 0 || child_abstains(2 * node + 1, static_cast<OpClass>(c));
      if (a && b && (in_[c][node][0].size > 0 || in_[c][node][1].size > 0)) return true;
    }
    return false;  // waiting for a child: an arrival wakes it
  };
  if (hold_[node] != kNone) {
    if (!send_up(node, hold_[node], slot)) return true;
    hold_[node] = kNone;
    return busy_after();
  }
  for (int i = 0; i < kOpClasses; ++i) {
    const int c = (rr_[node] + i) % kOpClasses;
    const auto k = static_cast<OpClass>(c);
    Queue& q0 = in_[c][node][0];
    Queue& q1 = in_[c][node][1];
    if (q0.size == 0 && q1.size == 0) continue;
    if ((q0.size == 0 && !child_abstains(2 * node, k)) ||
        (q1.size == 0 && !child_abstains(2 * node + 1, k))) {
      continue;
    }
    const std::uint32_t pa = q0.size > 0 ? pop_front(q0) : kNone;
    const std::uint32_t pb = q1.size > 0 ? pop_front(q1) : kNone;
    const WordOp w = packets_[pa != kNone ? pa : pb].w;
    if (pa != kNone && pb != kNone && !(packets_[pa].w == packets_[pb].w)) {
      raise(errors_.combine_mismatch, slot_time(slot));
    }
    const Summary a = pa != kNone ? Summary{packets_[pa].value, packets_[pa].segment} : identity(w);
    const Summary b = pb != kNone ? Summary{packets_[pb].value, packets_[pb].segment} : identity(w);
    const UpResult r = combine_up(w, a, b, residue_up_[c][node]);
    const std::uint32_t out = pa != kNone ? pa : pb;
    const std::uint32_t other = pa != kNone ? pb : kNone;
    if (w.kind != CombineKind::Reduce) {
      const std::uint32_t keep = other != kNone ? other : packets_.allocate();
      packets_[keep].value = r.saved.value;
      packets_[keep].segment = r.saved.segment;
      push(saved_[c][node], keep);
    } else if (other != kNone) {
      packets_.release(other);
    }
    packets_[out].value = r.up.value;
    packets_[out].segment = r.up.segment;
    packets_[out].w = w;
    rr_[node] = static_cast<std::uint8_t>(c + 1);
    if (!send_up(node, out, slot)) hold_[node] = out;
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
    bool segment = false;
    if (p.w.kind == CombineKind::ForwardScan) segment = take_saved(c, node, p.w).segment;
    arrive(node - first_leaf_, p, leaf_result(p.w, value, segment), time);
    return;
  }
  const DownResult d = combine_down(p.w, value, take_saved(c, node, p.w), residue_down_[c][node]);
  descend(2 * node, p, d.left, time);
  descend(2 * node + 1, p, d.right, time);
}

// What a node set aside on the way up. Only after a combine mismatch (an error every NI sees, after which
// results mean nothing until a flush) can a node have set nothing aside for the operation coming down.
Summary ControlNetwork::take_saved(std::size_t c, int node, const WordOp& w) {
  if (saved_[c][node].size == 0) return identity(w);
  const std::uint32_t keep = pop_front(saved_[c][node]);
  const Summary s{packets_[keep].value, packets_[keep].segment};
  packets_.release(keep);
  return s;
}

void ControlNetwork::arrive(int leaf, const Packet& p, Summary value, Cycle time) {
  LeafState& s = leaf_[leaf];
  const auto c = static_cast<std::size_t>(p.k);
  ControlResult& part = s.partial[c];
  const int msw = p.w.op == Combiner::MaxSigned ? p.w.word : p.w.words - 1 - p.w.word;
  part.words[static_cast<std::size_t>(msw)] = wrapped(value.value);
  part.overflow = part.overflow || overflows(p.w, value.value);
  if (p.w.word + 1 < p.w.words) return;
  part.count = p.w.words;
  part.time = time;
  s.results[c].push_back(part);
  part = {};
  auto& retained = s.retained[c];
  const auto at = static_cast<std::size_t>(s.retained_head[c] + s.retained_done[c]);
  if (at < retained.size()) {
    retained[at].done = time;
    ++s.retained_done[c];
  }
  if (observer_ != nullptr) observer_->on_delivery(leaf, time);
}

void ControlNetwork::retain(int leaf, OpClass k, const CombinePush& push) {
  LeafState& s = leaf_[leaf];
  const auto c = static_cast<std::size_t>(k);
  auto& retained = s.retained[c];
  int& head = s.retained_head[c];
  // Forget what has arrived by the last slot stepped: a flush can no longer abort it.
  const Cycle known = slot_time(next_slot_ - 1);
  while (s.retained_done[c] > 0 && retained[static_cast<std::size_t>(head)].done < known) {
    ++head;
    --s.retained_done[c];
  }
  if (2 * head > static_cast<int>(retained.size())) {  // keeps the live entries in few cache lines
    retained.erase(retained.begin(), retained.begin() + head);
    head = 0;
  }
  retained.push_back({push, k, std::numeric_limits<Cycle>::max()});
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
  for (int c = 0; c < kOpClasses; ++c) {
    for (std::size_t v = 0; v < in_[c].size(); ++v) {
      for (Queue& q : in_[c][v]) {
        while (q.size > 0) packets_.release(pop_front(q));
      }
      while (saved_[c][v].size > 0) packets_.release(pop_front(saved_[c][v]));
      residue_up_[c][v] = residue_down_[c][v] = 0;
    }
  }
  for (std::uint32_t& h : hold_) {
    if (h != kNone) packets_.release(h);
    h = kNone;
  }
  while (root_down_.size > 0) packets_.release(pop_front(root_down_));
  router_done_waiting_ = 0;
  for (auto& level : active_by_depth_) {
    for (const int v : level) active_[v] = 0;
    level.clear();
  }
  // Results on their way down are aborted with the rest; what arrived stays. The NIs keep every
  // operation whose result had not arrived.
  for (LeafState& s : leaf_) {
    for (int c = 0; c < kOpClasses; ++c) {
      auto& results = s.results[c];
      while (static_cast<int>(results.size()) > s.results_head[c] && results.back().time > now)
        results.pop_back();
      s.partial[c] = {};
      auto& retained = s.retained[c];
      int& head = s.retained_head[c];
      while (head < static_cast<int>(retained.size()) && retained[static_cast<std::size_t>(head)].done <= now)
        ++head;
      for (std::size_t i = static_cast<std::size_t>(head); i < retained.size(); ++i) {
        retained[i].done = std::numeric_limits<Cycle>::max();
      }
      s.retained_done[c] = 0;
    }
  }
  flushed_ = true;
}

void ControlNetwork::resume() {
  flushed_ = false;
  for (int leaf = 0; leaf < leaves_; ++leaf) {
    LeafState& s = leaf_[leaf];
    for (int c = 0; c < kOpClasses; ++c) {
      const auto& retained = s.retained[c];
      for (std::size_t i = static_cast<std::size_t>(s.retained_head[c]); i < retained.size(); ++i) {
        push_packets(leaf, retained[i].k, retained[i].push, true);
      }
    }
  }
}

}  // namespace mppnet::machines::cm5
