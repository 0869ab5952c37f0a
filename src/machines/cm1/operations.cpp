// machines/cm1/operations.cpp: read with reply fan-out, and fetch-and-add by sort, send and scan.
#include "machines/cm1/operations.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"

namespace mppnet::machines::cm1 {

namespace {

// A router for one phase; replies may queue many messages at one processor, so the timeout grows with them.
RouterParams phase_params(RouterParams p, int vp_ratio, std::int64_t messages, bool combining) {
  p.combining = combining;
  const std::int64_t base = p.timeout_petit_cycles > 0 ? p.timeout_petit_cycles : 1000 + 800 * vp_ratio;
  p.timeout_petit_cycles = static_cast<int>(std::min<std::int64_t>(10000000, base + messages));
  return p;
}

}  // namespace

ReadResult run_read(const MachineParams& machine, const RouterParams& router, int vp_ratio,
                    std::span<const std::uint32_t> dst) {
  const auto vps = static_cast<std::uint32_t>(dst.size());
  const std::uint32_t procs = vps / static_cast<std::uint32_t>(vp_ratio);
  const auto ppc = static_cast<std::uint32_t>(machine.procs_per_chip);
  ReadResult r;
  Router req(machine, router, vp_ratio);
  r.request = req.route(dst);
  r.terminated = r.request.terminated;
  r.value.assign(vps, kNoValue);

  // Depth in the combining tree: 0 for a carrier that reached its target, k + 1 for one folded into a
  // message of depth k. folded_into points towards the carrier, so a walk up ends within the tree height.
  std::vector<int> depth(vps, -1);
  const auto folded = router.combining ? req.folded_into() : std::span<const std::uint32_t>{};
  for (std::uint32_t s = 0; s < vps; ++s) {
    if (dst[s] == kNoMessage || req.delivered_at()[s] == 0) continue;
    int d = 0;
    for (std::uint32_t u = s; !folded.empty() && folded[u] != kNoMessage; u = folded[u]) ++d;
    depth[s] = d;
    r.arrivals += d == 0;
    r.reply_rounds = std::max(r.reply_rounds, d + 1);
  }

  // Round k: the replies of depth k, each to its requester, from the target (k = 0) or from the processor
  // with the requester's local index on the chip where the request was folded.
  std::vector<std::uint32_t> reply_dst(vps), origin(vps);
  for (int k = 0; k < r.reply_rounds; ++k) {
    std::int64_t n = 0;
    for (std::uint32_t s = 0; s < vps; ++s) {
      reply_dst[s] = kNoMessage;
      origin[s] = 0;
      if (depth[s] != k) continue;
      reply_dst[s] = s;
      origin[s] = k == 0 ? dst[s] & (procs - 1)
                         : static_cast<std::uint32_t>(req.folded_at_chip()[s]) * ppc + (s & (ppc - 1));
      ++n;
    }
    Router rep(machine, phase_params(router, vp_ratio, n, false), vp_ratio);
    const RoutingStats st = rep.route(reply_dst, origin);
    r.reply_messages += st.messages;
    r.reply_petit_cycles += st.petit_cycles;
    r.round_petit_cycles.push_back(st.petit_cycles);
    r.terminated = r.terminated && st.terminated;
    for (std::uint32_t s = 0; s < vps; ++s) {
      if (reply_dst[s] == kNoMessage || rep.delivered_at()[s] == 0) continue;
      r.value[s] = memory_value(dst[s]);
      ++r.answered;
    }
  }
  return r;
}

std::int64_t scan_bit_times(int proc_bits, int vp_ratio, int data_bits) {
  // Up-sweep and down-sweep over the processor-address bits, each step a d-bit word over one wire and a
  // d-bit serial add; within a processor, 2 (v - 1) serial adds over its VPs.
  return std::int64_t{4} * proc_bits * data_bits + std::int64_t{2} * (vp_ratio - 1) * data_bits;
}

FetchAddResult run_fetch_and_add(const MachineParams& machine, const RouterParams& router, int vp_ratio,
                                 std::span<const std::uint32_t> dst) {
  const auto vps = static_cast<std::uint32_t>(dst.size());
  const int proc_bits = std::countr_zero(vps / static_cast<std::uint32_t>(vp_ratio));
  const RouterParams plain = phase_params(router, vp_ratio, 0, false);
  FetchAddResult r;
  std::vector<std::uint32_t> send(vps);
  const auto route = [&](std::int64_t& petit_cycles) {
    Router rt(machine, plain, vp_ratio);
    const RoutingStats st = rt.route(send);
    petit_cycles += st.petit_cycles;
    r.phase_petit_cycles.push_back(st.petit_cycles);
    r.terminated = r.terminated && st.terminated && st.delivered == st.messages;
    ++r.routing_instructions;
  };

  // Radix sort (least significant bit first) of every VP's element by key: its target, or vps for a VP
  // that does not request (sorted last). Each pass is a split: two scans number the 0s and the 1s, then
  // one routed permutation moves every element whose position changes.
  std::vector<std::uint32_t> at(vps), key(vps), next(vps);  // at[position] = original VP
  for (std::uint32_t s = 0; s < vps; ++s) {
    at[s] = s;
    key[s] = dst[s] == kNoMessage ? vps : dst[s];
    r.requests += dst[s] != kNoMessage;
  }
  const std::uint32_t max_key = r.requests == vps ? vps - 1 : vps;
  r.sort_passes = std::max(1, static_cast<int>(std::bit_width(max_key)));
  for (int b = 0; b < r.sort_passes; ++b) {
    std::uint32_t zeros = 0;
    for (std::uint32_t i = 0; i < vps; ++i) zeros += ((key[at[i]] >> b) & 1) == 0;
    std::uint32_t z = 0, o = zeros;
    for (std::uint32_t i = 0; i < vps; ++i) {
      const std::uint32_t to = ((key[at[i]] >> b) & 1) == 0 ? z++ : o++;
      next[to] = at[i];
      send[i] = to == i ? kNoMessage : to;
    }
    route(r.sort_petit_cycles);
    at.swap(next);
    r.scans += 2;
  }
  const auto n = static_cast<std::uint32_t>(r.requests);
  for (std::uint32_t i = 0; i + 1 < n; ++i)
    MPPNET_ASSERT(key[at[i]] <= key[at[i + 1]], "radix sort left requests out of order");

  // Segmented +-scan: prefix[i] = increments of the earlier requests to the same target.
  std::vector<std::uint64_t> prefix(n);
  for (std::uint32_t i = 0; i < n; ++i)
    prefix[i] = i > 0 && key[at[i - 1]] == key[at[i]] ? prefix[i - 1] + increment_of(at[i - 1]) : 0;
  ++r.scans;

  // Send: each segment's last request carries the segment's sum to the target; the target replies with
  // its old value, which a segmented copy-scan spreads over the segment.
  r.final_value.resize(vps);
  for (std::uint32_t t = 0; t < vps; ++t) r.final_value[t] = memory_value(t);
  std::fill(send.begin(), send.end(), kNoMessage);
  std::vector<std::uint32_t> reply(vps, kNoMessage);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (i + 1 < n && key[at[i + 1]] == key[at[i]]) continue;
    const std::uint32_t t = key[at[i]];
    r.final_value[t] += prefix[i] + increment_of(at[i]);
    ++r.targets;
    if (t != i) send[i] = t;
    if (t != i) reply[t] = i;
  }
  route(r.send_petit_cycles);
  send.swap(reply);
  route(r.reply_petit_cycles);
  ++r.scans;

  // Return: sorted position i holds old + prefix[i] for requester at[i].
  r.old_value.assign(vps, kNoValue);
  std::fill(send.begin(), send.end(), kNoMessage);
  for (std::uint32_t i = 0; i < n; ++i) {
    r.old_value[at[i]] = memory_value(key[at[i]]) + prefix[i];
    if (at[i] != i) send[i] = at[i];
  }
  route(r.return_petit_cycles);
  r.scan_bit_times = r.scans * scan_bit_times(proc_bits, vp_ratio, router.data_bits);
  return r;
}

}  // namespace mppnet::machines::cm1
