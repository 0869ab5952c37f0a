// machines/cm5/data_network.cpp: injection, the per-cycle grants of every chip, and delivery.
#include "machines/cm5/data_network.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"
#include "machines/cm5/message_format.hpp"

namespace mppnet::machines::cm5 {

DataNetwork::DataNetwork(const DataNetworkParams& params)
    : params_(params), shape_(params.nodes, params.parents) {
  const int chips = shape_.chips();
  const std::size_t ports = static_cast<std::size_t>(chips) * kChipPorts;
  // Behind each input's head, as many messages as the buffer holds less the head.
  ring_ = std::max(1, params_.buffer_nibbles / message_nibbles(1, 1) - 1);
  // A buffer's room is worked out from its last two leaving messages (Input): the one before them
  // has all its credits back by the time the last one left, as long as no credit takes longer to return
  // than the shortest message takes to leave (the keys' range, 1-16 wire cycles, keeps it so).
  MPPNET_ASSERT(std::max(params_.board_wire_cycles, params_.cable_wire_cycles) <= message_nibbles(1, 1),
                "a credit returns within the shortest message's length");
  inputs_.assign(ports, Input{});
  behind_.assign(ports * ring_, Waiting{});
  outputs_.assign(ports, Output{});
  asleep_until_.assign(static_cast<std::size_t>(chips) * kChildPorts, 0);
  for (ChipId c = 0; c < chips; ++c) {
    const auto& place = shape_.place(c);
    const int level = place.level;
    level_side_.push_back(
        {.level = static_cast<std::uint8_t>(level), .side = static_cast<std::uint8_t>(place.side)});
    for (int p = 0; p < kChipPorts; ++p) {
      inputs_[port_index(c, p)].wire_cycles = static_cast<std::uint8_t>(
          p < kChildPorts ? wire_cycles_up_from(level - 1) : wire_cycles_up_from(level));
    }
    route_key_.push_back(
        core::splitmix64(core::splitmix64(params_.seed) ^
                         core::splitmix64(static_cast<std::uint64_t>(c) * 0x9e3779b97f4a7c15ULL +
                                          static_cast<std::uint64_t>(core::Stream::RouteChoice))));
  }
  afd_mode_.assign(chips, 0);
  is_pending_.assign(chips, 0);
  const std::size_t slots = static_cast<std::size_t>(params_.nodes) * kSides;
  queues_.assign(slots, Queue{});
  injection_busy_until_.assign(slots, 0);
  inject_at_.assign(slots, kNever);
  receive_used_.assign(slots, 0);
  receive_held_.assign(slots, 0);
  received_waiting_.assign(slots, {});
  corrupt_inject_.assign(slots, 0);
  chip_errors_.assign(chips, ChipErrors{});
  ni_errors_.assign(slots, ChipErrors{});
  ni_sent_.assign(slots, 0);
  ni_received_.assign(slots, 0);
  delivery_fault_.assign(slots, 0);
  fallen_.assign(params_.nodes, {});
  // Every event lies at most a wire, a decode and a longest message ahead.
  const int longest_delay = std::max(params_.board_wire_cycles, params_.cable_wire_cycles) * 2 +
                            params_.route_cycles + message_nibbles(kMaxWords, shape_.height()) + 2;
  wheel_.assign(std::bit_ceil(static_cast<unsigned>(longest_delay)), {});
}

int DataNetwork::wire_cycles_up_from(int level) const {
  return level < 2 ? params_.board_wire_cycles : params_.cable_wire_cycles;
}

MessageId DataNetwork::send(NodeId src, NodeId dest, int words, int tag, int side, std::uint64_t label,
                            std::int64_t queue_limit) {
  MPPNET_ASSERT(words >= 1 && words <= kMaxWords && tag >= 0 && tag < (1 << kTagBits), "a valid message");
  Queue& q = queues_[slot(src, side)];
  if (queue_limit >= 0 && q.length >= queue_limit) return kNoMessage;
  const MessageId id = pool_.allocate();
  Message& m = pool_[id];
  const int lca = FatTreeShape::lca_height(src, dest);
  m = Message{.src = src,
              .dest = dest,
              .true_dest = dest,
              .nibbles = static_cast<std::int16_t>(message_nibbles(words, lca)),
              .words = static_cast<std::int8_t>(words),
              .tag = static_cast<std::uint8_t>(tag),
              .side = static_cast<std::uint8_t>(side),
              .lca = static_cast<std::uint8_t>(lca),
              .created = now_,
              .label = label};
  if (q.tail == kNoMessage) {
    q.head = id;
  } else {
    pool_[q.tail].next = id;
  }
  q.tail = id;
  ++q.length;
  ++queued_total_;
  if (q.length == 1) wake_injection(slot(src, side), now_ + 1);
  return id;
}

void DataNetwork::schedule(Cycle t, EventKind kind, std::int32_t where, MessageId msg) {
  MPPNET_ASSERT(t > now_ && t - now_ < static_cast<Cycle>(wheel_.size()), "an event within the wheel");
  wheel_[static_cast<std::size_t>(t) & (wheel_.size() - 1)].push_back({kind, where, msg});
  ++events_pending_;
}

void DataNetwork::run_until(Cycle t) {
  while (now_ < t) {
    if (pending_.empty()) {
      if (events_pending_ == 0) {
        now_ = t;
        return;
      }
      Cycle next = now_ + 1;
      while (wheel_[static_cast<std::size_t>(next) & (wheel_.size() - 1)].empty()) ++next;
      if (next > t) {
        now_ = t;
        return;
      }
      now_ = next - 1;
    }
    step(++now_);
  }
}

void DataNetwork::step(Cycle t) {
  std::vector<Event>& bucket = wheel_[static_cast<std::size_t>(t) & (wheel_.size() - 1)];
  // A cycle's events in a fixed order, not in the order chips happened to be visited: deliveries reach
  // node programs by node and side, so a run never depends on the model's bookkeeping.
  if (bucket.size() > 1) {
    std::sort(bucket.begin(), bucket.end(), [](const Event& a, const Event& b) {
      return a.kind != b.kind ? a.kind < b.kind : a.where < b.where;
    });
  }
  for (std::size_t i = 0; i < bucket.size(); ++i) handle(bucket[i], t);
  events_pending_ -= static_cast<std::int64_t>(bucket.size());
  bucket.clear();

  still_pending_.clear();
  still_pending_.swap(pending_);
  for (const ChipId c : still_pending_) is_pending_[c] = 0;
  for (const ChipId c : still_pending_) allocate(c, t);
}

void DataNetwork::handle(const Event& e, Cycle t) {
  switch (e.kind) {
    case EventKind::ChipReady:
      mark_pending(e.where);
      break;
    case EventKind::Deliver:
      deliver(e.where / kSides, e.where % kSides, e.msg, t);
      break;
    case EventKind::Inject:
      if (inject_at_[e.where] == t) {  // else a later wake-up replaced it
        inject_at_[e.where] = kNever;
        inject(e.where / kSides, e.where % kSides, t);
      }
      break;
    case EventKind::ReceiveCredit:
      --receive_used_[e.where];
      mark_pending(shape_.leaf_chip(e.where / kSides, e.where % kSides));  // its output may wait for room
      break;
  }
}

void DataNetwork::mark_pending(ChipId c) {
  if (is_pending_[c]) return;
  is_pending_[c] = 1;
  pending_.push_back(c);
}

void DataNetwork::wake_heads(ChipId c) {
  std::fill_n(asleep_until_.begin() + static_cast<std::ptrdiff_t>(c) * kChildPorts, kChildPorts, Cycle{0});
}

void DataNetwork::wake_injection(std::size_t s, Cycle at) {
  at = std::max(at, now_ + 1);
  if (queues_[s].length == 0 || at >= inject_at_[s]) return;
  // A wake-up beyond the wheel comes back at its last slot and is worked out again then.
  at = std::min(at, now_ + static_cast<Cycle>(wheel_.size()) - 1);
  inject_at_[s] = at;
  schedule(at, EventKind::Inject, static_cast<std::int32_t>(s), kNoMessage);
}

void DataNetwork::freeze_injection(bool frozen) {
  injection_frozen_ = frozen;
  if (frozen) return;
  for (std::size_t s = 0; s < queues_.size(); ++s) wake_injection(s, now_ + 1);
}

void DataNetwork::inject(NodeId v, int side, Cycle t) {
  const std::size_t s = slot(v, side);
  Queue& q = queues_[s];
  if (injection_frozen_) return;
  const MessageId id = q.head;
  Message& m = pool_[id];
  const ChipId chip = shape_.leaf_chip(v, side);
  const int port = FatTreeShape::leaf_port(v);
  if (injection_busy_until_[s] > t || space_at(chip, port, t) < m.nibbles) {
    // Try again when the link and the room could first allow it; a grant at the chip wakes it sooner.
    const Cycle room = room_from(chip, port, m.nibbles, std::max(t + 1, injection_busy_until_[s]));
    if (room != kNever) wake_injection(s, room);
    return;
  }
  q.head = m.next;
  if (q.head == kNoMessage) q.tail = kNoMessage;
  m.next = kNoMessage;
  --q.length;
  --queued_total_;
  ++in_network_;
  if (observer_ != nullptr) observer_->on_queue_space(v, side);
  m.injected = t;
  if (q.length > 0) wake_injection(s, t + 1);
  last_progress_ = t;
  injection_busy_until_[s] = t + m.nibbles;
  ++ni_sent_[s];
  ++sent_total_;
  const bool corrupt = take_corruption(corrupt_inject_[s]);
  forward(id, PortPeer{.chip = chip, .node = -1, .port = port}, params_.board_wire_cycles, t, corrupt);
}

namespace {

// Nibbles an entry that left still owes at cycle t: its credits return one a cycle up to `end`.
int owed_at(Cycle end, int nibbles, Cycle t) {
  return static_cast<int>(std::clamp<Cycle>(end - t, 0, nibbles));
}

}  // namespace

int DataNetwork::space_at(ChipId c, int port, Cycle t) const {
  const Input& b = inputs_[port_index(c, port)];
#ifndef NDEBUG
  MPPNET_ASSERT(b.older_end <= t, "only the last two messages that left still owe credits");
#endif
  return params_.buffer_nibbles - b.waiting_nibbles - owed_at(b.prev_end, b.prev_nibbles, t) -
         owed_at(b.last_end, b.last_nibbles, t);
}

Cycle DataNetwork::free_from(ChipId c, int port, int nibbles, Cycle t) {
  const Cycle at = std::max(t + 1, outputs_[port_index(c, port)].busy_until);
  const PortPeer to = shape_.peer(c, port);
  if (to.chip == kNoChip) {
    // A full receive FIFO: its ReceiveCredit event wakes the chip.
    return receive_used_[slot(to.node, level_side_[c].side)] < params_.ni_receive_messages ? at : kNever;
  }
  const Cycle room = room_from(to.chip, to.port, nibbles, at);
  // Waiting for room: a grant out of that buffer may bring it sooner, and wakes this chip.
  if (room != at) outputs_[port_index(c, port)].waits_for_room = 1;
  return room;
}

Cycle DataNetwork::room_from(ChipId c, int port, int nibbles, Cycle at) const {
  const Input& b = inputs_[port_index(c, port)];
  // Room that waits on a message not yet granted downstream: that chip's grant wakes the sender.
  if (params_.buffer_nibbles - b.waiting_nibbles < nibbles) return kNever;
  int need = nibbles - space_at(c, port, at);
  if (need <= 0) return at;
  // The two messages that left last hand their credits back one after the other: the earlier first.
  const int prev_owed = owed_at(b.prev_end, b.prev_nibbles, at);
  if (need <= prev_owed) return b.prev_end - prev_owed + need;
  need -= prev_owed;
  const int last_owed = owed_at(b.last_end, b.last_nibbles, at);
  MPPNET_ASSERT(need <= last_owed,
                "the leaving messages return enough room for one that fits beside the waiting");
  return b.last_end - last_owed + need;
}

bool DataNetwork::output_free(ChipId c, int port, int nibbles, Cycle t, RoomSeen& room) {
  if (outputs_[port_index(c, port)].busy_until > t) return false;
  const PortPeer to = shape_.peer(c, port);
  if (to.chip != kNoChip) {
    if (room[port] < 0) room[port] = space_at(to.chip, to.port, t);
    return room[port] >= nibbles;
  }
  return receive_used_[slot(to.node, level_side_[c].side)] < params_.ni_receive_messages;
}

int DataNetwork::wanted_output(ChipId c, int in_port, Waiting& head, Cycle t, RoomSeen& room) {
  const int level = level_side_[c].level;
  if (head.fell || afd_mode_[c]) {
    head.fell = true;  // it keeps falling: grant hands the mark on with the message
    return afd_port(c, in_port);
  }
  if (in_port >= kChildPorts || level >= head.lca) return FatTreeShape::down_port(head.dest, level);
  const int parents = shape_.parent_ports(level);
  const unsigned avoided = avoided_parents(c, head.msg);
  if (params_.up_choice == UpChoice::Deterministic) {
    for (int p = 0; p < parents; ++p) {
      if (!(avoided >> p & 1)) return kChildPorts + p;
    }
    return kChildPorts;  // unreachable: a failure is routed around only where another parent remains
  }
  int free[kMaxParentPorts];
  int n = 0;
  for (int p = 0; p < parents; ++p) {
    if (!(avoided >> p & 1) && output_free(c, kChildPorts + p, head.nibbles, t, room))
      free[n++] = kChildPorts + p;
  }
  if (n == 0) return -1;
  if (n == 1) return free[0];
  // A draw keyed by (chip, input, cycle), not by how many draws came before, so that how often a chip is
  // looked at never changes a choice.
  const std::uint64_t draw = core::splitmix64(
      route_key_[c] ^ core::splitmix64(static_cast<std::uint64_t>(t) * kChipPorts + in_port));
  return free[((draw >> 32) * static_cast<std::uint64_t>(n)) >> 32];
}

void DataNetwork::allocate(ChipId c, Cycle t) {
  int want[kChipPorts];
  Input* const inputs = &inputs_[port_index(c, 0)];
  // A chip whose heads all wait for an output sleeps until the first cycle one of them could go
  // (retry) rather than trying every cycle; what that waits on downstream wakes it (grant, credits).
  Cycle retry = kNever;
  bool next_cycle = false;
  const int level = level_side_[c].level;
  RoomSeen room;
  room.fill(-1);
  // The room records behind the outputs, asked for together: on a large machine each is a cache miss,
  // and issued one after the other they would be waited for one after the other. The chip's own input
  // records lie side by side and hold their heads.
  for (int out = 0; out < kChipPorts; ++out) {
    const PortPeer to = shape_.peer(c, out);
    if (to.chip != kNoChip) __builtin_prefetch(&inputs_[port_index(to.chip, to.port)]);
  }
  const bool skip_asleep = !params_.visit_every_cycle;  // the exactness test weighs every head
  for (int in = 0; in < kChipPorts; ++in) {
    Waiting& head = inputs[in].head;
    want[in] = -1;
    if (inputs[in].waiting == 0 || head.ready > t) continue;  // not ready: an event wakes the chip then
    if (in >= kChildPorts) {  // from a parent: goes down its one path, never sleeps
      want[in] = wanted_output(c, in, head, t, room);
      continue;
    }
    // A head from a child may climb and find every parent link obstructed: then it sleeps.
    Cycle& asleep = asleep_until_[static_cast<std::size_t>(c) * kChildPorts + in];
    if (skip_asleep && asleep > t) {
      retry = std::min(retry, asleep);
      continue;
    }
    want[in] = wanted_output(c, in, head, t, room);
    if (want[in] < 0) {
      Cycle first_free = kNever;
      for (int p = 0; p < shape_.parent_ports(level); ++p) {
        first_free = std::min(first_free, free_from(c, kChildPorts + p, head.nibbles, t));
      }
      asleep = first_free;
      retry = std::min(retry, first_free);
    }
  }
  // Bit i of wanting[out]: input i's head wants output `out`.
  unsigned wanting[kChipPorts] = {};
  for (int in = 0; in < kChipPorts; ++in) {
    if (want[in] >= 0) wanting[want[in]] |= 1U << in;
  }
  const bool random_up = params_.up_choice == UpChoice::RandomFree;
  constexpr unsigned kAllInputs = (1U << kChipPorts) - 1;
  for (int out = 0; out < kChipPorts; ++out) {
    const unsigned mask = wanting[out];
    if (mask == 0) continue;
    // Round-robin among the inputs that want `out`, from the one after the input it last granted.
    const int first = (outputs_[port_index(c, out)].last_grant + 1) % kChipPorts;
    const unsigned rotated = ((mask >> first) | (mask << (kChipPorts - first))) & kAllInputs;
    const int winner = (first + std::countr_zero(rotated)) % kChipPorts;
    const unsigned losers = mask & ~(1U << winner);
    const bool up = out >= kChildPorts;
    const int nibbles = inputs[winner].head.nibbles;
    if (!output_free(c, out, nibbles, t, room)) {
      retry = std::min(retry, free_from(c, out, nibbles, t));
      // A message going up that chose this link behind the blocked one may choose another next cycle.
      next_cycle |= up && random_up && losers != 0;
      continue;
    }
    grant(c, winner, out, t);
    room[out] = -1;  // the granted message now takes room there
    // A message going up that lost may take another free parent link next cycle.
    if (up && random_up) {
      next_cycle |= losers != 0;
    } else {
      for (unsigned rest = losers; rest != 0; rest &= rest - 1)
        retry = std::min(retry, free_from(c, out, inputs[std::countr_zero(rest)].head.nibbles, t));
    }
  }
  if (params_.visit_every_cycle) {
    for (int in = 0; in < kChipPorts; ++in) next_cycle |= inputs[in].waiting > 0;
  }
  if (next_cycle) {
    mark_pending(c);
  } else if (retry != kNever) {
    schedule(retry, EventKind::ChipReady, c, kNoMessage);
  }
}

void DataNetwork::grant(ChipId c, int in_port, int out_port, Cycle t) {
  Input& b = inputs_[port_index(c, in_port)];
  const Waiting h = b.head;
  last_progress_ = t;
  b.waiting_nibbles = static_cast<std::int16_t>(b.waiting_nibbles - h.nibbles);
#ifndef NDEBUG
  b.older_end = b.prev_end;
#endif
  b.prev_end = b.last_end;
  b.prev_nibbles = b.last_nibbles;
  b.last_end = t + b.wire_cycles + h.nibbles - 1;
  b.last_nibbles = h.nibbles;
  if (in_port < kChildPorts)
    asleep_until_[static_cast<std::size_t>(c) * kChildPorts + in_port] = 0;  // a new head
  Output& out = outputs_[port_index(c, out_port)];
  out.busy_until = t + h.nibbles;
  // Its nibbles now free the buffer: the chip or node that feeds this input may be waiting for the room.
  const PortPeer feeder = shape_.peer(c, in_port);
  if (feeder.chip != kNoChip) {
    std::uint8_t& waits = outputs_[port_index(feeder.chip, feeder.port)].waits_for_room;
    if (waits) {
      schedule(t + 1, EventKind::ChipReady, feeder.chip, kNoMessage);
      // The room its climbing heads waited for may come sooner (only they sleep, on parent links).
      if (feeder.port >= kChildPorts) wake_heads(feeder.chip);
    }
    waits = 0;
  } else if (feeder.node >= 0) {
    wake_injection(slot(feeder.node, level_side_[c].side), t + 1);
  }
  out.last_grant = static_cast<std::int8_t>(in_port);
  ++out.messages_out;
  if (--b.waiting > 0) {
    // The next message's head follows this one's tail out of the buffer.
    b.head = behind_[port_index(c, in_port) * ring_ + b.first];
    b.first = static_cast<std::int16_t>((b.first + 1) % ring_);
    b.head.ready = std::max(b.head.ready, t + h.nibbles);
    schedule(b.head.ready, EventKind::ChipReady, c, kNoMessage);
  }
  const int level = level_side_[c].level;
  const int wire = out_port < kChildPorts ? wire_cycles_up_from(level - 1) : wire_cycles_up_from(level);
  if (h.fell) pool_[h.msg].fell = true;  // marked at this chip or before (wanted_output)
  forward(h.msg, shape_.peer(c, out_port), wire, t, take_corruption(out.corrupt_next));
}

void DataNetwork::forward(MessageId id, const PortPeer& to, int wire_cycles, Cycle t, bool corrupt) {
  Message& m = pool_[id];
  // The receiver of this link checks the CRC at the tail: a bad one is a primary error, and the
  // complement that the first detecting chip appended is a secondary one (paper L278-282).
  ChipErrors& errors = to.chip != kNoChip ? chip_errors_[to.chip] : ni_errors_[slot(to.node, m.side)];
  if (corrupt) {
    ++errors.primary;
    m.crc = CrcState::Complemented;
  } else if (m.crc == CrcState::Complemented) {
    ++errors.secondary;
  }
  if (to.chip != kNoChip) {
    Input& b = inputs_[port_index(to.chip, to.port)];
    const Waiting arriving{.msg = id,
                           .dest = m.dest,
                           .ready = t + wire_cycles + params_.route_cycles,
                           .nibbles = m.nibbles,
                           .lca = m.lca,
                           .fell = m.fell};
    if (b.waiting == 0) {
      // The buffer is a FIFO: a head leaves only after the message before it has left entirely, which
      // its last credit's return (last_end) tells.
      b.head = arriving;
      b.head.ready = std::max(arriving.ready, b.last_end - b.wire_cycles + 1);
      schedule(b.head.ready, EventKind::ChipReady, to.chip, kNoMessage);
    } else {
      MPPNET_ASSERT(b.waiting <= ring_, "an input buffer holds no more messages than it has room for");
      behind_[port_index(to.chip, to.port) * ring_ + (b.first + b.waiting - 1) % ring_] = arriving;
    }
    ++b.waiting;
    b.waiting_nibbles = static_cast<std::int16_t>(b.waiting_nibbles + m.nibbles);
    ++b.messages_in;
  } else {
    ++receive_used_[slot(to.node, m.side)];
    schedule(t + wire_cycles + m.nibbles - 1, EventKind::Deliver,
             static_cast<std::int32_t>(slot(to.node, m.side)), id);
  }
}

void DataNetwork::deliver(NodeId v, int side, MessageId id, Cycle t) {
  const std::size_t s = slot(v, side);
  Message& m = pool_[id];
  m.delivered = t;
  last_progress_ = t;
  const std::uint8_t fault = delivery_fault_[s];
  delivery_fault_[s] = 0;
  if (fault == 1) {  // lost in the chip: never counted in, never handed out
    pool_.release(id);
    --in_network_;
    schedule(t + params_.board_wire_cycles, EventKind::ReceiveCredit, static_cast<std::int32_t>(s),
             kNoMessage);
    return;
  }
  const int copies = fault == 2 ? 2 : 1;
  ni_received_[s] += copies;
  received_total_ += copies;
  if (m.fell) {
    // Saved with the user's state; the system resends it on resume (resume_after_fall).
    fallen_[v].push_back(id);
    --in_network_;
    schedule(t + params_.board_wire_cycles, EventKind::ReceiveCredit, static_cast<std::int32_t>(s),
             kNoMessage);
    return;
  }
  if (receive_held_[s]) {
    received_waiting_[s].push_back(id);
    return;
  }
  if (observer_ != nullptr) {
    for (int i = 0; i < copies; ++i) observer_->on_delivery(id, m);
  }
  pool_.release(id);
  --in_network_;
  schedule(t + params_.board_wire_cycles, EventKind::ReceiveCredit, static_cast<std::int32_t>(s), kNoMessage);
}

void DataNetwork::hold_receive(NodeId v, int side, bool hold) {
  const std::size_t s = slot(v, side);
  receive_held_[s] = hold ? 1 : 0;
  if (hold) return;
  for (const MessageId id : received_waiting_[s]) {
    if (observer_ != nullptr) observer_->on_delivery(id, pool_[id]);
    pool_.release(id);
    --in_network_;
    schedule(now_ + params_.board_wire_cycles, EventKind::ReceiveCredit, static_cast<std::int32_t>(s),
             kNoMessage);
  }
  received_waiting_[s].clear();
}

}  // namespace mppnet::machines::cm5
