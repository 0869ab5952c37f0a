// net/switch_allocator.cpp: the general router's switch allocator, separable, round-robin, optionally
// iterated as iSLIP (router.allocator_iterations; McKeown 1999): inputs and outputs left unmatched try
// again among themselves, and only first-pass grants move the round-robin pointers.
#include <algorithm>
#include <bit>

#include "net/arbiter.hpp"
#include "net/network.hpp"

namespace mppnet::net {

using arbiter::offer;
using arbiter::rr_distance;

bool Network::can_advance(RouterId r, int i) const {
  const std::int32_t base = graph_.port_base[r];
  const std::int32_t g = base * vcs_ + i;
  if (ivc_[g].count == 0 || switched_[i]) return false;
  const InputVc& s = ivc_[g];
  if (s.out_vc < 0) return false;
  if (s.out_port == kMulticastPort) {
    // Lockstep: every branch must take the flit (net/multicast.cpp).
    const topo::RouteSet& rs = ivc_route_[g];
    const std::size_t b0 = static_cast<std::size_t>(g) * topo::kMaxRouteCandidates;
    for (int c = 0; c < rs.count; ++c) {
      const int o = rs.ports[c];
      if (ovc_[(base + o) * vcs_ + branch_vc_[b0 + c]].credits == 0) return false;
      if (outq_cap_ > 0 && outq_count_[base + o] >= outq_cap_) return false;
    }
  } else {
    if (ovc_[(base + s.out_port) * vcs_ + s.out_vc].credits == 0) return false;
    if (outq_cap_ > 0 && outq_count_[base + s.out_port] >= outq_cap_) return false;
  }
  if (params_.switching == Switching::StoreAndForward) {
    const Flit& f = buffer_[static_cast<std::size_t>(g) * depth_ + ivc_[g].head];
    if (f.head && ivc_[g].count < packets_[f.packet].flits) return false;
  }
  return true;
}

int Network::allocate_switch(RouterId r, const std::int32_t* ready, int count) {
  const std::int32_t base = graph_.port_base[r];
  const int ports = graph_.num_ports(r);
  const int n = ports * vcs_;
  // Per port: the chosen local input VC (-1 none) and its priority; only ports in the touched lists are
  // ever set, and they are reset before returning, so the cost follows the VCs that are ready.
  std::int32_t* out_pick = out_pick_.data();
  std::int32_t* out_dist = out_dist_.data();
  std::int32_t* port_pick = port_pick_.data();
  std::int32_t* port_dist = port_dist_.data();
  std::int32_t outs[kMaxRouterPorts], ins[kMaxRouterPorts];
  int out_count = 0, in_count = 0;
  const bool input_first = params_.allocator == AllocatorKind::InputFirst;
  const int iterations = params_.allocator_iterations;

  // One ready VC (the common case at light load) wins both stages if it can advance at all.
  if (count == 1) {
    if (can_advance(r, ready[0])) {
      for_each_output(base * vcs_ + ready[0], [&](int o) {
        outs[out_count++] = o;
        out_pick[o] = ready[0];
      });
    }
    return switch_granted(r, outs, out_count, out_count);
  }
  // Whether input VC i holds every output it asked for, and whether none of them is matched yet (a
  // unicast has one output; a multicast needs all of its branches).
  auto matched = [&](int i) {
    bool all = true;
    for_each_output(base * vcs_ + i, [&](int o) { all &= out_pick[o] == i; });
    return all;
  };
  auto outputs_free = [&](int i) {
    bool free = true;
    for_each_output(base * vcs_ + i, [&](int o) { free &= out_pick[o] < 0; });
    return free;
  };
  // Multicasts first (net/multicast.cpp): each that can advance takes its input port and all of its
  // outputs, if free, at a priority no unicast request displaces.
  if (multicast_) take_for_multicasts(r, ready, count, outs, out_count, ins, in_count);
  // With several iterations, the VCs that can advance are kept for the later ones.
  std::int32_t* eligible = sa_eligible_.data();
  int eligible_count = 0;
  // First stage: inputs pick a VC each (input-first) or outputs pick an input VC each (output-first).
  for (int k = 0; k < count; ++k) {
    const int i = ready[k];
    if (!can_advance(r, i)) continue;
    if (iterations > 1) eligible[eligible_count++] = i;
    if (input_first) {
      const int p = local_port_[i];
      offer(port_pick, port_dist, ins, in_count, p, i,
            rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
    } else {
      for_each_output(base * vcs_ + i, [&](int o) {
        offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(i, port_rr_[base + o].sa_out, n));
      });
    }
  }
  // Second stage: outputs choose among the inputs that asked (input-first), or inputs accept one of the
  // outputs that granted them (output-first). One iteration's entries start at outs[from_out], ins[from_in].
  auto second_stage = [&](int from_out, int from_in) {
    if (input_first) {
      for (int k = from_in; k < in_count; ++k) {
        const int p = ins[k];
        const int i = port_pick[p];
        for_each_output(base * vcs_ + i, [&](int o) {
          offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(p, port_rr_[base + o].sa_out, ports));
        });
      }
    } else {
      for (int k = from_out; k < out_count; ++k) {
        const int i = out_pick[outs[k]];
        const int p = local_port_[i];
        offer(port_pick, port_dist, ins, in_count, p, i,
              rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
      }
      for (int k = from_out; k < out_count; ++k)
        if (port_pick[local_port_[out_pick[outs[k]]]] != out_pick[outs[k]]) out_pick[outs[k]] = -1;
    }
  };
  second_stage(0, 0);
  if (iterations == 1) {
    for (int k = 0; k < in_count; ++k) port_pick[ins[k]] = -1;
    return switch_granted(r, outs, out_count, out_count);
  }

  // Later iterations (iSLIP, McKeown 1999): the inputs and outputs left unmatched try again among
  // themselves, with the same priorities. After settle(), outs lists only matched outputs and ins only
  // matched inputs (the others are reset to -1), so a pick >= 0 means "matched" and the next iteration
  // offers only to unmatched ones.
  auto settle = [&](int from_out, int from_in) {
    int kept = from_out;
    for (int k = from_out; k < out_count; ++k)
      if (out_pick[outs[k]] >= 0) outs[kept++] = outs[k];
    out_count = kept;
    kept = from_in;
    for (int k = from_in; k < in_count; ++k) {
      const int p = ins[k];
      const int i = port_pick[p];
      if (matched(i)) {
        ins[kept++] = p;
      } else {
        port_pick[p] = -1;
      }
    }
    in_count = kept;
  };
  settle(0, 0);
  // As in iSLIP, only grants of the first iteration move the round-robin pointers: later matches fill
  // gaps without disturbing the fairness of the first.
  const int rr_count = out_count;
  for (int it = 1; it < iterations; ++it) {
    // An input VC stays eligible while both its input port and its output port are unmatched.
    int kept = 0;
    for (int e = 0; e < eligible_count; ++e) {
      const int i = eligible[e];
      if (port_pick[local_port_[i]] < 0 && outputs_free(i)) eligible[kept++] = i;
    }
    eligible_count = kept;
    if (eligible_count == 0) break;
    const int from_out = out_count, from_in = in_count;
    for (int e = 0; e < eligible_count; ++e) {
      const int i = eligible[e];
      if (input_first) {
        const int p = local_port_[i];
        offer(port_pick, port_dist, ins, in_count, p, i,
              rr_distance(local_vc_[i], port_rr_[base + p].sa_in, vcs_));
      } else {
        for_each_output(base * vcs_ + i, [&](int o) {
          offer(out_pick, out_dist, outs, out_count, o, i, rr_distance(i, port_rr_[base + o].sa_out, n));
        });
      }
    }
    second_stage(from_out, from_in);
    settle(from_out, from_in);
    if (out_count == from_out) break;  // nothing new matched: nothing will
  }
  for (int k = 0; k < in_count; ++k) port_pick[ins[k]] = -1;
  return switch_granted(r, outs, out_count, rr_count);
}

}  // namespace mppnet::net
