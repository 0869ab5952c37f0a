// am/machine.hpp: the runtime that runs one SPMD node program per node over a network endpoint.
//
// Time is integer picoseconds, kept by core::Scheduler. Node programs and handlers are sparse timed
// events of the scheduler, addressed to the machine; the network is a component of its own clock domain
// that ticks only while it has work (net::ClockedNetwork), so when it is quiet the clock jumps to the
// next wake-up. Events at time t come before the network's cycle at t, so a packet a program sends at
// time t enters the network in the first cycle that starts at or after t. The machine reaches the
// network only through the endpoint contract (net/endpoint.hpp).
//
// Requests travel on virtual network 0 and replies on 1 (one shared network when !separate_vnets).
// Each node has a bounded send queue per network (am.send_queue_packets) and a bounded receive queue
// (am.receive_queue_packets). A request is handled only when its reply would fit in the send queue;
// otherwise it waits, and once the receive queue is full the node holds ejection of that network so
// that the packets back up into the network. Reply handlers never send, so the reply network always
// drains: that is why request/reply on separate networks cannot deadlock, and on one network can.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "am/am_params.hpp"
#include "am/collectives.hpp"
#include "am/frame_pool.hpp"
#include "am/message.hpp"
#include "am/node.hpp"
#include "am/task.hpp"
#include "core/error.hpp"
#include "core/scheduler.hpp"
#include "core/zeroed_pages.hpp"
#include "net/endpoint.hpp"

namespace mppnet::am {

// No flit moved for the watchdog period, flits are in the network (or packets wait in the source queues)
// and nothing is scheduled to happen: nothing ever will. The message lists the blocked input VCs
// (net::Endpoint::describe_blocked), or the number of packets no VC takes when the network is empty.
using DeadlockError = core::DeadlockError;

using Program = std::function<Task<>(Node&)>;

struct MachineTotals {
  Picoseconds finish_ps = 0;  // when the last program ended
  std::int64_t requests = 0;
  std::int64_t replies = 0;
  std::int64_t packets = 0;
  std::int64_t flits = 0;
  std::int64_t payload_bytes = 0;
  std::int64_t handlers = 0;
  std::int64_t network_cycles = 0;  // cycles the network was stepped (idle stretches are skipped)
  std::int64_t collectives = 0;     // collective calls, summed over nodes
  Picoseconds collective_ps = 0;    // time in them, summed over nodes
};

class Machine final : public core::Component, public net::DeliveryHandler {
 public:
  // Adds itself to `scheduler` (its events; it has no clock of its own) and takes the endpoint's
  // deliveries. REQUIRES: endpoint.vnets() == (params.separate_vnets ? 2 : 1); the endpoint's send
  // queues hold params.send_queue_packets; both outlive the machine.
  Machine(net::Endpoint& endpoint, core::Scheduler& scheduler, const AmParams& params,
          std::int64_t watchdog_cycles = 5000);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Starts program(node) on every node at time 0 and runs until every program has ended and every
  // message has been handled. Throws DeadlockError (network stuck) or std::runtime_error (programs
  // waiting for messages that will never come), and rethrows what a program threw or the first thing
  // a handler threw (the run stops there; handlers never throw into a program's coroutine).
  void run(const Program& program);

  int nodes() const { return static_cast<int>(nodes_.size()); }
  Node& node(NodeId v) { return *nodes_[v]; }
  // Gives every node its element of `states` as its user state (Node::state<T>()).
  // REQUIRES: one element per node; `states` outlives the run and is not resized.
  template <class T>
  void attach(std::vector<T>& states) {
    MPPNET_ASSERT(states.size() == nodes_.size(), "one user state per node");
    for (std::size_t v = 0; v < nodes_.size(); ++v) nodes_[v]->user = &states[v];
  }
  const AmParams& params() const { return params_; }
  FramePool& frames() { return frames_; }
  // Replaces the software collectives (e.g. by a machine's collective hardware).
  void set_collectives(std::unique_ptr<Collectives> c) { collectives_ = std::move(c); }
  Collectives& collectives() { return *collectives_; }

  // Re-checks node v's wait_until condition now. Handlers' effects are checked automatically; a device
  // that changes what a program waits for outside any handler (collective hardware) calls this.
  void notify(NodeId v) { wake_if_ready(*nodes_[v]); }

  // Whether arrivals on virtual network `vnet` interrupt the processor (handlers run at once) or wait
  // until the program polls or waits; all follow am.interrupts until a machine's interface says
  // otherwise (the CM-5's tag mask).
  void set_interrupts(int vnet, bool on) {
    interrupting_vnets_ = on ? interrupting_vnets_ | (1u << vnet) : interrupting_vnets_ & ~(1u << vnet);
  }
  bool interrupts(int vnet) const { return interrupting_vnets_ >> vnet & 1; }

  MachineTotals totals() const;
  Picoseconds now() const { return scheduler_.now(); }
  int request_vnet() const { return 0; }
  int reply_vnet() const { return params_.separate_vnets ? 1 : 0; }
  // Flits of a packet carrying `payload` bytes of argument words and data; at least 1 (a message with
  // no words and no data on a machine built in code with header_bytes = 0 is still a packet).
  int packet_flits(int payload) const {
    return std::max(1, (params_.header_bytes + payload + params_.flit_bytes - 1) / params_.flit_bytes);
  }
  MessagePool& messages() { return messages_; }

 private:
  friend class Node;
  friend class Incoming;

  // Resume: the program's wait ends. SendDone: a program's send is paid: inject, then resume. Inject: a
  // handler's reply is paid.
  enum class EventKind : std::uint8_t { Resume, SendDone, Inject };
  struct Event {
    NodeId node;
    MessageId msg;
    EventKind kind;
  };

  // core::Component: the machine's timed events. net::DeliveryHandler: the network's deliveries.
  bool tick(Cycle) override { return false; }
  void on_event(std::uint32_t kind, std::uint64_t data) override;
  void on_delivery(net::PacketId id, const net::Packet& p, Picoseconds time_ps) override;
  void after_cycle(Picoseconds time_ps) override;
  void on_space(NodeId v) override;
  void schedule(Picoseconds t, const Event& e) {
    scheduler_.schedule(t, id_, static_cast<std::uint32_t>(e.kind),
                        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.node)) << 32) | e.msg);
  }

  Picoseconds cycles_ps(std::int64_t cycles) const { return cycles * params_.clock_ps; }
  Picoseconds send_cost_ps(const Message& m) const;
  bool send_room(NodeId v, int vnet) const;
  int vnet_of(const Message& m) const {
    if (m.is_reply) return reply_vnet();
    return m.one_way && vnets_ == 3 ? 2 : request_vnet();
  }

  // A transfer queued on a node's DMA engine (am.dma; Node::dma).
  struct DmaJob {
    Handler handler;  // run by the destination's interface
    NodeId peer;
    std::uint32_t local, remote, bytes;
    bool get;               // packets ask for data (get_request) rather than carry it
    std::uint32_t off = 0;  // bytes already sent (get: asked for)
  };

  // Program side.
  void start_send(Node& n, MessageId msg, Picoseconds t);
  // DMA (dma.cpp): the program has paid the start-up; the engine queues the transfer behind those it
  // has, sends what room allows now and the rest as room appears, and wakes the program when it has
  // sent them all.
  void start_dma(Node& n, const DmaJob& job);
  void pump_dma(Node& n);
  void pump_dmas();
  void run_dma_handler(MessageId msg, Picoseconds t);  // at the destination's interface: no processor
  // Runs a message's handler, keeping the first exception for run(); schedules a handler's reply.
  void call_handler(const Message& m, Incoming& in);
  void inject_reply(Node& n, MessageId reply, Picoseconds t);
  void block(Node& n, std::coroutine_handle<> h, bool (*check)(void*), void* obj);
  void resume(Node& n, Picoseconds t);
  void wake_if_ready(Node& n);
  void watch(Node& n);

  // Network side.
  void dispatch(const Event& e);
  void inject(MessageId msg);
  void arrive(MessageId msg, Picoseconds t);
  void drain(Node& n, Picoseconds t);  // handles what it can of n's receive queues
  void run_handler(Node& n, MessageId msg, Picoseconds t);
  void update_hold(Node& n, int vnet);
  void check_watched(Picoseconds t);
  void check_reported(Picoseconds t);
  void note_room(NodeId v);
  void state_changed(Node& n);
  [[noreturn]] void throw_deadlock() const;  // the watchdog fired: says what is stuck
  std::string describe_stuck_programs() const;

  FramePool frames_;  // first member: frames are returned before it goes
  net::Endpoint& endpoint_;
  core::Scheduler& scheduler_;
  AmParams params_;
  std::int64_t watchdog_cycles_;
  int vnets_;
  unsigned interrupting_vnets_ = 0;  // bit v: arrivals on virtual network v interrupt
  core::ComponentId id_ = -1;

  core::ZeroedPages memory_;  // every node's am.memory_bytes; host pages only where written
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<Task<>> programs_;
  std::unique_ptr<Collectives> collectives_;
  MessagePool messages_;
  // Per node and network (v * vnets_ + vnet): receive queue, packets waiting to be injected, ejection held.
  std::vector<MessageId> rq_head_, rq_tail_;
  std::vector<std::int32_t> rq_count_, pending_inject_;
  std::vector<std::uint8_t> held_;
  // Senders waiting for room. An endpoint that reports room (net::Endpoint::reports_space) names the
  // nodes to re-check after a cycle; with any other, every watched node is looked at after every cycle.
  bool room_reported_ = false;
  std::vector<NodeId> watched_, watched_next_;   // unreported: the watched nodes, in the order they began
  std::vector<NodeId> reported_, reported_now_;  // reported: nodes with room reported in this cycle
  std::uint64_t next_watch_order_ = 0;
  std::vector<std::vector<DmaJob>> dma_queue_;  // per node: its engine's transfers, in order
  std::vector<std::size_t> dma_head_;           // per node: the first not yet sent whole
  std::vector<NodeId> dma_active_;  // nodes whose engine has packets to send, in the order they began
  int finished_ = 0;
  std::exception_ptr handler_error_;  // the first exception a handler threw, rethrown by run()
};

}  // namespace mppnet::am
