// am/machine.cpp: the event loop joining node programs, handlers and the network.
#include "am/machine.hpp"

#include <algorithm>
#include <exception>

#include <fmt/format.h>

namespace mppnet::am {

Machine::Machine(net::Endpoint& endpoint, core::Scheduler& scheduler, const AmParams& params,
                 std::int64_t watchdog_cycles)
    : endpoint_(endpoint),
      scheduler_(scheduler),
      params_(params),
      watchdog_cycles_(watchdog_cycles),
      vnets_(endpoint.vnets()) {
  // Requests and replies on their own networks need 2 (a third, if the network has one, carries one-way
  // messages); one shared network needs 1.
  const bool fits = params.separate_vnets ? (vnets_ == 2 || vnets_ == 3) : vnets_ == 1;
  if (!fits)
    throw std::invalid_argument(
        fmt::format("the network has {} virtual networks; am.separate_vnets = {} needs {}", vnets_,
                    params.separate_vnets, params.separate_vnets ? "2 or 3" : "1"));
  if (params.packet_payload_bytes > kMaxPacketPayload || params.packet_payload_bytes < 4 * kMaxArgs)
    throw std::invalid_argument("am.packet_payload_bytes is outside [16, 64]");
  // The processors' events; the machine has no clock edges of its own (programs advance by events).
  id_ = scheduler.add(scheduler.add_domain("processors", params.clock_ps), *this, false);
  endpoint.set_delivery_handler(this);
  const int n = endpoint.nodes();
  memory_ = core::ZeroedPages(static_cast<std::size_t>(n) * static_cast<std::size_t>(params.memory_bytes));
  nodes_.reserve(n);
  for (NodeId v = 0; v < n; ++v) {
    const std::span<std::byte> mem(memory_.bytes().data() + static_cast<std::size_t>(v) * params.memory_bytes,
                                   static_cast<std::size_t>(params.memory_bytes));
    nodes_.push_back(std::make_unique<Node>(*this, v, mem));
  }
  collectives_ = std::make_unique<TreeCollectives>();
  interrupting_vnets_ = params.interrupts ? (1u << vnets_) - 1 : 0;
  const std::size_t queues = static_cast<std::size_t>(n) * vnets_;
  rq_head_.assign(queues, kNoMessage);
  rq_tail_.assign(queues, kNoMessage);
  rq_count_.assign(queues, 0);
  pending_inject_.assign(queues, 0);
  held_.assign(queues, 0);
  dma_queue_.resize(static_cast<std::size_t>(n));
  for (auto& q : dma_queue_) q.reserve(8);  // a queue grows past 8 transfers only to its peak
  dma_head_.assign(static_cast<std::size_t>(n), 0);
  dma_active_.reserve(static_cast<std::size_t>(n));
  room_reported_ = endpoint.reports_space();
  (room_reported_ ? reported_ : watched_).reserve(n);
  (room_reported_ ? reported_now_ : watched_next_).reserve(n);
  messages_.reserve(queues *
                    static_cast<std::size_t>(params.send_queue_packets + params.receive_queue_packets + 2));
}

Machine::~Machine() {
  endpoint_.set_delivery_handler(nullptr);
  programs_.clear();  // their frames go back to frames_, which outlives them
}

Picoseconds Machine::send_cost_ps(const Message& m) const {
  const int words = m.nargs + (m.bytes + 3) / 4;
  return cycles_ps(params_.send_cycles + static_cast<std::int64_t>(params_.copy_cycles_per_word) * words);
}

// The endpoint's send queue must have room for this send beside those whose cost is still being paid
// (each holds a place from the moment its send begins).
bool Machine::send_room(NodeId v, int vnet) const {
  const std::size_t q = static_cast<std::size_t>(v) * vnets_ + vnet;
  return pending_inject_[q] < endpoint_.space_to_send(v, vnet);
}

void Machine::run(const Program& program) {
  MPPNET_ASSERT(programs_.empty(), "Machine::run is called once");
  programs_.reserve(nodes_.size());
  for (auto& n : nodes_) {
    programs_.push_back(program(*n));
    n->waiting_ = programs_.back().handle();
    n->state_ = Node::State::Timed;
    schedule(0, {n->id(), kNoMessage, EventKind::Resume});
  }
  // The watchdog: stuck means packets in the network or in send queues that no flit move or program
  // will release (a pending event is a program or handler that will still act, perhaps lifting a hold).
  const core::Scheduler::Watchdog watchdog{
      endpoint_.domain(), watchdog_cycles_, [this] { return endpoint_.activity().cycles_without_progress; },
      [this] {
        const net::EndpointActivity a = endpoint_.activity();
        return (a.flits_in_network > 0 || a.queued_packets > 0) && !scheduler_.has_events();
      }};
  const auto stop =
      scheduler_.run({core::Scheduler::kForever, [this] { return handler_error_ != nullptr; }, watchdog});
  if (handler_error_) std::rethrow_exception(handler_error_);
  if (stop == core::Scheduler::Stop::NoProgress) throw_deadlock();
  if (finished_ < nodes()) throw std::runtime_error(describe_stuck_programs());
}

void Machine::on_event(std::uint32_t kind, std::uint64_t data) {
  dispatch({static_cast<NodeId>(data >> 32), static_cast<MessageId>(data & 0xffffffffu),
            static_cast<EventKind>(kind)});
}

void Machine::on_delivery(net::PacketId, const net::Packet& p, Picoseconds time_ps) {
  arrive(static_cast<MessageId>(p.tag), time_ps);
}

void Machine::after_cycle(Picoseconds time_ps) {
  if (room_reported_) {
    check_reported(time_ps);
  } else {
    check_watched(time_ps);
  }
  if (!dma_active_.empty()) pump_dmas();
}

void Machine::on_space(NodeId v) {
  note_room(v);
}

void Machine::dispatch(const Event& e) {
  Node& n = *nodes_[e.node];
  switch (e.kind) {
    case EventKind::Resume:
    case EventKind::SendDone:
      if (n.stolen_ > 0) {  // handlers interrupted this wait: it ends later by their time
        const Picoseconds later = now() + n.stolen_;
        n.cpu_busy_ = std::max(n.cpu_busy_, later);
        n.stolen_ = 0;
        schedule(later, e);
        return;
      }
      if (e.kind == EventKind::SendDone) {
        inject(e.msg);
        if (n.stolen_ > 0) {  // a message to itself, handled at once, interrupted the send
          schedule(now(), {e.node, kNoMessage, EventKind::Resume});
          return;
        }
      }
      resume(n, now());
      return;
    case EventKind::Inject:
      inject(e.msg);
      return;
  }
}

void Machine::resume(Node& n, Picoseconds t) {
  n.time_ = t;
  n.state_ = Node::State::Running;
  const auto h = std::exchange(n.waiting_, {});
  h.resume();
  if (n.state_ != Node::State::Running) return;  // suspended in an operation
  // Nothing suspended it: the program has ended.
  Task<>& program = programs_[n.id()];
  MPPNET_ASSERT(program.done(), "a node program suspended outside the am operations");
  program.rethrow_if_failed();
  n.state_ = Node::State::Done;
  state_changed(n);
  n.finish_ = std::max(t, n.cpu_busy_);
  ++finished_;
  drain(n, n.finish_);  // an ended program still serves requests, as an idle loop polling would
}

void Machine::start_send(Node& n, MessageId msg, Picoseconds t) {
  const Message& m = messages_[msg];
  const int vnet = vnet_of(m);
  if (!send_room(n.id(), vnet)) {  // spin until the network takes a packet, handling what arrives
    n.blocked_send_ = msg;
    n.check_ = nullptr;
    n.state_ = Node::State::Blocked;
    state_changed(n);
    watch(n);
    drain(n, std::max(t, n.cpu_busy_));
    return;
  }
  const Picoseconds end = std::max(t, n.cpu_busy_) + send_cost_ps(m);
  n.cpu_busy_ = end;
  ++pending_inject_[static_cast<std::size_t>(n.id()) * vnets_ + vnet];
  n.state_ = Node::State::Timed;
  state_changed(n);
  schedule(end, {n.id(), msg, EventKind::SendDone});
}

void Machine::block(Node& n, std::coroutine_handle<> h, bool (*check)(void*), void* obj) {
  n.waiting_ = h;
  n.check_ = check;
  n.check_obj_ = obj;
  n.state_ = Node::State::Blocked;
  state_changed(n);
  drain(n, std::max(n.time_, n.cpu_busy_));  // also wakes it if the handlers made the condition true
}

void Machine::wake_if_ready(Node& n) {
  if (n.state_ != Node::State::Blocked) return;
  const Picoseconds t = std::max(now(), n.cpu_busy_);
  if (n.blocked_send_ != kNoMessage) {
    if (!send_room(n.id(), vnet_of(messages_[n.blocked_send_]))) return;
    start_send(n, std::exchange(n.blocked_send_, kNoMessage), t);
    return;
  }
  if (n.check_ == nullptr || !n.check_(n.check_obj_)) return;
  n.check_ = nullptr;
  n.state_ = Node::State::Timed;
  state_changed(n);
  schedule(t, {n.id(), kNoMessage, EventKind::Resume});
}

void Machine::watch(Node& n) {
  if (n.watched_) return;
  n.watched_ = true;
  if (!room_reported_) {
    watched_.push_back(n.id());
  } else if (!n.keeps_watch_order_) {
    n.watch_order_ = next_watch_order_++;
  }
}

void Machine::state_changed(Node& n) {
  // Polling drains every watched node after every cycle, and drops those whose new state no longer
  // waits: a report makes the next check look at this one too.
  if (n.watched_) note_room(n.id());
}

void Machine::note_room(NodeId v) {
  if (!room_reported_) return;
  Node& n = *nodes_[v];
  if (n.room_reported_) return;
  n.room_reported_ = true;
  reported_.push_back(v);
}

// The same re-checks as check_watched, in the same order, but only of the watched nodes that may have
// room: a node without new room would find none again and change nothing. Polling every watched node
// re-appends each in turn, so their order is always that in which their waits began: watch_order_.
void Machine::check_reported(Picoseconds t) {
  if (reported_.empty()) return;
  std::swap(reported_, reported_now_);
  reported_.clear();
  std::erase_if(reported_now_, [this](NodeId v) {
    Node& n = *nodes_[v];
    n.room_reported_ = false;
    return !n.watched_;
  });
  std::sort(reported_now_.begin(), reported_now_.end(),
            [this](NodeId a, NodeId b) { return nodes_[a]->watch_order_ < nodes_[b]->watch_order_; });
  for (const NodeId v : reported_now_) {
    Node& n = *nodes_[v];
    n.watched_ = false;
    n.keeps_watch_order_ = true;
    drain(n, t);
    if (n.state_ == Node::State::Blocked && n.blocked_send_ != kNoMessage) watch(n);
    n.keeps_watch_order_ = false;
  }
}

void Machine::check_watched(Picoseconds t) {
  if (watched_.empty()) return;
  std::swap(watched_, watched_next_);
  watched_.clear();
  for (const NodeId v : watched_next_) {
    Node& n = *nodes_[v];
    n.watched_ = false;
    drain(n, t);
    if (n.state_ == Node::State::Blocked && n.blocked_send_ != kNoMessage) watch(n);
  }
}

void Machine::inject(MessageId msg) {
  Message& m = messages_[msg];
  const int vnet = vnet_of(m);
  --pending_inject_[static_cast<std::size_t>(m.src) * vnets_ + vnet];
  Node& src = *nodes_[m.src];
  note_room(m.src);  // a packet smaller than the largest may leave room beside its place
  const int payload = m.nargs * 4 + m.bytes;
  const int flits = packet_flits(payload);
  NodeCounters& c = nodes_[m.src]->counters_;
  ++(m.is_reply ? c.replies_sent : c.requests_sent);
  ++c.packets_sent;
  c.flits_sent += flits;
  c.payload_bytes_sent += payload;
  const bool engine = m.dma && !m.is_reply;  // a DMA engine's packet: its place is free for the next
  if (m.dest == m.src) {  // a node's message to itself loops back in its interface, off the network
    arrive(msg, now());
  } else {
    const net::PacketId sent = endpoint_.try_send(m.src, m.dest, flits, msg, vnet);
    MPPNET_ASSERT(sent != net::kNoPacket, "a send whose place was held at its start was refused");
  }
  if (engine) pump_dma(src);
}

void Machine::arrive(MessageId msg, Picoseconds t) {
  const Message& m = messages_[msg];
  if (m.dma && (m.is_reply || send_room(m.dest, reply_vnet()))) {  // the interface handles it at once
    const NodeId dest = m.dest;
    run_dma_handler(msg, t);
    wake_if_ready(*nodes_[dest]);  // a put's last ack or a get's last data may end a sync()
    return;
  }
  const int vnet = vnet_of(m);
  const std::size_t q = static_cast<std::size_t>(m.dest) * vnets_ + vnet;
  if (rq_tail_[q] == kNoMessage) {
    rq_head_[q] = msg;
  } else {
    messages_[rq_tail_[q]].next = msg;
  }
  rq_tail_[q] = msg;
  messages_[msg].next = kNoMessage;
  ++rq_count_[q];
  Node& n = *nodes_[m.dest];
  drain(n, t);
  update_hold(n, vnet);
}

void Machine::drain(Node& n, Picoseconds t) {
  // In polling mode a node busy in compute() or a send does not look at its receive queues; a network
  // whose arrivals interrupt it is handled at once.
  const bool timed = n.state_ == Node::State::Timed;
  if (timed && interrupting_vnets_ == 0) return;
  bool stalled = false;
  // One-way messages and replies first: they never need room, and handling them frees what waiting
  // requests need.
  for (int vnet = vnets_ - 1; vnet >= 0; --vnet) {
    if (timed && !(interrupting_vnets_ >> vnet & 1)) continue;
    const std::size_t q = static_cast<std::size_t>(n.id()) * vnets_ + vnet;
    while (rq_head_[q] != kNoMessage) {
      const MessageId msg = rq_head_[q];
      const Message& m = messages_[msg];
      if (!m.is_reply && !m.one_way && !send_room(n.id(), reply_vnet())) {
        stalled = true;  // its handler may reply and the reply would not fit: it waits, in order
        break;
      }
      rq_head_[q] = messages_[msg].next;
      if (rq_head_[q] == kNoMessage) rq_tail_[q] = kNoMessage;
      --rq_count_[q];
      if (m.dma) {
        run_dma_handler(msg, t);
      } else {
        run_handler(n, msg, t);
      }
    }
    update_hold(n, vnet);
  }
  if (stalled) watch(n);
  wake_if_ready(n);
}

void Machine::run_handler(Node& n, MessageId msg, Picoseconds t) {
  // The handler works on a copy: a reply it sends may grow the pool and move the slot.
  const Message m = messages_[msg];
  messages_.release(msg);
  const bool interrupting = n.state_ == Node::State::Timed;  // interrupt mode only (see drain)
  const Picoseconds start =
      interrupting ? std::max(t, n.handler_busy_) : std::max({t, n.cpu_busy_, n.handler_busy_});
  Incoming in(n, m, start);
  call_handler(m, in);
  const int words = m.nargs + (m.bytes + 3) / 4;
  const bool interrupt = interrupting_vnets_ >> vnet_of(m) & 1;
  std::int64_t cycles = (interrupt ? params_.dispatch_cycles : params_.poll_cycles) + params_.receive_cycles +
                        static_cast<std::int64_t>(params_.copy_cycles_per_word) * words + in.extra_cycles();
  const MessageId reply = in.reply_message();
  Picoseconds end = start + cycles_ps(cycles);
  if (reply != kNoMessage) end += send_cost_ps(messages_[reply]);
  n.handler_busy_ = end;
  ++n.counters_.handlers_run;
  if (interrupting) {
    n.stolen_ += end - start;
  } else {
    n.cpu_busy_ = end;
  }
  if (reply != kNoMessage) inject_reply(n, reply, end);
}

void Machine::call_handler(const Message& m, Incoming& in) {
  // A handler may run inside a program's await_suspend (a blocked send or wait drains the receive
  // queues): its exception must not unwind through that coroutine. The first is kept for run().
  try {
    m.handler(in);
  } catch (...) {
    if (!handler_error_) handler_error_ = std::current_exception();
  }
}

void Machine::inject_reply(Node& n, MessageId reply, Picoseconds t) {
  ++pending_inject_[static_cast<std::size_t>(n.id()) * vnets_ + reply_vnet()];
  schedule(t, {n.id(), reply, EventKind::Inject});
}

void Machine::update_hold(Node& n, int vnet) {
  const std::size_t q = static_cast<std::size_t>(n.id()) * vnets_ + vnet;
  const std::uint8_t hold = rq_count_[q] >= params_.receive_queue_packets ? 1 : 0;
  if (hold == held_[q]) return;
  held_[q] = hold;
  endpoint_.hold_ejection(n.id(), vnet, hold != 0);
}

void Machine::throw_deadlock() const {
  const net::EndpointActivity a = endpoint_.activity();
  if (a.flits_in_network == 0)  // e.g. a packet larger than any VC buffer under cut-through
    throw DeadlockError(fmt::format(
        "deadlock: no flit moved for {} network cycles (at {} ps) with the network empty and {} packets "
        "waiting in source queues that no VC takes (under cut-through or store-and-forward switching, a "
        "packet longer than router.buffer_flits never enters), and no program able to act ({} of {} "
        "programs ended)",
        watchdog_cycles_, now(), a.queued_packets, finished_, nodes()));
  throw DeadlockError(fmt::format(
      "deadlock: no flit moved for {} network cycles (at {} ps) with {} flits in the network and no "
      "program able to act ({} of {} programs ended); blocked input VCs:\n{}",
      watchdog_cycles_, now(), a.flits_in_network, finished_, nodes(), endpoint_.describe_blocked()));
}

std::string Machine::describe_stuck_programs() const {
  std::string s = fmt::format(
      "node programs never ended ({} of {} ended): they wait for messages that "
      "no one will send:",
      finished_, nodes());
  int listed = 0;
  for (const auto& n : nodes_) {
    if (n->state_ == Node::State::Done) continue;
    if (++listed > 10) break;
    s += fmt::format("\n  node {}: {}", n->id(),
                     n->blocked_send_ != kNoMessage ? "waiting to send" : "waiting for a condition");
  }
  return s;
}

MachineTotals Machine::totals() const {
  MachineTotals t;
  for (const auto& n : nodes_) {
    const NodeCounters& c = n->counters();
    t.finish_ps = std::max(t.finish_ps, n->finish_);
    t.requests += c.requests_sent;
    t.replies += c.replies_sent;
    t.packets += c.packets_sent;
    t.flits += c.flits_sent;
    t.payload_bytes += c.payload_bytes_sent;
    t.handlers += c.handlers_run;
    t.collectives += c.collectives;
    t.collective_ps += c.collective_ps;
  }
  t.network_cycles = endpoint_.cycles_run();
  return t;
}

}  // namespace mppnet::am
