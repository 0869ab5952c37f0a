// machines/metro/mrp/mrp_network.cpp: the MRP-ROUTER state machine and the links between routers.
#include "machines/metro/mrp/mrp_network.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

namespace mppnet::machines::metro::mrp {

MrpNetwork::MrpNetwork(const Multibutterfly& net, const MrpParams& p, std::uint64_t seed) {
  const auto& np = net.params;
  format_ = {p.width, field_bits_for(np.radix, np.dilation)};
  ones_ = format_.all_ones();
  width_ = format_.width;
  stages_ = net.stages();
  nodes_ = net.nodes;
  node_inputs_ = np.node_inputs;
  node_outputs_ = np.node_outputs;
  const int R = net.routers();
  fp_first_.assign(R + 1, 0);
  bp_first_.assign(R + 1, 0);
  for (RouterId u = 0; u < R; ++u) {
    const int s = net.stage_of(u);
    fp_first_[u + 1] = fp_first_[u] + net.inputs_per_router[s];
    bp_first_[u + 1] = bp_first_[u] + net.outputs_per_router[s];
    radix_.push_back(static_cast<std::uint8_t>(net.directions[s]));
    dilation_.push_back(static_cast<std::uint8_t>(net.copies[s]));
    stage_.push_back(static_cast<std::uint8_t>(s + 1));
    rng_.emplace_back(seed, static_cast<std::uint64_t>(u), core::Stream::RouteChoice);
  }
  const int fps = fp_first_[R], bps = bp_first_[R];
  port_.assign(fps, Port{});
  fp_router_.assign(fps, 0);
  owner_.assign(bps, -1);
  freed_at_.assign(bps, -1);
  bp_enabled_.assign(bps, 1);
  bp_link_.assign(bps, -1);
  pipeline_ = p.dps - 1;
  pipe_down_.assign(static_cast<std::size_t>(fps) * pipeline_, format_.idle());
  pipe_down_bp_.assign(static_cast<std::size_t>(fps) * pipeline_, -1);
  pipe_up_.assign(static_cast<std::size_t>(fps) * pipeline_, format_.idle());

  // Links as metro_ids.hpp numbers them: node inputs first (x*ni + q), then every router output in order.
  const int node_links = nodes_ * node_inputs_;
  const int L = node_links + bps;
  link_rotation_.assign(L, 0);
  wire_.assign(L, Wire{});
  source_link_.resize(node_links);
  sink_link_.assign(static_cast<std::size_t>(nodes_) * node_outputs_, -1);
  for (int l = 0; l < node_links; ++l) source_link_[l] = l;
  for (int b = 0; b < bps; ++b) bp_link_[b] = node_links + b;

  // Each router input slot is fed by a node port or a router output; pair them off in order, so that
  // parallel wires (if any) each get their own link.
  std::vector<std::uint8_t> input_used(node_links, 0), output_used(bps, 0);
  for (RouterId v = 0; v < R; ++v) {
    for (int k = 0; k < fp_first_[v + 1] - fp_first_[v]; ++k) {
      const int g = fp_first_[v] + k;
      fp_router_[g] = v;
      const WireEnd from = net.in[net.in_first[v] + k];
      LinkId l = -1;
      if (is_node_source(from)) {
        const NodeId x = source_node(from);
        for (int q = 0; q < node_inputs_ && l < 0; ++q)
          if (net.node_in[x * node_inputs_ + q] == v && !input_used[x * node_inputs_ + q])
            l = x * node_inputs_ + q;
        input_used[l] = 1;
      } else {
        for (int port = 0; port < bp_first_[from + 1] - bp_first_[from] && l < 0; ++port)
          if (net.out[net.out_first[from] + port] == v && !output_used[bp_first_[from] + port])
            l = bp_link_[bp_first_[from] + port];
        output_used[l - node_links] = 1;
        link_rotation_[l] = static_cast<std::uint8_t>(format_.field_bits);
      }
      port_[g].in = l;
      wire_[l].reader = g;
    }
  }
  // Final-stage outputs feed nodes: node y's outputs in the order the routers list them.
  std::vector<int> outputs_seen(nodes_, 0);
  for (RouterId u = net.stage_first[stages_ - 1]; u < R; ++u)
    for (int port = 0; port < bp_first_[u + 1] - bp_first_[u]; ++port) {
      const NodeId y = net.out[net.out_first[u] + port];
      const LinkId l = bp_link_[bp_first_[u] + port];
      sink_link_[y * node_outputs_ + outputs_seen[y]++] = l;
      link_rotation_[l] =
          static_cast<std::uint8_t>((p.width - (stages_ - 1) * format_.field_bits % p.width) % p.width);
    }

  for (LinkId l = 0; l < L; ++l) {
    wire_[l].rotate_down = static_cast<std::uint8_t>(link_rotation_[l] % width_);
    wire_[l].rotate_up = static_cast<std::uint8_t>((width_ - link_rotation_[l] % width_) % width_);
  }
  down_now_.assign(L, format_.idle());
  up_now_ = down_next_ = up_next_ = down_now_;
  backdrop_now_.assign(L, 0);
  backdrop_next_.assign(L, 0);
  flip_down_.assign(L, 0);
  flip_skip_.assign(L, 0);
  flip_count_.assign(L, 0);
  visit_now_.assign((static_cast<std::size_t>(fps) + 63) / 64, 0);
  visit_next_ = visit_now_;
  pipe_until_.assign(pipeline_ > 0 ? fps : 0, -1);
}

int MrpNetwork::connection(RouterId u, int forward_port) const {
  const int b = port_[fp_first_[u] + forward_port].bp;
  return b < 0 ? -1 : b - bp_first_[u];
}

void MrpNetwork::step() {
  // The visited ports in ascending order, one router's at a time: forward ports are numbered router by
  // router, so a router's ports are consecutive bits.
  int ports[kMaxRouterPorts];
  int count = 0;
  RouterId u = -1;
  for (std::size_t k = 0; k < visit_now_.size(); ++k)
    for (std::uint64_t bits = visit_now_[k]; bits != 0; bits &= bits - 1) {
      const int g = static_cast<int>(k * 64) + std::countr_zero(bits);
      if (fp_router_[g] != u) {
        if (count > 0) evaluate(u, ports, count);
        u = fp_router_[g];
        count = 0;
      }
      ports[count++] = g;
    }
  if (count > 0) evaluate(u, ports, count);
  if (trace_)
    for (LinkId l = 0; l < links(); ++l)
      if (down_next_[l].tag != Tag::Idle || up_next_[l].tag != Tag::Idle || backdrop_next_[l])
        trace_->push_back({cycle_, l, down_next_[l], up_next_[l], backdrop_next_[l] != 0});
  // The lanes just read become the next cycle's, all idle. Under load most links carry a word every
  // cycle, so clearing them whole (the idle word is all zero bytes) is cheaper than listing the written.
  static_assert(std::is_trivially_copyable_v<Word> && Tag::Idle == Tag{0});
  std::memset(static_cast<void*>(down_now_.data()), 0, down_now_.size() * sizeof(Word));
  std::memset(static_cast<void*>(up_now_.data()), 0, up_now_.size() * sizeof(Word));
  std::memset(backdrop_now_.data(), 0, backdrop_now_.size());
  std::swap(down_now_, down_next_);
  std::swap(up_now_, up_next_);
  std::swap(backdrop_now_, backdrop_next_);
  std::swap(visit_now_, visit_next_);
  std::fill(visit_next_.begin(), visit_next_.end(), 0);
  ++cycle_;
}

// Router u's cycle, over the ports that can act (step()); a port left out would read an idle link in the
// idle state with its control bit low and nothing in its pipelines, which changes nothing.
void MrpNetwork::evaluate(RouterId u, const int* ports, int count) {
  int requests[kMaxRouterPorts];
  int request_count = 0;
  if (pipeline_ > 0)
    for (int k = 0; k < count; ++k) drain_pipelines(ports[k]);
  for (int k = 0; k < count; ++k) {
    const int g = ports[k];
    forward_port(u, g, down_now_[port_[g].in], requests, request_count);
    // Only allocate() changes the port after this, and only a port that asked, whose control bit is up.
    const Port& p = port_[g];
    if (p.state != PortState::Idle || p.previous_control || (pipeline_ > 0 && pipe_until_[g] > cycle_))
      wake(g);
  }
  if (request_count > 0) allocate(u, requests, request_count);
}

Word MrpNetwork::status_of(int g, bool blocked) const {
  const RouterId u = fp_router_[g];
  const int port = blocked ? 0 : (port_[g].bp - bp_first_[u]) % dilation_[u];
  return format_.status(port, blocked, stage_[u]);
}

// No backward port for the connection: with fast reclamation the port drains and asserts back-drop at
// once (§4.9.2); otherwise it keeps the path until TURN or DROP.
void MrpNetwork::block(int g) {
  if (!port_[g].fast_reclaim) {
    port_[g].state = PortState::Blocked;
    return;
  }
  port_[g].state = PortState::Drain;
  backdrop_next_[port_[g].in] = 1;
}

// Back-drop reached the connection's backward port: free it (it sends DROP on, so the next router's
// drained port goes idle) and pass the collapse upstream, or keep the path as a blocked one.
void MrpNetwork::collapse(int g) {
  const int b = port_[g].bp;
  for (int k = 0; k < pipeline_; ++k) pipe_down_bp_[static_cast<std::size_t>(g) * pipeline_ + k] = -1;
  put_down(bp_link_[b], format_.drop());
  free_backward(b);
  port_[g].bp = -1;
  block(g);
}

void MrpNetwork::free_backward(int b) {
  owner_[b] = -1;
  freed_at_[b] = cycle_;
}

// A forwarded word enters the router's data pipeline and leaves it P = dps - 1 cycles later; with P = 0
// it goes straight onto the link. The backward port travels with a downstream word, so a DROP frees the
// port when it leaves the pipeline, and the forward port can take a new connection meanwhile.
[[gnu::always_inline]] inline void MrpNetwork::emit_down(int g, int b, Word w, bool is_drop) {
  if (pipeline_ == 0) {
    put_down(bp_link_[b], w);
    if (is_drop) free_backward(b);
    return;
  }
  const std::size_t slot = static_cast<std::size_t>(g) * pipeline_ + cycle_ % pipeline_;
  pipe_down_[slot] = w;
  pipe_down_bp_[slot] = b;
  pipe_until_[g] = cycle_ + pipeline_;
}

[[gnu::always_inline]] inline void MrpNetwork::emit_up(int g, Word w) {
  if (pipeline_ == 0) {
    put_up(port_[g].in, w);
    return;
  }
  pipe_up_[static_cast<std::size_t>(g) * pipeline_ + cycle_ % pipeline_] = w;
  pipe_until_[g] = cycle_ + pipeline_;
}

// What left forward port g's pipelines this cycle goes onto the links; the slots are then free for this
// cycle's words.
void MrpNetwork::drain_pipelines(int g) {
  const std::size_t slot = static_cast<std::size_t>(g) * pipeline_ + cycle_ % pipeline_;
  if (const int b = pipe_down_bp_[slot]; b >= 0) {
    put_down(bp_link_[b], pipe_down_[slot]);
    if (kind(pipe_down_[slot]) == Kind::Z) free_backward(b);
    pipe_down_bp_[slot] = -1;
  }
  if (pipe_up_[slot].tag != Tag::Idle) {
    put_up(port_[g].in, pipe_up_[slot]);
    pipe_up_[slot] = format_.idle();
  }
}

// The forward port's input while its connection carries data downstream (note 004b §2.3, FWD).
[[gnu::always_inline]] inline void MrpNetwork::forward_word(int g, Word in) {
  const int b = port_[g].bp;
  switch (kind(in)) {
    case Kind::D:
      port_[g].checksum ^= in.data;
      emit_down(g, b, in);
      return;
    case Kind::H:
    case Kind::X:  // an illegal code inside a connection travels on as DATA-IDLE (note 004b §6 item 4)
      emit_down(g, b, format_.data_idle());
      return;
    case Kind::Z:  // DROP: pass it on; the port is freed as it leaves (L1427)
      emit_down(g, b, format_.drop(), true);
      port_[g].bp = -1;
      port_[g].state = PortState::Idle;
      return;
    case Kind::T:  // forward TURN: pass it on; STATUS now, CHECKSUM next, then fill (L1429-1431)
      emit_down(g, b, format_.turn());
      put_up(port_[g].in, status_of(g, false));
      port_[g].state = PortState::TurnForward;
      port_[g].fill = 1;
      return;
  }
}

// The backward port's input while the connection carries data upstream (note 004b §2.3, BWD).
[[gnu::always_inline]] inline void MrpNetwork::backward_word(int g, Word back) {
  const int b = port_[g].bp;
  switch (kind(back)) {
    case Kind::D:
      emit_up(g, back);
      return;
    case Kind::H:
    case Kind::X:
      emit_up(g, format_.data_idle());
      return;
    case Kind::Z:  // a DROP from the reverse direction proceeds identically (L1570)
      emit_up(g, format_.drop());
      free_backward(b);
      port_[g].bp = -1;
      port_[g].state = PortState::Idle;
      return;
    case Kind::T:  // reverse TURN: DATA-IDLE, never status, fills the bubble (L1433, Fig 4.10)
      emit_up(g, format_.turn());
      put_down(port_[g].out, format_.data_idle());
      port_[g].state = PortState::TurnBackward;
      port_[g].fill = 1;
      return;
  }
}

// One forward port's transition for the word `in` it reads this cycle (note 004b §2.3). A new ROUTE is
// only noted here: allocation sees every request of the cycle at once (allocate()).
//
// A turn fills F = 2 * dps cycles (2(W + P) with W = 1, note 004b §2.10; "+2 cycles per extra pipeline
// stage", L1673): STATUS, CHECKSUM, then DATA-IDLE after a forward turn, DATA-IDLE after a reverse one.
// The port starts reading the new direction P cycles before the fill ends, so the first word through the
// pipeline follows the last fill word with no gap (a gap would read as a DROP downstream).
[[gnu::always_inline]] inline void MrpNetwork::forward_port(RouterId u, int g, Word in, int* requests,
                                                            int& request_count) {
  const bool edge = in.control && !port_[g].previous_control;
  port_[g].previous_control = in.control;
  const LinkId up = port_[g].in;
  const int fill = 2 * (pipeline_ + 1);
  switch (port_[g].state) {
    case PortState::Idle:
      // A 0 -> 1 edge of the control bit opens a connection (L1415); a deselected port ignores it (L1621).
      if (edge && port_[g].enabled) {
        port_[g].checksum = in.data;  // the checksum covers the ROUTE word itself (L1437)
        requests[request_count++] = g;
      }
      return;
    case PortState::Forward:
      if (backdrop_now_[port_[g].out]) {
        collapse(g);
        return;
      }
      forward_word(g, in);
      return;
    case PortState::Drain:
      if (kind(in) == Kind::Z) port_[g].state = PortState::Idle;
      return;
    case PortState::Blocked: {
      // The rest of the stream is discarded (L1443); its data still enters the checksum (note §2.3).
      const Kind k = kind(in);
      if (k == Kind::D) port_[g].checksum ^= in.data;
      if (k == Kind::Z) port_[g].state = PortState::Idle;  // the DROP ends here (Fig 4.7, L1570)
      if (k == Kind::T) {
        put_up(up, status_of(g, true));
        port_[g].state = PortState::BlockedTurnChecksum;
      }
      return;
    }
    case PortState::BlockedTurnChecksum:
      put_up(up, format_.checksum(port_[g].checksum, stage_[u]));
      port_[g].state = PortState::BlockedTurnDrop;
      return;
    case PortState::BlockedTurnDrop:  // a blocked router sends DROP after its CHECKSUM (L1431, Fig 4.9)
      put_up(up, format_.drop());
      port_[g].state = PortState::Idle;
      return;
    case PortState::TurnForward: {
      const int k = port_[g].fill++;
      put_up(up, k == 1 ? format_.checksum(port_[g].checksum, stage_[u]) : format_.data_idle());
      if (k + 1 == fill) port_[g].state = PortState::Backward;
      if (k >= fill - pipeline_) backward_word(g, up_now_[port_[g].out]);
      return;
    }
    case PortState::Backward:
      // Reverse data: what the backward port receives goes up; the forward port's input is not read.
      backward_word(g, up_now_[port_[g].out]);
      return;
    case PortState::TurnBackward: {
      const int k = port_[g].fill++;
      put_down(port_[g].out, format_.data_idle());
      if (k + 1 == fill) port_[g].state = PortState::Forward;
      if (k >= fill - pipeline_) forward_word(g, in);
      return;
    }
  }
}

// Per direction, a uniformly random matching of this cycle's requests to the free, enabled backward
// ports of that direction (§4.5.4, L1441-1445; note 004b §2.4): the winners are a random subset when
// there are more requests than ports, and each takes a random port among those left. The router draws
// only when there is a choice, from its own stream, so a run depends on nothing but its seed.
void MrpNetwork::allocate(RouterId u, const int* requests, int request_count) {
  const int r = radix_[u], d = dilation_[u];
  core::RandomStream& rng = rng_[u];
  // Each request's direction, read once; `asked` has bit dir set when some request names it.
  std::uint32_t dirs[kMaxRouterPorts];
  std::uint32_t asked = 0;
  for (int k = 0; k < request_count; ++k) {
    dirs[k] = format_.field(down_now_[port_[requests[k]].in]);
    // A direction the router does not have cannot be routed: the connection is blocked.
    if (dirs[k] >= static_cast<std::uint32_t>(r))
      block(requests[k]);
    else
      asked |= std::uint32_t{1} << dirs[k];
  }
  for (; asked != 0; asked &= asked - 1) {
    const int dir = std::countr_zero(asked);
    int asking[kMaxRouterPorts], free_ports[kMaxRouterPorts];
    int na = 0, nf = 0;
    for (int k = 0; k < request_count; ++k)
      if (dirs[k] == static_cast<std::uint32_t>(dir)) asking[na++] = requests[k];
    for (int b = bp_first_[u] + dir * d; b < bp_first_[u] + (dir + 1) * d; ++b)
      // A port freed this cycle has just put its DROP on the wire; it is free from the next cycle, so the
      // next router sees the 0 -> 1 edge of a new ROUTE (note 004b §6 item 9).
      if (owner_[b] < 0 && bp_enabled_[b] && freed_at_[b] != cycle_) free_ports[nf++] = b;
    const int winners = std::min(na, nf);
    if (na > nf)
      for (int k = 0; k < winners; ++k) std::swap(asking[k], asking[k + static_cast<int>(rng.below(na - k))]);
    for (int k = 0; k < winners; ++k) {
      if (nf - k > 1) std::swap(free_ports[k], free_ports[k + static_cast<int>(rng.below(nf - k))]);
      const int g = asking[k], b = free_ports[k];
      owner_[b] = g;
      port_[g].bp = b;
      port_[g].out = bp_link_[b];
      port_[g].state = PortState::Forward;
      emit_down(g, b, down_now_[port_[g].in]);  // the ROUTE word goes on (L1417)
    }
    for (int k = winners; k < na; ++k) block(asking[k]);
  }
}

}  // namespace mppnet::machines::metro::mrp
